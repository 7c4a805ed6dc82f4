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

async function freshPglite(): Promise<FreshDatabase> {
  const client = await PGlite.create({ loadDataDir: await migratedTarball() });
  const database = wrapPglite(client);
  return { database, drop: () => database.close() };
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
