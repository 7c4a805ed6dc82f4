/**
 * `npm run bench`: every scenario beside its reference, in the same run, on PostgreSQL and on
 * the default on-disk PGlite; one table at the end. A script, not a test.
 *
 * For each database (BENCH_DATABASES, default "postgresql,pglite"):
 * 1. PostgreSQL: BENCH_DATABASE_URL, or a fresh esim_bench_<ts> database on the local server
 *    (dropped afterwards); PGlite: a fresh temporary DATA_DIR. Migrated, start-up tasks run
 *    (catalog import), partners and a login user seeded, from this process; then closed.
 * 2. The service is started as `npm start` runs it (`node <its flags> dist/bundle/main.mjs`, built first unless
 *    BENCH_BUILD=0), BENCH_STARTS times (median start-up to GET /ready 200 is reported), sandbox
 *    providers, the default LOG_LEVEL, rate limits raised out of the way; RSS of its process tree
 *    measured idle.
 * 3. Every module of MODULES runs its scenarios against it, each with its reference (bare
 *    node:http serving the same bytes, argon2id verify loop, …) under the same load, once the
 *    service is quiet again (under 10 % of a core for a second: the worker has run the jobs the
 *    last module left; a wait over 2 s is a row of the table).
 *
 * Knobs: BENCH_CONNECTIONS (32), BENCH_DURATION seconds (5), BENCH_WARMUP seconds (2),
 * BENCH_ROUNDS (2: a scenario and its reference alternate, ABBA), BENCH_HALF_LOAD_SECONDS (10: the
 * orders' open-loop runs at half load), BENCH_PARTNERS (64), BENCH_STARTS (3), BENCH_PORT_BASE (4600: the service and the references
 * use ports BASE…BASE+99), BENCH_REDIS_URL (unset = in-process rate-limit counters),
 * BENCH_MODULES (comma list of module names, default all), BENCH_QUIET_MAX_MS (120 000: the longest
 * wait for a quiet service before a module; 0: none).
 * Prints, and records in the report, what the host costs at start and end (bench/host.ts: a JSON
 * round trip, a system call, a loopback round trip), so that a slow day reads as the host, not the code.
 * Writes bench/results/latest.json and latest.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogModule } from './catalog.js';
import { openBenchDatabase } from './database.js';
import type { BenchContext, BenchDatabaseKind, BenchModule, BenchRow } from './harness.js';
import { describeHost, measureHost } from './host.js';
import type { LoadSettings } from './load.js';
import { loginModule } from './login.js';
import { memoryModule, RSS_TARGET_MB } from './memory.js';
import { ordersModule } from './orders.js';
import { startService, treeRssMb, waitUntilQuiet, type ServiceProcess } from './processes.js';
import { loadAverage, printTable, writeReport } from './report.js';
import { prepare, serviceEnv } from './prepare.js';

/**
 * Scenario modules, run in this order against each database's service. Add yours here; keep
 * memory last (its lifetime peak covers everything before it).
 */
const MODULES: BenchModule[] = [catalogModule, ordersModule, loginModule, memoryModule];

/** Start-up to healthy on PostgreSQL (PGlite: reported). */
const START_TARGET_MS = 1500;

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

const settings: LoadSettings = {
  connections: intEnv('BENCH_CONNECTIONS', 32),
  durationSeconds: intEnv('BENCH_DURATION', 5),
  warmupSeconds: intEnv('BENCH_WARMUP', 2),
};
const halfLoadSeconds = Math.max(1, intEnv('BENCH_HALF_LOAD_SECONDS', 10));
const partnerCount = intEnv('BENCH_PARTNERS', 64);
const starts = Math.max(1, intEnv('BENCH_STARTS', 3));
const rounds = Math.max(1, intEnv('BENCH_ROUNDS', 2));
const portBase = intEnv('BENCH_PORT_BASE', 4600);
const databases = (process.env.BENCH_DATABASES ?? 'postgresql,pglite')
  .split(',')
  .map((d) => d.trim())
  .filter(Boolean) as BenchDatabaseKind[];
const selected = process.env.BENCH_MODULES?.split(',').map((m) => m.trim());
/** A wait for the service to finish the last module's work longer than this shows as a row. */
const QUIET_REPORT_MS = 2_000;
/** The longest wait for a quiet service between modules (BENCH_QUIET_MAX_MS; 0: no wait). */
const quietMaxMs = intEnv('BENCH_QUIET_MAX_MS', 120_000);
/** Generous upper bound of orders per second, to fund every partner for the whole run. */
const MAX_ORDERS_PER_SECOND = 2_000;

