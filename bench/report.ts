import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './harness.js';
import type { HostCost } from './host.js';
import type { LoadSettings } from './load.js';

export interface BenchReport {
  finishedAt: string;
  node: string;
  cpus: number;
  /** 1, 5 and 15 minute load averages at start and end: the machine is shared. */
  loadAverage: { start: number[]; end: number[] };
  /** What the host's JavaScript, system calls and loopback cost at start and end (bench/host.ts). */
  host?: { start: HostCost; end: HostCost };
  settings: LoadSettings & { halfLoadSeconds: number; partners: number; databases: string[]; redis: boolean };
  rows: BenchRow[];
}

const dash = '–';

const COLUMNS: Array<[string, (r: BenchRow) => string]> = [
  ['scenario', (r) => r.scenario],
  ['db', (r) => r.database],
  ['req/s', (r) => (r.result ? String(r.result.requestsPerSecond) : dash)],
  ['p50 ms', (r) => (r.result ? String(r.result.latencyP50Ms) : dash)],
  ['p99 ms', (r) => (r.result ? String(r.result.latencyP99Ms) : dash)],
  ['RSS MB', (r) => (r.rssMb === undefined ? dash : String(r.rssMb))],
  ['ref req/s', (r) => (r.reference ? String(r.reference.requestsPerSecond) : dash)],
  ['ratio / value', (r) => (r.ratio !== undefined ? `${r.ratio.toFixed(2)}×` : (r.value ?? dash))],
  ['target', (r) => r.target],
  ['result', (r) => (r.pass === undefined ? 'report' : r.pass ? 'pass' : 'FAIL')],
  ['errors', (r) => (r.result ? String(r.result.errors + r.result.timeouts + r.result.non2xx) : dash)],
];

/** One table: every scenario with its reference, ratio, target and pass/fail. */
export function printTable(rows: BenchRow[]): string {
  const cells = [COLUMNS.map(([title]) => title), ...rows.map((r) => COLUMNS.map(([, cell]) => cell(r)))];
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i <= 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join(
    '\n',
  );
}

/** Markdown version of the same table (docs/performance.md). */
export function markdownTable(rows: BenchRow[]): string {
  const header = `| ${COLUMNS.map(([t]) => t).join(' | ')} |`;
  const rule = `| ${COLUMNS.map((_, i) => (i <= 1 ? '---' : '--:')).join(' | ')} |`;
  return [header, rule, ...rows.map((r) => `| ${COLUMNS.map(([, cell]) => cell(r)).join(' | ')} |`)].join(
    '\n',
  );
}

export const loadAverage = () => loadavg().map((n) => Number(n.toFixed(2)));

/** Writes bench/results/<name>.json and .md (git-ignored) and returns the JSON path. */
export function writeReport(
  report: Omit<BenchReport, 'finishedAt' | 'node' | 'cpus'>,
  name = 'latest',
): string {
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const full: BenchReport = {
    finishedAt: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    ...report,
  };
  const file = `${dir}${name}.json`;
  writeFileSync(file, `${JSON.stringify(full, null, 2)}\n`);
  writeFileSync(`${dir}${name}.md`, `${markdownTable(report.rows)}\n`);
  return file;
}
