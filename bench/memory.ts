import type { BenchModule, BenchRow } from './harness.js';
import { runTogether } from './load.js';
import { treePeakRssMb } from './processes.js';

/** RSS of the service's process tree: < 200 MB on PostgreSQL, < 350 MB on PGlite. */
export const RSS_TARGET_MB = { postgresql: 200, pglite: 350 } as const;

/**
 * Mixed load: catalog reads (Mobile and Partner), partner wallet reads and orders, and logins at
 * the same time, the connections split between them; the tree's RSS sampled throughout. Then
 * the lifetime peak: the sum of every process's kernel high-water mark (VmHWM), which includes
 * start-up and every earlier scenario. Idle RSS is measured by bench/run.ts right after start-up.
 */
export const memoryModule: BenchModule = {
  name: 'memory',
  async run(ctx) {
    const base = ctx.service.base;
    const keys = ctx.seed.partners.map((p) => p.key);
    const share = Math.max(1, Math.floor(ctx.settings.connections / 5));
    ctx.log(`${ctx.database}: mixed load …`);
    const { results, peakRssMb } = await runTogether(
      [
        { name: 'mixed: Mobile list', url: `${base}/api/v1/destinations`, pid: 0, connections: share },
        {
          name: 'mixed: Mobile TR',
          url: `${base}/api/v1/destinations/TR?locale=tr`,
          pid: 0,
          connections: share,
        },
        {
          name: 'mixed: Partner wallet',
          url: `${base}/api/public/v1/wallet`,
          apiKeys: keys,
          pid: 0,
          connections: share,
        },
        {
          name: 'mixed: Partner orders',
          url: `${base}/api/public/v1/orders`,
          method: 'POST',
          body: JSON.stringify({ planId: ctx.seed.planId, quantity: 1 }),
          apiKeys: keys,
          pid: 0,
          connections: share,
        },
        {
          name: 'mixed: login',
          url: `${base}/api/v1/auth/login`,
          method: 'POST',
          body: JSON.stringify({ email: ctx.seed.login.email, password: ctx.seed.login.password }),
          pid: 0,
          connections: share,
        },
      ],
      ctx.settings,
      ctx.service.process.pid!,
    );
    // Let the requests autocannon abandoned at the end finish before anything else runs.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const target = RSS_TARGET_MB[ctx.database];
    const lifetime = Math.round(treePeakRssMb(ctx.service.process.pid!));
    const total = results.reduce((sum, r) => sum + r.requestsPerSecond, 0);
    const errors = results.reduce((sum, r) => sum + r.errors + r.timeouts + r.non2xx, 0);
    const rows: BenchRow[] = [
      {
        scenario: `RSS under mixed load (${total} req/s, ${errors} errors)`,
        database: ctx.database,
        value: `${Math.round(peakRssMb)} MB`,
        rssMb: Math.round(peakRssMb),
        target: `< ${target} MB`,
        pass: peakRssMb < target,
      },
      {
        scenario: 'RSS peak over the whole life (VmHWM)',
        database: ctx.database,
        value: `${lifetime} MB`,
        rssMb: lifetime,
        target: `< ${target} MB`,
        pass: lifetime < target,
      },
    ];
    for (const r of results) {
      rows.push({
        scenario: r.name,
        database: ctx.database,
        result: r,
        rssMb: r.peakRssMb,
        target: 'report',
      });
    }
    return rows;
  },
};
