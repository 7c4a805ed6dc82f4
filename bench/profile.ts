/**
 * `npx tsx bench/profile.ts [path …]`: the service under load with `node --cpu-prof`, then its top
 * self-time functions. Seeds like `npm run bench` (BENCH_PROFILE_DB=postgresql|pglite), starts
 * the service as `npm start` runs it with `--cpu-prof` (build first: npm run build:server), drives each path for
 * BENCH_DURATION seconds (default 10; paths under /api/public/v1 get a partner key; the path
 * "login" posts the seeded login, "orders" places Partner orders with the partners' keys in turn), stops it and prints the 25 functions with the most self time.
 * The .cpuprofile stays in bench/results/profiles/ (open it in Chrome DevTools). Each path also
 * prints its CPU per request (service process and PostgreSQL processes, from /proc);
 * BENCH_PROFILE_CPU_ONLY=1 runs without the profiler and prints only that. BENCH_RATE=<req/s> sends
 * at that fixed rate instead of as fast as served, so that the CPU per request of two trees (or two
 * paths) compares without either saturating a core.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBenchDatabase } from './database.js';
import type { BenchDatabaseKind } from './harness.js';
import { runScenario } from './load.js';
import { prepare, serviceEnv } from './prepare.js';
import { cpuSeconds, startService, waitUntilQuiet } from './processes.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

export function topSelfTime(profile: Profile, count = 25): Array<{ fn: string; percent: number }> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  for (const id of profile.samples) {
    const frame = byId.get(id)!.callFrame;
    const where = frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(dist|src)\//, '$1/');
    const key = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
    totals.set(key, (totals.get(key) ?? 0) + 1);
  }
  const all = profile.samples.length;
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([fn, n]) => ({ fn, percent: Number(((100 * n) / all).toFixed(1)) }));
}

function postgresPids(): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    });
}

async function main(): Promise<void> {
  const paths = process.argv.slice(2);
  if (paths.length === 0) paths.push('/api/v1/destinations');
  const database = (process.env.BENCH_PROFILE_DB ?? 'postgresql') as BenchDatabaseKind;
  const tmp = mkdtempSync(join(tmpdir(), 'esim-profile-'));
  const pg = database === 'postgresql' ? await openBenchDatabase(process.env) : undefined;
  const outDir = fileURLToPath(new URL('./results/profiles/', import.meta.url));
  mkdirSync(outDir, { recursive: true });
  try {
    const env = serviceEnv(database, pg?.url ?? '', join(tmp, 'data'));
    const seed = await prepare(env, tmp, { partners: 4, ordersPerPartner: 100_000 });
    const before = new Set(readdirSync(outDir));
    const cpuOnly = process.env.BENCH_PROFILE_CPU_ONLY === '1';
    const service = await startService(
      env,
      Number(process.env.BENCH_PORT_BASE ?? 4600) + 98,
      cpuOnly ? [] : ['--cpu-prof', `--cpu-prof-dir=${outDir}`],
    );
    try {
      for (const path of paths) {
        const login = path === 'login';
        const order = path === 'orders';
        // Start-up's background work (the search index, first compiles) is not the requests' cost.
        await waitUntilQuiet(service.process.pid!);
        const cpuBefore = [cpuSeconds([service.process.pid!]), cpuSeconds(postgresPids())];
        const result = await runScenario(
          {
            name: path,
            url: `${service.base}${login ? '/api/v1/auth/login' : order ? '/api/public/v1/orders' : path}`,
            method: login || order ? 'POST' : 'GET',
            body: login
              ? JSON.stringify({ email: seed.login.email, password: seed.login.password })
              : order
                ? JSON.stringify({ planId: seed.planId, quantity: 1 })
                : undefined,
            headers: path.startsWith('/api/public/') && !order ? { 'x-api-key': seed.partners[0]!.key } : {},
            ...(order && { apiKeys: seed.partners.map((p) => p.key) }),
            pid: service.process.pid!,
            ...(process.env.BENCH_RATE && { rate: Number(process.env.BENCH_RATE) }),
          },
          {
            connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
            durationSeconds: Number(process.env.BENCH_DURATION ?? 10),
            warmupSeconds: 0,
          },
        );
        process.stdout.write(`${path}: ${result.requestsPerSecond} req/s, p99 ${result.latencyP99Ms} ms\n`);
        // CPU per request from /proc: the service process, and every PostgreSQL process.
        const perRequest = (before: number, after: number) =>
          ((1_000_000 * (after - before)) / Math.max(1, result.requests)).toFixed(1);
        process.stdout.write(
          `  CPU per request: service ${perRequest(cpuBefore[0]!, cpuSeconds([service.process.pid!]))} µs, ` +
            `PostgreSQL ${perRequest(cpuBefore[1]!, cpuSeconds(postgresPids()))} µs (${result.requests} requests)\n`,
        );
      }
    } finally {
      await service.stop();
    }
    if (cpuOnly) return;
    const file = readdirSync(outDir).find((f) => !before.has(f) && f.endsWith('.cpuprofile'));
    if (!file) throw new Error('no .cpuprofile written');
    const profile = JSON.parse(readFileSync(join(outDir, file), 'utf8')) as Profile;
    process.stdout.write(`\n${join(outDir, file)}\nself time:\n`);
    for (const { fn, percent } of topSelfTime(profile))
      process.stdout.write(`${String(percent).padStart(5)}%  ${fn}\n`);
  } finally {
    await pg?.dispose();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('profile.ts'))
  main().catch((err) => {
    process.stderr.write(
      `profile failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  });
