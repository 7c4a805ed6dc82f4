import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { keysetAfter, type KeysetPage } from '../../db/keyset.js';
import { accounts, operators, supportTickets, ticketMessages } from '../../db/schema/index.js';
import { newId } from '../../lib/ids.js';
import {
  toTicketView,
  type AdminTicketView,
  type OperatorRef,
  type StaffMessageView,
  type TicketRow,
  type TicketStatus,
} from './ticket-views.js';

/** Whose tickets the console's inbox lists: one operator's, nobody's, or (absent) everybody's. */
export type AssigneeFilter = { operatorId: string } | { unassigned: true };

export interface StaffTicketFilter {
  /** One or more statuses; absent or empty: every status. */
  statuses?: readonly TicketStatus[] | undefined;
  assignee?: AssigneeFilter | undefined;
}

export interface OperatorRecord extends OperatorRef {
  status: 'INVITED' | 'ACTIVE' | 'DISABLED';
}

const assignees = alias(operators, 'assignee');

/** A left-joined operator: drizzle answers null when no row matched. */
const ref = (row: OperatorRef | null): OperatorRef | null =>
  row ? { id: row.id, email: row.email, name: row.name } : null;

/**
 * The console's side of support tickets (issue 33): threads WITH internal notes and the names of
 * the operators who wrote them, the inbox by status and assignee, assignment. Every customer-facing
 * read goes through loadThreads (./ticket-views.ts), which leaves notes out.
 */
export function createStaffTicketsRepository(db: Db) {
  /** Every message of the tickets, notes included, oldest first, with their operators (one query). */
  async function staffThreads(
    executor: DbOrTx,
    ticketIds: string[],
  ): Promise<Map<string, StaffMessageView[]>> {
    const byTicket = new Map<string, StaffMessageView[]>();
    if (ticketIds.length === 0) return byTicket;
    const rows = await executor
      .select({
        message: ticketMessages,
        operator: { id: operators.id, email: operators.email, name: operators.name },
      })
      .from(ticketMessages)
      .leftJoin(operators, eq(operators.id, ticketMessages.operatorId))
      .where(inArray(ticketMessages.ticketId, ticketIds))
      .orderBy(asc(ticketMessages.ticketId), asc(ticketMessages.position));
    for (const { message: m, operator } of rows) {
      const list = byTicket.get(m.ticketId) ?? [];
      list.push({
        id: m.id,
        author: m.author,
        message: m.message,
        createdAt: m.createdAt,
        internal: m.internal,
        operator: ref(operator),
      });
      byTicket.set(m.ticketId, list);
    }
    return byTicket;
  }

  /** Ticket, customer address and assignee in one select; `where` picks the tickets. */
  function selectTickets(executor: DbOrTx) {
    return executor
      .select({
        ticket: supportTickets,
        email: accounts.email,
        assignee: { id: assignees.id, email: assignees.email, name: assignees.name },
      })
      .from(supportTickets)
      .leftJoin(accounts, eq(accounts.id, supportTickets.accountId))
      .leftJoin(assignees, eq(assignees.id, supportTickets.assignedOperatorId));
  }

  async function toViews(
    executor: DbOrTx,
    rows: Array<{
      ticket: TicketRow;
      email: string | null;
      assignee: OperatorRef | null;
    }>,
  ): Promise<AdminTicketView[]> {
    const threads = await staffThreads(
      executor,
      rows.map((r) => r.ticket.id),
    );
    return rows.map((r) => ({
      ...toTicketView(r.ticket, threads.get(r.ticket.id) ?? []),
      // Guest tickets have no account: their address is the ticket's own.
      email: r.email ?? r.ticket.guestEmail ?? '',
      assignee: ref(r.assignee),
    }));
  }

  return {
    /** One ticket as the console shows it, or null. */
    async find(ticketId: string, executor: DbOrTx = db): Promise<AdminTicketView | null> {
      const rows = await selectTickets(executor).where(eq(supportTickets.id, ticketId));
      const [view] = await toViews(executor, rows);
      return view ?? null;
    },

    /**
     * The inbox, last activity first (updated_at, id). One status or none walks
     * support_tickets_status_list_idx / support_tickets_list_idx, an assignee
     * support_tickets_assignee_list_idx; several statuses are checked along the walk.
     */
    async list(filter: StaffTicketFilter, page: KeysetPage): Promise<AdminTicketView[]> {
      const statuses = filter.statuses ?? [];
      const assignee = filter.assignee;
      const conditions: Array<SQL | undefined> = [
        statuses.length === 1 ? eq(supportTickets.status, statuses[0]!) : undefined,
        statuses.length > 1 ? inArray(supportTickets.status, [...statuses]) : undefined,
        assignee && 'operatorId' in assignee
          ? eq(supportTickets.assignedOperatorId, assignee.operatorId)
          : undefined,
        assignee && 'unassigned' in assignee ? isNull(supportTickets.assignedOperatorId) : undefined,
        page.after
          ? keysetAfter([supportTickets.updatedAt, supportTickets.id], page.after, 'desc')
          : undefined,
      ];
      const rows = await selectTickets(db)
        .where(and(...conditions))
        .orderBy(desc(supportTickets.updatedAt), desc(supportTickets.id))
        .limit(page.limit ?? 100);
      return toViews(db, rows);
    },

    /** Row-locks a ticket for a change (concurrent notes get consecutive positions). */
    async lock(tx: Tx, ticketId: string): Promise<TicketRow | null> {
      const [row] = await tx
        .select()
        .from(supportTickets)
        .where(eq(supportTickets.id, ticketId))
        .for('update');
      return row ?? null;
    },

    /**
     * An internal note at the end of the thread. The position is shared with the customer's
     * thread (gaps there are invisible); status and last activity (updated_at) stay as they are,
     * so nothing the customer sees (not even their list's order) moves.
     */
    async insertNote(
      tx: Tx,
      input: { ticketId: string; message: string; operatorId: string | null; now: Date },
    ): Promise<{ id: string; position: number }> {
      const [row] = await tx
        .update(supportTickets)
        .set({ messageCount: sql`${supportTickets.messageCount} + 1` })
        .where(eq(supportTickets.id, input.ticketId))
        .returning({ position: supportTickets.messageCount });
      const id = newId('msg');
      await tx.insert(ticketMessages).values({
        id,
        ticketId: input.ticketId,
        author: 'staff',
        message: input.message,
        internal: true,
        operatorId: input.operatorId,
        position: row!.position,
        createdAt: input.now,
      });
      return { id, position: row!.position };
    },

    /** Sets the ticket's owner in the inbox (null: nobody); last activity stays. */
    async setAssignee(tx: Tx, ticketId: string, operatorId: string | null): Promise<void> {
      await tx
        .update(supportTickets)
        .set({ assignedOperatorId: operatorId })
        .where(eq(supportTickets.id, ticketId));
    },

    async findOperator(operatorId: string, executor: DbOrTx = db): Promise<OperatorRecord | null> {
      const [row] = await executor
        .select({ id: operators.id, email: operators.email, name: operators.name, status: operators.status })
        .from(operators)
        .where(eq(operators.id, operatorId));
      return row ?? null;
    },

    /** The account a guest's address belongs to, if any (accounts.email is unique, indexed). */
    async accountIdByEmail(email: string): Promise<string | null> {
      const [row] = await db
        .select({ id: accounts.id })
        .from(accounts)
        .where(eq(accounts.email, email.trim().toLowerCase()));
      return row?.id ?? null;
    },
  };
}

export type StaffTicketsRepository = ReturnType<typeof createStaffTicketsRepository>;
