/**
 * `npx tsx bench/worker-drain.ts`: how fast one worker drains a backlog of the jobs orders leave
 * behind (the sandbox provider's ORDER_STATUS notification, one per order), for several
 * WORKER_CONCURRENCY values. On a fresh PostgreSQL database (as `npm run bench`), in process:
 * BENCH_DRAIN_ORDERS (600) Partner orders are placed with the worker off, then the worker runs
 * until nothing is due, timed. Prints jobs/s per concurrency (BENCH_DRAIN_CONCURRENCY, default
 * 1,2,4,8). Absolute figures move with the host; compare runs made one after the other.
 */
import { count, eq } from 'drizzle-orm';
import { loadConfig } from '../src/config/index.js';
import type { Container } from '../src/container.js';
import { openContainer } from '../src/container/open.js';
import { jobs } from '../src/db/schema/index.js';
import { silentLogger } from '../src/lib/logger.js';
import { openBenchDatabase } from './database.js';
import { cheapestPlan, seedPartners } from './seed.js';

const orders = Number(process.env.BENCH_DRAIN_ORDERS ?? 600);
const concurrencies = (process.env.BENCH_DRAIN_CONCURRENCY ?? '1,2,4,8').split(',').map(Number);

async function pending(container: Container): Promise<number> {
  const [row] = await container.db.select({ n: count() }).from(jobs).where(eq(jobs.status, 'pending'));
  return row?.n ?? 0;
}

async function main(): Promise<void> {
  const pg = await openBenchDatabase(process.env);
  try {
    for (const concurrency of concurrencies) {
      const config = loadConfig({
        ...process.env,
        DATABASE_URL: pg.url,
        ESIM_PROVIDER: 'sandbox',
        SANDBOX_ESIM_LATENCY_MS: '0',
        LOG_LEVEL: 'silent',
        WORKER_ENABLED: 'false',
        WORKER_CONCURRENCY: String(concurrency),
      });
      const container = await openContainer(config, { log: silentLogger });
      try {
        await container.startup();
        // Whatever start-up queued (the next catalog sync) is not due; earlier rounds left nothing due.
        await container.worker.runDue();
        const plan = await cheapestPlan(container);
        const [partner] = await seedPartners(container, 1, plan.priceCents * orders);
        for (let placed = 0; placed < orders; placed += 10)
          await Promise.all(
            Array.from({ length: Math.min(10, orders - placed) }, () =>
              container.orders.placeOrder({
                accountId: partner!.accountId,
                channel: 'partner',
                planId: plan.id,
                quantity: 1,
                paymentMethod: 'wallet',
              }),
            ),
          );
        const backlog = await pending(container);
        const started = performance.now();
        const ran = await container.worker.runDue();
        const seconds = (performance.now() - started) / 1000;
        process.stdout.write(
          `WORKER_CONCURRENCY=${concurrency}: ${ran} jobs (backlog ${backlog}) in ${seconds.toFixed(2)} s, ` +
            `${Math.round(ran / seconds)} jobs/s\n`,
        );
      } finally {
        await container.close();
      }
    }
  } finally {
    await pg.dispose();
  }
}

main().catch((err) => {
  process.stderr.write(
    `worker-drain failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
