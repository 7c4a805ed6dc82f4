import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import type { supportTickets } from '../../db/schema/index.js';
import { ticketMessages } from '../../db/schema/index.js';

export const TICKET_CATEGORIES = ['order', 'payment', 'esim', 'account', 'other'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];
export const TICKET_STATUSES = ['OPEN', 'ANSWERED', 'RESOLVED', 'CLOSED'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export type MessageAuthor = 'customer' | 'staff' | 'system';

export interface TicketMessageView {
  id: string;
  author: MessageAuthor;
  message: string;
  createdAt: Date;
}

export interface TicketView {
  id: string;
  /** Null on a guest ticket (contact form). */
  accountId: string | null;
  /** The sender of a guest ticket; null on an account's ticket. */
  guest: { email: string; name: string } | null;
  subject: string;
  category: string;
  status: TicketStatus;
  systemCreated: boolean;
  orderId: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Oldest first. */
  messages: TicketMessageView[];
}

/** Who wrote a staff message or note, or who owns a ticket in the console (issue 33). */
export interface OperatorRef {
  id: string;
  email: string;
  name: string;
}

/** A message as the console shows it: internal notes included and marked, with their operator. */
export interface StaffMessageView extends TicketMessageView {
  internal: boolean;
  /** The operator who wrote it; null for customers, the system, the admin token and older replies. */
  operator: OperatorRef | null;
}

export interface AdminTicketView extends TicketView {
  /** The account's address, or the guest's. */
  email: string;
  assignee: OperatorRef | null;
  messages: StaffMessageView[];
}

export type TicketRow = typeof supportTickets.$inferSelect;

/**
 * Tickets with their threads AS THE CUSTOMER SEES THEM: operators' internal notes are left out
 * in the query itself (issue 33), so no customer-facing read (the app, the guest's link, the data
 * export, mails) can show one. The console reads threads with ./staff-tickets.repository.ts.
 * One query for every listed ticket's messages (no N+1).
 */
export async function loadThreads(executor: DbOrTx, rows: TicketRow[]): Promise<TicketView[]> {
  if (rows.length === 0) return [];
  const messages = await executor
    .select()
    .from(ticketMessages)
    .where(
      and(
        inArray(
          ticketMessages.ticketId,
          rows.map((r) => r.id),
        ),
        eq(ticketMessages.internal, false),
      ),
    )
    .orderBy(asc(ticketMessages.ticketId), asc(ticketMessages.position));
  const byTicket = new Map<string, TicketMessageView[]>();
  for (const m of messages) {
    const list = byTicket.get(m.ticketId) ?? [];
    list.push({ id: m.id, author: m.author, message: m.message, createdAt: m.createdAt });
    byTicket.set(m.ticketId, list);
  }
  return rows.map((row) => toTicketView(row, byTicket.get(row.id) ?? []));
}

/** A ticket row and its thread (already filtered for its reader) as a view. */
export function toTicketView<M extends TicketMessageView>(
  row: TicketRow,
  messages: M[],
): TicketView & { messages: M[] } {
  return {
    id: row.id,
    accountId: row.accountId,
    guest:
      row.guestEmail !== null && row.guestName !== null
        ? { email: row.guestEmail, name: row.guestName }
        : null,
    subject: row.subject,
    category: row.category,
    status: row.status,
    systemCreated: row.systemCreated,
    orderId: row.orderId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    messages,
  };
}
