import type { Db } from '../../db/client.js';
import type { KeyValue } from '../../db/keyset.js';
import type { Currency } from '../../lib/money.js';
import type { ApiKeyMode, ApiKeyService } from '../accounts/api-keys.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PaymentsService } from '../payments/payments.service.js';
import type { TestModeService } from '../testmode/testmode.service.js';
import { membersRepository } from './members.repository.js';
import type { PartnerAccess } from './partners.service.js';

const actorOf = (access: PartnerAccess) => `account:${access.memberAccountId}`;

export interface PartnerKeyInfo {
  apiKeyPrefix: string;
  apiKeyGeneratedAt: Date;
}

/**
 * The partner dashboard's keys and wallet actions (issue 32 C1, C4). Keys and wallets belong to
 * the partner account, never to the member acting: a member's removal leaves them untouched.
 */
export function createPartnerConsoleActions(deps: {
  db: Db;
  audit: AuditService;
  apiKeys: ApiKeyService;
  testMode: Pick<TestModeService, 'resetWallet'>;
  payments: Pick<PaymentsService, 'createCardPayment' | 'createCryptoPayment'>;
}) {
  const { db, audit } = deps;

  return {
    /** Display prefix and generation time of the live and the test key (null when none). */
    async keys(partnerId: string): Promise<Record<ApiKeyMode, PartnerKeyInfo | null>> {
      const row = await membersRepository.keysOf(db, partnerId);
      const info = (
        set: boolean | undefined,
        prefix: string | null | undefined,
        at: Date | null | undefined,
      ) => (set && prefix && at ? { apiKeyPrefix: prefix, apiKeyGeneratedAt: at } : null);
      return {
        live: info(row?.liveSet, row?.livePrefix, row?.liveGeneratedAt),
        test: info(row?.testSet, row?.testPrefix, row?.testGeneratedAt),
      };
    },

    /** Generates or rotates the partner's key of `mode`; the audit row (never the key) commits with it. */
    async rotateKey(access: PartnerAccess, mode: ApiKeyMode, requestId?: string) {
      const before = (await this.keys(access.partnerId))[mode];
      return deps.apiKeys.generate(access.partnerId, mode, async (tx, generatedAt) => {
        await audit.record(tx, {
          action: before ? 'partner.key.rotate' : 'partner.key.create',
          targetType: 'api_key',
          targetId: `${access.partnerId}:${mode}`,
          before: before ? { mode, generatedAt: before.apiKeyGeneratedAt.toISOString() } : null,
          after: { mode, generatedAt: generatedAt.toISOString() },
          actor: actorOf(access),
          partnerId: access.partnerId,
          ...(requestId ? { requestId } : {}),
        });
      });
    },

    /** Sets the partner's test wallet back to 1000.00 USD (the Partner API's POST /test/wallet/reset). */
    async resetTestWallet(access: PartnerAccess, requestId?: string): Promise<number> {
      const cents = await deps.testMode.resetWallet(access.partnerId);
      await audit.record(db, {
        action: 'partner.test_wallet.reset',
        targetType: 'account',
        targetId: access.partnerId,
        after: { testBalanceCents: cents },
        actor: actorOf(access),
        partnerId: access.partnerId,
        ...(requestId ? { requestId } : {}),
      });
      return cents;
    },

    /**
     * A top-up of the PARTNER's wallet paid by a member: the ordinary payment flow with the
     * partner's account on the payment, so the provider's confirmation credits the partner's
     * wallet (once, in the settling transaction, like any top-up) and never the member's.
     */
    async startTopUp(
      access: PartnerAccess,
      input: {
        method: 'card' | 'crypto';
        amountCents: number;
        currency: Currency;
        successUrl?: string | undefined;
        cancelUrl?: string | undefined;
      },
      requestId?: string,
    ): Promise<{ paymentId: string; url: string }> {
      const started =
        input.method === 'card'
          ? await deps.payments.createCardPayment({
              accountId: access.partnerId,
              purpose: 'topup',
              amountMinor: input.amountCents,
              currency: input.currency,
              ...(input.successUrl ? { successUrl: input.successUrl } : {}),
              ...(input.cancelUrl ? { cancelUrl: input.cancelUrl } : {}),
            })
          : await deps.payments
              .createCryptoPayment({
                accountId: access.partnerId,
                purpose: 'topup',
                amountCents: input.amountCents,
                currency: input.currency,
                ...(input.successUrl ? { returnUrl: input.successUrl } : {}),
              })
              .then((c) => ({ paymentId: c.paymentId, url: String(c.invoice.url) }));
      await audit.record(db, {
        action: 'partner.wallet.topup.start',
        targetType: 'payment',
        targetId: started.paymentId,
        after: { method: input.method, amountMinor: input.amountCents, currency: input.currency },
        actor: actorOf(access),
        partnerId: access.partnerId,
        ...(requestId ? { requestId } : {}),
      });
      return { paymentId: started.paymentId, url: started.url };
    },

    /** The partner's audit log, newest first, with each actor's e-mail (keyset paging). */
    async auditLog(partnerId: string, page: { limit: number; after?: readonly KeyValue[] | undefined }) {
      const rows = await audit.list({ partnerId, limit: page.limit, after: page.after });
      const ids = [
        ...new Set(rows.flatMap((r) => (r.actor?.startsWith('account:') ? [r.actor.slice(8)] : []))),
      ];
      const emails = await membersRepository.emailsOf(db, ids);
      return rows.map((r) => ({
        ...r,
        actorEmail: r.actor?.startsWith('account:') ? (emails.get(r.actor.slice(8)) ?? null) : null,
      }));
    },
  };
}

export type PartnerConsoleActions = ReturnType<typeof createPartnerConsoleActions>;
