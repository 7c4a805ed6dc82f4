import { and, desc, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { keysetAfter, type KeysetPage } from '../../db/keyset.js';
import { accounts } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditService } from '../audit/audit.service.js';
import { AppError } from '../errors.js';
import type { Account, SessionService } from '../sessions/sessions.service.js';

export type AdminSettableStatus = 'ACTIVE' | 'SUSPENDED' | 'BANNED';

/** Operator actions on accounts (decisions §6). */
export function createAccountAdmin(deps: {
  db: Db;
  clock: Clock;
  audit: AuditService;
  sessions: Pick<SessionService, 'endAll'>;
}) {
  const { db } = deps;
  return {
    /**
     * Exact match on the normalised address, or on the account id (how a deleted account is
     * found: its address is anonymised to deleted+<id>@invalid, issue 28 H8); the newest 100
     * accounts without a filter.
     */
    async listAccounts(filter: { email?: string | undefined } & KeysetPage): Promise<Account[]> {
      const raw = filter.email?.trim();
      const email = raw?.toLowerCase();
      return db
        .select()
        .from(accounts)
        .where(
          and(
            raw && email ? or(eq(accounts.email, email), eq(accounts.id, raw)) : undefined,
            filter.after ? keysetAfter([accounts.createdAt, accounts.id], filter.after, 'desc') : undefined,
          ),
        )
        .orderBy(desc(accounts.createdAt), desc(accounts.id))
        .limit(filter.limit ?? 100);
    },

    /**
     * Sessions are not deleted: every request re-checks the status, so they stop working at
     * once and come back if the suspension is lifted. A DELETED account cannot be revived.
     */
    async setStatus(accountId: string, status: AdminSettableStatus, requestId?: string): Promise<Account> {
      return db.transaction(async (tx) => {
        const [current] = await tx.select().from(accounts).where(eq(accounts.id, accountId)).for('update');
        if (!current) throw new AppError('ACCOUNT_NOT_FOUND', 'Account not found');
        if (current.status === 'DELETED') throw new AppError('INVALID_STATE', 'The account is deleted');
        const [updated] = await tx
          .update(accounts)
          .set({ status, updatedAt: deps.clock.now() })
          .where(eq(accounts.id, accountId))
          .returning();
        await deps.audit.record(tx, {
          action: 'account.status.update',
          targetType: 'account',
          targetId: accountId,
          before: { status: current.status },
          after: { status },
          ...(requestId ? { requestId } : {}),
        });
        return updated!;
      });
    },

    /**
     * Signs the customer out everywhere (issue 33 O2): every session ends, so each device's next
     * request answers 401; the password and API keys are untouched. The account row is locked (a new
     * session's foreign-key check waits for it), so a racing login lands before the end (and is
     * ended) or after it (and is kept), never half-way.
     */
    async endSessions(accountId: string, requestId?: string): Promise<number> {
      return db.transaction(async (tx) => {
        const [current] = await tx
          .select({ id: accounts.id })
          .from(accounts)
          .where(eq(accounts.id, accountId))
          .for('update');
        if (!current) throw new AppError('ACCOUNT_NOT_FOUND', 'Account not found');
        const ended = await deps.sessions.endAll(tx, accountId);
        await deps.audit.record(tx, {
          action: 'account.sessions.end',
          targetType: 'account',
          targetId: accountId,
          before: { liveSessions: ended },
          after: { liveSessions: 0 },
          ...(requestId ? { requestId } : {}),
        });
        return ended;
      });
    },
  };
}
