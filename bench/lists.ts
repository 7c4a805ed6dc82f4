/**
 * Lists bench (issue 12): a page of 25 for a user with 10 rows against a user with 10,000 rows,
 * for the Mobile order list and wallet transactions, on PostgreSQL. Cursor pagination is keyset
 * pagination on an index matching each list's ORDER BY, so the two should cost the same; the bench
 * prints both, a page deep inside the long history, and the ratios.
 *
 * `npm run bench` runs it after the load scenarios (on the bench database); `npm run bench:lists`
 * runs it alone (BENCH_DATABASE_URL, or a fresh esim_bench_<ts> database on BENCH_PG_ADMIN_URL).
 * Knobs: BENCH_LIST_ROWS (10000), BENCH_LIST_ITERATIONS (200).
 *
 * Requests go through Fastify's inject (no socket), so the figures are the service's own cost:
 * routing, session check, the list query, presenting 25 rows.
 */
import { sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config/index.js';
import type { Container } from '../src/container.js';
import { accounts, orders, walletTransactions } from '../src/db/schema/index.js';
import { openContainer } from '../src/container/open.js';
import { buildApp } from '../src/http/app.js';
import { silentLogger } from '../src/lib/logger.js';
import { encodeCursor } from '../src/http/shared/pagination.js';
import { newId } from '../src/lib/ids.js';
import { openBenchDatabase } from './database.js';

const PAGE = 25;

interface Timing {
  name: string;
  medianMs: number;
  p95Ms: number;
}

export interface ListsBenchResult {
  rows: number;
  iterations: number;
  timings: Timing[];
  ratios: Record<string, number>;
}

function intEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const n = Number(env[name] ?? fallback);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer`);
  return n;
}

async function seedUser(container: Container, planId: string, rows: number) {
  const id = newId('acc');
  const now = Date.now();
  await container.db.insert(accounts).values({
    id,
    email: `bench-lists-${id.toLowerCase()}@example.com`,
    passwordHash: 'x',
    firstName: 'Bench',
    lastName: 'Lists',
    locale: 'en',
    createdAt: new Date(now),
    updatedAt: new Date(now),
  });
  const orderIds: Array<{ id: string; createdAt: Date }> = [];
  for (let start = 0; start < rows; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, rows - start) }, (_, j) => {
      const i = start + j;
      const createdAt = new Date(now - i * 1000);
      const order = {
        id: newId('ord'),
        orderNumber: `SVC-BENCH-${newId('ord')}`,
        accountId: id,
        channel: 'mobile' as const,
        planId,
        quantity: 1,
        amountCents: 499,
        paymentMethod: 'wallet' as const,
        status: 'COMPLETED' as const,
        createdAt,
        updatedAt: createdAt,
      };
      orderIds.push({ id: order.id, createdAt });
      return order;
    });
    await container.db.insert(orders).values(batch);
    await container.db.insert(walletTransactions).values(
      batch.map((o, j) => ({
        id: newId('wtx'),
        accountId: id,
        kind: 'purchase' as const,
        amountCents: -499,
        balanceAfterCents: (start + j) * 499,
        description: `Order ${o.orderNumber}`,
        orderId: o.id,
        reference: `bench:${o.id}`,
        createdAt: o.createdAt,
      })),
    );
  }
  const { token } = await container.sessions.issue(container.db, id);
  return { id, token, orders: orderIds };
}

/**
 * Times every case round-robin (one request of each per round), so load from elsewhere on the
 * machine spreads evenly over the cases instead of skewing whichever ran at a bad moment.
 */
async function timeAll(
  cases: Array<[string, () => Promise<{ statusCode: number }>]>,
  iterations: number,
): Promise<Timing[]> {
  for (let i = 0; i < Math.min(20, iterations); i++) for (const [, run] of cases) await run(); // warm-up
  const samples = cases.map(() => [] as number[]);
  for (let i = 0; i < iterations; i++) {
    for (const [k, [, run]] of cases.entries()) {
      const started = performance.now();
      const res = await run();
      samples[k]!.push(performance.now() - started);
      if (res.statusCode !== 200) throw new Error(`list answered ${res.statusCode}`);
    }
  }
  return cases.map(([name], k) => {
    const sorted = samples[k]!.sort((x, y) => x - y);
    const at = (q: number) =>
      Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(3));
    return { name, medianMs: at(0.5), p95Ms: at(0.95) };
  });
}

/**
 * Seeds two users on `env.DATABASE_URL` and times their pages. A page of 25 out of 10 rows
 * returns 10 rows, out of 10,000 it returns 25, so pages of 10 are timed too: equal output, only
 * the history differs.
 */
export async function runListsBench(env: NodeJS.ProcessEnv): Promise<ListsBenchResult> {
  const rows = intEnv(env, 'BENCH_LIST_ROWS', 10_000);
  const iterations = intEnv(env, 'BENCH_LIST_ITERATIONS', 200);
  const container = await openContainer(loadConfig({ ...env, WORKER_ENABLED: 'false' }), {
    log: silentLogger,
  });
  const app = await buildApp({ container, logger: false });
  try {
    await app.container.startup();
    const [plan] = await app.container.catalog.listPlans({ active: true }, { limit: 1 });
    if (!plan) throw new Error('no plan to order');
    process.stderr.write(`lists bench: seeding users with 10 and ${rows} orders and transactions …\n`);
    const small = await seedUser(app.container, plan.id, 10);
    const large = await seedUser(app.container, plan.id, rows);
    await app.container.db.execute(sql`analyze orders`);
    await app.container.db.execute(sql`analyze wallet_transactions`);

    const get = (token: string, url: string) =>
      app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    // A cursor in the middle of the long history: the seek must be as cheap there as at the top.
    const middle = large.orders[Math.floor(large.orders.length / 2)]!;
    const deepOrders = encodeCursor(
      'mobile.orders',
      [large.id],
      ['date', 'string'],
      [middle.createdAt, middle.id],
    );
    const firstLargeTx = await get(large.token, `/api/v1/user/wallet/transactions?limit=${PAGE}`);
    const txCursor = firstLargeTx.json<{ nextCursor: string }>().nextCursor;

    const cases: Array<[string, () => Promise<{ statusCode: number }>]> = [
      [`orders, page of ${PAGE}, 10 rows`, () => get(small.token, `/api/v1/user/orders?limit=${PAGE}`)],
      [`orders, page of ${PAGE}, ${rows} rows`, () => get(large.token, `/api/v1/user/orders?limit=${PAGE}`)],
      [
        `orders, page of ${PAGE} at row ${rows / 2}, ${rows} rows`,
        () => get(large.token, `/api/v1/user/orders?limit=${PAGE}&cursor=${deepOrders}`),
      ],
      [
        `wallet transactions, page of ${PAGE}, 10 rows`,
        () => get(small.token, `/api/v1/user/wallet/transactions?limit=${PAGE}`),
      ],
      [
        `wallet transactions, page of ${PAGE}, ${rows} rows`,
        () => get(large.token, `/api/v1/user/wallet/transactions?limit=${PAGE}`),
      ],
      [
        `wallet transactions, 2nd page, ${rows} rows`,
        () => get(large.token, `/api/v1/user/wallet/transactions?limit=${PAGE}&cursor=${txCursor}`),
      ],
    ];
    // The same number of rows returned (10) out of 10 and out of 10,000: only the history differs.
    cases.push(
      ['orders, page of 10, 10 rows', () => get(small.token, '/api/v1/user/orders?limit=10')],
      [`orders, page of 10, ${rows} rows`, () => get(large.token, '/api/v1/user/orders?limit=10')],
      [
        'wallet transactions, page of 10, 10 rows',
        () => get(small.token, '/api/v1/user/wallet/transactions?limit=10'),
      ],
      [
        `wallet transactions, page of 10, ${rows} rows`,
        () => get(large.token, '/api/v1/user/wallet/transactions?limit=10'),
      ],
    );
    const timings = await timeAll(cases, iterations);
    // For contrast (index 10): the unpaged order list (the specification's default) of the long history.
    timings.push(
      ...(await timeAll(
        [[`orders, unpaged, ${rows} rows (for contrast)`, () => get(large.token, '/api/v1/user/orders')]],
        5,
      )),
    );
    const ratio = (a: number, b: number) => Number((timings[a]!.medianMs / timings[b]!.medianMs).toFixed(2));
    return {
      rows,
      iterations,
      timings,
      ratios: {
        [`orders ${rows} / 10`]: ratio(1, 0),
        [`orders deep ${rows} / 10`]: ratio(2, 0),
        [`wallet transactions ${rows} / 10`]: ratio(4, 3),
        [`orders, 10 of ${rows} / 10 of 10 (same rows returned)`]: ratio(7, 6),
        [`wallet transactions, 10 of ${rows} / 10 of 10 (same rows returned)`]: ratio(9, 8),
      },
    };
  } finally {
    await app.close();
    await container.close();
  }
}

export function printListsBench(result: ListsBenchResult): string {
  const width = Math.max(...result.timings.map((t) => t.name.length));
  const lines = [
    `Lists (Mobile API, inject, median of ${result.iterations} rounds, cases interleaved; target: ratio ≈ 1)`,
    `${'case'.padEnd(width)}  median ms  p95 ms`,
    ...result.timings.map(
      (t) =>
        `${t.name.padEnd(width)}  ${t.medianMs.toFixed(3).padStart(9)}  ${t.p95Ms.toFixed(3).padStart(6)}`,
    ),
    ...Object.entries(result.ratios).map(([name, value]) => `ratio ${name}: ${value}×`),
  ];
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const database = await openBenchDatabase(process.env);
  try {
    const result = await runListsBench({ ...process.env, DATABASE_URL: database.url });
    process.stdout.write(`${printListsBench(result)}\n`);
  } finally {
    await database.dispose();
  }
}
