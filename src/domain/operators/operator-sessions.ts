import { and, desc, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { operators, operatorSessions, type OperatorRole } from '../../db/schema/index.js';
import { HOUR, MINUTE, type Clock } from '../../lib/clock.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';

/** A console session ends after this long without a request (issue 33 O1). */
export const OPERATOR_IDLE_TIMEOUT_MS = 12 * HOUR;
/**
 * ... and 24 hours after sign-in whatever its use: a console cookie carries refunds and wallet
 * adjustments, so a copied one must not live on by being used. A shift signs in once.
 */
export const OPERATOR_SESSION_LIFETIME_MS = 24 * HOUR;
/** last_seen_at is written at most this often per session, not on every request. */
const TOUCH_EVERY_MS = MINUTE;

export type Operator = typeof operators.$inferSelect;
export type OperatorSessionRow = typeof operatorSessions.$inferSelect;

/** Who is acting in the console: the operator of a valid session. */
export interface OperatorIdentity {
  id: string;
  email: string;
  name: string;
  role: OperatorRole;
  sessionId: string;
}

/**
 * Console sessions (the `operator_sessions` table's one owner): opaque 32-byte tokens, only their
 * SHA-256 stored, a 12-hour idle timeout and a 24-hour lifetime, ended by sign-out, an Owner, or
 * disabling the operator.
 */
export function createOperatorSessions(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  const idleCutoff = () => new Date(clock.now().getTime() - OPERATOR_IDLE_TIMEOUT_MS);
  const lifetimeCutoff = () => new Date(clock.now().getTime() - OPERATOR_SESSION_LIFETIME_MS);
  /** Not ended, used within the idle timeout, signed in within the lifetime. */
  const live = () =>
    and(
      isNull(operatorSessions.endedAt),
      gt(operatorSessions.lastSeenAt, idleCutoff()),
      gt(operatorSessions.createdAt, lifetimeCutoff()),
    );

  return {
    async issue(
      tx: DbOrTx,
      operatorId: string,
      client: { ip?: string | undefined; userAgent?: string | undefined },
    ): Promise<{ token: string; sessionId: string }> {
      const token = randomToken(32);
      const now = clock.now();
      const sessionId = newId('ops');
      await tx.insert(operatorSessions).values({
        id: sessionId,
        operatorId,
        tokenHash: sha256Hex(token),
        ip: client.ip ?? null,
        userAgent: client.userAgent?.slice(0, 300) ?? null,
        createdAt: now,
        lastSeenAt: now,
      });
      return { token, sessionId };
    },

    /** The operator of a live session (see `live`), operator ACTIVE, or null. */
    async resolve(token: string): Promise<OperatorIdentity | null> {
      const [row] = await db
        .select({ session: operatorSessions, operator: operators })
        .from(operatorSessions)
        .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
        .where(and(eq(operatorSessions.tokenHash, sha256Hex(token)), live()));
      if (!row || row.operator.status !== 'ACTIVE') return null;
      const now = clock.now();
      if (now.getTime() - row.session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
        await db
          .update(operatorSessions)
          .set({ lastSeenAt: now })
          .where(eq(operatorSessions.id, row.session.id));
      }
      const { id, email, name, role } = row.operator;
      return { id, email, name, role, sessionId: row.session.id };
    },

    async end(sessionId: string, tx: DbOrTx = db): Promise<OperatorSessionRow | null> {
      const [row] = await tx
        .update(operatorSessions)
        .set({ endedAt: clock.now() })
        .where(and(eq(operatorSessions.id, sessionId), isNull(operatorSessions.endedAt)))
        .returning();
      return row ?? null;
    },

    async endAll(operatorId: string, tx: DbOrTx = db): Promise<number> {
      const rows = await tx
        .update(operatorSessions)
        .set({ endedAt: clock.now() })
        .where(and(eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.endedAt)))
        .returning({ id: operatorSessions.id });
      return rows.length;
    },

    /** An operator's live sessions, most recently used first. */
    async listLive(operatorId: string): Promise<OperatorSessionRow[]> {
      return db
        .select()
        .from(operatorSessions)
        .where(and(eq(operatorSessions.operatorId, operatorId), live()))
        .orderBy(desc(operatorSessions.lastSeenAt));
    },

    /** Rows idle, or signed in, a day past their limit: the maintenance job deletes them. */
    async purgeStale(tx: DbOrTx): Promise<number> {
      const dayBefore = (cutoff: Date) => new Date(cutoff.getTime() - 24 * HOUR);
      const rows = await tx
        .delete(operatorSessions)
        .where(
          or(
            lt(operatorSessions.lastSeenAt, dayBefore(idleCutoff())),
            lt(operatorSessions.createdAt, dayBefore(lifetimeCutoff())),
          ),
        )
        .returning({ id: operatorSessions.id });
      return rows.length;
    },
  };
}

export type OperatorSessions = ReturnType<typeof createOperatorSessions>;
