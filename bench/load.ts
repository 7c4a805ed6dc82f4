import autocannon from 'autocannon';
import { sampleRss } from './processes.js';

export interface Scenario {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  /** Credentials rotated request by request (one partner per key). */
  apiKeys?: string[];
  /** Process whose RSS is sampled while the scenario runs. */
  pid: number;
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
    headers: scenario.body ? { 'content-type': 'application/json' } : {},
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

/** Warm-up run (discarded), then the measured run with the server's RSS sampled throughout. */
export async function runScenario(scenario: Scenario, settings: LoadSettings): Promise<ScenarioResult> {
  if (settings.warmupSeconds > 0) {
    await autocannon(autocannonOptions(scenario, settings.connections, settings.warmupSeconds));
  }
  const sampler = sampleRss(scenario.pid);
  const result = await autocannon(
    autocannonOptions(scenario, settings.connections, settings.durationSeconds),
  );
  const peakRssMb = sampler.stop();
  return {
    name: scenario.name,
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
