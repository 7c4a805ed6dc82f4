import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { importCatalog, pickPlan } from '../../helpers/catalog.js';
import { createUser } from '../../helpers/factories.js';

/**
 * Every instance learns catalog and rate changes within 1 s without reading the database per
 * request: LISTEN/NOTIFY on PostgreSQL (with a poll of the version row while the listener
 * connection is down), in-process on PGlite.
 */
let t: TestApp;
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

const get = (app: TestApp, url = '/api/v1/destinations/TR') => app.app.inject({ method: 'GET', url });
const versionOf = (etag: unknown) => Number(/^W\/"(\d+)-/.exec(String(etag))?.[1]);

async function eventually<T>(probe: () => Promise<T>, ok: (value: T) => boolean, withinMs: number) {
  const started = Date.now();
  let value = await probe();
  while (!ok(value) && Date.now() - started < withinMs) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    value = await probe();
  }
  return { value, elapsedMs: Date.now() - started };
}

/** A plain connection to the test app's own database, as another process would open it. */
async function rawClient(app: TestApp): Promise<pg.Client> {
  const result = await app.container.db.execute<{ name: string }>(sql`select current_database() as name`);
  const name = (result as { rows: Array<{ name: string }> }).rows[0]!.name;
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return client;
}

beforeAll(async () => {
  t = await buildTestApp();
  await importCatalog(t.container);
}, 120_000);
afterAll(async () => t.close());

describe('catalog changes reach every instance', () => {
  test('a price change on one instance is served by the other within 1 s', async () => {
    const other = await buildTestApp({ shareWith: t });
    const plan = await pickPlan(t.container, { destination: 'TR' });
    try {
      // Both instances have served (and cached) the detail before the change.
      const before = await get(other);
      expect(before.statusCode).toBe(200);
      expect((await get(t)).statusCode).toBe(200);
      const patch = await t.app.inject({
        method: 'PATCH',
        url: `/api/admin/v1/plans/${plan.id}`,
        headers: admin,
        payload: { priceUsd: 0.77 },
      });
      expect(patch.statusCode).toBe(200);
      const { value, elapsedMs } = await eventually(
        () => get(other),
        (res) =>
          res.json().destination.plans.some((p: { price: { amount: number } }) => p.price.amount === 0.77),
        1000,
      );
      expect(elapsedMs).toBeLessThanOrEqual(1000);
      expect(value.headers.etag).not.toBe(before.headers.etag);
    } finally {
      await t.app.inject({
        method: 'PATCH',
        url: `/api/admin/v1/plans/${plan.id}`,
        headers: admin,
        payload: { priceUsd: null },
      });
      await other.close();
    }
  });

  test('a cached catalog request does not read the database (Mobile, and Partner with a key checked < 1 s ago)', async () => {
    const user = await createUser(t.container, {});
    const { key } = await t.container.apiKeys.generate(user.id);
    const partner = (url: string) => t.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
    const urls = ['/api/v1/destinations', '/api/v1/destinations/TR', '/api/v1/destinations?filter=popular'];
    const partnerUrls = ['/api/public/v1/destinations', '/api/public/v1/destinations/TR'];
    for (const url of urls) expect((await get(t, url)).statusCode).toBe(200);
    for (const url of partnerUrls) expect((await partner(url)).statusCode).toBe(200);
    const spies = onPostgres
      ? [vi.spyOn(pg.Client.prototype, 'query')]
      : (() => {
          const client = (t.database as unknown as { client: PGlite }).client;
          return [vi.spyOn(client, 'query'), vi.spyOn(client, 'exec'), vi.spyOn(client, 'transaction')];
        })();
    try {
      for (let i = 0; i < 3; i++) {
        for (const url of urls) expect((await get(t, url)).statusCode).toBe(200);
        for (const url of partnerUrls) expect((await partner(url)).statusCode).toBe(200);
      }
      expect(spies.map((s) => s.mock.calls.length)).toEqual(spies.map(() => 0));
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  test.runIf(onPostgres)('PostgreSQL: a NOTIFY from another process is seen within 1 s', async () => {
    const start = versionOf((await get(t)).headers.etag);
    const client = await rawClient(t);
    try {
      await client.query('begin');
      const { rows } = await client.query<{ version: number }>(
        "update catalog_state set version = version + 1 where id = 'catalog' returning version",
      );
      await client.query('select pg_notify($1, $2)', ['esim_catalog', String(rows[0]!.version)]);
      await client.query('commit');
      const { value } = await eventually(
        async () => versionOf((await get(t)).headers.etag),
        (v) => v > start,
        1000,
      );
      expect(value).toBe(rows[0]!.version);
    } finally {
      await client.end();
    }
  });

  test.runIf(onPostgres)(
    'PostgreSQL: while the listener connection is down, a poll finds changes within 1 s',
    async () => {
      const start = versionOf((await get(t)).headers.etag);
      const client = await rawClient(t);
      try {
        const killed = await client.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen %'",
        );
        expect(killed.rowCount).toBeGreaterThan(0);
        // Give the service a moment to notice the lost connection, then change without a NOTIFY.
        await new Promise((resolve) => setTimeout(resolve, 100));
        const { rows } = await client.query<{ version: number }>(
          "update catalog_state set version = version + 1 where id = 'catalog' returning version",
        );
        const { value } = await eventually(
          async () => versionOf((await get(t)).headers.etag),
          (v) => v >= rows[0]!.version,
          1000,
        );
        expect(value).toBe(rows[0]!.version);
        expect(value).toBeGreaterThan(start);
      } finally {
        await client.end();
      }
    },
  );
});
