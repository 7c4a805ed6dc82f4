import { and, asc, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { keysetAfter, type KeysetPage } from '../../db/keyset.js';
import { pushMessages } from '../../db/schema/index.js';

/** The push_messages repository: every push, one row per device (src/db/schema/push.ts). */

export type PushRecord = typeof pushMessages.$inferSelect;
export type NewPushRecord = typeof pushMessages.$inferInsert;
export type PushStatus = PushRecord['status'];

/** Whether a push with `dedupeKey` was recorded for the account before (to any device). */
export async function seenDedupeKey(tx: DbOrTx, accountId: string, dedupeKey: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: pushMessages.id })
    .from(pushMessages)
    .where(and(eq(pushMessages.accountId, accountId), eq(pushMessages.dedupeKey, dedupeKey)))
    .limit(1);
  return row !== undefined;
}

/** Records the rows; a (dedupe key, device) recorded before is skipped. Returns the new ids. */
export async function recordPushes(tx: DbOrTx, rows: NewPushRecord[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await tx
    .insert(pushMessages)
    .values(rows)
    .onConflictDoNothing({ target: [pushMessages.dedupeKey, pushMessages.deviceId] })
    .returning({ id: pushMessages.id });
  return inserted.map((r) => r.id);
}

export async function findPush(db: DbOrTx, id: string): Promise<PushRecord | undefined> {
  const [row] = await db.select().from(pushMessages).where(eq(pushMessages.id, id));
  return row;
}

/**
 * The outcome of one attempt, written only while the message is still pending (a second worker
 * that took over an expired lease finds it settled and leaves it alone).
 */
export async function settleAttempt(
  db: DbOrTx,
  id: string,
  change: { status: PushStatus; error: string | null; sentAt?: Date },
  countAttempt = true,
): Promise<boolean> {
  const updated = await db
    .update(pushMessages)
    .set({ ...change, ...(countAttempt ? { attempts: sql`${pushMessages.attempts} + 1` } : {}) })
    .where(and(eq(pushMessages.id, id), eq(pushMessages.status, 'pending')))
    .returning({ id: pushMessages.id });
  return updated.length > 0;
}

/** Newest first (created_at, id); `after`: keyset position [createdAt, id]. */
export async function listPushes(
  db: Db,
  { accountId, limit = 100, after }: { accountId?: string | undefined } & KeysetPage,
): Promise<PushRecord[]> {
  return db
    .select()
    .from(pushMessages)
    .where(
      and(
        accountId ? eq(pushMessages.accountId, accountId) : undefined,
        after ? keysetAfter([pushMessages.createdAt, pushMessages.id], after, 'desc') : undefined,
      ),
    )
    .orderBy(desc(pushMessages.createdAt), desc(pushMessages.id))
    .limit(limit);
}

/** Every push recorded for the account, newest first (the account holder's data export). */
export async function listAllAccountPushes(db: Db, accountId: string): Promise<PushRecord[]> {
  return db
    .select()
    .from(pushMessages)
    .where(eq(pushMessages.accountId, accountId))
    .orderBy(desc(pushMessages.createdAt), desc(pushMessages.id));
}

/**
 * The account's pushes recorded in [from, until), oldest first, at most `limit`
 * (push_messages_account_list_idx): the candidates of an order's timeline, which picks its own.
 */
export async function listAccountPushesBetween(
  db: Db,
  { accountId, from, until, limit }: { accountId: string; from: Date; until: Date; limit: number },
): Promise<PushRecord[]> {
  return db
    .select()
    .from(pushMessages)
    .where(
      and(
        eq(pushMessages.accountId, accountId),
        gte(pushMessages.createdAt, from),
        lt(pushMessages.createdAt, until),
      ),
    )
    .orderBy(asc(pushMessages.createdAt), asc(pushMessages.id))
    .limit(limit);
}

/**
 * Deletes up to `batch` settled pushes (any state but pending) created before `cutoff`, oldest
 * first; returns how many. A pending one is still being delivered and stays.
 */
export async function deleteSettledBefore(db: Db, cutoff: Date, batch: number): Promise<number> {
  const deleted = await db
    .delete(pushMessages)
    .where(
      sql`${pushMessages.id} in (select ${pushMessages.id} from ${pushMessages}
        where ${pushMessages.createdAt} < ${cutoff.toISOString()}::timestamptz
          and ${pushMessages.status} <> 'pending'
        order by ${pushMessages.createdAt} limit ${batch})`,
    )
    .returning({ id: pushMessages.id });
  return deleted.length;
}
