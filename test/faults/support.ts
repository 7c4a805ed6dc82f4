/**
 * Infrastructure of the fault tests: a private PostgreSQL and Redis started from Debian's binaries
 * (./servers.ts: never the machine's shared ones), the service as a real child process, and a
 * small HTTP client.
 * Everything here is bounded: every wait has a deadline and every loop stops by itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export { startPrivatePostgres, startPrivateRedis } from './servers.js';
export type { PrivatePostgres, PrivateRedis } from './servers.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const ADMIN_TOKEN = 'faults-admin-token-0123456789';
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * How the service is started: the `npm start` command (`tsx src/main.ts`) as ONE node process, so
 * that `kill -9` hits the server itself and not a wrapper that would orphan it.
 */
export const SERVICE_COMMAND: readonly string[] = ['--import', 'tsx', 'src/main.ts'];

/** The separate worker process of the scale-out test: the worker-only entry (`npm run worker`). */
export const WORKER_PROCESS: { args: readonly string[]; env: Record<string, string>; servesHttp: boolean } = {
  args: ['--import', 'tsx', 'src/worker.ts'],
  env: { WORKER_ENABLED: 'true' },
  servesHttp: false,
};

// ---------------------------------------------------------------------------------------------
// The service as a child process

export interface ServiceProcess {
  name: string;
  port: number;
  base: string;
  child: ChildProcess;
  /** stdout + stderr lines (pino JSON), newest last. */
  logs: string[];
  exited: Promise<number | null>;
  waitReady(timeoutMs?: number): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** The environment of a child: nothing inherited that points at the shared databases. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of ['PATH', 'HOME', 'LANG', 'TMPDIR', 'NODE_PATH']) {
    if (process.env[key] !== undefined) env[key] = process.env[key];
  }
  return { ...env, NODE_ENV: 'production', ...extra };
}

