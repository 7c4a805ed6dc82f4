import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './accounts.js';

/**
 * Issue 33 O1: the people who run the service. Separate from customer accounts: an operator signs
 * in at /admin with a password and a TOTP code and holds one role (src/domain/operators/roles.ts).
 */
export const OPERATOR_ROLES = ['owner', 'support', 'finance', 'catalog', 'readonly'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const operators = pgTable('operators', {
  id: text('id').primaryKey(),
  /** Trimmed and lower-cased. */
  email: text('email').notNull().unique(),
  name: text('name').notNull().default(''),
  role: text('role', { enum: OPERATOR_ROLES }).notNull(),
  /** INVITED until the enrolment link is used; DISABLED ends every session and refuses sign-in. */
  status: text('status', { enum: ['INVITED', 'ACTIVE', 'DISABLED'] })
    .notNull()
    .default('INVITED'),
  /** argon2id; null until enrolled. */
  passwordHash: text('password_hash'),
  /** The TOTP shared secret (base32); null until enrolled. Never leaves the server after enrolment. */
  totpSecret: text('totp_secret'),
  /** The last accepted TOTP time step: a code is accepted once (RFC 6238 §5.2). */
  totpLastStep: text('totp_last_step'),
  /** `operator:<id>`, `token` or `cli` (who created this operator). */
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull(),
  enrolledAt: ts('enrolled_at'),
  lastSignInAt: ts('last_sign_in_at'),
});

/** A one-time enrolment link (`/admin/enrol#<token>`): its SHA-256 is kept; valid 24 hours. */
export const operatorEnrolments = pgTable(
  'operator_enrolments',
  {
    id: text('id').primaryKey(),
    operatorId: text('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    /** The TOTP secret offered on the enrolment page; copied to the operator when enrolment completes. */
    totpSecret: text('totp_secret').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('operator_enrolments_operator_idx').on(t.operatorId)],
);

/** Recovery codes, shown once at enrolment; each signs in once in place of a TOTP code. */
export const operatorRecoveryCodes = pgTable(
  'operator_recovery_codes',
  {
    id: text('id').primaryKey(),
    operatorId: text('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('operator_recovery_codes_hash_idx').on(t.operatorId, t.codeHash)],
);

/**
 * Console sessions: cookie `svc_operator` (SameSite=Strict). A session ends after 12 hours
 * without a request (last_seen_at), at sign-out, or when an Owner ends it or disables the operator.
 */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: text('id').primaryKey(),
    operatorId: text('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: ts('created_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
    endedAt: ts('ended_at'),
  },
  (t) => [
    index('operator_sessions_operator_idx')
      .on(t.operatorId, t.lastSeenAt)
      .where(sql`ended_at is null`),
  ],
);
