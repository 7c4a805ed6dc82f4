import { asc, inArray } from 'drizzle-orm';
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

export interface AdminTicketView extends TicketView {
  email: string;
}

export type TicketRow = typeof supportTickets.$inferSelect;

/** Tickets with their threads; one query for every listed ticket's messages (no N+1). */
export async function loadThreads(executor: DbOrTx, rows: TicketRow[]): Promise<TicketView[]> {
  if (rows.length === 0) return [];
  // One query for every listed ticket's thread: no N+1.
  const messages = await executor
    .select()
    .from(ticketMessages)
    .where(
      inArray(
        ticketMessages.ticketId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(ticketMessages.ticketId), asc(ticketMessages.position));
  const byTicket = new Map<string, TicketMessageView[]>();
  for (const m of messages) {
    const list = byTicket.get(m.ticketId) ?? [];
    list.push({ id: m.id, author: m.author, message: m.message, createdAt: m.createdAt });
    byTicket.set(m.ticketId, list);
  }
  return rows.map((row) => ({
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
    messages: byTicket.get(row.id) ?? [],
  }));
}