export function startService(options: {
  name: string;
  port: number;
  env: Record<string, string>;
  args?: readonly string[];
}): ServiceProcess {
  const logs: string[] = [];
  const child = spawn(process.execPath, [...(options.args ?? SERVICE_COMMAND)], {
    cwd: ROOT,
    env: childEnv({
      HOST: '127.0.0.1',
      PORT: String(options.port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${options.port}`,
      ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      CATALOG_SYNC_MINUTES: '0',
      ...options.env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line) logs.push(line);
    if (logs.length > 5000) logs.splice(0, logs.length - 5000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${options.port}`;
  return {
    name: options.name,
    port: options.port,
    base,
    child,
    logs,
    exited,
    async waitReady(timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (child.exitCode !== null)
          throw new Error(`${options.name} exited with ${child.exitCode}:\n${logs.slice(-20).join('\n')}`);
        const ready = await fetch(`${base}/ready`, { signal: AbortSignal.timeout(2000) }).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ready) return;
        await sleep(250);
      }
      throw new Error(`${options.name} not ready after ${timeoutMs} ms:\n${logs.slice(-20).join('\n')}`);
    },
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await Promise.race([exited, sleep(15_000)]);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP

export interface Reply {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
  ms: number;
  startedAt: number;
}

/** One request; a transport failure (connection refused/reset, timeout) is status 0. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; json?: unknown; timeoutMs?: number } = {},
): Promise<Reply> {
  const startedAt = Date.now();
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      body: options.json !== undefined ? JSON.stringify(options.json) : undefined,
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body, text, headers: res.headers, ms: Date.now() - startedAt, startedAt };
  } catch (err) {
    const text = (err as Error).message;
    return { status: 0, body: null, text, headers: new Headers(), ms: Date.now() - startedAt, startedAt };
  }
}

export const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** A customer with a session token, an API key and `cents` in the wallet, all made over HTTP. */
export async function createCustomer(base: string, tag: string, cents: number) {
  const email = `${tag}-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const reg = await call(base, 'POST', '/api/v1/auth/register', {
    json: { firstName: 'Fault', lastName: 'Test', email, password: 'a long enough password' },
  });
  if (reg.status !== 200) throw new Error(`register: ${reg.status} ${reg.text}`);
  const { token, user } = reg.body as { token: string; user: { id: string } };
  const session = { authorization: `Bearer ${token}` };
  const key = await call(base, 'POST', '/api/v1/user/api-key/generate', { headers: session });
  if (key.status !== 200) throw new Error(`api key: ${key.status} ${key.text}`);
  if (cents > 0) {
    const fund = await call(base, 'POST', `/api/admin/v1/accounts/${user.id}/wallet/adjustments`, {
      headers: admin,
      json: { amountUsd: cents / 100, reason: 'fault test funding' },
    });
    if (fund.status !== 200) throw new Error(`fund: ${fund.status} ${fund.text}`);
  }
  return {
    id: user.id,
    email,
    session,
    partner: { authorization: `Bearer ${(key.body as { key: string }).key}` },
  };
}

/** The cheapest non-top-up plan of a destination and its price in cents. */
export async function cheapestPlan(base: string, partner: Record<string, string>, country = 'TR') {
  const res = await call(base, 'GET', `/api/public/v1/destinations/${country}`, { headers: partner });
  if (res.status !== 200) throw new Error(`destinations: ${res.status} ${res.text}`);
  const plans = (res.body as { plans: Array<{ id: string; priceUsd: number; isTopUp?: boolean }> }).plans;
  const plan = plans.filter((p) => !p.isTopUp).sort((a, b) => a.priceUsd - b.priceUsd)[0];
  if (!plan) throw new Error('no plan');
  return { id: plan.id, cents: Math.round(plan.priceUsd * 100) };
}

// ---------------------------------------------------------------------------------------------
// Money checks straight on the database

export interface MoneyReport {
  orders: number;
  charged: number;
  completed: number;
  refunded: number;
  stuck: Array<{ id: string; status: string }>;
  doubleCharged: string[];
  completedWithoutEsims: string[];
  refundedWithoutRefund: string[];
  balanceMismatches: Array<{ id: string; balance: number; ledger: number }>;
  negative: string[];
}

/** What reconcile checks: balance = Σ ledger, ≥ 0; every charged order COMPLETED with eSIMs or REFUNDED. */
export async function moneyReport(url: string): Promise<MoneyReport> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const orders = (
      await client.query<{
        id: string;
        status: string;
        quantity: number;
        top_up_esim_id: string | null;
        purchases: string;
        refunds: string;
        esims: string;
      }>(`
        select o.id, o.status, o.quantity, o.top_up_esim_id,
          (select count(*) from wallet_transactions w where w.order_id = o.id and w.kind = 'purchase') as purchases,
          (select count(*) from wallet_transactions w where w.order_id = o.id and w.kind = 'refund') as refunds,
          (select count(*) from esims e where e.order_id = o.id) as esims
        from orders o`)
    ).rows;
    const charged = orders.filter((o) => Number(o.purchases) > 0);
    const balances = (
      await client.query<{ id: string; balance: number; ledger: string }>(`
        select a.id, a.wallet_balance_cents as balance,
          coalesce((select sum(amount_cents) from wallet_transactions w where w.account_id = a.id), 0) as ledger
        from accounts a`)
    ).rows;
    return {
      orders: orders.length,
      charged: charged.length,
      completed: charged.filter((o) => o.status === 'COMPLETED').length,
      refunded: charged.filter((o) => o.status === 'REFUNDED').length,
      stuck: charged
        .filter((o) => o.status !== 'COMPLETED' && o.status !== 'REFUNDED')
        .map((o) => ({ id: o.id, status: o.status })),
      doubleCharged: orders.filter((o) => Number(o.purchases) > 1 || Number(o.refunds) > 1).map((o) => o.id),
      completedWithoutEsims: charged
        .filter((o) => o.status === 'COMPLETED' && !o.top_up_esim_id && Number(o.esims) !== o.quantity)
        .map((o) => o.id),
      refundedWithoutRefund: charged
        .filter((o) => o.status === 'REFUNDED' && Number(o.refunds) !== 1)
        .map((o) => o.id),
      balanceMismatches: balances
        .filter((b) => Number(b.balance) !== Number(b.ledger))
        .map((b) => ({ id: b.id, balance: Number(b.balance), ledger: Number(b.ledger) })),
      negative: balances.filter((b) => Number(b.balance) < 0).map((b) => b.id),
    };
  } finally {
    await client.end();
  }
}

/** Waits (bounded) until no charged order is left in a pending state. */
export async function waitSettled(url: string, timeoutMs: number): Promise<MoneyReport> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const report = await moneyReport(url);
    if (report.stuck.length === 0 || Date.now() > deadline) return report;
    await sleep(500);
  }
}

export function expectMoneySafe(report: MoneyReport): void {
  const problems = {
    stuck: report.stuck,
    doubleCharged: report.doubleCharged,
    completedWithoutEsims: report.completedWithoutEsims,
    refundedWithoutRefund: report.refundedWithoutRefund,
    balanceMismatches: report.balanceMismatches,
    negative: report.negative,
  };
  const bad = Object.entries(problems).filter(([, v]) => v.length > 0);
  if (bad.length) throw new Error(`money check failed: ${JSON.stringify(Object.fromEntries(bad))}`);
  if (report.charged !== report.completed + report.refunded)
    throw new Error(
      `charged ${report.charged} ≠ completed ${report.completed} + refunded ${report.refunded}`,
    );
}

/** One line per test in the output: what it survived. */
export function survived(test: string, figures: Record<string, unknown>): void {
  process.stdout.write(`\n[faults] ${test}: ${JSON.stringify(figures)}\n`);
}
