import type { components } from '../api/admin';

export type SearchResults = components['schemas']['SearchConsoleResponse'];

/** Where a hit opens in the console. */
export const hitLinks = {
  account: (a: { id: string }) => `/admin/accounts/${encodeURIComponent(a.id)}`,
  order: (o: { id: string }) => `/admin/orders/${encodeURIComponent(o.id)}`,
  /**
   * An eSIM has no page of its own: its customer's account lists it with its usage beside their
   * tickets and orders (finding a customer by ICCID is the usual start of a support case).
   */
  esim: (e: { accountId: string }) => `/admin/accounts/${encodeURIComponent(e.accountId)}`,
  /** A payment opens its order, or the account for a wallet top-up. */
  payment: (p: { orderId: string | null; accountId: string }) =>
    p.orderId
      ? `/admin/orders/${encodeURIComponent(p.orderId)}`
      : `/admin/accounts/${encodeURIComponent(p.accountId)}`,
};

/**
 * The page to open at once when the query named exactly one record (an id, an ICCID, an order
 * number, a whole e-mail address, a payment reference): then the list would be one click of
 * ceremony. A partial match (a name, the start of an address) always shows the list, even with
 * one hit, so the operator sees what matched.
 */
export function exactHit(rawQuery: string, r: SearchResults): string | null {
  const total = r.accounts.length + r.orders.length + r.esims.length + r.payments.length;
  if (total !== 1) return null;
  const q = rawQuery.trim();
  const [account] = r.accounts;
  if (account && (account.id === q || account.email === q.toLowerCase())) return hitLinks.account(account);
  const [order] = r.orders;
  if (order && (order.id === q || order.orderNumber === q.toUpperCase())) return hitLinks.order(order);
  const [esim] = r.esims;
  if (esim && (esim.id === q || esim.iccid === q)) return hitLinks.esim(esim);
  const [payment] = r.payments;
  if (payment && (payment.id === q || payment.providerRef === q)) return hitLinks.payment(payment);
  return null;
}
