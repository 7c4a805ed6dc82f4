import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { LoadSettings, ScenarioResult } from './load.js';

export interface Targets {
  catalogVsBareRatio: { measured: number; target: number; met: boolean };
  ordersP99Ms: { measured: number; target: number; met: boolean };
  servicePeakRssMb: { measured: number; target: number; met: boolean };
}

export interface BenchReport {
  finishedAt: string;
  node: string;
  cpus: number;
  settings: LoadSettings & { partners: number; database: string; redis: boolean };
  /** RSS of the service right after start-up, before any load. */
  serviceIdleRssMb: number;
  results: ScenarioResult[];
  targets: Targets;
}

/**
 * Targets from the issue: catalog ≥ 0.9× bare node:http, orders p99 < 50 ms, RSS < 200 MB. The
 * RSS target is judged on the service's high-water mark over its whole life (start-up, warm-ups
 * and every scenario), the strictest reading.
 */
export function evaluateTargets(
  results: Record<'bare' | 'catalog' | 'orders', ScenarioResult>,
  serviceLifetimePeakRssMb: number,
): Targets {
  const ratio = Number((results.catalog.requestsPerSecond / results.bare.requestsPerSecond).toFixed(3));
  const peak = serviceLifetimePeakRssMb;
  return {
    catalogVsBareRatio: { measured: ratio, target: 0.9, met: ratio >= 0.9 },
    ordersP99Ms: { measured: results.orders.latencyP99Ms, target: 50, met: results.orders.latencyP99Ms < 50 },
    servicePeakRssMb: { measured: peak, target: 200, met: peak < 200 },
  };
}

const COLUMNS: Array<[string, (r: ScenarioResult) => string | number]> = [
  ['scenario', (r) => r.name],
  ['req/s', (r) => r.requestsPerSecond],
  ['p50 ms', (r) => r.latencyP50Ms],
  ['p99 ms', (r) => r.latencyP99Ms],
  ['requests', (r) => r.requests],
  ['errors', (r) => r.errors + r.timeouts],
  ['non-2xx', (r) => r.non2xx],
  ['peak RSS MB', (r) => r.peakRssMb],
];

export function printTable(results: ScenarioResult[]): string {
  const rows = [
    COLUMNS.map(([title]) => title),
    ...results.map((r) => COLUMNS.map(([, cell]) => String(cell(r)))),
  ];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

export function printTargets(targets: Targets): string {
  return Object.entries(targets)
    .map(
      ([name, t]) =>
        `${t.met ? 'met   ' : 'MISSED'} ${name}: ${t.measured} (target ${name === 'catalogVsBareRatio' ? '≥' : '<'} ${t.target})`,
    )
    .join('\n');
}

/** Writes bench/results/latest.json (git-ignored) and returns its path. */
export function writeReport(report: Omit<BenchReport, 'finishedAt' | 'node' | 'cpus'>): string {
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const full: BenchReport = {
    finishedAt: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    ...report,
  };
  const file = `${dir}latest.json`;
  writeFileSync(file, `${JSON.stringify(full, null, 2)}\n`);
  return file;
}
