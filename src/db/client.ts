import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { MIGRATIONS_FOLDER, type Database, type Db } from './database.js';
import { nameStatementsByText } from './named-statements.js';
import { pgNotifications } from './notifications.js';

export { MIGRATIONS_FOLDER, type Database, type Db, type DbOrTx, type Tx } from './database.js';

/** Arbitrary constant key of the advisory lock held while migrations run. */
const MIGRATION_LOCK_ID = 727_100_014;

export interface DatabaseOptions {
  /** undefined: PGlite files in dataDir; `memory://`: in-memory PGlite; `postgres://…`: a server. */
  url: string | undefined;
  dataDir: string;
  poolSize?: number;
  /** PostgreSQL only: how long to wait for a connection (new or from the pool) before failing. */
  connectTimeoutMs?: number;
}

/**
 * PGlite (a WASM PostgreSQL of ~40 MB resident) is only loaded when it is used, so an instance
 * running on a PostgreSQL server does not carry it.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url && /^postgres(ql)?:/.test(options.url))
    return openPostgres(options.url, options.poolSize ?? 10, options.connectTimeoutMs ?? 3000);
  const { openPglite } = await import('./pglite.js');
  return openPglite(options.url?.startsWith('memory:') ? undefined : options.dataDir);
}

function openPostgres(url: string, max: number, connectTimeoutMs: number): Database {
  // A bounded wait for a connection: while the server is down or restarting, requests fail within
  // connectTimeoutMs (→ 503) instead of queueing; keepAlive notices dead peers.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: connectTimeoutMs,
    keepAlive: true,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // Nor may a checked-out one: pg-pool listens for errors only on idle clients, so a server
  // restart hitting a client between two queries of a transaction would emit an unhandled
  // 'error' and kill the process. The next query on it fails (→ 503) and release drops it.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    nameStatementsByText(client);
  });
  const db = drizzlePg(pool) as unknown as Db;
  const notifications = pgNotifications({ connectionString: url, connectTimeoutMs });
  let closed = false;
  return {
    db,
    kind: 'postgres',
    notifications,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    migrate: async () => {
      // Several processes starting together on a fresh database (API instances, workers) would
      // race to apply the same migrations; a session advisory lock lets one apply them while the
      // others wait, then find nothing left to do.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        try {
          await migratePg(drizzlePg(client) as never, { migrationsFolder: MIGRATIONS_FOLDER });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
        }
      } finally {
        client.release();
      }
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await notifications.close();
      await pool.end();
    },
  };
}
