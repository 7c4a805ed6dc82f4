/**
 * The order scenarios of `npm run bench` (issues 12, 29): Partner `POST /orders` and Mobile wallet
 * checkout (sandbox eSIM provider). For each:
 * 1. closed loop, saturating: interleaved with the raw-SQL floor (bench/order-floor.ts: bare
 *    node:http + pg doing only the essential writes) under the same load. Target on PostgreSQL:
 *    ≥ 0.5× the floor; the p99 is reported only, since at saturation it is the connection count
 *    ÷ throughput (Little's law, docs/performance.md "p99 at 32 connections");
 * 2. open loop at half the throughput the closed loop measured (bench/open-loop.ts), once the
 *    service is quiet again. Target on PostgreSQL: p99 < 50 ms.
 * On PGlite both are reported (the floor runs on its own on-disk PGlite: one process owns a
 * PGlite directory).
 */
import { join } from 'node:path';
import type { BenchContext, BenchModule, BenchRow } from './harness.js';
import { ratioRow } from './harness.js';
import { runPair, type Scenario, type ScenarioResult } from './load.js';
import { runOpenLoop } from './open-loop.js';
import { startChild, waitUntilQuiet } from './processes.js';

export const MIN_ORDER_RATIO = 0.5;
export const MAX_ORDER_P99_MS = 50;
/** The open-loop rate as a share of the closed loop's throughput. */
const HALF_LOAD = 0.5;
/** An open-loop run whose sender fell this far short of the asked rate did not measure half load. */
const MIN_RATE_SHARE = 0.95;
/** A drain after the half-load run longer than this shows as a row (as run.ts does between modules). */
const QUIET_REPORT_MS = 2_000;

/**
 * The scenario at half its measured closed-loop throughput, in an open loop, on a quiet service;
 * then waits for the service to be quiet again (the worker runs the jobs of the orders it took) so
 * that what follows, the next scenario or module, is not measured beside that backlog.
 */
async function halfLoadRows(
  ctx: BenchContext,
  name: string,
  scenario: Scenario,
  closed: ScenarioResult,
): Promise<BenchRow[]> {
  const pg = ctx.database === 'postgresql';
  const pid = ctx.service.process.pid!;
  const busyMs = await waitUntilQuiet(pid, ctx.quietMaxMs);
  const rate = Math.max(1, Math.round(closed.requestsPerSecond * HALF_LOAD));
  ctx.log(
    `${ctx.database}: ${name} at half load, open loop ${rate} req/s for ${ctx.halfLoadSeconds} s (quiet after ${(busyMs / 1000).toFixed(0)} s) …`,
  );
  const result = await runOpenLoop(scenario, { rate, durationSeconds: ctx.halfLoadSeconds });
  const drainedMs = await waitUntilQuiet(pid, ctx.quietMaxMs);
  ctx.log(
    `${ctx.database}:   sent ${result.sentRate} req/s of ${rate}, at most ${result.peakInFlight} in flight, sender lag ≤ ${result.maxSendLagMs} ms; quiet again after ${(drainedMs / 1000).toFixed(0)} s`,
  );
  const rateHeld = result.sentRate >= rate * MIN_RATE_SHARE;
  const clean = result.errors + result.timeouts + result.non2xx === 0;
  const rows: BenchRow[] = [
    {
      scenario: `${name} at half load (open loop, ${rate} req/s)`,
      database: ctx.database,
      result,
      rssMb: result.peakRssMb,
      value: `sent ${result.sentRate} req/s`,
      target: pg ? `p99 < ${MAX_ORDER_P99_MS} ms` : 'report',
      pass: pg ? result.latencyP99Ms < MAX_ORDER_P99_MS && rateHeld && clean : undefined,
    },
  ];
  if (drainedMs > QUIET_REPORT_MS) {
    rows.push({
      scenario: `  service busy after the half load (its jobs)`,
      database: ctx.database,
      value: `${(drainedMs / 1000).toFixed(0)} s`,
      target: 'report',
    });
  }
  return rows;
}

export const ordersModule: BenchModule = {
  name: 'orders',
  async run(ctx) {
    const pg = ctx.database === 'postgresql';
    const floor = await startChild('./order-floor.ts', {
      args: [pg ? ctx.databaseUrl! : `pglite:${join(ctx.tmpDir, 'floor-data')}`],
    });
    const rows: BenchRow[] = [];
    try {
      // On PostgreSQL the floor charges the service's partners; on PGlite it seeded its own.
      const seeded = floor.message as { keys?: string[]; planId?: string };
      const floorScenario: Scenario = {
        name: 'floor: node:http + pg, raw SQL',
        url: `http://127.0.0.1:${floor.port}/orders`,
        method: 'POST',
        body: JSON.stringify({ planId: seeded.planId ?? ctx.seed.planId, quantity: 1 }),
        apiKeys: seeded.keys ?? ctx.seed.partners.map((p) => p.key),
        pid: floor.process.pid!,
      };
      const body = JSON.stringify({ planId: ctx.seed.planId, quantity: 1 });
      const scenarios: Array<{ name: string; scenario: Scenario }> = [
        {
          name: 'Partner POST /orders',
          scenario: {
            name: 'Partner POST /orders',
            url: `${ctx.service.base}/api/public/v1/orders`,
            method: 'POST',
            body,
            apiKeys: ctx.seed.partners.map((p) => p.key),
            pid: ctx.service.process.pid!,
          },
        },
        {
          name: 'Mobile POST /checkout (wallet)',
          scenario: {
            name: 'Mobile POST /checkout (wallet)',
            url: `${ctx.service.base}/api/v1/checkout`,
            method: 'POST',
            body: JSON.stringify({ planId: ctx.seed.planId, quantity: 1, paymentMethod: 'wallet' }),
            rotate: { header: 'authorization', values: ctx.seed.mobileTokens.map((t) => `Bearer ${t}`) },
            pid: ctx.service.process.pid!,
          },
        },
      ];
      for (const { name, scenario } of scenarios) {
        ctx.log(`${ctx.database}: ${name} and the raw-SQL floor, ${ctx.rounds} rounds …`);
        // The worker runs the jobs each order leaves behind: the floor is not measured beside them.
        const { reference, result } = await runPair(floorScenario, scenario, ctx.settings, ctx.rounds, () =>
          waitUntilQuiet(ctx.service.process.pid!, ctx.quietMaxMs),
        );
        const closedName = `${name} (closed loop, ${ctx.settings.connections} connections)`;
        rows.push(
          {
            scenario: `  floor beside ${name}`,
            database: ctx.database,
            result: reference,
            rssMb: reference.peakRssMb,
            target: 'report',
          },
          ratioRow(closedName, ctx, result, reference, pg ? MIN_ORDER_RATIO : undefined),
          ...(await halfLoadRows(ctx, name, scenario, result)),
        );
      }
    } finally {
      await floor.stop();
    }
    return rows;
  },
};
