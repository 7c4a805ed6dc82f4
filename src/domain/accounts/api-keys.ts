import { eq, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Db, DbOrTx } from '../../db/client.js';
import { accounts } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { randomBase62, sha256Hex } from '../../lib/crypto.js';
import type { Account } from '../sessions/sessions.service.js';
import { priceRuleOf, type PriceRule } from '../pricing/partner-price.js';
import { priceRuleColumns } from '../pricing/pricing.repository.js';
import { openTestWallet } from '../wallet/test-wallet.js';

/** A key works in one mode: live (real provider, real wallet) or test (sandbox, test wallet). */
export type ApiKeyMode = 'live' | 'test';
export const API_KEY_MODES: readonly ApiKeyMode[] = ['live', 'test'];

export const API_KEY_PREFIX = 'svc_live_sk_';
export const TEST_API_KEY_PREFIX = 'svc_test_sk_';
const PREFIXES: Record<ApiKeyMode, string> = { live: API_KEY_PREFIX, test: TEST_API_KEY_PREFIX };
const SECRET_LENGTH = 40;

/** The mode a key's prefix names, or null for anything else (no database lookup). */
export function modeOfKey(key: string): ApiKeyMode | null {
  if (key.startsWith(API_KEY_PREFIX)) return 'live';
  if (key.startsWith(TEST_API_KEY_PREFIX)) return 'test';
  return null;
}

/** `svc_live_sk_AbCd…WxYz` / `svc_test_sk_AbCd…WxYz`: enough to recognise a key, useless to an attacker. */
export function displayPrefix(key: string): string {
  const prefix = PREFIXES[modeOfKey(key) ?? 'live'];
  const secret = key.slice(prefix.length);
  return `${prefix}${secret.slice(0, 4)}…${secret.slice(-4)}`;
}

export interface ApiKeyInfo {
  apiKeyPrefix: string;
  apiKeyGeneratedAt: Date;
}

/** What the account holds per mode (never the hash). */
export function apiKeysOf(account: Account): Record<ApiKeyMode, ApiKeyInfo | null> {
  return {
    live:
      account.apiKeyHash && account.apiKeyPrefix && account.apiKeyGeneratedAt
        ? { apiKeyPrefix: account.apiKeyPrefix, apiKeyGeneratedAt: account.apiKeyGeneratedAt }
        : null,
    test:
      account.testApiKeyHash && account.testApiKeyPrefix && account.testApiKeyGeneratedAt
        ? { apiKeyPrefix: account.testApiKeyPrefix, apiKeyGeneratedAt: account.testApiKeyGeneratedAt }
        : null,
  };
}

/**
 * How long a key check may be reused by routes that only read the public catalogue
 * (`authenticateForCatalog`): a regenerated or revoked key, or a suspended account, still reads
 * destinations and plans for at most this long; every other route checks the key on every request.
 */
export const CATALOG_KEY_CACHE_MS = 1000;
/** Distinct keys remembered for catalogue reads (least recently checked go first). */
export const CATALOG_KEY_CACHE_SIZE = 10_000;

/**
 * Who holds a valid key: the account's id and its price rule (issue 32 C5), read by the key check
 * every request makes anyway, so pricing an order or the catalogue costs no query of its own.
 */
export interface KeyHolder {
  id: string;
  /** The partner's price rule (src/domain/pricing), or null: retail prices. */
  priceRule: PriceRule | null;
}

