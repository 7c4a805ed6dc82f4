import { boolean, index, pgTable, text } from 'drizzle-orm/pg-core';
import { accounts, ts } from './accounts.js';

export const supportTickets = pgTable(
  'support_tickets',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    subject: text('subject').notNull(),
    category: text('category').notNull().default('other'),
    status: text('status', { enum: ['OPEN', 'ANSWERED', 'RESOLVED', 'CLOSED'] })
      .notNull()
      .default('OPEN'),
    /** Opened by the service itself (for example after a fulfillment failure). */
    systemCreated: boolean('system_created').notNull().default(false),
    orderId: text('order_id'),
    createdAt: ts('created_at').notNull(),
    /** Last activity: the list is ordered by it. */
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('support_tickets_account_idx').on(t.accountId, t.updatedAt)],
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
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('ticket_messages_ticket_idx').on(t.ticketId, t.createdAt)],
);
