/**
 * `npm run bench:web` (also the last part of `npm run bench`): the web app's budget in Chromium.
 *
 * Starts the service (`tsx src/main.ts`, embedded PGlite in a fresh temporary DATA_DIR, port
 * BENCH_WEB_PORT or 4699), opens `/` in Chromium (CHROMIUM_PATH or `chromium` on PATH) and reports:
 * - the JavaScript of `/`: every script the page loaded until the network was idle, as gzip bytes (the precompressed .gz the server sends) and brotli bytes;
 *   budget 100 KB gzip (issue 30 T8);
 * - the time from navigation start to the first destination on screen, cold cache (new browser
 *   context each run) and warm cache, median of BENCH_WEB_RUNS (5);
 * - Largest Contentful Paint of `/` and `/destinations/TR` on a throttled phone (issue 30 T8:
 *   4× CPU slowdown, 1.6 Mbps down, 750 kbps up, 150 ms RTT; 390×844), cold cache, median of
 *   BENCH_WEB_RUNS; budget 1.5 s each.
 * Writes bench/results/web.json. Build first (npm install does it: npm run build:web).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from '../web/e2e/chromium.js';

/** Issue 30 T8: the JavaScript of `/` (docs/web.md, "Budget"). */
const BUDGET_GZIP_BYTES = 100 * 1024;
const LCP_BUDGET_MS = 1500;
const LCP_PATHS = ['/', '/destinations/TR'];
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

    // JavaScript `/` loads: every script until the network is idle (the page is server-rendered,
    // so the first destination is there before any script runs).
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const scripts = new Set<string>();
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.add(new URL(r.url()).pathname);
    });
    await page.goto(`${base}/`, { waitUntil: 'networkidle' });
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

    const lcp: Record<string, number[]> = {};
    for (const path of LCP_PATHS) {
      lcp[path] = [];
      for (let i = 0; i < runs; i++) lcp[path].push(await throttledLcp(browser, `${base}${path}`));
    }

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

    console.log('Largest Contentful Paint, throttled phone (4× CPU, 1.6/0.75 Mbps, 150 ms RTT), cold:');
    const lcpMedians: Record<string, number> = {};
    for (const path of LCP_PATHS) {
      lcpMedians[path] = median(lcp[path]!);
      console.log(
        `  ${path.padEnd(20)} median ${lcpMedians[path].toFixed(0)} ms (${lcp[path]!.map((v) => v.toFixed(0)).join(', ')}): ${lcpMedians[path] < LCP_BUDGET_MS ? 'OK' : 'OVER'} (budget ${LCP_BUDGET_MS} ms)`,
      );
    }
    const lcpWithin = Object.values(lcpMedians).every((v) => v < LCP_BUDGET_MS);

    mkdirSync('bench/results', { recursive: true });
    writeFileSync(
      'bench/results/web.json',
      `${JSON.stringify({ at: new Date().toISOString(), files, total, budgetGzipBytes: BUDGET_GZIP_BYTES, withinBudget, firstDestinationMs: { cold, warm, coldMedian: median(cold), warmMedian: median(warm) }, lcpMs: { runs: lcp, medians: lcpMedians, budget: LCP_BUDGET_MS, within: lcpWithin } }, null, 2)}\n`,
    );
    if (!withinBudget || !lcpWithin) process.exitCode = 1;
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * LCP of `url` in a new context (cold cache) on a throttled phone, through Chromium's DevTools
 * protocol: the network and CPU throttling of Lighthouse's slow-phone profiles.
 */
async function throttledLcp(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(url, { waitUntil: 'load' });
  // The last candidate once the page has settled (the app may paint a larger element later).
  await page.waitForTimeout(1500);
  const value = await page.evaluate<number>(`new Promise((resolve) => {
    new PerformanceObserver((list) => {
      const entries = list.getEntries();
      resolve(entries[entries.length - 1].startTime);
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  })`);
  await context.close();
  return value;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
