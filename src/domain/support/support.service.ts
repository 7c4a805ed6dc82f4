import type { AlertPort } from '../alerts/ports.js';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { keysetAfter, type KeysetPage } from '../../db/keyset.js';
import { accounts, supportTickets, ticketMessages } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import { AppError } from '../errors.js';
import type { Mailer, MailMessage } from '../mail/mailer.js';
import { guestReplyMail, guestTicketMail, staffReplyMail, systemTicketMail } from './templates.js';
import {
  loadThreads,
  type MessageAuthor,
  type TicketRow,
  type TicketStatus,
  type TicketView,
} from './ticket-views.js';

export * from './ticket-views.js';

/** An operator's request: its id in the audit log, and who wrote a staff reply. */
export interface AdminContext {
  requestId?: string;
  /** The console operator who replies; null or absent for the admin token (ticket_messages.operator_id). */
  operatorId?: string | null;
}

export interface SupportServiceDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  audit: AuditService;
  /** Where the system's own tickets and contact-form tickets are announced (SUPPORT_EMAIL). */
  supportEmail: string;
  /** PUBLIC_BASE_URL: the guest's link to the thread in staff reply mails. */
  publicBaseUrl: string;
  /** Mail is sent after the change committed; a failure to record it must not fail the request. */
  onMailError?: (error: unknown) => void;
  /** Traveller alerts: a staff reply to an account's ticket pushes "support answered" to its devices. */
  alerts?: AlertPort;
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

  /** `guestTokenHash`: a staff reply to a guest ticket replaces the guest's link in the same UPDATE. */
  async function appendMessage(
    tx: Tx,
    ticketId: string,
    input: {
      author: MessageAuthor;
      message: string;
      status: TicketStatus;
      guestTokenHash?: string;
      operatorId?: string | null;
    },
  ): Promise<TicketRow> {
    const now = clock.now();
    const [row] = await tx
      .update(supportTickets)
      .set({
        status: input.status,
        updatedAt: now,
        messageCount: sql`${supportTickets.messageCount} + 1`,
        ...(input.guestTokenHash ? { guestTokenHash: input.guestTokenHash } : {}),
      })
      .where(eq(supportTickets.id, ticketId))
      .returning();
    await tx.insert(ticketMessages).values({
      id: newId('msg'),
      ticketId,
      author: input.author,
      message: input.message,
      operatorId: input.operatorId ?? null,
      position: row!.messageCount,
      createdAt: now,
    });
    return row!;
  }

  /** A guest ticket by the token of its link, row-locked like lockTicket; a wrong token is not found. */
  async function lockGuestTicket(tx: Tx, token: string): Promise<TicketRow> {
    const [row] = await tx
      .select()
      .from(supportTickets)
      .where(eq(supportTickets.guestTokenHash, sha256Hex(token)))
      .for('update');
    if (!row) throw new AppError('TICKET_NOT_FOUND', 'Support ticket not found');
    return row;
  }

  /** The mail a staff reply sends: to the account's owner, or to the guest with a fresh link. */
  async function staffReplyMailFor(
    tx: Tx,
    row: TicketRow,
    reply: string,
    guestToken: string | undefined,
  ): Promise<MailMessage | undefined> {
    if (row.accountId === null) {
      if (!row.guestEmail || !guestToken) return undefined;
      return guestReplyMail({
        to: row.guestEmail,
        locale: row.guestLocale,
        name: row.guestName ?? '',
        ticketId: row.id,
        subject: row.subject,
        reply,
        link: `${deps.publicBaseUrl}/support/guest/${guestToken}`,
      });
    }
    const [owner] = await tx
      .select({ email: accounts.email, locale: accounts.locale, status: accounts.status })
      .from(accounts)
      .where(eq(accounts.id, row.accountId));
    return owner && owner.status !== 'DELETED'
      ? staffReplyMail({
          to: owner.email,
          locale: owner.locale,
          ticketId: row.id,
          subject: row.subject,
          reply,
        })
      : undefined;
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

    /**
     * Staff reply: ticket becomes ANSWERED and the customer is e-mailed in their locale after
     * commit. A guest gets a new link to the thread each time (only its hash is stored, so the raw
     * token exists in that mail alone); the link of an earlier mail stops working.
     */
    async staffReply(ticketId: string, message: string, ctx: AdminContext = {}): Promise<TicketView> {
      const { view, mail } = await db.transaction(async (tx) => {
        const before = await lockTicket(tx, ticketId);
        const guestToken = before.accountId === null ? randomToken() : undefined;
        const row = await appendMessage(tx, ticketId, {
          author: 'staff',
          message,
          status: 'ANSWERED',
          operatorId: ctx.operatorId ?? null,
          ...(guestToken ? { guestTokenHash: sha256Hex(guestToken) } : {}),
        });
        await deps.audit.record(tx, {
          action: 'ticket.reply',
          targetType: 'ticket',
          targetId: ticketId,
          before: { status: before.status },
          after: { status: row.status, messageCount: row.messageCount },
          requestId: ctx.requestId,
        });
        const mail = await staffReplyMailFor(tx, row, message, guestToken);
        // Once per reply (its position in the thread); the reply mail above is its e-mail.
        if (row.accountId)
          await deps.alerts?.send(
            tx,
            row.accountId,
            { kind: 'ticket_answered', ticketId },
            `ticket:${ticketId}:${row.messageCount}`,
          );
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

    /**
     * The contact form (issue 30 T3): a ticket without an account, from `email` and `name`, in the
     * language of the form. The team is told at SUPPORT_EMAIL after commit; the guest hears from
     * us with the first staff reply, whose mail carries the link to the thread.
     */
    async createGuest(input: {
      email: string;
      name: string;
      locale: string;
      subject: string;
      message: string;
    }): Promise<TicketView> {
      const view = await db.transaction(async (tx) => {
        const id = newId('tkt');
        const now = clock.now();
        await tx.insert(supportTickets).values({
          id,
          guestEmail: input.email,
          guestName: input.name,
          guestLocale: input.locale,
          subject: input.subject.trim(),
          category: 'other',
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
      await sendAfterCommit(guestTicketMail({ to: deps.supportEmail, ticketId: view.id, ...input }));
      return view;
    },

    /** The thread behind a guest's link; a wrong or replaced token answers TICKET_NOT_FOUND. */
    async guestThread(token: string): Promise<TicketView> {
      const [row] = await db
        .select()
        .from(supportTickets)
        .where(eq(supportTickets.guestTokenHash, sha256Hex(token)));
      if (!row) throw new AppError('TICKET_NOT_FOUND', 'Support ticket not found');
      return viewOf(db, row);
    },

    /** The guest's answer through the link: like a customer reply, the ticket is OPEN again. */
    async guestReply(token: string, message: string): Promise<TicketView> {
      return db.transaction(async (tx) => {
        const ticket = await lockGuestTicket(tx, token);
        const row = await appendMessage(tx, ticket.id, { author: 'customer', message, status: 'OPEN' });
        return viewOf(tx, row);
      });
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