let nextPortOffset = 0;
function nextPort(): number {
  const port = portBase + (nextPortOffset++ % 100);
  return port;
}

const log = (message: string) => process.stderr.write(`${message}\n`);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function benchDatabase(database: BenchDatabaseKind): Promise<BenchRow[]> {
  const tmpDir = mkdtempSync(join(tmpdir(), `esim-bench-${database}-`));
  const pg = database === 'postgresql' ? await openBenchDatabase(process.env) : undefined;
  const rows: BenchRow[] = [];
  try {
    const env = serviceEnv(database, pg?.url ?? '', join(tmpDir, 'data'));
    log(`${database}: migrating and seeding ${partnerCount} partners …`);
    const seed = await prepare(env, tmpDir, {
      partners: partnerCount,
      // The open-loop runs send at most half the closed loop's rate, 1 s of warm-up included.
      ordersPerPartner: Math.ceil(
        ((16 * (settings.durationSeconds + settings.warmupSeconds) + halfLoadSeconds + 1) *
          MAX_ORDERS_PER_SECOND) /
          partnerCount,
      ),
    });
    const startTimes: number[] = [];
    let service: ServiceProcess | undefined;
    for (let i = 0; i < starts; i++) {
      await service?.stop();
      service = await startService(env, nextPort());
      startTimes.push(service.startMs);
    }
    const running = service!;
    try {
      const startMs = median(startTimes);
      rows.push({
        scenario: `start-up to GET /ready 200 (median of ${starts}: ${startTimes.join(', ')} ms)`,
        database,
        value: `${startMs} ms`,
        target: database === 'postgresql' ? `< ${START_TARGET_MS} ms` : 'report',
        pass: database === 'postgresql' ? startMs < START_TARGET_MS : undefined,
      });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const idle = Math.round(treeRssMb(running.process.pid!));
      rows.push({
        scenario: 'RSS idle after start-up',
        database,
        value: `${idle} MB`,
        rssMb: idle,
        target: `< ${RSS_TARGET_MB[database]} MB`,
        pass: idle < RSS_TARGET_MB[database],
      });
      const ctx: BenchContext = {
        database,
        settings,
        rounds,
        service: running,
        seed,
        databaseUrl: pg?.url,
        nextPort,
        halfLoadSeconds,
        quietMaxMs,
        tmpDir,
        log,
      };
      for (const module of MODULES) {
        if (selected && !selected.includes(module.name)) continue;
        // Each module measures a quiet service: the worker first finishes what the previous one
        // left (the orders module leaves thousands of jobs). Shown when that took a while.
        const waitedMs = await waitUntilQuiet(running.process.pid!, quietMaxMs);
        if (waitedMs > QUIET_REPORT_MS) {
          rows.push({
            scenario: `service busy before ${module.name} (the last module's jobs)`,
            database,
            value: `${(waitedMs / 1000).toFixed(0)} s`,
            target: 'report',
          });
        }
        rows.push(...(await module.run(ctx)));
      }
    } finally {
      await running.stop();
    }
  } finally {
    await pg?.dispose();
    rmSync(tmpDir, { recursive: true, force: true });
  }
  return rows;
}

async function main(): Promise<void> {
  const startLoad = loadAverage();
  log(`load average at start: ${startLoad.join(' ')}`);
  const startHost = await measureHost();
  log(`host at start: ${describeHost(startHost)}`);
  if (process.env.BENCH_BUILD !== '0') {
    log('building the service (npm run build:server: the esbuild bundle) …');
    execFileSync('npm', ['run', '--silent', 'build:server'], {
      cwd: fileURLToPath(new URL('../', import.meta.url)),
      stdio: 'inherit',
    });
  }
  const rows: BenchRow[] = [];
  for (const database of databases) rows.push(...(await benchDatabase(database)));
  const endLoad = loadAverage();
  const endHost = await measureHost();
  process.stdout.write(`\n${printTable(rows)}\n\n`);
  process.stdout.write(`load average: start ${startLoad.join(' ')}, end ${endLoad.join(' ')}\n`);
  process.stdout.write(`host: start ${describeHost(startHost)}; end ${describeHost(endHost)}\n`);
  const failed = rows.filter((r) => r.pass === false).length;
  process.stdout.write(`${failed === 0 ? 'every target met' : `${failed} target(s) missed`}\n`);
  const file = writeReport({
    loadAverage: { start: startLoad, end: endLoad },
    host: { start: startHost, end: endHost },
    settings: {
      ...settings,
      halfLoadSeconds,
      partners: partnerCount,
      databases,
      redis: Boolean(process.env.BENCH_REDIS_URL),
    },
    rows,
  });
  process.stdout.write(`written to ${file}\n`);
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
