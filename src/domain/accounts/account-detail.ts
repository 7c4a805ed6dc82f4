import type { CatalogService } from '../catalog/catalog.service.js';
import type { AdminOrderListRow } from '../orders/admin-orders.repository.js';
import type { OrderAdmin } from '../orders/order-admin.js';
import type { EsimRow, OrderService } from '../orders/orders.service.js';
import type { PartnersService } from '../partners/partners.service.js';
import type { PartnerRole } from '../partners/roles.js';
import { priceRuleOf, type PriceRule } from '../pricing/partner-price.js';
import type { Account, LiveSession, SessionService } from '../sessions/sessions.service.js';
import type { SupportService, TicketStatus } from '../support/support.service.js';
import type { WalletService, WalletTransaction } from '../wallet/wallet.service.js';
import type { AccountService } from './accounts.service.js';
import { apiKeysOf, type ApiKeyInfo, type ApiKeyMode } from './api-keys.js';

/** How many of each list the page shows: the newest; the full lists have their own pages. */
export const DETAIL_LIMITS = { transactions: 20, orders: 20, esims: 50, tickets: 20, sessions: 20 } as const;

/** A ticket as the account page lists it: the thread itself is on the ticket's page. */
export interface AccountTicket {
  id: string;
  subject: string;
  category: string;
  status: TicketStatus;
  orderId: string | null;
  messages: number;
  lastAuthor: 'customer' | 'staff' | 'system' | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Everything support needs about one customer on one page (issue 33 O2), before presentation. */
export interface AccountDetail {
  account: Account;
  wallet: { transactions: WalletTransaction[]; moreTransactions: boolean };
  orders: { rows: Array<AdminOrderListRow & { planName: string | null }>; more: boolean };
  /** Live and test eSIMs together, newest first, with the usage last stored (no provider call). */
  esims: { rows: Array<EsimRow & { planName: string | null }>; more: boolean };
  tickets: { rows: AccountTicket[]; more: boolean };
  sessions: { live: number; newest: LiveSession[] };
  apiKeys: Record<ApiKeyMode, ApiKeyInfo | null>;
  partner: {
    /** Holds a Partner API key or a price rule: it sells through the Partner API. */
    isPartner: boolean;
    priceRule: PriceRule | null;
    priceRuleUpdatedAt: Date | null;
    /** The partners whose team this account belongs to (not its own). */
    memberOf: Array<{ partnerId: string; email: string; name: string; role: PartnerRole }>;
  };
}

export interface AccountDetailDeps {
  accounts: Pick<AccountService, 'viewById'>;
  sessions: Pick<SessionService, 'listLive'>;
  wallet: Pick<WalletService, 'listTransactions'>;
  orderAdmin: Pick<OrderAdmin, 'list'>;
  orders: Pick<OrderService, 'listEsims'>;
  support: Pick<SupportService, 'listForAccount'>;
  partners: Pick<PartnersService, 'list'>;
  catalog: Pick<CatalogService, 'planNames'>;
}

/** The newest `limit` of `rows` (read with one extra), and whether there were more. */
function capped<T>(rows: T[], limit: number): { rows: T[]; more: boolean } {
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

/**
 * The operator console's account page (issue 33 O2), composed from the services that own each
 * part; every read is keyed by the account id and bounded. Stored usage only: a page view asks
 * no eSIM provider anything (the refresh job keeps usage current).
 */
export function createAccountDetail(deps: AccountDetailDeps) {
  async function esimsOf(accountId: string) {
    const page = { limit: DETAIL_LIMITS.esims + 1 };
    const [live, test] = await Promise.all([
      deps.orders.listEsims(accountId, true, page),
      deps.orders.listEsims(accountId, false, page),
    ]);
    const merged = [...live, ...test].sort(
      (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
    );
    return capped(merged, DETAIL_LIMITS.esims);
  }

  return {
    /** ACCOUNT_NOT_FOUND for an unknown id (a deleted account is found: its row stays). */
    async get(accountId: string): Promise<AccountDetail> {
      const { account } = await deps.accounts.viewById(accountId);
      const [transactions, orders, esims, tickets, sessions, teams] = await Promise.all([
        deps.wallet.listTransactions(accountId, DETAIL_LIMITS.transactions + 1),
        deps.orderAdmin.list({ mode: 'all', accountId }, { limit: DETAIL_LIMITS.orders + 1 }),
        esimsOf(accountId),
        deps.support.listForAccount(accountId, { limit: DETAIL_LIMITS.tickets + 1 }),
        deps.sessions.listLive(accountId, DETAIL_LIMITS.sessions),
        deps.partners.list(account),
      ]);
      // Operators read English, as on the order pages.
      const names = await deps.catalog.planNames(
        [...orders.map((o) => o.planId), ...esims.rows.map((e) => e.planId)],
        'en',
      );
      const named = <T extends { planId: string }>(row: T) => ({
        ...row,
        planName: names.get(row.planId) ?? null,
      });
      const apiKeys = apiKeysOf(account);
      const priceRule = priceRuleOf(account);
      const wallet = capped(transactions, DETAIL_LIMITS.transactions);
      const orderPage = capped(orders, DETAIL_LIMITS.orders);
      return {
        account,
        wallet: { transactions: wallet.rows, moreTransactions: wallet.more },
        orders: { rows: orderPage.rows.map(named), more: orderPage.more },
        esims: { rows: esims.rows.map(named), more: esims.more },
        tickets: capped(
          tickets.map((t) => ({
            id: t.id,
            subject: t.subject,
            category: t.category,
            status: t.status,
            orderId: t.orderId,
            messages: t.messages.length,
            lastAuthor: t.messages.at(-1)?.author ?? null,
            createdAt: t.createdAt,
            updatedAt: t.updatedAt,
          })),
          DETAIL_LIMITS.tickets,
        ),
        sessions: { live: sessions.count, newest: sessions.newest },
        apiKeys,
        partner: {
          isPartner: apiKeys.live !== null || apiKeys.test !== null || priceRule !== null,
          priceRule,
          priceRuleUpdatedAt: account.priceRuleUpdatedAt,
          memberOf: teams
            .filter((p) => !p.self)
            .map((p) => ({ partnerId: p.id, email: p.email, name: p.name, role: p.role })),
        },
      };
    },
  };
}

export type AccountDetailService = ReturnType<typeof createAccountDetail>;
