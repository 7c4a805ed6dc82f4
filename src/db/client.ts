import { fileURLToPath } from 'node:url';
import { sql, type ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
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

/**
 * PGlite (a WASM PostgreSQL of ~40 MB resident) is only loaded when it is used, so an instance
 * running on a PostgreSQL server does not carry it.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url && /^postgres(ql)?:/.test(options.url))
    return openPostgres(options.url, options.poolSize ?? 10);
  const { openPglite } = await import('./pglite.js');
  return openPglite(options.url?.startsWith('memory:') ? undefined : options.dataDir);
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
