/**
 * The order scenarios of `npm run bench` (issue 12): the raw-SQL floor (bench/order-floor.ts),
 * Partner `POST /orders` and Mobile wallet checkout, driven one after the other in the same run
 * with the same load, and their ratio to the floor. On PostgreSQL they use the bench database;
 * on PGlite (BENCH_ORDERS_PGLITE=1) the service and the floor each run on their own in-memory
 * PGlite (bench/order-service-pglite.ts seeds the service's).
 */
import autocannon from 'autocannon';
import type { Container } from '../src/container.js';
import { accounts } from '../src/db/schema/index.js';
import { postAdjustment } from '../src/domain/wallet/postings.js';
import { newId } from '../src/lib/ids.js';
import { summarize, type LoadSettings, type ScenarioResult } from './load.js';
import { sampleRss, startChild, type ChildServer } from './processes.js';

export interface OrderTargets {
  /** Partner POST /orders and Mobile checkout against the floor: target ≥ 0.5× on PostgreSQL. */
  partnerVsFloor: number;
  mobileVsFloor: number;
  partnerP99Ms: number;
  mobileP99Ms: number;
  met: boolean;
}

/** Mobile accounts with a session token and a funded wallet (the Mobile checkout scenario). */
export async function seedMobileUsers(
  container: Container,
  count: number,
  balanceCents: number,
): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = newId('acc');
    const now = container.clock.now();
    await container.db.insert(accounts).values({
      id,
      email: `bench-user-${i}-${id.toLowerCase()}@example.com`,
      locale: 'en',
      createdAt: now,
      updatedAt: now,
    });
    const { token } = await container.sessions.issue(container.db, id);
    await container.db.transaction((tx) =>
      postAdjustment(tx, {
        accountId: id,
        amountCents: balanceCents,
        description: 'benchmark funding',
        at: now,
      }),
    );
    tokens.push(token);
  }
  return tokens;
}

interface Drive {
  name: string;
  url: string;
  body: string;
  /** Headers of request n (credentials rotate request by request). */
  headers: (n: number) => Record<string, string>;
  pid: number;
}

function options(drive: Drive, connections: number, duration: number): autocannon.Options {
  let next = 0;
  return {
    url: drive.url,
    connections,
    duration,
    method: 'POST',
    body: drive.body,
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, ...drive.headers(next++) },
        }),
      },
    ],
  };
}

async function run(drive: Drive, settings: LoadSettings): Promise<ScenarioResult> {
  process.stderr.write(`running ${drive.name} …\n`);
  if (settings.warmupSeconds > 0)
    await autocannon(options(drive, settings.connections, settings.warmupSeconds));
  const sampler = sampleRss(drive.pid);
  const result = await autocannon(options(drive, settings.connections, settings.durationSeconds));
  return summarize(drive.name, result, sampler.stop());
}

export interface OrderBenchInput {
  /** `http://127.0.0.1:<port>` of the service. */
  service: { origin: string; pid: number };
  partnerKeys: string[];
  mobileTokens: string[];
  planId: string;
  /** What the floor runs on: the bench database URL, or `pglite`. */
  floorDatabase: string;
  settings: LoadSettings;
  label: string;
}

/** Floor, Partner POST /orders, Mobile checkout; then the ratios. */
export async function runOrderScenarios(
  input: OrderBenchInput,
): Promise<{ results: ScenarioResult[]; targets: OrderTargets }> {
  const floor: ChildServer = await startChild('./order-floor.ts', { args: [input.floorDatabase] });
  const results: ScenarioResult[] = [];
  try {
    const seeded = floor.message as { keys?: string[]; planId?: string };
    const floorKeys = seeded.keys ?? input.partnerKeys;
    results.push(
      await run(
        {
          name: `${input.label} floor: node:http + pg, raw SQL`,
          url: `http://127.0.0.1:${floor.port}/orders`,
          body: JSON.stringify({ planId: seeded.planId ?? input.planId, quantity: 1 }),
          headers: (n) => ({ 'x-api-key': floorKeys[n % floorKeys.length]! }),
          pid: floor.process.pid!,
        },
        input.settings,
      ),
    );
  } finally {
    await floor.stop();
  }
  results.push(
    await run(
      {
        name: `${input.label} Partner POST /orders`,
        url: `${input.service.origin}/api/public/v1/orders`,
        body: JSON.stringify({ planId: input.planId, quantity: 1 }),
        headers: (n) => ({ 'x-api-key': input.partnerKeys[n % input.partnerKeys.length]! }),
        pid: input.service.pid,
      },
      input.settings,
    ),
  );
  results.push(
    await run(
      {
        name: `${input.label} Mobile wallet checkout`,
        url: `${input.service.origin}/api/v1/checkout`,
        body: JSON.stringify({ planId: input.planId, quantity: 1, paymentMethod: 'wallet' }),
        headers: (n) => ({ authorization: `Bearer ${input.mobileTokens[n % input.mobileTokens.length]!}` }),
        pid: input.service.pid,
      },
      input.settings,
    ),
  );
  const [f, p, m] = results as [ScenarioResult, ScenarioResult, ScenarioResult];
  const ratio = (r: ScenarioResult) =>
    Number((r.requestsPerSecond / Math.max(f.requestsPerSecond, 1)).toFixed(3));
  const targets: OrderTargets = {
    partnerVsFloor: ratio(p),
    mobileVsFloor: ratio(m),
    partnerP99Ms: p.latencyP99Ms,
    mobileP99Ms: m.latencyP99Ms,
    met: ratio(p) >= 0.5 && ratio(m) >= 0.5 && p.latencyP99Ms < 50 && m.latencyP99Ms < 50,
  };
  return { results, targets };
}

export function printOrderTargets(label: string, t: OrderTargets): string {
  return [
    `${label} Partner POST /orders vs floor: ${t.partnerVsFloor}× (target ≥ 0.5), p99 ${t.partnerP99Ms} ms (target < 50)`,
    `${label} Mobile wallet checkout vs floor: ${t.mobileVsFloor}× (target ≥ 0.5), p99 ${t.mobileP99Ms} ms (target < 50)`,
  ].join('\n');
}
