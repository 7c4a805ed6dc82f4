import { writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import type { BenchContext, BenchModule, BenchRow } from './harness.js';
import { ratioRow } from './harness.js';
import { runPair } from './load.js';
import { type ChildServer, startChild } from './processes.js';

/**
 * Catalog reads vs a bare node:http server answering the bytes the service answered for the same
 * request (captured first), run one after the other with the same load. Target ≥ 0.9× on both
 * databases.
 *
 * For the small detail bodies, where per-request overhead dominates, two report rows measure
 * against the same bare server, once per run (on the first database):
 * - Fastify alone (bench/fastify-server.ts: one route, the same bytes, nothing else): the ceiling
 *   the framework itself leaves;
 * - bare node:http sending the headers the service sent (its security headers, ETag, request id,
 *   and on the Partner API x-livemode and the X-RateLimit-* trio): the ceiling those headers leave,
 *   node's own work and the load generator's for each of them.
 */
const ENDPOINTS = [
  { name: 'Mobile GET /destinations', path: '/api/v1/destinations', partner: false },
  { name: 'Mobile GET /destinations/TR', path: '/api/v1/destinations/TR', partner: false, framework: true },
  { name: 'Partner GET /destinations', path: '/api/public/v1/destinations', partner: true },
  {
    name: 'Partner GET /destinations/TR (plans)',
    path: '/api/public/v1/destinations/TR',
    partner: true,
    framework: true,
  },
];

export const MIN_CATALOG_RATIO = 0.9;

export const catalogModule: BenchModule = {
  name: 'catalog',
  async run(ctx) {
    const rows: BenchRow[] = [];
    // One partner key for reads: a key per request would measure key lookups, not the catalog.
    const key = ctx.seed.partners[0]!.key;
    for (const endpoint of ENDPOINTS) {
      const url = `${ctx.service.base}${endpoint.path}`;
      const headers: Record<string, string> = endpoint.partner ? { 'x-api-key': key } : {};
      const captured = await fetch(url, { headers });
      if (captured.status !== 200) throw new Error(`${endpoint.path} answered ${captured.status}`);
      const file = join(ctx.tmpDir, `${endpoint.name.replace(/\W+/g, '_')}.body`);
      writeFileSync(file, Buffer.from(await captured.arrayBuffer()));
      const contentType = captured.headers.get('content-type') ?? 'application/json';
      const bare = await startChild('./bare-server.ts', { port: ctx.nextPort(), args: [file, contentType] });
      try {
        ctx.log(`${ctx.database}: ${endpoint.name} and bare node:http, ${ctx.rounds} rounds …`);
        const { reference, result } = await runPair(
          {
            name: 'bare node:http, same bytes',
            url: `http://127.0.0.1:${bare.port}/`,
            pid: bare.process.pid!,
          },
          { name: endpoint.name, url, headers, pid: ctx.service.process.pid! },
          ctx.settings,
          ctx.rounds,
        );
        rows.push(ratioRow(endpoint.name, ctx, result, reference, MIN_CATALOG_RATIO));
        if (endpoint.framework && ctx.database === 'postgresql') {
          rows.push(
            await ceilingRow(ctx, bare, `Fastify alone, bytes of ${endpoint.name}`, {
              name: 'Fastify alone',
              entry: './fastify-server.ts',
              args: [file, contentType],
            }),
          );
          const sent = await serviceHeaders(url, headers);
          writeFileSync(`${file}.headers.json`, JSON.stringify(sent));
          const count = sent.length / 2 + 1; // and the request id
          rows.push(
            await ceilingRow(ctx, bare, `bare node:http + the service's ${count} headers, ${endpoint.name}`, {
              name: `bare node:http, ${count} headers`,
              entry: './bare-server.ts',
              args: [file, contentType, `${file}.headers.json`],
            }),
          );
        }
      } finally {
        await bare.stop();
      }
    }
    return rows;
  },
};

/**
 * A report row: another server answering the same bytes (`entry` with `args`), against the same
 * bare server, once. The RSS column stays empty: it is the service's, and that process is not.
 */
async function ceilingRow(
  ctx: BenchContext,
  bare: ChildServer,
  scenario: string,
  server: { name: string; entry: string; args: string[] },
): Promise<BenchRow> {
  const child = await startChild(server.entry, { port: ctx.nextPort(), args: server.args });
  try {
    ctx.log(`${scenario} and bare node:http, ${ctx.rounds} rounds …`);
    const { reference, result } = await runPair(
      { name: 'bare node:http, same bytes', url: `http://127.0.0.1:${bare.port}/`, pid: bare.process.pid! },
      { name: server.name, url: `http://127.0.0.1:${child.port}/`, pid: child.process.pid! },
      ctx.settings,
      ctx.rounds,
    );
    return { ...ratioRow(scenario, ctx, result, reference, undefined), database: '-', rssMb: undefined };
  } finally {
    await child.stop();
  }
}

/**
 * The response headers the service sends to the load generator's request (no Accept-Encoding), as
 * a flat name, value… list; without the ones node:http adds by itself (Date, Connection,
 * Keep-Alive) and the request id, which the bare server makes per response.
 */
function serviceHeaders(url: string, headers: Record<string, string>): Promise<string[]> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      response.resume();
      if (response.statusCode !== 200) return reject(new Error(`${url} answered ${response.statusCode}`));
      const own = new Set(['date', 'connection', 'keep-alive', 'x-request-id']);
      const flat: string[] = [];
      const raw = response.rawHeaders;
      for (let i = 0; i < raw.length; i += 2)
        if (!own.has(raw[i]!.toLowerCase())) flat.push(raw[i]!, raw[i + 1]!);
      resolve(flat);
    }).on('error', reject);
  });
}
