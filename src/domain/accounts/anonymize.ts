import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  accounts,
  avatars,
  passwordResetTokens,
  pushDevices,
  webhookEndpoints,
} from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../errors.js';
import type { SessionService } from '../sessions/sessions.service.js';

/**
 * `.invalid` is a reserved top-level domain (RFC 2606) and our address check requires a dot in
 * the domain, so this value can never be registered or receive mail, and it is unique per id.
 */
export function anonymizedEmail(accountId: string): string {
  return `deleted+${accountId}@invalid`;
}

/**
 * DELETE /user/account. The balance is read with the row locked (FOR UPDATE), so a top-up
 * committing at the same moment either lands first (and we answer 409) or waits until the
 * account is DELETED. Orders, eSIMs and wallet history are kept for accounting; everything
 * that identifies the person or grants access is removed in the same transaction.
 */
export async function deleteAccount(
  deps: { db: Db; clock: Clock; sessions: SessionService },
  accountId: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ balance: accounts.walletBalanceCents, status: accounts.status })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .for('update');
    if (!row || row.status === 'DELETED') throw new AppError('ACCOUNT_NOT_FOUND', 'Account not found');
    if (row.balance > 0) {
      throw new AppError('WALLET_NOT_EMPTY', 'The wallet balance must be zero before the account is deleted');
    }
    const now = deps.clock.now();
    await tx
      .update(accounts)
      .set({
        email: anonymizedEmail(accountId),
        emailVerified: false,
        firstName: '',
        lastName: '',
        passwordHash: null,
        status: 'DELETED',
        apiKeyHash: null,
        apiKeyPrefix: null,
        apiKeyGeneratedAt: null,
        testApiKeyHash: null,
        testApiKeyPrefix: null,
        testApiKeyGeneratedAt: null,
        deletedAt: now,
        updatedAt: now,
      })
      .where(eq(accounts.id, accountId));
    await tx.delete(avatars).where(eq(avatars.accountId, accountId));
    await tx.delete(pushDevices).where(eq(pushDevices.accountId, accountId));
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.accountId, accountId));
    // Partner access ends with the account (issue 28 H8): the API keys above, and its webhook
    // endpoints with their deliveries (cascade), so no event of it is sent anywhere again.
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.accountId, accountId));
    await deps.sessions.revokeAll(tx, accountId);
  });
}
