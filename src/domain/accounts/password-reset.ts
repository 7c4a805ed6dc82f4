import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accounts, passwordResetTokens } from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/queue.js';
import { HOUR, type Clock } from '../../lib/clock.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import { AppError } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import { mailLang, passwordResetMail } from '../mail/templates.js';
import type { SessionService } from '../sessions/sessions.service.js';
import type { ApiKeyService } from './api-keys.js';
import { normalizeEmail } from './normalize.js';
import { assertPasswordLength, type Passwords } from './passwords.js';

export const RESET_TOKEN_LIFETIME_MS = HOUR;

export const PASSWORD_RESET_JOB = 'account.password-reset';

interface Deps {
  db: Db;
  clock: Clock;
  sessions: SessionService;
  apiKeys: ApiKeyService;
  mailer: Mailer;
  queue: JobQueue;
  passwords: Passwords;
  publicBaseUrl: string;
}

/** forgot-password, reset-password (check and use) and change-password. */
export function createPasswordFlows(deps: Deps) {
  const { db, clock, sessions, passwords } = deps;

  async function issueResetToken(account: { id: string; email: string; locale: string }, locale?: string) {
    const token = randomToken(32);
    const now = clock.now();
    await db.insert(passwordResetTokens).values({
      tokenHash: sha256Hex(token),
      accountId: account.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + RESET_TOKEN_LIFETIME_MS),
    });
    const lang = mailLang(locale, account.locale);
    await deps.mailer.send(
      passwordResetMail(lang, account.email, { publicBaseUrl: deps.publicBaseUrl, token }),
    );
  }

  /**
   * The token's row by the SHA-256 of the token: an index lookup on a hash, so how long it takes
   * says nothing about how close a guess was.
   */
  async function findResetToken(token: string): Promise<{ accountId: string } | undefined> {
    const [row] = await db
      .select({ accountId: passwordResetTokens.accountId })
      .from(passwordResetTokens)
      .innerJoin(accounts, eq(accounts.id, passwordResetTokens.accountId))
      .where(
        and(
          eq(passwordResetTokens.tokenHash, sha256Hex(token)),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, clock.now()),
          ne(accounts.status, 'DELETED'),
        ),
      );
    return row;
  }

  return {
    /**
     * The request only validates the address and enqueues a job, the same work whether or not
     * the address is registered; the worker looks the account up, creates the token and sends
     * the mail. So neither the answer nor its timing (nor later load on the request path) tells
     * a caller which addresses exist, and a slow SMTP server never delays the response.
     */
    async forgotPassword(emailInput: string, locale?: string): Promise<void> {
      const email = normalizeEmail(emailInput);
      await deps.queue.enqueue(db, {
        kind: PASSWORD_RESET_JOB,
        payload: { email, ...(locale ? { locale } : {}) },
        maxAttempts: 3,
      });
    },

    /** The job behind forgot-password: mails a reset link when the address is an ACTIVE account. */
    async sendPasswordReset(payload: { email?: unknown; locale?: unknown }): Promise<void> {
      if (typeof payload.email !== 'string') return;
      const [account] = await db
        .select({ id: accounts.id, email: accounts.email, locale: accounts.locale, status: accounts.status })
        .from(accounts)
        .where(eq(accounts.email, payload.email));
      if (account?.status !== 'ACTIVE') return;
      await issueResetToken(account, typeof payload.locale === 'string' ? payload.locale : undefined);
    },

    isResetTokenValid: async (token: string): Promise<boolean> => (await findResetToken(token)) !== undefined,

    /**
     * Single use: the token is claimed by a conditional UPDATE, so of two concurrent uses only
     * one succeeds. Ends every session, the API key and every other outstanding reset token of the account;
     * following a mailed link also proves the address, so it marks the email verified.
     * The token is looked up before the new password is hashed: a wrong token costs no argon2
     * work (issue 28 H2). `client`: the caller's address.
     */
    async resetPassword(token: string, newPassword: string, client?: string): Promise<void> {
      assertPasswordLength(newPassword, 'newPassword');
      if (!(await findResetToken(token))) {
        throw new AppError('INVALID_TOKEN', 'Reset token is invalid, used or expired');
      }
      const passwordHash = await passwords.hash(newPassword, client);
      await db.transaction(async (tx) => {
        const now = clock.now();
        const [claimed] = await tx
          .update(passwordResetTokens)
          .set({ usedAt: now })
          .where(
            and(
              eq(passwordResetTokens.tokenHash, sha256Hex(token)),
              isNull(passwordResetTokens.usedAt),
              gt(passwordResetTokens.expiresAt, now),
            ),
          )
          .returning({ accountId: passwordResetTokens.accountId });
        if (!claimed) throw new AppError('INVALID_TOKEN', 'Reset token is invalid, used or expired');
        const [account] = await tx
          .update(accounts)
          .set({ passwordHash, emailVerified: true, updatedAt: now })
          .where(and(eq(accounts.id, claimed.accountId), ne(accounts.status, 'DELETED')))
          .returning({ id: accounts.id });
        if (!account) throw new AppError('INVALID_TOKEN', 'Reset token is invalid, used or expired');
        await tx
          .update(passwordResetTokens)
          .set({ usedAt: now })
          .where(and(eq(passwordResetTokens.accountId, account.id), isNull(passwordResetTokens.usedAt)));
        await sessions.revokeAll(tx, account.id);
        await deps.apiKeys.revokeAll(account.id, tx);
      });
    },

    /** Ends every session of the account except the one making the change, and revokes the API key. */
    async changePassword(
      caller: { accountId: string; sessionId: string },
      currentPassword: string | undefined,
      newPassword: string,
      client?: string,
    ): Promise<void> {
      const [account] = await db
        .select({ passwordHash: accounts.passwordHash })
        .from(accounts)
        .where(eq(accounts.id, caller.accountId));
      if (!account) throw new AppError('ACCOUNT_NOT_FOUND', 'Account not found');
      if (account.passwordHash) {
        if (currentPassword === undefined) {
          throw new AppError('VALIDATION_ERROR', 'currentPassword is required', {
            issues: [{ field: 'currentPassword', message: 'is required' }],
          });
        }
        if (!(await passwords.verify(account.passwordHash, currentPassword, client))) {
          throw new AppError('CURRENT_PASSWORD_INCORRECT', 'currentPassword is incorrect');
        }
      }
      const passwordHash = await passwords.hash(newPassword, client);
      await db.transaction(async (tx) => {
        await tx
          .update(accounts)
          .set({ passwordHash, updatedAt: clock.now() })
          .where(eq(accounts.id, caller.accountId));
        await sessions.revokeAll(tx, caller.accountId, caller.sessionId);
        await deps.apiKeys.revokeAll(caller.accountId, tx);
      });
    },
  };
}
