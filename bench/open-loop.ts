/**
 * An open-loop load: requests sent at a fixed rate, evenly spaced, whether or not the earlier
 * ones have been answered, each timed from the moment it was due (not from when it left), so a
 * stall of the server or of this sender counts in the latency instead of being skipped.
 *
 * Not autocannon's `overallRate`: autocannon 9 gives each connection a quota of requests per
 * second and sends it back to back as soon as the second starts (measured when this file was
 * written: 200 req/s over 64 connections arrived as ~200 requests in the first 100 ms of each
 * second, then nothing), i.e. a saturating closed-loop burst once a second, and it "corrects" latencies with an
 * expected interval of 1 ms (`Math.ceil(1 / rate)`), adding samples that were never sent.
 */
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import type { Scenario, ScenarioResult } from './load.js';
import { sampleRss } from './processes.js';

export interface OpenLoopResult extends ScenarioResult {
  /** The rate asked for, req/s. */
  requestedRate: number;
  /** Requests sent ÷ the time it took to send them: ≈ requestedRate unless this sender lagged. */
  sentRate: number;
  /** The most requests waiting for an answer at once (the connections an open loop needed). */
  peakInFlight: number;
  /** The longest a request left after it was due (timer and event-loop lag of this process). */
  maxSendLagMs: number;
}

/** Like autocannon's default: a request unanswered after this counts as a timeout. */
const TIMEOUT_MS = 10_000;

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

const tenth = (ms: number) => Math.round(ms * 10) / 10;

export interface OpenLoopOptions {
  /** Requests per second. */
  rate: number;
  /** Measured seconds. */
  durationSeconds: number;
  /**
   * Seconds sent first at the same rate and not counted: they open the connections the rate
   * needs and warm this sender's HTTP client, which would otherwise be the first requests' latency.
   */
  warmupSeconds?: number;
  /** Keep-alive connections opened as needed up to this; beyond it a request waits (and that counts). */
  maxConnections?: number;
}

/**
 * Sends `rate` requests per second to `scenario` (credentials rotated as in autocannon runs) for
 * the warm-up, then for `durationSeconds`. Resolves once every request is answered or timed out;
 * latency percentiles cover the measured 2xx answers.
 */
export async function runOpenLoop(scenario: Scenario, options: OpenLoopOptions): Promise<OpenLoopResult> {
  const { rate, durationSeconds, warmupSeconds = 1, maxConnections = 256 } = options;
  const url = new URL(scenario.url);
  const body = scenario.body === undefined ? undefined : Buffer.from(scenario.body);
  const rotate =
    scenario.rotate ?? (scenario.apiKeys ? { header: 'x-api-key', values: scenario.apiKeys } : undefined);
  const baseHeaders: Record<string, string> = {
    ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
    ...scenario.headers,
  };
  const agent = new Agent({ keepAlive: true, maxSockets: maxConnections });
  const warmup = Math.round(rate * warmupSeconds);
  const total = warmup + Math.max(1, Math.round(rate * durationSeconds));
  const intervalMs = 1000 / rate;
  const latencies: number[] = [];
  // BENCH_TIMELINE=<file>: every measured request as "due ms, latency ms", to see when a tail happens.
  const timeline: string[] = [];
  const counts = { errors: 0, timeouts: 0, non2xx: 0 };
  let inFlight = 0;
  let peakInFlight = 0;
  let maxSendLagMs = 0;
  let lastSentAt = 0;
  // The service forks nothing while it runs: its tree is listed once (see sampleRss).
  const sampler = sampleRss(scenario.pid, 100, true);
  const start = performance.now();

  const send = (index: number): Promise<void> =>
    new Promise((resolve) => {
      const due = start + index * intervalMs;
      const measured = index >= warmup;
      const now = performance.now();
      lastSentAt = now;
      inFlight++;
      if (measured) {
        maxSendLagMs = Math.max(maxSendLagMs, now - due);
        peakInFlight = Math.max(peakInFlight, inFlight);
      }
      const headers = rotate
        ? { ...baseHeaders, [rotate.header]: rotate.values[index % rotate.values.length]! }
        : baseHeaders;
      let settled = false;
      const settle = (outcome: 'ok' | 'non2xx' | 'error' | 'timeout') => {
        if (settled) return;
        settled = true;
        inFlight--;
        if (!measured) return resolve();
        timeline.push(`${tenth(due - start)},${tenth(performance.now() - due)},${outcome}`);
        if (outcome === 'ok') latencies.push(performance.now() - due);
        else if (outcome === 'non2xx') counts.non2xx++;
        else if (outcome === 'timeout') counts.timeouts++;
        else counts.errors++;
        resolve();
      };
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method: scenario.method ?? 'GET',
          headers,
        },
        (res) => {
          res.resume();
          res.once('end', () => settle(res.statusCode! >= 200 && res.statusCode! < 300 ? 'ok' : 'non2xx'));
          res.once('error', () => settle('error'));
        },
      );
      req.setTimeout(TIMEOUT_MS, () => {
        settle('timeout');
        req.destroy();
      });
      req.once('error', () => settle('error'));
      req.end(body);
    });

  const pending: Array<Promise<void>> = [];
  await new Promise<void>((done) => {
    let next = 0;
    // Each tick sends every request already due (catching up after a late timer), then sleeps
    // until the next one is due: the schedule never depends on the answers.
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * intervalMs <= now) pending.push(send(next++));
      if (next >= total) done();
      else setTimeout(tick, Math.max(0, start + next * intervalMs - performance.now()));
    };
    tick();
  });
  const sendSeconds = (lastSentAt - (start + warmup * intervalMs) + intervalMs) / 1000;
  await Promise.all(pending);
  const peakRssMb = sampler.stop();
  agent.destroy();

  const timelineFile = process.env.BENCH_TIMELINE;
  if (timelineFile)
    writeFileSync(
      `${timelineFile}.${scenario.name.replace(/\W+/g, '-')}.csv`,
      [`# start ${Math.round(performance.timeOrigin + start)}`, ...timeline].join('\n'),
    );
  latencies.sort((a, b) => a - b);
  return {
    name: scenario.name,
    // Answered with 2xx per second of the schedule: ≈ the rate when the service keeps up.
    requestsPerSecond: Math.round(latencies.length / durationSeconds),
    latencyP50Ms: tenth(percentile(latencies, 0.5)),
    latencyP99Ms: tenth(percentile(latencies, 0.99)),
    requests: total - warmup,
    ...counts,
    peakRssMb: Math.round(peakRssMb),
    requestedRate: rate,
    sentRate: Math.round((total - warmup) / sendSeconds),
    peakInFlight,
    maxSendLagMs: tenth(maxSendLagMs),
  };
}
