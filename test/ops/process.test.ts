import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

/**
 * The process model as an operator runs it: `npm start` / `npm run worker` from the compiled
 * build, stopped with SIGTERM sent to the npm process. Ports 3720-3729 (ops helper range).
 */
const ROOT = new URL('../..', import.meta.url).pathname;
const ADMIN = 'ops-process-admin-token-0123';
const testDatabaseUrl = process.env.TEST_DATABASE_URL;

const groups: number[] = [];

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function npm(script: string, env: Record<string, string>): Started {
  // detached: its own process group, so every process of the tree can be listed afterwards.
  const child = spawn('npm', ['run', '--silent', script], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', DATABASE_URL: 'memory://', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  groups.push(child.pid!);
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, output: () => out, exited };
}

/** Pids of every live process in a process group (ps reads /proc; zombies count as gone). */
function groupMembers(pgid: number): number[] {
  const ps = spawnSync('ps', ['-e', '-o', 'pid=,pgid=,stat='], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, g, stat]) => Number(g) === pgid && stat !== undefined && !stat.startsWith('Z'))
    .map(([pid]) => Number(pid));
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function http(
  port: number,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: () => unknown }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        let data = '';
        res.on('data', (d) => (data += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: () => JSON.parse(data) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function startApi(port: number, env: Record<string, string> = {}): Promise<Started> {
  const started = npm('start', { PORT: String(port), ADMIN_TOKEN: ADMIN, ...env });
  await waitFor('GET /health', async () => {
    if (started.child.exitCode !== null) throw new Error(started.output());
    const res = await http(port, 'GET', '/health');
    return res.status === 200 ? true : undefined;
  });
  return started;
}

/** A funded user and a checkout body that buys one eSIM from the wallet. */
async function fundedCheckout(port: number) {
  const email = `ops-${randomBytes(5).toString('hex')}@example.com`;
  const reg = await http(port, 'POST', '/api/v1/auth/register', {
    firstName: 'Op',
    lastName: 'Erator',
    email,
    password: 'a long enough password',
  });
  expect(reg.status).toBe(200);
  const { user, token } = reg.json() as { user: { id: string }; token: string };
  const adjust = await http(
    port,
    'POST',
    `/api/admin/v1/accounts/${user.id}/wallet/adjustments`,
    { amountUsd: 100, reason: 'process test' },
    { authorization: `Bearer ${ADMIN}` },
  );
  expect(adjust.status).toBe(200);
  return () =>
    http(
      port,
      'POST',
      '/api/v1/checkout',
      { planId: 'plan_sbx-tr-1gb-7d', quantity: 1, paymentMethod: 'wallet' },
      { authorization: `Bearer ${token}` },
    );
}

beforeAll(() => {
  // `npm install` builds through `prepare`; rebuild here so the test runs the current source.
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, encoding: 'utf8' });
  expect(build.status, build.stdout + build.stderr).toBe(0);
}, 300_000);

describe('npm run build', () => {
  test('builds the web app for production even when NODE_ENV says otherwise (here: test)', () => {
    expect(process.env.NODE_ENV).toBe('test');
    const assets = join(ROOT, 'web', 'dist', 'assets');
    const scripts = readdirSync(assets).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    // Libraries keep their development checks behind `process.env.NODE_ENV !== 'production'`
    // (React itself is not in the build: Preact's compat layer stands in, web/vite.config.ts).
    const dev = scripts.filter((f) =>
      readFileSync(join(assets, f), 'utf8').includes('Attempted to invoke queryFn when set to skipToken'),
    );
    expect(dev).toEqual([]);
  });
});