export function createApiKeyService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  /** Keyed by the key's SHA-256 (never the key itself); ages on the injectable clock. */
  const catalogChecks = new LRUCache<string, KeyHolder>({
    max: CATALOG_KEY_CACHE_SIZE,
    // lru-cache keeps an entry while its age is ≤ ttl (ms): reused for less than 1 s, not 1 s.
    ttl: CATALOG_KEY_CACHE_MS - 1,
    // Read the clock on every check (no cached "now"), so a test clock's step is seen at once.
    ttlResolution: 0,
    perf: { now: () => clock.now().getTime() },
  });
  // The per-request key lookup, prepared once per mode (named statements on PostgreSQL: parsed and
  // planned once per connection, no query building per request). Still a database read on every
  // request, so a regenerated or revoked key takes effect on every instance at once.
  // Only the id and status: the Partner API identifies the caller and reads everything else it needs
  // inside the operation (a balance read here would be stale by the time it was used anyway).
  // The price rule rides along (three small columns of the same row): the order path needs it.
  const keyColumns = { id: accounts.id, status: accounts.status, ...priceRuleColumns };
  const byHash = {
    live: db
      .select(keyColumns)
      .from(accounts)
      .where(eq(accounts.apiKeyHash, sql.placeholder('hash')))
      .prepare('api_key_live'),
    test: db
      .select(keyColumns)
      .from(accounts)
      .where(eq(accounts.testApiKeyHash, sql.placeholder('hash')))
      .prepare('api_key_test'),
  };
  async function lookup(mode: ApiKeyMode, hash: string): Promise<KeyHolder | null> {
    const [account] = await byHash[mode].execute({ hash });
    if (!account || account.status !== 'ACTIVE') return null;
    return { id: account.id, priceRule: priceRuleOf(account) };
  }

  /** This instance's catalogue checks of an account are dropped when its keys change here. */
  function forgetAccount(accountId: string): void {
    const hashes = [...catalogChecks.entries()].filter(([, account]) => account.id === accountId);
    for (const [hash] of hashes) catalogChecks.delete(hash);
  }

  return {
    /**
     * Replaces the account's key of that mode (the other mode's key is untouched). Only the hash is
     * stored, and lookups go through the hash on every request, so the old key stops working on
     * every instance the moment this commits. The first test key also opens the test wallet
     * (US$1,000.00), in the same transaction.
     */
    async generate(
      accountId: string,
      mode: ApiKeyMode = 'live',
      /** Runs in the key's transaction (the partner dashboard's audit row commits with the key). */
      within?: (tx: DbOrTx, generatedAt: Date) => Promise<void>,
    ): Promise<{ key: string; mode: ApiKeyMode; apiKeyPrefix: string; apiKeyGeneratedAt: Date }> {
      const key = PREFIXES[mode] + randomBase62(SECRET_LENGTH);
      const now = clock.now();
      const apiKeyPrefix = displayPrefix(key);
      const hash = sha256Hex(key);
      await db.transaction(async (tx) => {
        const set =
          mode === 'live'
            ? { apiKeyHash: hash, apiKeyPrefix, apiKeyGeneratedAt: now, updatedAt: now }
            : {
                testApiKeyHash: hash,
                testApiKeyPrefix: apiKeyPrefix,
                testApiKeyGeneratedAt: now,
                updatedAt: now,
              };
        await tx.update(accounts).set(set).where(eq(accounts.id, accountId));
        if (mode === 'test') await openTestWallet(tx, accountId, now);
        if (within) await within(tx, now);
      });
      forgetAccount(accountId);
      return { key, mode, apiKeyPrefix, apiKeyGeneratedAt: now };
    },

    /**
     * The ACTIVE account holding this key (live or test), or null. The key's mode is its prefix
     * (`modeOfKey`): a live key is only ever compared with live hashes, a test key with test ones.
     */
    async authenticate(key: string): Promise<KeyHolder | null> {
      const mode = modeOfKey(key);
      if (!mode) return null;
      return lookup(mode, sha256Hex(key));
    },

    /**
     * `authenticate` for routes that read only the public catalogue (destinations, plans): a key
     * accepted less than CATALOG_KEY_CACHE_MS ago is accepted again without a database read, so a
     * partner polling the catalogue costs no query per request. Refusals are never remembered (a
     * key generated a moment ago works at once), and the account returned must not be used for
     * anything but the caller's identity (its balance may be up to a second old).
     */
    async authenticateForCatalog(key: string): Promise<KeyHolder | null> {
      const mode = modeOfKey(key);
      if (!mode) return null;
      const hash = sha256Hex(key);
      const seen = catalogChecks.get(hash);
      if (seen) return seen;
      const account = await lookup(mode, hash);
      if (account) catalogChecks.set(hash, account);
      return account;
    },

    /** Drops this instance's remembered catalogue key checks of the account (its price rule changed). */
    forgetAccount,

    /**
     * Every key of the account (live and test) stops working at once; used when the credentials
     * change (change-password, completed reset). Pass `tx` to commit with the caller's change.
     */
    async revokeAll(accountId: string, tx?: DbOrTx): Promise<void> {
      await (tx ?? db)
        .update(accounts)
        .set({
          apiKeyHash: null,
          apiKeyPrefix: null,
          apiKeyGeneratedAt: null,
          testApiKeyHash: null,
          testApiKeyPrefix: null,
          testApiKeyGeneratedAt: null,
          updatedAt: clock.now(),
        })
        .where(eq(accounts.id, accountId));
      forgetAccount(accountId);
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
