/**
 * Card and crypto payments leave the app for the provider's hosted page. The checkout request
 * must name the return URL before the order id exists, so the URL carries a random reference and
 * the order id is kept under it in sessionStorage (same tab) until the browser comes back.
 */
const PREFIX = 'checkout:';

export function newReturnReference(): string {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function rememberOrder(reference: string, orderId: string): void {
  try {
    sessionStorage.setItem(PREFIX + reference, orderId);
  } catch {
    // without storage the orders list still shows the order
  }
}

export function orderForReference(reference: string): string | null {
  try {
    return sessionStorage.getItem(PREFIX + reference);
  } catch {
    return null;
  }
}

export function returnUrls(reference: string): { successUrl: string; cancelUrl: string } {
  const base = `${window.location.origin}/orders?return=${reference}`;
  return { successUrl: `${base}&outcome=paid`, cancelUrl: `${base}&outcome=cancelled` };
}
