import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.js';
import { wrapPglite } from '../../src/db/pglite.js';

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

export interface FreshDatabase {
  database: Database;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database of its own for every test app or container: with TEST_DATABASE_URL
 * a new PostgreSQL database (created here, dropped by `drop`), otherwise a new in-memory PGlite.
 * Both start from the template the global setup migrated once per run (test/helpers/global-setup.ts).
 */
export async function freshDatabase(): Promise<FreshDatabase> {
  return testDatabaseUrl ? freshPostgres(testDatabaseUrl) : freshPglite();
}

let pgliteTemplate: Promise<Blob> | undefined;

/** The migrated data directory as a tarball: the global setup's file, or made here once per worker. */
function migratedTarball(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const path = inject('pgliteTemplatePath');
    if (path) return new Blob([readFileSync(path)]);
    // Run without the global setup (another config, a single file through an IDE): migrate here.
    const database = wrapPglite(new PGlite());
    await database.migrate();
    const tarball = await database.client.dumpDataDir('none');
    await database.close();
    return tarball;
  })();
  return pgliteTemplate;
}

/**
 * Loading the template into a new PGlite costs ~1 s (its backend starting in WASM), most of a
 * PGlite test run. So a dropped database goes back to this worker's pool, reset to the template's
 * state, and the next test database is one of those: TRUNCATE of every table (the template has
 * no rows) and sequences restarted, tens of milliseconds. A database whose schema a test changed
 * and left changed is closed instead (its schema fingerprint differs from the template's).
 */
const idle: PGlite[] = [];
const MAX_IDLE = 2;
let template: Promise<PoolTemplate | null> | undefined;

interface PoolTemplate {
  fingerprint: string;
  reset: string;
}

async function freshPglite(): Promise<FreshDatabase> {
  const client = idle.pop() ?? (await PGlite.create({ loadDataDir: await migratedTarball() }));
  // Read while the database is still as loaded, before the test writes to it.
  template ??= describeTemplate(client);
  await template;
  // The test gets a fenced handle: once it has dropped the database (which may then serve the
  // next test), anything it left running fails loudly instead of writing into that test's data.
  let dropped = false;
  const fenced = new Proxy(client, {
    get(target, property) {
      if (dropped && (property === 'query' || property === 'exec' || property === 'transaction'))
        return () => Promise.reject(new Error('test database used after it was dropped'));
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const database = wrapPglite(fenced, false);
  pooledClients.set(database, client);
  return {
    database,
    drop: async () => {
      await database.close();
      dropped = true;
      await recycle(client);
    },
  };
}

/** The pooled PGlite behind a test database (for test/db/test-databases.test.ts). */
const pooledClients = new WeakMap<object, PGlite>();
export function pooledClientOf(database: object): PGlite | undefined {
  return pooledClients.get(database);
}

async function recycle(client: PGlite): Promise<void> {
  const plan = await template;
  if (!plan || client.closed || idle.length >= MAX_IDLE || (await fingerprint(client)) !== plan.fingerprint) {
    if (!client.closed) await client.close();
    return;
  }
  await client.exec(plan.reset);
  // Session state a test may leave: settings, prepared statements, temporary tables, locks
  // (a statement of its own: it cannot run in the implicit transaction of a multi-statement exec).
  await client.exec('discard all');
  idle.push(client);
}

/** What a reset must do, read from a database as loaded from the template (null: no pooling). */
async function describeTemplate(client: PGlite): Promise<PoolTemplate | null> {
  const tables = (
    await client.query<{ name: string }>(
      `select quote_ident(tablename) as name from pg_tables where schemaname = 'public' order by 1`,
    )
  ).rows.map((r) => r.name);
  const sequences = (
    await client.query<{ name: string }>(
      `select quote_ident(sequencename) as name from pg_sequences where schemaname = 'public' order by 1`,
    )
  ).rows.map((r) => r.name);
  // A template with rows (a migration seeding data) cannot be restored by TRUNCATE: no pooling.
  for (const table of tables) {
    const { rows } = await client.query(`select 1 from public.${table} limit 1`);
    if (rows.length > 0) return null;
  }
  return {
    fingerprint: await fingerprint(client),
    reset: [
      `truncate ${tables.map((t) => `public.${t}`).join(', ')} restart identity cascade`,
      ...sequences.map((s) => `alter sequence public.${s} restart`),
    ].join(';\n'),
  };
}

/** The public schema's shape: columns, constraints, indexes and functions. */
async function fingerprint(client: PGlite): Promise<string> {
  const { rows } = await client.query<{ hash: string }>(`
    select md5(coalesce(string_agg(item, ',' order by item), '')) as hash from (
      select 'c:' || table_name || '.' || column_name || ':' || data_type || ':' || is_nullable || ':' ||
             coalesce(column_default, '') as item
        from information_schema.columns where table_schema = 'public'
      union all
      select 'k:' || conrelid::regclass::text || '.' || conname || ':' || pg_get_constraintdef(oid)
        from pg_constraint where connamespace = 'public'::regnamespace
      union all
      select 'i:' || indexname || ':' || indexdef from pg_indexes where schemaname = 'public'
      union all
      select 'f:' || proname || ':' || md5(prosrc) from pg_proc where pronamespace = 'public'::regnamespace
    ) items`);
  return rows[0]!.hash;
}

async function freshPostgres(serverUrl: string): Promise<FreshDatabase> {
  const name = `esim_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  const template = inject('postgresTemplateDatabase');
  await adminQuery(
    serverUrl,
    template ? `create database ${name} template ${template}` : `create database ${name}`,
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), dataDir: '' });
  if (!template) await database.migrate();
  return {
    database,
    drop: async () => {
      await database.close();
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
