import { fileURLToPath } from 'node:url';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { Notifications } from './notifications.js';

/**
 * One type for both drivers: every query in the service is written against this. Without the
 * relational query API (`db.query.*`, unused): Drizzle builds its per-table query objects for
 * every transaction when given the schema, ~2 % of the CPU of an order.
 */
export type Db = PgDatabase<PgQueryResultHKT>;
type NoSchema = Record<string, never>;
export type Tx = PgTransaction<PgQueryResultHKT, NoSchema, ExtractTablesWithRelations<NoSchema>>;
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
  /** Change notifications between instances (LISTEN/NOTIFY on PostgreSQL, in-process on PGlite). */
  notifications: Notifications;
  /** Connection pool use (PostgreSQL only; PGlite has one in-process connection). */
  poolStats?: () => { total: number; idle: number; waiting: number; max: number };
}
