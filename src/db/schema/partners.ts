import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { accounts, ts } from './accounts.js';

/**
 * Issue 32 C4: the people of a partner. The partner is an account (the one the API keys, wallet
 * and orders belong to); its own login is always an Owner and has no row here. Each other member
 * signs in with their own account and reaches the partner through /api/v1/partners/{partnerId}/….
 */
export const PARTNER_ROLES = ['owner', 'admin', 'developer', 'finance', 'viewer'] as const;
export type PartnerRole = (typeof PARTNER_ROLES)[number];

export const partnerMembers = pgTable(
  'partner_members',
  {
    partnerId: text('partner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    role: text('role', { enum: PARTNER_ROLES }).notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.partnerId, t.accountId] }),
    /** "Which partners do I belong to": GET /api/v1/partners. */
    index('partner_members_account_idx').on(t.accountId),
  ],
);

/** An invitation by e-mail: the link carries a token whose SHA-256 is kept; valid 7 days. */
export const partnerInvitations = pgTable(
  'partner_invitations',
  {
    id: text('id').primaryKey(),
    partnerId: text('partner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: PARTNER_ROLES }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: text('invited_by').notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    acceptedBy: text('accepted_by'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('partner_invitations_partner_idx').on(t.partnerId, t.createdAt)],
);
