import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accounts } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { randomBase62, sha256Hex } from '../../lib/crypto.js';
import type { Account } from '../sessions/sessions.service.js';

export const API_KEY_PREFIX = 'svc_live_sk_';
const SECRET_LENGTH = 40;

/** `svc_live_sk_AbCd…WxYz`: enough to recognise a key, useless to an attacker. */
export function displayPrefix(key: string): string {
  const secret = key.slice(API_KEY_PREFIX.length);
  return `${API_KEY_PREFIX}${secret.slice(0, 4)}…${secret.slice(-4)}`;
}

export function createApiKeyService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    /**
     * Replaces the account's key. Only the hash is stored, and lookups go through the hash on
     * every request, so the old key stops working on every instance the moment this commits.
     */
    async generate(
      accountId: string,
    ): Promise<{ key: string; apiKeyPrefix: string; apiKeyGeneratedAt: Date }> {
      const key = API_KEY_PREFIX + randomBase62(SECRET_LENGTH);
      const now = clock.now();
      const apiKeyPrefix = displayPrefix(key);
      await db
        .update(accounts)
        .set({ apiKeyHash: sha256Hex(key), apiKeyPrefix, apiKeyGeneratedAt: now, updatedAt: now })
        .where(eq(accounts.id, accountId));
      return { key, apiKeyPrefix, apiKeyGeneratedAt: now };
    },

    /** The ACTIVE account holding this key, or null. */
    async authenticate(key: string): Promise<Account | null> {
      if (!key.startsWith(API_KEY_PREFIX)) return null;
      const [account] = await db
        .select()
        .from(accounts)
        .where(eq(accounts.apiKeyHash, sha256Hex(key)));
      if (!account || account.status !== 'ACTIVE') return null;
      return account;
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
