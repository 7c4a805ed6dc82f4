import { and, count, desc, eq, gt, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { placeholders, reusable } from '../../db/reusable.js';
import { accounts, sessions } from '../../db/schema/index.js';
import { DAY, type Clock } from '../../lib/clock.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';

export const SESSION_LIFETIME_MS = 30 * DAY;

export type Account = typeof accounts.$inferSelect;

/** A session as support sees it: when it began and when it runs out, never its token. */
export interface LiveSession {
  createdAt: Date;
  expiresAt: Date;
}

export interface ResolvedSession {
  sessionId: string;
  account: Account;
}

const insertSession = reusable((db) =>
  db
    .insert(sessions)
    .values(placeholders(['id', 'accountId', 'tokenHash', 'createdAt', 'expiresAt']) as never),
);

/** On every signed-in request: built once (src/db/reusable.ts). */
const selectSession = reusable((db) =>
  db
    .select({ sessionId: sessions.id, account: accounts })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        gt(sessions.expiresAt, sql`${sql.placeholder('now')}::timestamptz`),
      ),
    ),
);

/**
 * Opaque session tokens: 32 random bytes handed to the client, only their SHA-256 stored.
 * A session lives 30 days from issue (no sliding renewal) or until logout.
 */
export function createSessionService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    async issue(
      tx: DbOrTx,
      accountId: string,
    ): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
      const token = randomToken(32);
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
      const sessionId = newId('ses');
      await insertSession(tx, {
        id: sessionId,
        accountId,
        tokenHash: sha256Hex(token),
        createdAt: now,
        expiresAt,
      });
      return { token, sessionId, expiresAt };
    },

    /** The session and its account, or null when unknown, expired, or the account is not ACTIVE. */
    async resolve(token: string): Promise<ResolvedSession | null> {
      const [row] = await selectSession(db, {
        tokenHash: sha256Hex(token),
        now: clock.now().toISOString(),
      });
      if (!row || row.account.status !== 'ACTIVE') return null;
      return row;
    },

    async revoke(sessionId: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.id, sessionId));
    },

    /**
     * The account's sessions that still work (not expired), newest first: `count` of them all and
     * the newest `limit`. Sessions store no last-use time, so that is all there is to show.
     */
    async listLive(accountId: string, limit: number): Promise<{ count: number; newest: LiveSession[] }> {
      const live = and(eq(sessions.accountId, accountId), gt(sessions.expiresAt, clock.now()));
      const [total] = await db.select({ n: count() }).from(sessions).where(live);
      const newest = await db
        .select({ createdAt: sessions.createdAt, expiresAt: sessions.expiresAt })
        .from(sessions)
        .where(live)
        .orderBy(desc(sessions.createdAt), desc(sessions.id))
        .limit(limit);
      return { count: total?.n ?? 0, newest };
    },

    /**
     * Deletes every session of the account (expired ones too: they are dead weight); how many of
     * them still worked. The holder's next request answers 401.
     */
    async endAll(tx: DbOrTx, accountId: string): Promise<number> {
      const ended = await tx
        .delete(sessions)
        .where(eq(sessions.accountId, accountId))
        .returning({ expiresAt: sessions.expiresAt });
      const now = clock.now().getTime();
      return ended.filter((s) => s.expiresAt.getTime() > now).length;
    },

    async revokeAll(tx: DbOrTx, accountId: string, exceptSessionId?: string): Promise<void> {
      await tx
        .delete(sessions)
        .where(
          exceptSessionId
            ? and(eq(sessions.accountId, accountId), ne(sessions.id, exceptSessionId))
            : eq(sessions.accountId, accountId),
        );
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
