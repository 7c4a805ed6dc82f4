import { hash } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import type { Container } from '../../src/container.js';
import { accounts, plans } from '../../src/db/schema/index.js';
import { postLedgerEntry } from '../../src/domain/wallet/ledger.js';
import { newId } from '../../src/lib/ids.js';
import { randomBase62 } from '../../src/lib/crypto.js';

export const DEFAULT_PASSWORD = 'correct horse battery';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  /** Session token for `Authorization: Bearer`. */
  token: string;
  auth: { authorization: string };
}

/** An ACTIVE account with a session, made through the domain layer (no HTTP). */
export async function createUser(
  container: Container,
  options: { email?: string; password?: string; balanceCents?: number; locale?: string } = {},
): Promise<TestUser> {
  const email = options.email ?? `user-${randomBase62(10).toLowerCase()}@example.com`;
  const password = options.password ?? DEFAULT_PASSWORD;
  const id = newId('acc');
  const now = container.clock.now();
  await container.db.insert(accounts).values({
    id,
    email,
    passwordHash: await hash(password),
    firstName: 'Test',
    lastName: 'User',
    locale: options.locale ?? 'en',
    createdAt: now,
    updatedAt: now,
  });
  const { token } = await container.sessions.issue(container.db, id);
  if (options.balanceCents) await fundWallet(container, id, options.balanceCents);
  return { id, email, password, token, auth: { authorization: `Bearer ${token}` } };
}

export async function fundWallet(container: Container, accountId: string, cents: number): Promise<void> {
  await container.db.transaction((tx) =>
    postLedgerEntry(tx, {
      accountId,
      kind: 'deposit',
      amountCents: cents,
      reference: `test:${newId('wtx')}`,
      description: 'test funding',
      at: container.clock.now(),
    }),
  );
}

export async function balanceOf(container: Container, accountId: string): Promise<number> {
  const [row] = await container.db
    .select({ balance: accounts.walletBalanceCents })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row!.balance;
}

/** The ledger invariant lives in ./ledger.ts; re-exported so every test imports it from one place. */
export { expectLedgerInvariant } from './ledger.js';

/**
 * A plan row for tests that need a specific plan without running the catalog sync.
 * The sandbox eSIM provider must know `providerPackageCode` for fulfillment to succeed.
 */
export async function createPlan(
  container: Container,
  overrides: Partial<typeof plans.$inferInsert> = {},
): Promise<typeof plans.$inferSelect> {
  const now = container.clock.now();
  const code = overrides.providerPackageCode ?? `TEST-${randomBase62(8)}`;
  const [row] = await container.db
    .insert(plans)
    .values({
      id: overrides.id ?? `plan_${code.toLowerCase()}`,
      provider: container.providers.esim.name,
      providerPackageCode: code,
      title: 'Test 1GB 7 days',
      scope: 'country',
      destinationCode: 'TR',
      coverage: ['TR'],
      dataAmountMb: 1024,
      durationDays: 7,
      isTopUp: false,
      wholesaleCents: 300,
      priceCents: 499,
      active: true,
      createdAt: now,
      updatedAt: now,
      ...overrides,
    })
    .returning();
  return row!;
}
