/**
 * `npm run bench`: the Partner API under load on PostgreSQL. A script, not a test.
 *
 * 1. Opens BENCH_DATABASE_URL, or creates (and afterwards drops) esim_bench_<ts> on the local
 *    server; migrates it, runs the start-up tasks (catalog import) and seeds funded partners.
 * 2. Starts the service as its own process (sandbox providers, worker off, LOG_LEVEL=warn,
 *    rate limits raised out of the way) and a bare node:http server answering the same bytes as
 *    GET /destinations.
 * 3. Drives each with autocannon (warm-up, then the measured run) and prints req/s, p50, p99,
 *    errors, non-2xx and the server's peak RSS; writes the same to bench/results/latest.json.
 *
 * Knobs: BENCH_CONNECTIONS (32), BENCH_DURATION seconds (10), BENCH_WARMUP seconds (3),
 * BENCH_PARTNERS (64), BENCH_REDIS_URL (unset = in-process rate-limit counters).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { loadConfig } from '../src/config/index.js';
import { openContainer } from '../src/container.js';
import { silentLogger } from '../src/lib/logger.js';
import { openBenchDatabase } from './database.js';
import { printListsBench, runListsBench } from './lists.js';
import { runScenario, type LoadSettings, type ScenarioResult } from './load.js';
import { peakRssMb, rssMb, startChild, type ChildServer } from './processes.js';
import { evaluateTargets, printTable, printTargets, writeReport } from './report.js';
import { cheapestPlan, seedPartners, type BenchPartner } from './seed.js';
import { printOrderTargets, runOrderScenarios, seedMobileUsers } from './orders.js';

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

const settings: LoadSettings = {
  connections: intEnv('BENCH_CONNECTIONS', 32),
  durationSeconds: intEnv('BENCH_DURATION', 10),
  warmupSeconds: Number(process.env.BENCH_WARMUP ?? 3),
};
const partnerCount = intEnv('BENCH_PARTNERS', 64);
/** Generous upper bound of orders per second, to fund every partner for the whole run. */
const MAX_ORDERS_PER_SECOND = 5_000;
const DRAIN_MS = 5_000;

function serviceEnv(databaseUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    ESIM_PROVIDER: 'sandbox',
    CARD_PROVIDER: 'sandbox',
    CRYPTO_PROVIDER: 'sandbox',
    SANDBOX_ESIM_LATENCY_MS: '0',
    WORKER_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    PARTNER_READ_RATE_LIMIT: '10000000',
    PARTNER_ORDER_RATE_LIMIT: '10000000',
    REDIS_URL: process.env.BENCH_REDIS_URL,
  };
  delete env.ADMIN_TOKEN;
  if (!env.REDIS_URL) delete env.REDIS_URL;
  return env;
}

async function prepare(
  env: NodeJS.ProcessEnv,
): Promise<{ partners: BenchPartner[]; planId: string; mobileTokens: string[] }> {
  const container = await openContainer(loadConfig(env), { log: silentLogger });
  try {
    await container.startup();
    const plan = await cheapestPlan(container);
    const ordersPerPartner = Math.ceil(
      ((settings.durationSeconds + settings.warmupSeconds) * MAX_ORDERS_PER_SECOND) / partnerCount,
    );
    const partners = await seedPartners(container, partnerCount, plan.priceCents * ordersPerPartner);
    const mobileTokens = await seedMobileUsers(container, partnerCount, plan.priceCents * ordersPerPartner);
    return { partners, planId: plan.id, mobileTokens };
  } finally {
    await container.close();
  }
}

/** The catalog bytes the service answers, saved for the bare server to answer verbatim. */
async function captureCatalog(base: string, key: string): Promise<{ file: string; contentType: string }> {
  const response = await fetch(`${base}/destinations`, { headers: { 'x-api-key': key } });
  if (response.status !== 200) throw new Error(`GET /destinations answered ${response.status}`);
  const file = join(mkdtempSync(join(tmpdir(), 'esim-bench-')), 'destinations.json');
  writeFileSync(file, Buffer.from(await response.arrayBuffer()));
  return { file, contentType: response.headers.get('content-type') ?? 'application/json' };
}

