/**
 * The order scenarios of `npm run bench` (issue 12): Partner `POST /orders` and Mobile wallet
 * checkout (sandbox eSIM provider), each interleaved with the raw-SQL floor (bench/order-floor.ts:
 * bare node:http + pg doing only the essential writes) under the same load. Targets on
 * PostgreSQL: ≥ 0.5× the floor and p99 < 50 ms at 32 connections; on PGlite the ratio is
 * reported (the floor runs on its own on-disk PGlite: one process owns a PGlite directory).
 */
import { join } from 'node:path';
import type { BenchModule, BenchRow } from './harness.js';
import { ratioRow } from './harness.js';
import { runPair, type Scenario } from './load.js';
import { startChild } from './processes.js';

export const MIN_ORDER_RATIO = 0.5;
export const MAX_ORDER_P99_MS = 50;

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
        const { reference, result } = await runPair(floorScenario, scenario, ctx.settings, ctx.rounds);
        const row = ratioRow(name, ctx, result, reference, pg ? MIN_ORDER_RATIO : undefined);
        if (pg) {
          row.target = `≥ ${MIN_ORDER_RATIO}×, p99 < ${MAX_ORDER_P99_MS} ms`;
          row.pass = row.pass === true && result.latencyP99Ms < MAX_ORDER_P99_MS;
        }
        rows.push(
          {
            scenario: `  floor beside ${name}`,
            database: ctx.database,
            result: reference,
            rssMb: reference.peakRssMb,
            target: 'report',
          },
          row,
        );
      }
    } finally {
      await floor.stop();
    }
    return rows;
  },
};
