import autocannon from 'autocannon';
import { sampleRss } from './processes.js';

export interface Scenario {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  /** Credentials rotated request by request (one partner per key). */
  apiKeys?: string[];
  /** Process (tree) whose RSS is sampled while the scenario runs. */
  pid: number;
  /** Overrides the run's connection count (mixed load splits it between scenarios). */
  connections?: number;
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
  const keys = scenario.apiKeys ?? [];
  let next = 0;
  return {
    url: scenario.url,
    connections,
    duration,
    method: scenario.method ?? 'GET',
    body: scenario.body,
    headers: { ...(scenario.body ? { 'content-type': 'application/json' } : {}), ...scenario.headers },
    requests:
      keys.length > 0
        ? [
            {
              setupRequest: (request) => ({
                ...request,
                headers: { ...request.headers, 'x-api-key': keys[next++ % keys.length]! },
              }),
            },
          ]
        : undefined,
  };
}

function summarize(name: string, result: autocannon.Result, peakRssMb: number): ScenarioResult {
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
