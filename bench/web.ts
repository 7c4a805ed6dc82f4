/**
 * `npm run bench:web` (also the last part of `npm run bench`): the web app's budget in Chromium.
 *
 * Starts the service (`tsx src/main.ts`, embedded PGlite in a fresh temporary DATA_DIR, port
 * BENCH_WEB_PORT or 4699), opens `/` in Chromium (CHROMIUM_PATH or `chromium` on PATH) and reports:
 * - the JavaScript needed to render `/`: every script the page loaded before the first
 *   destination appeared, as gzip bytes (the precompressed .gz the server sends) and brotli bytes;
 *   budget 150 KB gzip;
 * - the time from navigation start to the first destination on screen, cold cache (new browser
 *   context each run) and warm cache, median of BENCH_WEB_RUNS (5).
 * Writes bench/results/web.json. Build first (npm install does it: npm run build:web).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from '../web/e2e/chromium.js';

const BUDGET_GZIP_BYTES = 150 * 1024;
const port = Number(process.env.BENCH_WEB_PORT ?? 4699);
const runs = Number(process.env.BENCH_WEB_RUNS ?? 5);
const base = `http://127.0.0.1:${port}`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'esim-bench-web-'));
  // The browser first: without Chromium this fails before there is a server to leave behind.
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: CHROMIUM_ARGS,
  });
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (let i = 0; ; i++) {
      const ready = await fetch(`${base}/ready`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ready) break;
      if (i > 240) throw new Error('service did not become ready');
      await sleep(500);
    }

    // JavaScript loaded for `/` before the first destination shows.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const scripts = new Set<string>();
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.add(new URL(r.url()).pathname);
    });
    await page.goto(`${base}/`);
    await page.waitForSelector('[data-testid="destination-list"] a');
    await context.close();
    const files = [];
    for (const path of scripts) {
      const size = async (encoding: string) => {
        const res = await fetch(`${base}${path}`, { headers: { 'accept-encoding': encoding } });
        const bytes = (await res.arrayBuffer()).byteLength;
        return res.headers.get('content-encoding') === encoding
          ? Number(res.headers.get('content-length') ?? bytes)
          : bytes;
      };
      const raw = (
        await (await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer()
      ).byteLength;
      files.push({ path, raw, gzip: await size('gzip'), brotli: await size('br') });
    }
    const total = files.reduce(
      (t, f) => ({ raw: t.raw + f.raw, gzip: t.gzip + f.gzip, brotli: t.brotli + f.brotli }),
      { raw: 0, gzip: 0, brotli: 0 },
    );

    // Time to the first destination on screen.
    const cold: number[] = [];
    const warm: number[] = [];
    const warmContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const warmPage = await warmContext.newPage();
    await warmPage.goto(`${base}/`);
    await warmPage.waitForSelector('[data-testid="destination-list"] a');
    // Runs in the page (a string: the service's tsconfig has no DOM types).
    const firstDestination = `new Promise((resolve) => {
      const check = () =>
        document.querySelector('[data-testid="destination-list"] a')
          ? resolve(performance.now())
          : requestAnimationFrame(check);
      check();
    })`;
    for (let i = 0; i < runs; i++) {
      const c = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const p = await c.newPage();
      await p.goto(`${base}/`, { waitUntil: 'commit' });
      cold.push(await p.evaluate<number>(firstDestination));
      await c.close();
      await warmPage.goto(`${base}/`, { waitUntil: 'commit' });
      warm.push(await warmPage.evaluate<number>(firstDestination));
    }
    await warmContext.close();

    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log('\nWeb app: JavaScript to render /');
    for (const f of files)
      console.log(
        `  ${f.path.padEnd(44)} ${kb(f.raw).padStart(10)} raw ${kb(f.gzip).padStart(9)} gzip ${kb(f.brotli).padStart(9)} br`,
      );
    console.log(
      `  ${'total'.padEnd(44)} ${kb(total.raw).padStart(10)} raw ${kb(total.gzip).padStart(9)} gzip ${kb(total.brotli).padStart(9)} br`,
    );
    const withinBudget = total.gzip <= BUDGET_GZIP_BYTES;
    console.log(`  budget ${kb(BUDGET_GZIP_BYTES)} gzip: ${withinBudget ? 'OK' : 'OVER'}`);
    console.log(
      `Time to first destination on screen (median of ${runs}): cold ${median(cold).toFixed(0)} ms, warm ${median(warm).toFixed(0)} ms`,
    );

    mkdirSync('bench/results', { recursive: true });
    writeFileSync(
      'bench/results/web.json',
      `${JSON.stringify({ at: new Date().toISOString(), files, total, budgetGzipBytes: BUDGET_GZIP_BYTES, withinBudget, firstDestinationMs: { cold, warm, coldMedian: median(cold), warmMedian: median(warm) } }, null, 2)}\n`,
    );
    if (!withinBudget) process.exitCode = 1;
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
