import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { reusable } from '../../db/reusable.js';
import type { JobQueue } from '../../jobs/queue.js';
import { isUniqueViolation } from '../../db/errors.js';
import { accounts, avatars } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { randomToken } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';
import type { Currency } from '../../lib/money.js';
import type { AuditService } from '../audit/audit.service.js';
import { AppError } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import type { Account, SessionService } from '../sessions/sessions.service.js';
import { createAccountAdmin } from './account-admin.js';
import { deleteAccount } from './anonymize.js';
import type { ApiKeyMode, ApiKeyService } from './api-keys.js';
import { parseAvatarDataUri } from './avatar.js';
import { normalizeEmail, normalizeLocale, normalizeName } from './normalize.js';
import { createPasswordFlows } from './password-reset.js';
import type { Passwords } from './passwords.js';

export interface AccountServiceDeps {
  db: Db;
  clock: Clock;
  sessions: SessionService;
  apiKeys: ApiKeyService;
  mailer: Mailer;
  audit: AuditService;
  /** forgot-password hands its work to a background job (see password-reset.ts). */
  queue: JobQueue;
  /** Every argon2 operation goes through its gate (passwords.ts). */
  passwords: Passwords;
  publicBaseUrl: string;
}

/** An account plus what the User presenter needs besides the row. */
export interface AccountView {
  account: Account;
  avatarToken: string | null;
}

export interface IssuedSession {
  token: string;
  sessionId: string;
  expiresAt: Date;
}

export interface ProfilePatch {
  firstName?: string;
  lastName?: string;
  preferredCurrency?: Currency;
  locale?: string;
  /** Traveller alert channels; a channel left out stays as it is. */
  notifications?: { email?: boolean; push?: boolean };
}

/**
 * On every login and account view, built once (src/db/reusable.ts). Login reads the account and
 * its avatar's token in one statement (the answer shows the avatar).
 */
const selectLoginAccount = reusable((db) =>
  db
    .select({ account: accounts, avatarToken: avatars.token })
    .from(accounts)
    .leftJoin(avatars, eq(avatars.accountId, accounts.id))
    .where(eq(accounts.email, sql.placeholder('email'))),
);
const selectAvatarToken = reusable((db) =>
  db
    .select({ token: avatars.token })
    .from(avatars)
    .where(eq(avatars.accountId, sql.placeholder('accountId'))),
);

export function createAccountService(deps: AccountServiceDeps) {
  const { db, clock, sessions, passwords } = deps;

  async function view(account: Account, executor: DbOrTx = db): Promise<AccountView> {
    const [avatar] = await selectAvatarToken(executor, { accountId: account.id });
    return { account, avatarToken: avatar?.token ?? null };
  }

  async function viewById(accountId: string): Promise<AccountView> {
    const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
    if (!account) throw new AppError('ACCOUNT_NOT_FOUND', 'Account not found');
    return view(account);
  }

  return {
    view,
    viewById,
    ...createPasswordFlows(deps),
    ...createAccountAdmin(deps),

    /** New ACTIVE account and its first session, in one transaction. `client`: the caller's address. */
    async register(
      input: { firstName: string; lastName: string; email: string; password: string; locale?: string },
      client?: string,
    ): Promise<{ view: AccountView; session: IssuedSession }> {
      const email = normalizeEmail(input.email);
      const firstName = normalizeName(input.firstName, 'firstName');
      const lastName = normalizeName(input.lastName, 'lastName');
      const passwordHash = await passwords.hash(input.password, client);
      const now = clock.now();
      try {
        return await db.transaction(async (tx) => {
          const [account] = await tx
            .insert(accounts)
            .values({
              id: newId('acc'),
              email,
              passwordHash,
              firstName,
              lastName,
              ...(input.locale ? { locale: normalizeLocale(input.locale) } : {}),
              createdAt: now,
              updatedAt: now,
            })
            .returning();
          const session = await sessions.issue(tx, account!.id);
          return { view: { account: account!, avatarToken: null }, session };
        });
      } catch (err) {
        if (isUniqueViolation(err))
          throw new AppError('EMAIL_TAKEN', 'This email address is already registered');
        throw err;
      }
    },

    /**
     * Same answer and the same argon2 work for an unknown address and a wrong password. Status
     * is only revealed (403) to someone who knows the password. `client`: the caller's address.
     */
    async login(
      emailInput: string,
      password: string,
      client?: string,
    ): Promise<{ view: AccountView; session: IssuedSession }> {
      const email = emailInput.trim().toLowerCase();
      const [found] = await selectLoginAccount(db, { email });
      const account = found?.account;
      const passwordOk = await passwords.verify(account?.passwordHash ?? null, password, client);
      if (!account || !passwordOk || account.status === 'DELETED') {
        throw new AppError('INVALID_CREDENTIALS', 'Incorrect email or password');
      }
      if (account.status !== 'ACTIVE')
        throw new AppError('ACCOUNT_SUSPENDED', `Account is ${account.status}`);
      const session = await sessions.issue(db, account.id);
      return { view: { account, avatarToken: found.avatarToken }, session };
    },

    logout: (sessionId: string) => sessions.revoke(sessionId),

    /** Changes only the fields given. */
    async updateProfile(accountId: string, patch: ProfilePatch): Promise<AccountView> {
      const changes: Partial<typeof accounts.$inferInsert> = { updatedAt: clock.now() };
      if (patch.firstName !== undefined) changes.firstName = normalizeName(patch.firstName, 'firstName');
      if (patch.lastName !== undefined) changes.lastName = normalizeName(patch.lastName, 'lastName');
      if (patch.preferredCurrency !== undefined) changes.preferredCurrency = patch.preferredCurrency;
      if (patch.locale !== undefined) changes.locale = normalizeLocale(patch.locale);
      if (patch.notifications?.email !== undefined) changes.notifyEmail = patch.notifications.email;
      if (patch.notifications?.push !== undefined) changes.notifyPush = patch.notifications.push;
      const [account] = await db.update(accounts).set(changes).where(eq(accounts.id, accountId)).returning();
      if (!account) throw new AppError('ACCOUNT_NOT_FOUND', 'Account not found');
      return view(account);
    },

    /** Stores the image and gives it a new unguessable URL token (old URLs stop working). */
    async setAvatar(accountId: string, dataUri: string): Promise<AccountView> {
      const { contentType, bytes } = parseAvatarDataUri(dataUri);
      const row = { token: randomToken(24), contentType, bytes, updatedAt: clock.now() };
      await db
        .insert(avatars)
        .values({ accountId, ...row })
        .onConflictDoUpdate({ target: avatars.accountId, set: row });
      return viewById(accountId);
    },

    async findAvatar(token: string): Promise<{ contentType: string; bytes: Buffer; updatedAt: Date } | null> {
      const [row] = await db
        .select({ contentType: avatars.contentType, bytes: avatars.bytes, updatedAt: avatars.updatedAt })
        .from(avatars)
        .where(eq(avatars.token, token));
      return row ?? null;
    },

    generateApiKey: (accountId: string, mode: ApiKeyMode = 'live') => deps.apiKeys.generate(accountId, mode),

    deleteAccount: (accountId: string) => deleteAccount({ db, clock, sessions }, accountId),
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
