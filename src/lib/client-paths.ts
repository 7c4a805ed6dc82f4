/**
 * The web app's client routes, the one list of them: the server answers index.html for exactly
 * these paths (src/http/web.ts), the router maps each page to its component (web/src/routes.tsx)
 * and the e2e tests load each one (web/e2e/serving.spec.ts). Plain data with no imports, so the
 * server bundle, the web build and the tests can all read it.
 */

export type ClientPage =
  | 'storefront'
  | 'destination'
  | 'compatibility'
  | 'login'
  | 'register'
  | 'forgot-password'
  | 'reset-password'
  | 'esims'
  | 'esim'
  | 'install'
  | 'orders'
  | 'order-receipt'
  | 'wallet'
  | 'topup-receipt'
  | 'support'
  | 'account'
  | 'api-keys'
  | 'partner'
  | 'partner-keys'
  | 'partner-webhooks'
  | 'partner-webhook'
  | 'partner-events'
  | 'partner-requests'
  | 'partner-billing'
  | 'partner-team'
  | 'partner-audit'
  | 'partner-invitation'
  | 'terms'
  | 'privacy'
  | 'refund-policy'
  | 'contact'
  | 'guest-ticket'
  | 'admin';

export interface ClientPath {
  /** React Router / Fastify pattern (`:name` parameters). */
  readonly path: string;
  readonly page: ClientPage;
  /** Behind the sign-in guard (the page redirects to /login without a session). */
  readonly signedIn: boolean;
  /** A concrete URL of this route, for tests. */
  readonly example: string;
  /**
   * The URL itself is the credential (an install or guest-thread token, a reset link): like the
   * signed-in pages, answered with `X-Robots-Tag: noindex` so a shared link never lands in a
   * search index.
   */
  readonly capability?: boolean;
  /**
   * The operator console (issue 33): its own bundle, frame and sign-in (web/src/admin/), outside
   * the storefront's layout; never indexed.
   */
  readonly operator?: boolean;
}

/** Pages search engines may index: public content, not accounts and not capability links. */
export function indexable(path: ClientPath): boolean {
  return !path.signedIn && !path.capability && !path.operator;
}

export const CLIENT_PATHS: readonly ClientPath[] = [
  { path: '/', page: 'storefront', signedIn: false, example: '/' },
  { path: '/destinations/:code', page: 'destination', signedIn: false, example: '/destinations/TR' },
  { path: '/compatibility', page: 'compatibility', signedIn: false, example: '/compatibility' },
  { path: '/login', page: 'login', signedIn: false, example: '/login' },
  { path: '/register', page: 'register', signedIn: false, example: '/register' },
  { path: '/forgot-password', page: 'forgot-password', signedIn: false, example: '/forgot-password' },
  {
    path: '/reset-password',
    page: 'reset-password',
    signedIn: false,
    capability: true,
    example: '/reset-password?token=abc',
  },
  { path: '/esims', page: 'esims', signedIn: true, example: '/esims' },
  { path: '/esims/:iccid', page: 'esim', signedIn: true, example: '/esims/8937204016150000001' },
  // An eSIM's hosted install page: public, the token is its only credential (issue 30 T2).
  {
    path: '/install/:token',
    page: 'install',
    signedIn: false,
    capability: true,
    example: '/install/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG',
  },
  { path: '/orders', page: 'orders', signedIn: true, example: '/orders' },
  // Receipts of an order and of a wallet top-up (issue 30 T9).
  { path: '/orders/:id/receipt', page: 'order-receipt', signedIn: true, example: '/orders/ord_x/receipt' },
  { path: '/wallet', page: 'wallet', signedIn: true, example: '/wallet' },
  {
    path: '/wallet/receipts/:transactionId',
    page: 'topup-receipt',
    signedIn: true,
    example: '/wallet/receipts/wtx_x',
  },
  { path: '/support', page: 'support', signedIn: true, example: '/support' },
  { path: '/account', page: 'account', signedIn: true, example: '/account' },
  { path: '/api-keys', page: 'api-keys', signedIn: true, example: '/api-keys' },
  // The partner console (issue 32): each section its own chunk; `?partner=` and `?mode=test` pick
  // the partner and mode.
  { path: '/partner', page: 'partner', signedIn: true, example: '/partner' },
  { path: '/partner/keys', page: 'partner-keys', signedIn: true, example: '/partner/keys' },
  { path: '/partner/webhooks', page: 'partner-webhooks', signedIn: true, example: '/partner/webhooks' },
  {
    path: '/partner/webhooks/:id',
    page: 'partner-webhook',
    signedIn: true,
    example: '/partner/webhooks/we_x',
  },
  { path: '/partner/events', page: 'partner-events', signedIn: true, example: '/partner/events' },
  { path: '/partner/requests', page: 'partner-requests', signedIn: true, example: '/partner/requests' },
  { path: '/partner/billing', page: 'partner-billing', signedIn: true, example: '/partner/billing' },
  { path: '/partner/team', page: 'partner-team', signedIn: true, example: '/partner/team' },
  { path: '/partner/audit', page: 'partner-audit', signedIn: true, example: '/partner/audit' },
  // An invitation to a partner's team: the link is the credential; the page asks to sign in or
  // register, then accepts.
  {
    path: '/partner-invitations/:token',
    page: 'partner-invitation',
    signedIn: false,
    capability: true,
    example: '/partner-invitations/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  },
  // Issue 30 T3: the legal pages and the contact form work without an account, and so does the
  // thread behind the link a staff reply mails to a guest.
  { path: '/terms', page: 'terms', signedIn: false, example: '/terms' },
  { path: '/privacy', page: 'privacy', signedIn: false, example: '/privacy' },
  { path: '/refund-policy', page: 'refund-policy', signedIn: false, example: '/refund-policy' },
  { path: '/contact', page: 'contact', signedIn: false, example: '/contact' },
  {
    path: '/support/guest/:token',
    page: 'guest-ticket',
    signedIn: false,
    capability: true,
    example: '/support/guest/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  },
  // The operator console (issue 33): one entry for all its pages, which it routes itself
  // (web/src/admin/sections.tsx).
  { path: '/admin', page: 'admin', signedIn: false, operator: true, example: '/admin' },
  { path: '/admin/*', page: 'admin', signedIn: false, operator: true, example: '/admin/orders' },
];
