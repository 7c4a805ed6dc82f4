import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import type { Container } from '../src/container.js';
import { accounts, plans } from '../src/db/schema/index.js';
import { postLedgerEntry } from '../src/domain/wallet/ledger.js';
import { postAdjustment } from '../src/domain/wallet/postings.js';
import { newId } from '../src/lib/ids.js';

export interface BenchPartner {
  accountId: string;
  key: string;
}

export interface BenchSeed {
  partners: BenchPartner[];
  /** The cheapest orderable base plan. */
  planId: string;
  /** A Mobile user with a password, for the login scenario; its hash is in `hashFile`. */
  login: { email: string; password: string; hashFile: string };
  /** Session tokens of funded Mobile users (the wallet checkout scenario), one user per token. */
  mobileTokens: string[];
}

export const BENCH_PASSWORD = 'bench-password-0123';

/**
 * Partner accounts with API keys and funded wallets, made through the same domain services the
 * API uses (key generation, ledger deposit), so the service sees ordinary partners.
 */
export async function seedPartners(
  container: Container,
  count: number,
  balanceCents: number,
): Promise<BenchPartner[]> {
  const partners: BenchPartner[] = [];
  for (let i = 0; i < count; i++) {
    const accountId = newId('acc');
    const now = container.clock.now();
    await container.db.insert(accounts).values({
      id: accountId,
      email: `bench-partner-${i}-${accountId.toLowerCase()}@example.com`,
      firstName: 'Bench',
      lastName: `Partner ${i}`,
      locale: 'en',
      createdAt: now,
      updatedAt: now,
    });
    const { key } = await container.apiKeys.generate(accountId);
    await container.db.transaction((tx) =>
      postLedgerEntry(tx, {
        accountId,
        kind: 'deposit',
        amountCents: balanceCents,
        reference: `bench:${accountId}`,
        description: 'benchmark funding',
        at: now,
      }),
    );
    partners.push({ accountId, key });
  }
  return partners;
}

/** A Mobile account with a password (the service's own argon2id hash), for POST /auth/login. */
export async function seedLoginUser(container: Container, dir: string): Promise<BenchSeed['login']> {
  const email = `bench-login-${Date.now()}@example.com`;
  const passwordHash = await container.passwords.hash(BENCH_PASSWORD);
  const now = container.clock.now();
  await container.db.insert(accounts).values({
    id: newId('acc'),
    email,
    passwordHash,
    firstName: 'Bench',
    lastName: 'Login',
    locale: 'en',
    createdAt: now,
    updatedAt: now,
  });
  const hashFile = join(dir, 'login-hash.txt');
  writeFileSync(hashFile, passwordHash);
  return { email, password: BENCH_PASSWORD, hashFile };
}

/** The cheapest active, orderable non-top-up plan: the one the order scenario buys. */
export async function cheapestPlan(container: Container): Promise<{ id: string; priceCents: number }> {
  const [plan] = await container.db
    .select({ id: plans.id, priceCents: plans.priceCents })
    .from(plans)
    .where(and(eq(plans.active, true), eq(plans.enabledByOperator, true), eq(plans.isTopUp, false)))
    .orderBy(asc(plans.priceCents))
    .limit(1);
  if (!plan) throw new Error('no active plan after start-up: the catalog sync did not import any');
  return plan;
}

/** Mobile accounts with a session token and a funded wallet (the Mobile checkout scenario). */
export async function seedMobileUsers(
  container: Container,
  count: number,
  balanceCents: number,
): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = newId('acc');
    const now = container.clock.now();
    await container.db.insert(accounts).values({
      id,
      email: `bench-user-${i}-${id.toLowerCase()}@example.com`,
      locale: 'en',
      createdAt: now,
      updatedAt: now,
    });
    const { token } = await container.sessions.issue(container.db, id);
    await container.db.transaction((tx) =>
      postAdjustment(tx, {
        accountId: id,
        amountCents: balanceCents,
        description: 'benchmark funding',
        at: now,
      }),
    );
    tokens.push(token);
  }
  return tokens;
}
