import autocannon from 'autocannon';
import { sampleRss } from './processes.js';

export interface Scenario {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  /** Credentials rotated request by request (one partner per key), sent as `x-api-key`. */
  apiKeys?: string[];
  /** Or any header rotated request by request (e.g. `authorization` with Mobile session tokens). */
  rotate?: { header: string; values: string[] };
  /** Process (tree) whose RSS is sampled while the scenario runs. */
  pid: number;
  /** Overrides the run's connection count (mixed load splits it between scenarios). */
  connections?: number;
  /** Requests per second over all connections (a fixed rate, for CPU per request); unset = as fast as served. */
  rate?: number;
}

export interface LoadSettings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

export interface ScenarioResult {
  name: string;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  peakRssMb: number;
}

function autocannonOptions(scenario: Scenario, connections: number, duration: number): autocannon.Options {
  const rotate =
    scenario.rotate ?? (scenario.apiKeys ? { header: 'x-api-key', values: scenario.apiKeys } : undefined);
  let next = 0;
  return {
    url: scenario.url,
    connections,
    duration,
    ...(scenario.rate !== undefined && { overallRate: scenario.rate }),
    method: scenario.method ?? 'GET',
    body: scenario.body,
    headers: { ...(scenario.body ? { 'content-type': 'application/json' } : {}), ...scenario.headers },
    requests:
      rotate && rotate.values.length > 0
        ? [
            {
              setupRequest: (request) => ({
                ...request,
                headers: {
                  ...request.headers,
                  [rotate.header]: rotate.values[next++ % rotate.values.length]!,
                },
              }),
            },
          ]
        : undefined,
  };
}

/** One autocannon run as a row of the report. */
export function summarize(name: string, result: autocannon.Result, peakRssMb: number): ScenarioResult {
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    peakRssMb: Math.round(peakRssMb),
  };
}

/** Warm-up run (discarded), then the measured run with the server's RSS sampled throughout. */
export async function runScenario(scenario: Scenario, settings: LoadSettings): Promise<ScenarioResult> {
  const connections = scenario.connections ?? settings.connections;
  if (settings.warmupSeconds > 0) {
    await autocannon(autocannonOptions(scenario, connections, settings.warmupSeconds));
  }
  const sampler = sampleRss(scenario.pid);
  const result = await autocannon(autocannonOptions(scenario, connections, settings.durationSeconds));
  return summarize(scenario.name, result, sampler.stop());
}

/** Several scenarios at the same time (no warm-up), RSS of `pid`'s tree sampled throughout. */
export async function runTogether(
  scenarios: Scenario[],
  settings: LoadSettings,
  pid: number,
): Promise<{ results: ScenarioResult[]; peakRssMb: number }> {
  const sampler = sampleRss(pid);
  const raw = await Promise.all(
    scenarios.map((s) =>
      autocannon(autocannonOptions(s, s.connections ?? settings.connections, settings.durationSeconds)),
    ),
  );
  const peakRssMb = sampler.stop();
  return { results: raw.map((r, i) => summarize(scenarios[i]!.name, r, peakRssMb)), peakRssMb };
}

function combine(name: string, runs: ScenarioResult[]): ScenarioResult {
  const sorted = (pick: (r: ScenarioResult) => number) => runs.map(pick).sort((a, b) => a - b);
  const sum = (pick: (r: ScenarioResult) => number) => runs.reduce((s, r) => s + pick(r), 0);
  return {
    name,
    requestsPerSecond: Math.round(sum((r) => r.requestsPerSecond) / runs.length),
    latencyP50Ms: sorted((r) => r.latencyP50Ms)[Math.floor(runs.length / 2)]!,
    latencyP99Ms: Math.max(...runs.map((r) => r.latencyP99Ms)),
    requests: sum((r) => r.requests),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    non2xx: sum((r) => r.non2xx),
    peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)),
  };
}

/**
 * A scenario and its reference, interleaved so that a change of the machine's load hits both:
 * one warm-up each, then `rounds` rounds alternating the order (reference, scenario; scenario,
 * reference; …). req/s is the mean over rounds, p50 the median, p99 the worst.
 */
export async function runPair(
  reference: Scenario,
  scenario: Scenario,
  settings: LoadSettings,
  rounds: number,
  /**
   * Awaited before each measured run: a scenario that leaves background work (the orders' jobs)
   * waits until the service has done it, so neither run is measured beside the other's leftovers.
   */
  settle: () => Promise<unknown> = async () => undefined,
): Promise<{ reference: ScenarioResult; result: ScenarioResult }> {
  const measured = { ...settings, warmupSeconds: 0 };
  if (settings.warmupSeconds > 0) {
    for (const s of [reference, scenario]) {
      await autocannon(autocannonOptions(s, s.connections ?? settings.connections, settings.warmupSeconds));
    }
  }
  const refs: ScenarioResult[] = [];
  const runs: ScenarioResult[] = [];
  for (let i = 0; i < Math.max(1, rounds); i++) {
    const order = i % 2 === 0 ? (['ref', 'run'] as const) : (['run', 'ref'] as const);
    for (const which of order) {
      await settle();
      if (which === 'ref') refs.push(await runScenario(reference, measured));
      else runs.push(await runScenario(scenario, measured));
    }
  }
  return { reference: combine(reference.name, refs), result: combine(scenario.name, runs) };
}