describe('npm start', () => {
  test('SIGTERM to npm: a slow request in flight finishes, new connections are refused, every process exits, status 0', async () => {
    const port = 3720;
    const api = await startApi(port, { SANDBOX_ESIM_LATENCY_MS: '3000', SHUTDOWN_GRACE_SECONDS: '10' });
    const pgid = api.child.pid!;
    const tree = groupMembers(pgid);
    expect(tree.length).toBeGreaterThanOrEqual(2); // npm and node (and a shell, if any)

    const checkout = await fundedCheckout(port);
    const inFlight = checkout();
    await new Promise((r) => setTimeout(r, 1000)); // the provider call is under way
    const signalledAt = Date.now();
    api.child.kill('SIGTERM');

    await waitFor('the listener to close', async () => {
      try {
        await http(port, 'GET', '/health');
        return undefined;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === 'ECONNREFUSED' ? true : undefined;
      }
    });
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ status: 'COMPLETED' });

    expect(await api.exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
    await waitFor('the whole process tree to be gone', async () =>
      groupMembers(pgid).length === 0 ? true : undefined,
    );
    expect(api.output()).toContain('shutting down');
    expect(api.output()).not.toContain('killed by timeout');
  }, 180_000);

  test('a request longer than SHUTDOWN_GRACE_SECONDS is cut off, and the process still exits 0 promptly', async () => {
    const port = 3721;
    const api = await startApi(port, { SANDBOX_ESIM_LATENCY_MS: '20000', SHUTDOWN_GRACE_SECONDS: '1' });
    const checkout = await fundedCheckout(port);
    const inFlight = checkout().then(
      (r) => r.status,
      (err: NodeJS.ErrnoException) => err.code,
    );
    await new Promise((r) => setTimeout(r, 1000));
    const signalledAt = Date.now();
    api.child.kill('SIGTERM');
    expect(await api.exited).toBe(0);
    const elapsed = Date.now() - signalledAt;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(8_000);
    expect(await inFlight).toBe('ECONNRESET');
    expect(api.output()).toContain('shutdown grace over');
    await waitFor('the whole process tree to be gone', async () =>
      groupMembers(api.child.pid!).length === 0 ? true : undefined,
    );
  }, 180_000);
});

describe('npm run worker', () => {
  test('runs the worker alone: no HTTP listener, claims jobs, SIGTERM exits 0 with nothing left', async () => {
    let dbName: string | undefined;
    let url = 'memory://';
    if (testDatabaseUrl) {
      dbName = `esim_ops_worker_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: testDatabaseUrl });
      await admin.connect();
      await admin.query(`create database ${dbName}`);
      await admin.end();
      const u = new URL(testDatabaseUrl);
      u.pathname = `/${dbName}`;
      url = u.toString();
    }
    const port = 3722;
    const worker = npm('worker', { PORT: String(port), DATABASE_URL: url, WORKER_POLL_MS: '50' });
    try {
      await waitFor('worker started', async () => {
        if (worker.child.exitCode !== null) throw new Error(worker.output());
        return worker.output().includes('worker started') ? true : undefined;
      });
      await expect(http(port, 'GET', '/health')).rejects.toMatchObject({ code: 'ECONNREFUSED' });

      if (dbName) {
        // A job of a kind nobody handles: the worker claims it and dead-letters it.
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(
          `insert into jobs (kind, payload, run_at, created_at, updated_at) values ('ops.unknown', '{}', now(), now(), now())`,
        );
        await waitFor('the worker to claim the job', async () => {
          const { rows } = await c.query(`select status, last_error from jobs where kind = 'ops.unknown'`);
          return rows[0]?.status === 'failed' ? rows[0] : undefined;
        });
        await c.end();
      }
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
      await waitFor('the whole process tree to be gone', async () =>
        groupMembers(worker.child.pid!).length === 0 ? true : undefined,
      );
    } finally {
      if (dbName) {
        const admin = new pg.Client({ connectionString: testDatabaseUrl });
        await admin.connect();
        await admin.query(`drop database if exists ${dbName} with (force)`);
        await admin.end();
      }
    }
  }, 180_000);
});

afterAll(() => {
  // Nothing this file started may outlive it, whatever failed above.
  for (const pgid of groups) {
    if (groupMembers(pgid).length > 0) process.kill(-pgid, 'SIGKILL');
  }
});
