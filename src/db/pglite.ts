import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_FOLDER, type Database, type Db } from './database.js';
import { localNotifications } from './notifications.js';

/**
 * Memory settings of the embedded server. PGlite keeps PostgreSQL's defaults (shared_buffers
 * 128 MB, inside the WASM heap): with them the process sat at 500–560 MB. The service's whole
 * database is a few MB per thousand orders, so small buffers cost no reads; the WASM heap grows
 * on demand (up to 2 GB) if a query needs it. Its initial size cannot go below the 128 MB the
 * module declares (only the pages touched count as resident).
 * Durability is unchanged (no relaxedDurability: a write is on disk when its query returns).
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
  if (dataDir === undefined) return wrapPglite(new PGlite(options));
  mkdirSync(dataDir, { recursive: true });
  return wrapPglite(new PGlite(dataDir, options));
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
