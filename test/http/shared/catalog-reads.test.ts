import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import { createContainer } from '../../../src/container.js';
import { buildApp } from '../../../src/http/app.js';
import { ManualClock } from '../../../src/lib/clock.js';
import { silentLogger } from '../../../src/lib/logger.js';
import type { TestApp } from '../../helpers/app.js';
import { importCatalog } from '../../helpers/catalog.js';
import { testConfig } from '../../helpers/config.js';
import { freshDatabase, type FreshDatabase } from '../../helpers/database.js';
import { createPartner } from '../partner/helpers.js';

/**
 * Every catalogue read takes the one routed path, whatever the log level: the hooks every guard
 * is made of (the request log, security headers, key check, rate limit, and any added later) see
 * each request. A listening server, because `inject` would skip anything placed in front of
 * Fastify's handler (as the catalog replay was, at `warn` and quieter).
 */
let app: FastifyInstance | undefined;
let fresh: FreshDatabase | undefined;
afterEach(async () => {
  await app?.close();
  await fresh?.drop();
  app = fresh = undefined;
});

describe('catalogue reads at a quiet log level', () => {
  test('repeated cached reads reach the routed app, each one', async () => {
    fresh = await freshDatabase();
    const clock = new ManualClock();
    const container = createContainer({
      config: testConfig({ LOG_LEVEL: 'warn' }),
      database: fresh.database,
      clock,
      log: silentLogger,
    });
    const logged: string[] = [];
    app = await buildApp({
      container,
      logger: { level: 'warn', stream: { write: (l: string) => logged.push(l) } },
    });
    app.addHook('onClose', () => container.close());
    const routed: string[] = [];
    app.addHook('onRequest', async (request) => {
      routed.push(request.url);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    await importCatalog(container);
    const partner = await createPartner({ container } as TestApp);
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    const mobile = '/api/v1/destinations/TR';
    const plans = '/api/public/v1/destinations/TR';
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await fetch(`${base}${mobile}`)).status);
      const read = await fetch(`${base}${plans}`, { headers: partner.headers });
      statuses.push(read.status);
      // The budget is spent by the routed guard on every read.
      expect(read.headers.get('x-ratelimit-remaining')).toBe(String(119 - i));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    expect(routed).toEqual([mobile, plans, mobile, plans, mobile, plans]);
    expect(logged).toEqual([]);
  }, 120_000);
});
