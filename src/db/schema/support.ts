import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts, ts } from './accounts.js';
import { operators } from './operators.js';

export const supportTickets = pgTable(
  'support_tickets',
  {
    id: text('id').primaryKey(),
    /** The customer's account; null on a guest ticket (opened with the contact form, issue 30 T3). */
    accountId: text('account_id').references(() => accounts.id),
    /** A guest ticket's sender: address (trimmed, lower-cased), name and language of the form. */
    guestEmail: text('guest_email'),
    guestName: text('guest_name'),
    guestLocale: text('guest_locale'),
    /**
     * SHA-256 of the guest's link token (`/support/guest/<token>`); set by each staff reply, which
     * mails a fresh link (the raw token exists only in that mail). Null until the first reply.
     */
    guestTokenHash: text('guest_token_hash').unique(),
    subject: text('subject').notNull(),
    category: text('category').notNull().default('other'),
    status: text('status', { enum: ['OPEN', 'ANSWERED', 'RESOLVED', 'CLOSED'] })
      .notNull()
      .default('OPEN'),
    /** Opened by the service itself (for example after a fulfillment failure). */
    systemCreated: boolean('system_created').notNull().default(false),
    orderId: text('order_id'),
    /** The operator who owns the ticket in the console's inbox (issue 33); null when unassigned. */
    assignedOperatorId: text('assigned_operator_id').references(() => operators.id),
    /** Messages so far; bumping it row-locks the ticket, so concurrent replies get distinct positions. */
    messageCount: integer('message_count').notNull().default(0),
    createdAt: ts('created_at').notNull(),
    /** Last activity: the list is ordered by it. */
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    /** A ticket belongs to an account or to a guest with an address and a name, never both. */
    check(
      'support_tickets_owner',
      sql`(${t.accountId} is not null and ${t.guestEmail} is null and ${t.guestName} is null) or (${t.accountId} is null and ${t.guestEmail} is not null and ${t.guestName} is not null)`,
    ),
    /** The lists: last activity first, keyset on (updated_at, id) (issue 12). */
    index('support_tickets_account_list_idx').on(t.accountId, t.updatedAt, t.id),
    index('support_tickets_status_list_idx').on(t.status, t.updatedAt, t.id),
    index('support_tickets_list_idx').on(t.updatedAt, t.id),
    /** "Assigned to me" in the console's inbox. */
    index('support_tickets_assignee_list_idx').on(t.assignedOperatorId, t.updatedAt, t.id),
    /** At most one system ticket per order: repeated fulfillment failures add to it. */
    uniqueIndex('support_tickets_system_order_idx')
      .on(t.orderId)
      .where(sql`system_created`),
  ],
);

export const ticketMessages = pgTable(
  'ticket_messages',
  {
    id: text('id').primaryKey(),
    ticketId: text('ticket_id')
      .notNull()
      .references(() => supportTickets.id),
    author: text('author', { enum: ['customer', 'staff', 'system'] }).notNull(),
    message: text('message').notNull(),
    /** An operator's internal note (issue 33): listed in the console only, never to the customer. */
    internal: boolean('internal').notNull().default(false),
    /** The operator who wrote a staff reply or note; null for the admin token and older messages. */
    operatorId: text('operator_id').references(() => operators.id),
    /** 1-based position in the thread: orders it even when two messages share a millisecond. */
    position: integer('position').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('ticket_messages_position_idx').on(t.ticketId, t.position)],
);