async function measure(
  service: ChildServer,
  partners: BenchPartner[],
  planId: string,
): Promise<ScenarioResult[]> {
  const base = `http://127.0.0.1:${service.port}/api/public/v1`;
  const pid = service.process.pid!;
  const keys = partners.map((p) => p.key);
  const catalog = await captureCatalog(base, keys[0]!);
  const bare = await startChild('./bare-server.ts', { args: [catalog.file, catalog.contentType] });
  const results: ScenarioResult[] = [];
  try {
    results.push(
      await runScenario(
        { name: 'bare node:http, same bytes', url: `http://127.0.0.1:${bare.port}/`, pid: bare.process.pid! },
        settings,
      ),
    );
  } finally {
    await bare.stop();
  }
  const scenarios = [
    { name: 'GET /destinations', url: `${base}/destinations`, apiKeys: keys.slice(0, 1) },
    { name: 'GET /wallet', url: `${base}/wallet`, apiKeys: keys },
    {
      name: 'POST /orders',
      url: `${base}/orders`,
      method: 'POST' as const,
      body: JSON.stringify({ planId, quantity: 1 }),
      apiKeys: keys,
    },
  ];
  for (const scenario of scenarios) {
    process.stderr.write(`running ${scenario.name} …\n`);
    results.push(await runScenario({ ...scenario, pid }, settings));
  }
  return results;
}

async function main(): Promise<void> {
  const database = await openBenchDatabase(process.env);
  try {
    const env = serviceEnv(database.url);
    process.stderr.write(
      `seeding ${partnerCount} partners on ${new URL(database.url).pathname.slice(1)} …\n`,
    );
    const { partners, planId, mobileTokens } = await prepare(env);
    const service = await startChild('./server.ts', { env });
    const idleRssMb = Math.round(rssMb(service.process.pid!));
    let results: ScenarioResult[];
    let lifetimePeakMb: number;
    const orderTargets: string[] = [];
    try {
      // BENCH_ONLY=orders: only the order scenarios (bench/orders.ts) against their floor.
      results = process.env.BENCH_ONLY === 'orders' ? [] : await measure(service, partners, planId);
      const orders = await runOrderScenarios({
        service: { origin: `http://127.0.0.1:${service.port}`, pid: service.process.pid! },
        partnerKeys: partners.map((p) => p.key),
        mobileTokens,
        planId,
        floorDatabase: database.url,
        settings,
        label: 'PostgreSQL',
      });
      results.push(...orders.results);
      orderTargets.push(printOrderTargets('PostgreSQL', orders.targets));
      lifetimePeakMb = Math.round(peakRssMb(service.process.pid!));
      // autocannon abandons the requests in flight when its time is up; let the service finish
      // them before it is stopped, so shutdown does not close the pool under running handlers.
      await setTimeout(DRAIN_MS);
    } finally {
      await service.stop();
    }
    if (process.env.BENCH_ORDERS_PGLITE !== '0') {
      // The same order scenarios with the service and the floor each on an in-memory PGlite.
      const lite = await startChild('./order-service-pglite.ts', { env });
      try {
        const seeded = lite.message as { partnerKeys: string[]; mobileTokens: string[]; planId: string };
        const orders = await runOrderScenarios({
          service: { origin: `http://127.0.0.1:${lite.port}`, pid: lite.process.pid! },
          partnerKeys: seeded.partnerKeys,
          mobileTokens: seeded.mobileTokens,
          planId: seeded.planId,
          floorDatabase: 'pglite',
          settings,
          label: 'PGlite',
        });
        results.push(...orders.results);
        orderTargets.push(printOrderTargets('PGlite', orders.targets));
      } finally {
        await lite.stop();
      }
    }
    process.stdout.write(`\n${printTable(results)}\n\n${orderTargets.join('\n')}\n`);
    if (process.env.BENCH_ONLY === 'orders') return;
    const [bare, catalog, , orders] = results;
    const targets = evaluateTargets({ bare: bare!, catalog: catalog!, orders: orders! }, lifetimePeakMb);
    process.stdout.write(`GET /destinations vs bare node:http: ${targets.catalogVsBareRatio.measured}×\n`);
    process.stdout.write(`service RSS after start-up, before load: ${idleRssMb} MB\n`);
    process.stdout.write(`service peak RSS over its whole life (VmHWM): ${lifetimePeakMb} MB\n`);
    process.stdout.write(`${printTargets(targets)}\n`);
    const file = writeReport({
      settings: {
        ...settings,
        partners: partnerCount,
        database: 'postgresql',
        redis: Boolean(env.REDIS_URL),
      },
      serviceIdleRssMb: idleRssMb,
      results,
      targets,
    });
    process.stdout.write(`\nwritten to ${file}\n`);
    // Lists (issue 12): a page of 25 out of 10 rows vs 10,000 rows, same database.
    process.stdout.write(`\n${printListsBench(await runListsBench(env))}\n`);
  } finally {
    await database.dispose();
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
