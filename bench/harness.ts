import type { LoadSettings, ScenarioResult } from './load.js';
import type { ServiceProcess } from './processes.js';
import type { BenchSeed } from './seed.js';

export type BenchDatabaseKind = 'postgresql' | 'pglite';

/** One line of the final table. */
export interface BenchRow {
  scenario: string;
  database: BenchDatabaseKind | '-';
  /** Load figures of the scenario, when it is a load scenario. */
  result?: ScenarioResult;
  /** A single measured value instead (start-up ms, RSS MB), printed in the "value" column. */
  value?: string;
  /** Service (tree) RSS while the scenario ran, MB. */
  rssMb?: number;
  reference?: { name: string; requestsPerSecond: number };
  /** scenario req/s ÷ reference req/s. */
  ratio?: number;
  /** e.g. "≥ 0.9×", "< 200 MB", "report". */
  target: string;
  /** undefined: reported only (no target on this database). */
  pass?: boolean;
}

export interface BenchContext {
  database: BenchDatabaseKind;
  settings: LoadSettings;
  /** Interleaved rounds of a scenario and its reference (runPair). */
  rounds: number;
  /** The service under test, running (as `npm start` runs it). */
  service: ServiceProcess;
  seed: BenchSeed;
  /** PostgreSQL: the bench database's URL (reference servers that share it, e.g. the order floor). */
  databaseUrl?: string;
  /** A free port of the bench's range (BENCH_PORT_BASE…+99) for a reference server. */
  nextPort(): number;
  /** Measured seconds of the orders' open-loop runs at half load (BENCH_HALF_LOAD_SECONDS). */
  halfLoadSeconds: number;
  /** The longest wait for a quiet service (BENCH_QUIET_MAX_MS; 0: none), for waitUntilQuiet. */
  quietMaxMs: number;
  /** Scratch directory of this run. */
  tmpDir: string;
  log(message: string): void;
}

/**
 * A scenario module: runs its scenarios and their references against the running service of
 * one database and returns table rows. Add one to MODULES in bench/run.ts.
 */
export interface BenchModule {
  name: string;
  run(ctx: BenchContext): Promise<BenchRow[]>;
}

/** A load scenario measured against its reference in the same run. */
export function ratioRow(
  scenario: string,
  ctx: BenchContext,
  result: ScenarioResult,
  reference: ScenarioResult,
  minRatio: number | undefined,
): BenchRow {
  const ratio = Number((result.requestsPerSecond / Math.max(1, reference.requestsPerSecond)).toFixed(2));
  const failed = result.errors + result.timeouts + result.non2xx > 0;
  return {
    scenario,
    database: ctx.database,
    result,
    rssMb: result.peakRssMb,
    reference: { name: reference.name, requestsPerSecond: reference.requestsPerSecond },
    ratio,
    target: minRatio === undefined ? 'report' : `≥ ${minRatio}×`,
    pass: minRatio === undefined ? undefined : ratio >= minRatio && !failed,
  };
}
