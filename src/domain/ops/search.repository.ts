import { and, desc, eq, ilike, inArray, like, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accounts, esims, orders, payments } from '../../db/schema/index.js';

/**
 * The operator console's search box (issue 33 O2/O3): one statement per kind of hit, each bounded
 * by `limit`. Ids, ICCIDs, order numbers and payment references are index lookups; names and
 * e-mail beginnings scan the accounts table (a pg_trgm index would need the extension loaded on
 * both databases: not worth it at a reseller's account count).
 */

export interface AccountHit {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  status: string;
  createdAt: Date;
}

export interface OrderHit {
  id: string;
  orderNumber: string;
  accountId: string;
  accountEmail: string;
  channel: string;
  status: string;
  amountCents: number;
  currency: string;
  livemode: boolean;
  createdAt: Date;
}

export interface EsimHit {
  id: string;
  iccid: string;
  status: string;
  accountId: string;
  accountEmail: string;
  orderId: string;
  livemode: boolean;
  createdAt: Date;
}

export interface PaymentHit {
  id: string;
  provider: string;
  providerRef: string | null;
  status: string;
  amountMinor: number;
  currency: string;
  accountId: string;
  orderId: string | null;
  createdAt: Date;
}

/**
 * Every payment provider the service has: the unique index is on (provider, provider_ref), so a
 * lookup by reference names them all to use it (no index on provider_ref alone).
 */
const PAYMENT_PROVIDERS = ['sandbox', 'stripe', 'cryptomus'];

/** `%` and `_` typed by the operator are literal characters, not wildcards. */
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const accountColumns = {
  id: accounts.id,
  email: accounts.email,
  firstName: accounts.firstName,
  lastName: accounts.lastName,
  status: accounts.status,
  createdAt: accounts.createdAt,
};

const orderColumns = {
  id: orders.id,
  orderNumber: orders.orderNumber,
  accountId: orders.accountId,
  accountEmail: accounts.email,
  channel: orders.channel,
  status: orders.status,
  amountCents: orders.amountCents,
  currency: orders.currency,
  livemode: orders.livemode,
  createdAt: orders.createdAt,
};

const esimColumns = {
  id: esims.id,
  iccid: esims.iccid,
  status: esims.status,
  accountId: esims.accountId,
  accountEmail: accounts.email,
  orderId: esims.orderId,
  livemode: esims.livemode,
  createdAt: esims.createdAt,
};

const paymentColumns = {
  id: payments.id,
  provider: payments.provider,
  providerRef: payments.providerRef,
  status: payments.status,
  amountMinor: payments.amountMinor,
  currency: payments.currency,
  accountId: payments.accountId,
  orderId: payments.orderId,
  createdAt: payments.createdAt,
};

export function createSearchRepository(db: Db) {
  return {
    async accountById(id: string): Promise<AccountHit[]> {
      return db.select(accountColumns).from(accounts).where(eq(accounts.id, id)).limit(1);
    },

    /** E-mails are stored lower-case: the exact address first, then those it begins. */
    async accountsByEmail(prefix: string, limit: number): Promise<AccountHit[]> {
      const email = prefix.toLowerCase();
      return db
        .select(accountColumns)
        .from(accounts)
        .where(like(accounts.email, `${escapeLike(email)}%`))
        .orderBy(sql`${accounts.email} = ${email} desc`, accounts.email)
        .limit(limit);
    },

    /** First name, last name or both together contain the text (any case). */
    async accountsByName(text: string, limit: number): Promise<AccountHit[]> {
      const pattern = `%${escapeLike(text)}%`;
      return db
        .select(accountColumns)
        .from(accounts)
        .where(
          or(
            ilike(accounts.firstName, pattern),
            ilike(accounts.lastName, pattern),
            ilike(sql`${accounts.firstName} || ' ' || ${accounts.lastName}`, pattern),
          ),
        )
        .orderBy(desc(accounts.createdAt), desc(accounts.id))
        .limit(limit);
    },

    async orderById(id: string): Promise<OrderHit[]> {
      return db
        .select(orderColumns)
        .from(orders)
        .innerJoin(accounts, eq(accounts.id, orders.accountId))
        .where(eq(orders.id, id))
        .limit(1);
    },

    /** Order numbers are upper-case (SVC-…); the operator may type them in any case. */
    async orderByNumber(orderNumber: string): Promise<OrderHit[]> {
      return db
        .select(orderColumns)
        .from(orders)
        .innerJoin(accounts, eq(accounts.id, orders.accountId))
        .where(eq(orders.orderNumber, orderNumber.toUpperCase()))
        .limit(1);
    },

    async esimById(id: string): Promise<EsimHit[]> {
      return db
        .select(esimColumns)
        .from(esims)
        .innerJoin(accounts, eq(accounts.id, esims.accountId))
        .where(eq(esims.id, id))
        .limit(1);
    },

    /** ICCIDs can be reused upstream: every eSIM that carried it, newest first. */
    async esimsByIccid(iccid: string, limit: number): Promise<EsimHit[]> {
      return db
        .select(esimColumns)
        .from(esims)
        .innerJoin(accounts, eq(accounts.id, esims.accountId))
        .where(eq(esims.iccid, iccid))
        .orderBy(desc(esims.createdAt), desc(esims.id))
        .limit(limit);
    },

    async paymentById(id: string): Promise<PaymentHit[]> {
      return db.select(paymentColumns).from(payments).where(eq(payments.id, id)).limit(1);
    },

    /** The provider's session or invoice id (Stripe cs_…, a Cryptomus uuid), exactly. */
    async paymentsByProviderRef(ref: string, limit: number): Promise<PaymentHit[]> {
      return db
        .select(paymentColumns)
        .from(payments)
        .where(and(inArray(payments.provider, PAYMENT_PROVIDERS), eq(payments.providerRef, ref)))
        .orderBy(desc(payments.createdAt))
        .limit(limit);
    },
  };
}

export type SearchRepository = ReturnType<typeof createSearchRepository>;
