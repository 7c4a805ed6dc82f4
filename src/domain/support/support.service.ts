import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { keysetAfter, type KeysetPage } from '../../db/keyset.js';
import { accounts, supportTickets, ticketMessages } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import { AppError } from '../errors.js';
import type { Mailer, MailMessage } from '../mail/mailer.js';
import { staffReplyMail, systemTicketMail } from './templates.js';
import {
  loadThreads,
  type AdminTicketView,
  type MessageAuthor,
  type TicketRow,
  type TicketStatus,
  type TicketView,
} from './ticket-views.js';

export * from './ticket-views.js';

/** Who an admin action is attributed to in the audit log. */
export interface AdminContext {
  requestId?: string;
}

export interface SupportServiceDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  audit: AuditService;
  /** Where the system's own tickets are announced (SUPPORT_EMAIL). */
  supportEmail: string;
  /** Mail is sent after the change committed; a failure to record it must not fail the request. */
  onMailError?: (error: unknown) => void;
}

export function createSupportService(deps: SupportServiceDeps) {
  const { db, clock } = deps;

  async function sendAfterCommit(message: MailMessage | undefined): Promise<void> {
    if (!message) return;
    try {
      await deps.mailer.send(message);
    } catch (error) {
      deps.onMailError?.(error);
    }
  }

  async function viewOf(executor: DbOrTx, row: TicketRow): Promise<TicketView> {
    const [view] = await loadThreads(executor, [row]);
    return view!;
  }

  /** Locks the ticket row so concurrent replies get consecutive thread positions. */
  async function lockTicket(tx: Tx, ticketId: string, accountId?: string): Promise<TicketRow> {
    const [row] = await tx
      .select()
      .from(supportTickets)
      .where(
        accountId
          ? and(eq(supportTickets.id, ticketId), eq(supportTickets.accountId, accountId))
          : eq(supportTickets.id, ticketId),
      )
      .for('update');
    // Another account's ticket answers exactly like a missing one: ids are not confirmed.
    if (!row) throw new AppError('TICKET_NOT_FOUND', 'Support ticket not found');
    return row;
  }

  async function appendMessage(
    tx: Tx,
    ticketId: string,
    input: { author: MessageAuthor; message: string; status: TicketStatus },
  ): Promise<TicketRow> {
    const now = clock.now();
    const [row] = await tx
      .update(supportTickets)
      .set({
        status: input.status,
        updatedAt: now,
        messageCount: sql`${supportTickets.messageCount} + 1`,
      })
      .where(eq(supportTickets.id, ticketId))
      .returning();
    await tx.insert(ticketMessages).values({
      id: newId('msg'),
      ticketId,
      author: input.author,
      message: input.message,
      position: row!.messageCount,
      createdAt: now,
    });
    return row!;
  }

  /** The unique partial index on system tickets' order id makes a concurrent second call wait, then reuse. */
  async function systemTicketFor(
    tx: Tx,
    input: { accountId: string; orderId: string; subject: string },
  ): Promise<{ id: string; created: boolean }> {
    const now = clock.now();
    const [inserted] = await tx
      .insert(supportTickets)
      .values({
        id: newId('tkt'),
        accountId: input.accountId,
        subject: input.subject.trim().slice(0, 200),
        category: 'order',
        systemCreated: true,
        orderId: input.orderId,
        status: 'OPEN',
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: supportTickets.id });
    if (inserted) return { id: inserted.id, created: true };
    const [existing] = await tx
      .select({ id: supportTickets.id })
      .from(supportTickets)
      .where(and(eq(supportTickets.orderId, input.orderId), eq(supportTickets.systemCreated, true)));
    return { id: existing!.id, created: false };
  }

  return {
    /** Ticket and its first message are written together. */
    async create(
      accountId: string,
      input: { subject: string; category?: string | undefined; message: string },
    ): Promise<TicketView> {
      return db.transaction(async (tx) => {
        const id = newId('tkt');
        const now = clock.now();
        await tx.insert(supportTickets).values({
          id,
          accountId,
          subject: input.subject.trim(),
          category: input.category ?? 'other',
          status: 'OPEN',
          createdAt: now,
          updatedAt: now,
        });
        const row = await appendMessage(tx, id, {
          author: 'customer',
          message: input.message,
          status: 'OPEN',
        });
        return viewOf(tx, row);
      });
    },

    /** The caller's tickets, most recent activity first, each with its whole thread. */
    /** Last activity first (updated_at, id); `page`: keyset position and size (cursor pagination). */
    async listForAccount(accountId: string, page: KeysetPage = {}): Promise<TicketView[]> {
      const query = db
        .select()
        .from(supportTickets)
        .where(
          and(
            eq(supportTickets.accountId, accountId),
            page.after
              ? keysetAfter([supportTickets.updatedAt, supportTickets.id], page.after, 'desc')
              : undefined,
          ),
        )
        .orderBy(desc(supportTickets.updatedAt), desc(supportTickets.id));
      return loadThreads(db, page.limit === undefined ? await query : await query.limit(page.limit));
    },

    /** A customer reply always leaves the ticket OPEN: it reopens ANSWERED, RESOLVED and CLOSED. */
    async customerReply(accountId: string, ticketId: string, message: string): Promise<TicketView> {
      return db.transaction(async (tx) => {
        await lockTicket(tx, ticketId, accountId);
        const row = await appendMessage(tx, ticketId, { author: 'customer', message, status: 'OPEN' });
        return viewOf(tx, row);
      });
    },

    /** Staff reply: ticket becomes ANSWERED and the customer is e-mailed in their locale after commit. */
    async staffReply(ticketId: string, message: string, ctx: AdminContext = {}): Promise<TicketView> {
      const { view, mail } = await db.transaction(async (tx) => {
        const before = await lockTicket(tx, ticketId);
        const row = await appendMessage(tx, ticketId, { author: 'staff', message, status: 'ANSWERED' });
        await deps.audit.record(tx, {
          action: 'ticket.reply',
          targetType: 'ticket',
          targetId: ticketId,
          before: { status: before.status },
          after: { status: row.status, messageCount: row.messageCount },
          requestId: ctx.requestId,
        });
        const [owner] = await tx
          .select({ email: accounts.email, locale: accounts.locale, status: accounts.status })
          .from(accounts)
          .where(eq(accounts.id, row.accountId));
        const mail =
          owner && owner.status !== 'DELETED'
            ? staffReplyMail({
                to: owner.email,
                locale: owner.locale,
                ticketId,
                subject: row.subject,
                reply: message,
              })
            : undefined;
        return { view: await viewOf(tx, row), mail };
      });
      await sendAfterCommit(mail);
      return view;
    },

    /** Operator status change; a no-op change writes no audit row. */
    async setStatus(ticketId: string, status: TicketStatus, ctx: AdminContext = {}): Promise<TicketView> {
      return db.transaction(async (tx) => {
        const before = await lockTicket(tx, ticketId);
        if (before.status === status) return viewOf(tx, before);
        const [row] = await tx
          .update(supportTickets)
          .set({ status, updatedAt: clock.now() })
          .where(eq(supportTickets.id, ticketId))
          .returning();
        await deps.audit.record(tx, {
          action: 'ticket.status.update',
          targetType: 'ticket',
          targetId: ticketId,
          before: { status: before.status },
          after: { status },
          requestId: ctx.requestId,
        });
        return viewOf(tx, row!);
      });
    },

    /** Operator queue: most recent activity first, optionally one status only. */
    async adminList(
      filter: {
        status?: TicketStatus | undefined;
        limit?: number | undefined;
      } & KeysetPage,
    ): Promise<AdminTicketView[]> {
      const rows = await db
        .select({ ticket: supportTickets, email: accounts.email })
        .from(supportTickets)
        .innerJoin(accounts, eq(accounts.id, supportTickets.accountId))
        .where(
          and(
            filter.status ? eq(supportTickets.status, filter.status) : undefined,
            filter.after
              ? keysetAfter([supportTickets.updatedAt, supportTickets.id], filter.after, 'desc')
              : undefined,
          ),
        )
        .orderBy(desc(supportTickets.updatedAt), desc(supportTickets.id))
        .limit(filter.limit ?? 100);
      const views = await loadThreads(
        db,
        rows.map((r) => r.ticket),
      );
      return views.map((view, i) => ({ ...view, email: rows[i]!.email }));
    },

    /**
     * Opened by the service itself (fulfillment failure). One system ticket per order: a second
     * call for the same order appends its message to that ticket (reopening it) and returns its id.
     * Call it outside any open transaction; it announces new tickets to SUPPORT_EMAIL after commit.
     */
    async openSystemTicket(input: {
      accountId: string;
      orderId: string;
      subject: string;
      message: string;
    }): Promise<{ id: string }> {
      const { id, created } = await db.transaction(async (tx) => {
        const ticket = await systemTicketFor(tx, input);
        await appendMessage(tx, ticket.id, { author: 'system', message: input.message, status: 'OPEN' });
        return ticket;
      });
      if (created) await sendAfterCommit(systemTicketMail({ to: deps.supportEmail, ticketId: id, ...input }));
      return { id };
    },
  };
}

export type SupportService = ReturnType<typeof createSupportService>;
