import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { lockDataDir } from './data-dir-lock.js';
import { MIGRATIONS_FOLDER, type Database, type Db } from './database.js';
import { localNotifications } from './notifications.js';

/**
 * Memory settings of the embedded server. PGlite keeps PostgreSQL's defaults (shared_buffers
 * 128 MB, inside the WASM heap): with them the process sat at 500–560 MB. The service's whole
 * database is a few MB per thousand orders, so small buffers cost no reads; the WASM heap grows
 * on demand (up to 2 GB) if a query needs it. Its initial size cannot go below the 128 MB the
 * module declares (only the pages touched count as resident).
 * Durability is unchanged (no relaxedDurability): a commit is in the data directory's files when
 * its query returns. PGlite never flushes them (its fdatasync is a no-op): see docs/operations.md.
 */
export const PGLITE_MEMORY_SETTINGS = [
  '-c',
  'shared_buffers=16MB',
  '-c',
  'work_mem=2MB',
  '-c',
  'maintenance_work_mem=16MB',
  '-c',
  'temp_buffers=2MB',
];

/** Embedded PGlite: files in `dataDir`, or in memory when `dataDir` is undefined. */
export function openPglite(dataDir: string | undefined): Database & { client: PGlite } {
  const options = {
    startParams: [...PGlite.defaultStartParams, ...PGLITE_MEMORY_SETTINGS],
  };
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  // PGlite takes no lock: a second process on the same files would corrupt them.
  const unlock = dataDir === undefined ? undefined : lockDataDir(dataDir);
  const client = dataDir === undefined ? new PGlite(options) : new PGlite(dataDir, options);
  // The one change to PGlite's own query path: its public entry points wait for an event-loop
  // turn. PGlite is used otherwise as it comes, private methods untouched; the patches dropped
  // for want of an upstream issue are in docs/performance.md, "PGlite as it comes".
  yieldingToEventLoop(client);
  const database = wrapPglite(client);
  if (!unlock) return database;
  return {
    ...database,
    close: async () => {
      try {
        await database.close();
      } finally {
        unlock();
      }
    },
  };
}

/**
 * How long PGlite work may run before the event loop gets a turn. PGlite executes each query
 * synchronously in WebAssembly and resolves it as a promise, so a chain of awaited queries (every
 * request and job in flight) runs as microtasks without ever returning to the event loop: under
 * load the server accepted one new connection (and read nothing new) per turn, so clients
 * connecting during a burst waited for every query queued before them (docs/performance.md,
 * "PGlite and the event loop"). Before a query or transaction starts, past this budget, the
 * caller waits for one macrotask (setImmediate) and the loop handles sockets and timers.
 */
export const PGLITE_TURN_MS = 1;

/**
 * `client`'s query entry points, each waiting for the next event-loop turn first when PGlite work
 * has run for `turnMs` since the last one. Queries inside a transaction run on its own handle and
 * do not wait: the transaction holds PGlite meanwhile, and only its start waits.
 */
export function yieldingToEventLoop(client: PGlite, turnMs = PGLITE_TURN_MS): void {
  let turnStarted = performance.now();
  const turn = async (): Promise<void> => {
    if (performance.now() - turnStarted < turnMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    turnStarted = performance.now();
  };
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = (async (...args: Parameters<PGlite['query']>) => {
    await turn();
    return query(...args);
  }) as PGlite['query'];
  client.exec = async (...args: Parameters<PGlite['exec']>) => {
    await turn();
    return exec(...args);
  };
  client.transaction = (async (...args: Parameters<PGlite['transaction']>) => {
    await turn();
    return transaction(...args);
  }) as PGlite['transaction'];
}

/** Several app instances in one process (tests of "two instances, one database") share one PGlite. */
export function wrapPglite(client: PGlite, ownsClient = true): Database & { client: PGlite } {
  const db = drizzlePglite(client) as unknown as Db;
  const notifications = localNotifications();
  return {
    db,
    client,
    kind: 'pglite',
    notifications,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: async () => {
      await notifications.close();
      if (ownsClient && !client.closed) await client.close();
    },
  };
}
