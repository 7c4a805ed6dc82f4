import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accounts, partnerMembers } from '../../db/schema/index.js';
import type { PartnerRole } from './roles.js';

/** The SQL of a partner's team (partner_members); the team service composes it. */
export const membersRepository = {
  /** Adds a member, or changes the role of one already there. */
  async upsert(db: DbOrTx, m: { partnerId: string; accountId: string; role: PartnerRole; now: Date }) {
    await db
      .insert(partnerMembers)
      .values({
        partnerId: m.partnerId,
        accountId: m.accountId,
        role: m.role,
        createdAt: m.now,
        updatedAt: m.now,
      })
      .onConflictDoUpdate({
        target: [partnerMembers.partnerId, partnerMembers.accountId],
        set: { role: m.role, updatedAt: m.now },
      });
  },

  async roleOf(db: DbOrTx, partnerId: string, accountId: string): Promise<PartnerRole | null> {
    const [row] = await db
      .select({ role: partnerMembers.role })
      .from(partnerMembers)
      .where(and(eq(partnerMembers.partnerId, partnerId), eq(partnerMembers.accountId, accountId)));
    return row?.role ?? null;
  },

  /** The partners `accountId` is a member of (not its own account), oldest membership first. */
  async partnersOf(db: DbOrTx, accountId: string) {
    return db
      .select({
        partnerId: partnerMembers.partnerId,
        role: partnerMembers.role,
        email: accounts.email,
        firstName: accounts.firstName,
        lastName: accounts.lastName,
        status: accounts.status,
      })
      .from(partnerMembers)
      .innerJoin(accounts, eq(accounts.id, partnerMembers.partnerId))
      .where(eq(partnerMembers.accountId, accountId))
      .orderBy(asc(partnerMembers.createdAt), asc(partnerMembers.partnerId));
  },

  /** The partner account's own row (never a key hash). */
  async partnerAccount(db: DbOrTx, partnerId: string) {
    const [row] = await db
      .select({
        id: accounts.id,
        email: accounts.email,
        firstName: accounts.firstName,
        lastName: accounts.lastName,
        status: accounts.status,
        hasLiveKey: sql<boolean>`${accounts.apiKeyHash} is not null`,
        hasTestKey: sql<boolean>`${accounts.testApiKeyHash} is not null`,
      })
      .from(accounts)
      .where(eq(accounts.id, partnerId));
    return row ?? null;
  },

  /** The team of a partner with each member's name and e-mail, oldest first. */
  async list(db: DbOrTx, partnerId: string) {
    return db
      .select({
        accountId: partnerMembers.accountId,
        role: partnerMembers.role,
        email: accounts.email,
        firstName: accounts.firstName,
        lastName: accounts.lastName,
        createdAt: partnerMembers.createdAt,
      })
      .from(partnerMembers)
      .innerJoin(accounts, eq(accounts.id, partnerMembers.accountId))
      .where(eq(partnerMembers.partnerId, partnerId))
      .orderBy(asc(partnerMembers.createdAt), asc(partnerMembers.accountId));
  },

  /** Removes a member; their role before, or null when they were none. */
  async remove(db: DbOrTx, partnerId: string, accountId: string): Promise<PartnerRole | null> {
    const [row] = await db
      .delete(partnerMembers)
      .where(and(eq(partnerMembers.partnerId, partnerId), eq(partnerMembers.accountId, accountId)))
      .returning({ role: partnerMembers.role });
    return row?.role ?? null;
  },

  /** E-mail addresses of accounts by id (the audit log names its actors). */
  async emailsOf(db: DbOrTx, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .select({ id: accounts.id, email: accounts.email })
      .from(accounts)
      .where(inArray(accounts.id, [...ids]));
    return new Map(rows.map((r) => [r.id, r.email]));
  },

  /** The e-mail of one account (an invitation must match it), or null. */
  async emailOf(db: DbOrTx, accountId: string): Promise<string | null> {
    const [row] = await db.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, accountId));
    return row?.email ?? null;
  },

  /** Display prefixes and generation times of the partner's keys (never a hash). */
  async keysOf(db: DbOrTx, partnerId: string) {
    const [row] = await db
      .select({
        livePrefix: accounts.apiKeyPrefix,
        liveGeneratedAt: accounts.apiKeyGeneratedAt,
        liveSet: sql<boolean>`${accounts.apiKeyHash} is not null`,
        testPrefix: accounts.testApiKeyPrefix,
        testGeneratedAt: accounts.testApiKeyGeneratedAt,
        testSet: sql<boolean>`${accounts.testApiKeyHash} is not null`,
      })
      .from(accounts)
      .where(eq(accounts.id, partnerId));
    return row ?? null;
  },
};
