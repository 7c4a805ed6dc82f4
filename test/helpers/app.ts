import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { loadConfig, type Config } from '../../src/config/index.js';
import type { Container } from '../../src/container.js';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, type Database } from '../../src/db/client.js';
import { wrapPglite } from '../../src/db/pglite.js';
import { buildApp } from '../../src/http/app.js';
import { ManualClock } from '../../src/lib/clock.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const BASE_URL = 'http://localhost:3000';

export interface TestApp {
  app: FastifyInstance;
  container: Container;
  clock: ManualClock;
  database: Database;
  config: Readonly<Config>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment variables, as a user would set them. */
  env?: Record<string, string | undefined>;
  clock?: ManualClock;
  /** Second instance on the same database (and Redis key space) as this one. */
  shareWith?: TestApp;
  configure?: (container: Container) => void;
}

const testDatabaseUrl = process.env.TEST_DATABASE_URL;
const testRedisUrl = process.env.TEST_REDIS_URL;
let template: Promise<PGlite> | undefined;

/**
 * A fresh PostgreSQL database per test app when TEST_DATABASE_URL is set (created here, dropped
 * on close); otherwise a fresh in-memory PGlite. Same migrations either way.
 */
export async function freshDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (!testDatabaseUrl) {
    // Migrate one in-memory PGlite per test worker, then hand each app a clone of it: a clone
    // costs a fraction of a cold start plus migrations.
    template ??= (async () => {
      const db = wrapPglite(new PGlite());
      await db.migrate();
      return db.client;
    })();
    const database = wrapPglite((await (await template).clone()) as PGlite);
    return { database, drop: async () => database.close() };
  }
  const name = `esim_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), dataDir: '' });
  await database.migrate();
  return {
    database,
    drop: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: testDatabaseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const clock = options.clock ?? options.shareWith?.clock ?? new ManualClock();
  const redisPrefix = options.shareWith
    ? options.shareWith.config.redisKeyPrefix
    : `esim-test:${randomBytes(6).toString('hex')}:`;
  const config = loadConfig({
    PUBLIC_BASE_URL: BASE_URL,
    ADMIN_TOKEN: 'ADMIN_TOKEN' in (options.env ?? {}) ? options.env!.ADMIN_TOKEN : ADMIN_TOKEN,
    LOG_LEVEL: 'silent',
    WORKER_ENABLED: 'false',
    DATABASE_URL: 'memory://',
    REDIS_URL: testRedisUrl,
    REDIS_KEY_PREFIX: redisPrefix,
    // Tests send every request from 127.0.0.1 and register many accounts; the register limit
    // and app redirect schemes are exercised explicitly in test/http/security/*.
    REGISTER_RATE_LIMIT: '100000',
    APP_URL_SCHEMES: 'myapp',
    ...options.env,
  });
  const shared = options.shareWith;
  const fresh = shared ? undefined : await freshDatabase();
  const database = shared ? shared.database : fresh!.database;
  const app = await buildApp({ config, database, clock, logger: false, configure: options.configure });
  await app.ready();
  return {
    app,
    container: app.container,
    clock,
    database,
    config,
    close: async () => {
      await app.close();
      if (fresh) await fresh.drop();
    },
  };
}
