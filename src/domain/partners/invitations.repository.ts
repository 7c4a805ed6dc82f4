import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accounts, partnerInvitations } from '../../db/schema/index.js';
import type { PartnerRole } from './roles.js';

export type InvitationRow = typeof partnerInvitations.$inferSelect;

/** The SQL of a partner's invitations (partner_invitations); the team service composes it. */
export const invitationsRepository = {
  async insert(db: DbOrTx, row: InvitationRow): Promise<void> {
    await db.insert(partnerInvitations).values(row);
  },

  /** Not accepted and not revoked (expired ones too: the team page marks them), newest first. */
  async open(db: DbOrTx, partnerId: string): Promise<InvitationRow[]> {
    return db
      .select()
      .from(partnerInvitations)
      .where(
        and(
          eq(partnerInvitations.partnerId, partnerId),
          isNull(partnerInvitations.acceptedAt),
          isNull(partnerInvitations.revokedAt),
        ),
      )
      .orderBy(desc(partnerInvitations.createdAt), desc(partnerInvitations.id));
  },

  /** The invitation a link's token names, with the partner's name (for the preview page). */
  async byTokenHash(db: DbOrTx, tokenHash: string) {
    const [row] = await db
      .select({
        invitation: partnerInvitations,
        partnerEmail: accounts.email,
        partnerFirstName: accounts.firstName,
        partnerLastName: accounts.lastName,
        partnerStatus: accounts.status,
      })
      .from(partnerInvitations)
      .innerJoin(accounts, eq(accounts.id, partnerInvitations.partnerId))
      .where(eq(partnerInvitations.tokenHash, tokenHash));
    return row ?? null;
  },

  /** Marks an open invitation revoked; null when it is unknown, accepted or already revoked. */
  async revoke(db: DbOrTx, partnerId: string, id: string, now: Date): Promise<InvitationRow | null> {
    const [row] = await db
      .update(partnerInvitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(partnerInvitations.id, id),
          eq(partnerInvitations.partnerId, partnerId),
          isNull(partnerInvitations.acceptedAt),
          isNull(partnerInvitations.revokedAt),
        ),
      )
      .returning();
    return row ?? null;
  },

  /**
   * Single use: a conditional UPDATE claims the invitation, so of two concurrent accepts only one
   * succeeds; null when it is used, revoked or expired by `now`.
   */
  async claim(
    db: DbOrTx,
    id: string,
    accountId: string,
    now: Date,
  ): Promise<{ partnerId: string; role: PartnerRole } | null> {
    const [row] = await db
      .update(partnerInvitations)
      .set({ acceptedAt: now, acceptedBy: accountId })
      .where(
        and(
          eq(partnerInvitations.id, id),
          isNull(partnerInvitations.acceptedAt),
          isNull(partnerInvitations.revokedAt),
          gt(partnerInvitations.expiresAt, now),
        ),
      )
      .returning({ partnerId: partnerInvitations.partnerId, role: partnerInvitations.role });
    return row ?? null;
  },
};
