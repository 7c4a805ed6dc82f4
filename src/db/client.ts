import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql, type ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** One type for both drivers: every query in the service is written against this. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Functions that may run inside or outside a transaction take this. */
export type DbOrTx = Db | Tx;

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Cheap round trip used by GET /ready. */
  ping(): Promise<void>;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** undefined: PGlite files in dataDir; `memory://`: in-memory PGlite; `postgres://…`: a server. */
  url: string | undefined;
  dataDir: string;
  poolSize?: number;
}

export function openDatabase(options: DatabaseOptions): Database {
  if (options.url && /^postgres(ql)?:/.test(options.url))
    return openPostgres(options.url, options.poolSize ?? 10);
  const inMemory = options.url?.startsWith('memory:') ?? false;
  if (!inMemory) mkdirSync(options.dataDir, { recursive: true });
  return wrapPglite(inMemory ? new PGlite() : new PGlite(options.dataDir));
}

/** Several app instances in one process (tests of "two instances, one database") share one PGlite. */
export function wrapPglite(client: PGlite, ownsClient = true): Database & { client: PGlite } {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    client,
    kind: 'pglite',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: async () => {
      if (ownsClient && !client.closed) await client.close();
    },
  };
}

function openPostgres(url: string, max: number): Database {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  let closed = false;
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    migrate: () => migratePg(db as never, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
