import { and, desc, eq, lt, or } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { keysetAfter, type KeyValue } from '../../db/keyset.js';
import { auditLog } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { currentActor } from '../../lib/actor-context.js';
import { newId } from '../../lib/ids.js';

export interface AuditEntry {
  /** Dotted verb, e.g. `account.status.update`, `wallet.adjust`, `order.refund`. */
  action: string;
  targetType: string;
  targetId: string;
  /** Small before/after summaries of what changed, never secrets. */
  before?: unknown;
  after?: unknown;
  requestId?: string;
  /**
   * `token`, `operator:<id>`, `account:<id>`, `api_key` or `system` (see audit_log.actor); by
   * default the actor of the request in progress (src/lib/actor-context.ts).
   */
  actor?: string;
  /** A partner's own change: listed in that partner's dashboard audit log (issue 32 C4). */
  partnerId?: string;
}

export type AuditRecord = typeof auditLog.$inferSelect;

/** The operator audit trail: every state-changing admin action writes one row. */
export function createAuditService(deps: { db: Db; clock: Clock }) {
  return {
    /** Pass the action's transaction so the audit row commits (or not) with the change. */
    async record(tx: DbOrTx, entry: AuditEntry): Promise<void> {
      await tx.insert(auditLog).values({
        id: newId('aud'),
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId,
        before: entry.before ?? null,
        after: entry.after ?? null,
        requestId: entry.requestId ?? null,
        actor: entry.actor ?? currentActor() ?? null,
        partnerId: entry.partnerId ?? null,
        createdAt: deps.clock.now(),
      });
    },

    /** Newest first; `before` is a cursor (the id of the last row of the previous page). */
    /** Newest first (created_at, id); `after` = keyset position [createdAt, id] (cursor pagination). */
    async list(filter: {
      target?: string | undefined;
      /** Only this partner's own changes. */
      partnerId?: string | undefined;
      limit?: number | undefined;
      before?: AuditRecord;
      after?: readonly KeyValue[] | undefined;
    }): Promise<AuditRecord[]> {
      const conditions = [];
      if (filter.target) conditions.push(eq(auditLog.targetId, filter.target));
      if (filter.partnerId) conditions.push(eq(auditLog.partnerId, filter.partnerId));
      if (filter.after) conditions.push(keysetAfter([auditLog.createdAt, auditLog.id], filter.after, 'desc'));
      if (filter.before) {
        conditions.push(
          or(
            lt(auditLog.createdAt, filter.before.createdAt),
            and(eq(auditLog.createdAt, filter.before.createdAt), lt(auditLog.id, filter.before.id)),
          ),
        );
      }
      return deps.db
        .select()
        .from(auditLog)
        .where(conditions.length ? and(...conditions) : undefined)
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(filter.limit ?? 100);
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
