import type { Db } from '../../db/client.js';
import {
  createSearchRepository,
  type AccountHit,
  type EsimHit,
  type OrderHit,
  type PaymentHit,
} from './search.repository.js';

export interface SearchResults {
  accounts: AccountHit[];
  orders: OrderHit[];
  esims: EsimHit[];
  payments: PaymentHit[];
}

/** At most this many hits of each kind. */
export const SEARCH_LIMIT = 10;

/** ICCIDs are 18–22 digits (ITU-T E.118; 19 or 20 in practice). */
const ICCID = /^\d{18,22}$/;
const ID = /^(acc|ord|esim|pay)_[0-9A-Za-z]{1,40}$/;
const ORDER_NUMBER = /^SVC-/i;

/**
 * One search box for the operator console: the shape of `q` decides which lookups run, so a
 * typed id or ICCID costs one index probe and only free text reaches the name scan.
 */
export function createConsoleSearch(deps: { db: Db }) {
  const repo = createSearchRepository(deps.db);

  return {
    async search(rawQuery: string): Promise<SearchResults> {
      const q = rawQuery.trim();
      const results: SearchResults = { accounts: [], orders: [], esims: [], payments: [] };
      const id = ID.exec(q);
      if (id) {
        if (id[1] === 'acc') results.accounts = await repo.accountById(q);
        else if (id[1] === 'ord') results.orders = await repo.orderById(q);
        else if (id[1] === 'esim') results.esims = await repo.esimById(q);
        else results.payments = await repo.paymentById(q);
        return results;
      }
      if (ICCID.test(q)) {
        results.esims = await repo.esimsByIccid(q, SEARCH_LIMIT);
        return results;
      }
      if (ORDER_NUMBER.test(q)) {
        results.orders = await repo.orderByNumber(q);
        return results;
      }
      if (q.includes('@')) {
        results.accounts = await repo.accountsByEmail(q, SEARCH_LIMIT);
        return results;
      }
      // Free text: a name, the start of an e-mail, or a payment provider's reference.
      const [byEmail, byName, byRef] = await Promise.all([
        repo.accountsByEmail(q, SEARCH_LIMIT),
        repo.accountsByName(q, SEARCH_LIMIT),
        repo.paymentsByProviderRef(q, SEARCH_LIMIT),
      ]);
      const seen = new Set<string>();
      results.accounts = [...byEmail, ...byName]
        .filter((a) => !seen.has(a.id) && seen.add(a.id))
        .slice(0, SEARCH_LIMIT);
      results.payments = byRef;
      return results;
    },
  };
}

export type ConsoleSearch = ReturnType<typeof createConsoleSearch>;
