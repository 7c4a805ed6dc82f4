import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchModule, BenchRow } from './harness.js';
import { ratioRow } from './harness.js';
import { runPair } from './load.js';
import { startChild } from './processes.js';

/**
 * Catalog reads vs a bare node:http server answering the bytes the service answered for the same
 * request (captured first), run one after the other with the same load. Target ≥ 0.9× on both
 * databases.
 */
const ENDPOINTS = [
  { name: 'Mobile GET /destinations', path: '/api/v1/destinations', partner: false },
  { name: 'Mobile GET /destinations/TR', path: '/api/v1/destinations/TR', partner: false },
  { name: 'Partner GET /destinations', path: '/api/public/v1/destinations', partner: true },
  { name: 'Partner GET /destinations/TR (plans)', path: '/api/public/v1/destinations/TR', partner: true },
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
      } finally {
        await bare.stop();
      }
    }
    return rows;
  },
};
