import { and, desc, eq, gte, like, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { keysetAfter, type KeyValue } from '../../db/keyset.js';
import { auditLog, operators } from '../../db/schema/index.js';
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

/** A row of the console's audit log: an operator actor's address and name beside it (issue 33). */
export type AuditRecordWithActor = AuditRecord & { actorEmail: string | null; actorName: string | null };

export interface AuditFilter {
  /** One object id (account, order, ticket, plan …). */
  target?: string | undefined;
  /** Only this partner's own changes. */
  partnerId?: string | undefined;
  /** Exactly this actor: `token`, `operator:<id>`, `system`, `account:<id>` … */
  actor?: string | undefined;
  /** Actions starting with this (`ticket.` → ticket.reply, ticket.note …); matched literally. */
  actionPrefix?: string | undefined;
  /** created_at at or after. */
  from?: Date | undefined;
  /** created_at before. */
  to?: Date | undefined;
  limit?: number | undefined;
  before?: AuditRecord;
  after?: readonly KeyValue[] | undefined;
}

/** LIKE's own characters in a prefix taken literally (backslash is PostgreSQL's default escape). */
const literalPrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function conditionsOf(filter: AuditFilter): SQL | undefined {
  const conditions: Array<SQL | undefined> = [
    filter.target ? eq(auditLog.targetId, filter.target) : undefined,
    filter.partnerId ? eq(auditLog.partnerId, filter.partnerId) : undefined,
    filter.actor ? eq(auditLog.actor, filter.actor) : undefined,
    filter.actionPrefix ? like(auditLog.action, literalPrefix(filter.actionPrefix)) : undefined,
    filter.from ? gte(auditLog.createdAt, filter.from) : undefined,
    filter.to ? lt(auditLog.createdAt, filter.to) : undefined,
    filter.after ? keysetAfter([auditLog.createdAt, auditLog.id], filter.after, 'desc') : undefined,
  ];
  if (filter.before) {
    conditions.push(
      or(
        lt(auditLog.createdAt, filter.before.createdAt),
        and(eq(auditLog.createdAt, filter.before.createdAt), lt(auditLog.id, filter.before.id)),
      ),
    );
  }
  return and(...conditions);
}

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

    /** Newest first (created_at, id); `after` = keyset position [createdAt, id] (cursor pagination). */
    async list(filter: AuditFilter): Promise<AuditRecord[]> {
      return deps.db
        .select()
        .from(auditLog)
        .where(conditionsOf(filter))
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(filter.limit ?? 100);
    },

    /**
     * The console's audit log: `list` with each operator actor's e-mail and name, joined in the
     * same query (`operator:<id>` → operators.id; operators are few, so the join is cheap).
     */
    async listWithActors(filter: AuditFilter): Promise<AuditRecordWithActor[]> {
      const rows = await deps.db
        .select({ entry: auditLog, actorEmail: operators.email, actorName: operators.name })
        .from(auditLog)
        .leftJoin(operators, eq(auditLog.actor, sql`'operator:' || ${operators.id}`))
        .where(conditionsOf(filter))
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(filter.limit ?? 100);
      return rows.map((r) => ({ ...r.entry, actorEmail: r.actorEmail, actorName: r.actorName }));
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
