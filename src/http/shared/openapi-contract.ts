/**
 * The contract rules of the three OpenAPI documents, in one place, so that no route file has to
 * repeat them:
 *
 * - `routeTransform` (the @fastify/swagger `transform` option) gives every operation a readable,
 *   unique `operationId` (a route's own `schema.operationId` wins), the surface's security
 *   requirement (derived from how the surface authenticates, `config.auth` on the Mobile/Web
 *   surface) and the surface's tags;
 * - `finishDocument` cuts one surface out of the full document and makes it fit for code
 *   generation: only that surface's security schemes, titled schemas hoisted into named
 *   `components.schemas` (`Order`, `Esim`, `Plan`, `Error`, …) referenced with `$ref`, response
 *   headers (X-Request-Id everywhere, rate-limit headers and Retry-After where a limit applies,
 *   x-livemode on the Partner API, ETag where a 304 can answer) and tag descriptions.
 */

import { EVENT_TYPES, type AnyEventType } from '../../domain/events/outbox.js';
import { EVENT_PAYLOADS } from './partner-event-schemas.js';
import type { SwaggerTransform } from '@fastify/swagger';

export type Surface = 'mobile' | 'partner' | 'admin';

type Json = Record<string, unknown>;
type Responses = Record<string, Json>;

export const SURFACE_PREFIX: Record<Surface, string> = {
  mobile: '/api/v1/',
  partner: '/api/public/v1/',
  admin: '/api/admin/v1/',
};

export function surfaceOf(url: string): Surface | undefined {
  return (Object.keys(SURFACE_PREFIX) as Surface[]).find((s) => url.startsWith(SURFACE_PREFIX[s]));
}

// ---------------------------------------------------------------------------------------------
// Security

/** Every security scheme of the service; each document keeps only its own surface's. */
export const SECURITY_SCHEMES = {
  mobile: {
    sessionToken: {
      type: 'http',
      scheme: 'bearer',
      description: 'Session token from POST /auth/register or /auth/login (native apps).',
    },
    sessionCookie: {
      type: 'apiKey',
      in: 'cookie',
      name: 'svc_session',
      description:
        'The session cookie set by register/login (web app). State-changing requests must come from the same origin.',
    },
  },
  partner: {
    apiKey: {
      type: 'http',
      scheme: 'bearer',
      description: 'Partner API key (`svc_live_sk_…` or `svc_test_sk_…`) as `Authorization: Bearer <key>`.',
    },
    apiKeyHeader: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description: 'The same Partner API key in the X-API-Key header.',
    },
  },
  admin: {
    adminToken: {
      type: 'http',
      scheme: 'bearer',
      description: 'The operator token (ADMIN_TOKEN) as `Authorization: Bearer <token>`.',
    },
  },
} as const;

export const allSecuritySchemes = {
  ...SECURITY_SCHEMES.mobile,
  ...SECURITY_SCHEMES.partner,
  ...SECURITY_SCHEMES.admin,
};

type Requirement = Array<Record<string, string[]>>;

function requirement(surface: Surface, auth: unknown): Requirement {
  const schemes = Object.keys(SECURITY_SCHEMES[surface]).map((name) => ({ [name]: [] as string[] }));
  if (surface !== 'mobile') return schemes; // every Partner and operator route needs its credential
  if (auth === 'none') return []; // public: catalog pages, QR images, provider webhooks, login…
  if (auth === 'optional') return [...schemes, {}];
  return schemes;
}

// ---------------------------------------------------------------------------------------------
// operationId

/**
 * Operation names that read better than the rule below would make them, keyed by
 * `METHOD path-after-the-surface-prefix`. Any route not listed gets the rule's name, so a new
 * route is never without one; a route may also set `schema.operationId` itself.
 */
const OPERATION_IDS: Record<Surface, Record<string, string>> = {
  mobile: {
    'POST auth/register': 'register',
    'POST auth/login': 'login',
    'POST auth/logout': 'logout',
    'GET auth/me': 'getMe',
    'POST auth/forgot-password': 'forgotPassword',
    'GET auth/reset-password': 'checkResetToken',
    'POST auth/reset-password': 'resetPassword',
    'POST auth/change-password': 'changePassword',
    'PATCH user/profile': 'updateProfile',
    'POST user/avatar': 'uploadAvatar',
    'POST user/api-key/generate': 'generateApiKey',
    'DELETE user/account': 'deleteAccount',
    'GET avatars/{token}': 'getAvatar',
    'POST payments/card/create-session': 'createCardSession',
    'POST payments/crypto/create-invoice': 'createCryptoInvoice',
    'POST payments/card/webhook': 'receiveCardWebhook',
    'POST payments/crypto/webhook': 'receiveCryptoWebhook',
    'GET user/wallet/transactions': 'listWalletTransactions',
    'POST checkout': 'checkout',
    'GET user/orders': 'listOrders',
    'GET user/orders/{id}': 'getOrder',
    'GET user/esims': 'listEsims',
    'GET esims/{qrToken}/qr.png': 'getQrCodePng',
    'GET esims/{qrToken}/qr.svg': 'getQrCodeSvg',
    'GET destinations': 'listDestinations',
    'GET destinations/{code}': 'getDestination',
    'GET support/tickets': 'listTickets',
    'POST support/tickets': 'createTicket',
    'POST support/tickets/{id}/messages': 'replyToTicket',
    'POST user/push-devices': 'registerPushDevice',
    'GET user/push-devices': 'listPushDevices',
    'DELETE user/push-devices': 'unregisterPushDevice',
  },
  partner: {
    'GET wallet': 'getWallet',
    'PATCH wallet': 'updateWallet',
    'POST orders': 'createOrder',
    'GET orders': 'listOrders',
    'GET orders/{id}': 'getOrder',
    'GET destinations': 'listDestinations',
    'GET destinations/{code}': 'getDestination',
    'GET events': 'listEvents',
  },
  admin: {
    'GET tickets': 'listTickets',
    'POST tickets/{id}/messages': 'replyToTicket',
    'PATCH tickets/{id}': 'updateTicket',
    'GET audit': 'listAuditEntries',
    'GET accounts': 'listAccounts',
    'PATCH accounts/{id}': 'updateAccount',
    'GET mail': 'listMail',
    'POST accounts/{id}/wallet/adjustments': 'adjustWallet',
    'GET orders/{id}': 'getOrder',
    'POST orders/{id}/retry': 'retryOrder',
    'POST orders/{id}/refund': 'refundOrder',
    'POST sandbox/esim-provider/faults': 'setSandboxEsimFaults',
    'POST sandbox/esim-provider/usage': 'setSandboxEsimUsage',
    'GET plans': 'listPlans',
    'PATCH plans/{id}': 'updatePlan',
    'PUT exchange-rates': 'setExchangeRates',
  },
};

/** Last path segments that name an action rather than a resource. */
const ACTION_VERBS = new Set([
  'cancel',
  'complete',
  'disable',
  'enable',
  'generate',
  'refund',
  'replay',
  'resend',
  'reset',
  'retry',
  'rotate',
  'test',
]);

const pascal = (words: string): string =>
  words
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

const singular = (word: string): string =>
  word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.endsWith('s') ? word.slice(0, -1) : word;

/**
 * The rule for routes without an entry: a verb from the method and the static path segments,
 * singular before a path parameter. `GET orders` → listOrders, `GET orders/{id}` → getOrder,
 * `POST webhook-endpoints` → createWebhookEndpoint, `DELETE webhook-endpoints/{id}` →
 * deleteWebhookEndpoint, `POST webhook-endpoints/{id}/test` → testWebhookEndpoint,
 * `POST test/wallet/reset` → resetTestWallet.
 */
export function ruleOperationId(method: string, path: string): string {
  const segments = path.split('/').filter(Boolean);
  const isParam = (s: string | undefined) => !!s && s.startsWith('{');
  const last = segments[segments.length - 1];
  const statics = segments.filter((s) => !isParam(s));
  const nouns = (list: string[]) => list.map(pascal).join('');
  const m = method.toUpperCase();
  const isAction = ACTION_VERBS.has(last ?? '');
  // A verb after a parameter is an action on that resource: orders/{id}/retry → retryOrder.
  if (m === 'POST' && isAction && segments.length >= 3 && isParam(segments[segments.length - 2])) {
    const resource = statics.slice(0, -1);
    resource[resource.length - 1] = singular(resource[resource.length - 1]!);
    return `${last}${nouns(resource)}`;
  }
  // A noun after a parameter is a part of that resource: esims/{iccid}/usage → setTestEsimUsage.
  if (
    ['POST', 'PUT'].includes(m) &&
    !isAction &&
    segments.length >= 3 &&
    !isParam(last) &&
    isParam(segments.at(-2))
  ) {
    const resource = statics.slice(0, -1);
    resource[resource.length - 1] = singular(resource[resource.length - 1]!);
    return `set${nouns([...resource, last!])}`;
  }
  const endsWithParam = isParam(last);
  const resource = [...statics];
  if (endsWithParam) resource[resource.length - 1] = singular(resource[resource.length - 1]!);
  const verbs: Record<string, string> = {
    GET: endsWithParam ? 'get' : 'list',
    POST: 'create',
    PUT: 'set',
    PATCH: 'update',
    DELETE: 'delete',
  };
  // POST …/wallet/reset, …/api-key/generate: a trailing verb becomes the verb.
  if (m === 'POST' && isAction) {
    return `${last}${nouns(resource.slice(0, -1))}`;
  }
  if (m === 'DELETE' && !endsWithParam) resource[resource.length - 1] = singular(resource.at(-1)!);
  if (m === 'POST') resource[resource.length - 1] = singular(resource.at(-1)!);
  return `${verbs[m] ?? m.toLowerCase()}${nouns(resource)}`;
}

export function operationIdFor(surface: Surface, method: string, url: string): string {
  const path = url.slice(SURFACE_PREFIX[surface].length).replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  return OPERATION_IDS[surface][`${method.toUpperCase()} ${path}`] ?? ruleOperationId(method, path);
}

// ---------------------------------------------------------------------------------------------
// Tags

/** Tag per path prefix (longest first wins); a route elsewhere keeps its own tags. */
const TAGS: Record<Surface, Array<[prefix: string, tag: string]>> = {
  mobile: [
    ['auth/', 'Auth'],
    ['user/wallet', 'Wallet'],
    ['user/orders', 'Orders'],
    ['checkout', 'Orders'],
    ['user/esims', 'eSIMs'],
    ['esims/', 'eSIMs'],
    ['user/push-devices', 'Push devices'],
    ['user/', 'Account'],
    ['avatars/', 'Account'],
    ['payments/', 'Payments'],
    ['destinations', 'Catalog'],
    ['support/', 'Support'],
  ],
  partner: [
    ['destinations', 'Catalog'],
    ['orders', 'Orders'],
    ['wallet', 'Wallet'],
    ['webhook-endpoints', 'Webhooks'],
    ['events', 'Events'],
    ['test/', 'Test mode'],
  ],
  admin: [
    ['accounts/', 'Accounts'],
    ['accounts', 'Accounts'],
    ['orders/', 'Orders'],
    ['tickets', 'Support'],
    ['audit', 'Audit'],
    ['mail', 'Mail'],
    ['sandbox/', 'Sandbox'],
    ['plans', 'Catalog'],
    ['exchange-rates', 'Catalog'],
  ],
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  Auth: 'Registration, login, sessions and password reset.',
  Account: 'Profile, avatar, Partner API key and account deletion.',
  Catalog: 'Destinations (countries and regions) with their plans and prices.',
  Orders: 'Buying plans and reading orders.',
  eSIMs: 'eSIMs with activation data and usage; QR code images.',
  Wallet: 'The prepaid USD wallet.',
  Payments: 'Wallet top-ups by card or crypto, and the providers’ webhooks.',
  Support: 'Support tickets and messages.',
  'Push devices': 'Devices that receive push notifications.',
  Webhooks: 'Endpoints that receive signed event deliveries (Standard Webhooks).',
  Events: 'Every event of the last 30 days, for polling or catching up.',
  'Test mode': 'Helpers for test keys (svc_test_sk_…) only.',
  Accounts: 'Customer and partner accounts, their status and wallet adjustments.',
  Audit: 'The audit log of operator actions.',
  Jobs: 'Background jobs that ran out of retries (dead letters): list, inspect and retry them.',
  Mail: 'Recorded outgoing mail.',
  Sandbox: 'Controls of the sandbox providers.',
};

function tagsFor(surface: Surface, url: string, own: unknown): string[] | undefined {
  const path = url.slice(SURFACE_PREFIX[surface].length);
  const match = TAGS[surface]
    .filter(([prefix]) => path.startsWith(prefix))
    .sort((a, b) => b[0].length - a[0].length)[0];
  if (match) return [match[1]];
  return Array.isArray(own) ? (own as string[]) : undefined;
}

// ---------------------------------------------------------------------------------------------
// @fastify/swagger transform

/** @fastify/swagger `transform`: operationId, security and tags per route (documentation only). */
export const routeTransform: SwaggerTransform = ({ schema: fastifySchema, url, route }) => {
  const schema = fastifySchema as Json | undefined;
  const surface = surfaceOf(url);
  if (!surface || !schema || schema.hide) return { schema: fastifySchema, url };
  const method = Array.isArray(route.method) ? route.method[0]! : route.method;
  const config = route.config as Json | undefined;
  return {
    url,
    schema: {
      ...schema,
      operationId: (schema.operationId as string | undefined) ?? operationIdFor(surface, method, url),
      security: requirement(surface, config?.auth),
      tags: tagsFor(surface, url, schema.tags),
    },
  };
};

// ---------------------------------------------------------------------------------------------
// Response headers

const HEADERS: Record<string, Json> = {
  RequestId: {
    description:
      'Identifies the request in the service’s logs (the caller’s X-Request-Id when it was a safe token, otherwise a new UUID). Quote it to support.',
    schema: { type: 'string' },
    example: '6f1c2a9e-0b7d-4c1e-9a55-2d3f4e5a6b7c',
  },
  RateLimitLimit: {
    description: 'Requests allowed in the current one-minute window of the budget this request spent.',
    schema: { type: 'integer' },
    example: 120,
  },
  RateLimitRemaining: {
    description: 'Requests left in the current window.',
    schema: { type: 'integer' },
    example: 117,
  },
  RateLimitReset: {
    description: 'Seconds until the current window ends.',
    schema: { type: 'integer' },
    example: 42,
  },
  RetryAfter: {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer' },
    example: 42,
  },
  Livemode: {
    description: '`true` when the request was made with a live key, `false` with a test key (svc_test_sk_…).',
    schema: { type: 'string', enum: ['true', 'false'] },
    example: 'true',
  },
  Link: {
    description:
      'Cursor pagination (lists with `limit` and `cursor`): `<URL>; rel="next"`, the same root-relative URL with the next page\'s `cursor`. Absent on the last page.',
    schema: { type: 'string' },
    example:
      '</api/v1/user/orders?limit=25&cursor=WzE3OTU0MDk0NTIzNDUsIm9yZF84SGMzIl0.q3TzV8m1Xy0aBcD4eF5gH6>; rel="next"',
  },
  ETag: {
    description: 'Version of the catalog response; send it back as If-None-Match to get 304.',
    schema: { type: 'string' },
    example: 'W/"42-1f3a9c0d"',
  },
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

function addResponseHeaders(surface: Surface, operation: Json): void {
  const responses = (operation.responses ?? {}) as Responses;
  const limited = surface === 'partner' || '429' in responses;
  const hasNotModified = '304' in responses;
  // Every list with a `cursor` parameter names its next page in Link (src/http/shared/pagination.ts).
  const paged = ((operation.parameters ?? []) as Json[]).some((p) => p.in === 'query' && p.name === 'cursor');
  for (const [status, response] of Object.entries(responses)) {
    const headers = { ...((response.headers as Json | undefined) ?? {}) };
    headers['X-Request-Id'] = headerRef('RequestId');
    // The Partner key check runs before the rate limit: a 401 spends no budget and has no headers.
    if (limited && status !== '401') {
      headers['X-RateLimit-Limit'] = headerRef('RateLimitLimit');
      headers['X-RateLimit-Remaining'] = headerRef('RateLimitRemaining');
      headers['X-RateLimit-Reset'] = headerRef('RateLimitReset');
    }
    if (status === '429') headers['Retry-After'] = headerRef('RetryAfter');
    if (surface === 'partner' && status !== '401') headers['x-livemode'] = headerRef('Livemode');
    if (hasNotModified && (status === '200' || status === '304')) headers.ETag = headerRef('ETag');
    if (paged && status === '200') headers.Link = headerRef('Link');
    response.headers = headers;
  }
  if (hasNotModified) {
    const parameters = (operation.parameters ?? []) as Json[];
    if (!parameters.some((p) => String(p.name).toLowerCase() === 'if-none-match')) {
      parameters.push({
        in: 'header',
        name: 'If-None-Match',
        required: false,
        description: 'The ETag of a previous answer: 304 with no body while it is still current.',
        schema: { type: 'string' },
      });
      operation.parameters = parameters;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Named components

/**
 * Names for schemas that route files declare inline (no title): `operationId:status` for a
 * response, `operationId:body` for a request body, `Parent.property` / `Parent.property[]` for
 * a schema inside a named one. Shared schema constants carry a `title` in their schema file
 * instead; a title's surface prefix (`PartnerOrder`) is dropped inside that surface's document.
 * Any other object body or 2xx answer is named after its operation: `<OperationId>Request`,
 * `<OperationId>Response`.
 */
const NAMES: Record<Surface, Record<string, string>> = {
  partner: {
    'listDestinations:200': 'Catalog',
    'getDestination:200': 'Country',
    'Catalog.countries[]': 'Country',
    'Catalog.regions[]': 'Region',
    'Country.plans[]': 'Plan',
    'Region.plans[]': 'Plan',
    'Country.name': 'LocalizedName',
    'Region.name': 'LocalizedName',
    'createOrder:body': 'CreateOrderRequest',
  },
  mobile: {
    'getMe:200': 'MeResponse',
    'listOrders:200': 'OrderList',
    'OrderList.orders[]': 'Order',
    'listEsims:200': 'EsimList',
    'EsimList.esims[]': 'Esim',
    'checkout:body': 'CheckoutRequest',
    'listDestinations:200': 'DestinationList',
    'DestinationList.countries[]': 'CountrySummary',
    'DestinationList.regions[]': 'RegionSummary',
    'CountrySummary.startingPrice': 'Price',
    'RegionSummary.startingPrice': 'Price',
    'getDestination:200': 'Destination',
  },
  admin: {},
};

const ANNOTATIONS = new Set(['description', 'examples', 'example']);

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const obj = value as Json;
    return `{${Object.keys(obj)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableStringify(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function isJson(value: unknown): value is Json {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** Gives the inline schemas named in NAMES their title, inner ones after their parent. */
function applyNames(names: Record<string, string>, schema: unknown): void {
  if (!isJson(schema) || typeof schema.title !== 'string') return;
  for (const [key, name] of Object.entries(names)) {
    const [parent, path] = key.split('.');
    if (parent !== schema.title || !path) continue;
    const isItems = path.endsWith('[]');
    const prop = (schema.properties as Json | undefined)?.[isItems ? path.slice(0, -2) : path];
    const target = isItems && isJson(prop) ? prop.items : prop;
    if (isJson(target)) {
      target.title = name;
      applyNames(names, target);
    }
  }
}

/** Drops properties that have a default from `required`, in a request schema and its objects. */
function optionalDefaults(schema: unknown): void {
  if (!isJson(schema)) return;
  const properties = isJson(schema.properties) ? schema.properties : {};
  if (Array.isArray(schema.required)) {
    schema.required = schema.required.filter((name) => {
      const property = properties[name as string];
      return !(isJson(property) && property.default !== undefined);
    });
    if ((schema.required as unknown[]).length === 0) delete schema.required;
  }
  Object.values(properties).forEach(optionalDefaults);
  if (isJson(schema.items)) optionalDefaults(schema.items);
}

/** Titles an untitled object schema (not a union, not a `$ref`). */
function nameInline(schema: unknown, name: string | undefined): void {
  if (name && isJson(schema) && !schema.title && !schema.$ref && schema.type === 'object')
    schema.title = name;
}

const SURFACE_TITLE_PREFIX = /^(?:Partner|Mobile|Admin)(?=[A-Z])/;

class ComponentRegistry {
  readonly schemas: Record<string, Json> = {};
  private readonly keys = new Map<string, string>();

  /** Replaces titled schemas (innermost first) by `$ref`s to components of the same content. */
  hoist(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((n) => this.hoist(n));
    if (!isJson(node)) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      // `properties` maps names to schemas; `examples`/`example`/`enum`/`const` hold data, not schemas.
      out[key] = ['example', 'examples', 'enum', 'const', 'default'].includes(key)
        ? value
        : this.hoist(value);
    }
    if (typeof out.title !== 'string' || '$ref' in out) return out;
    const core: Json = {};
    const annotations: Json = {};
    for (const [key, value] of Object.entries(out)) (ANNOTATIONS.has(key) ? annotations : core)[key] = value;
    const name = this.register(core);
    const ref: Json = { $ref: `#/components/schemas/${name}` };
    if (typeof annotations.description === 'string') ref.description = annotations.description;
    return ref;
  }

  private register(core: Json): string {
    const title = core.title as string;
    const key = stableStringify(core);
    const known = this.keys.get(key);
    if (known) return known;
    const candidates = [title.replace(SURFACE_TITLE_PREFIX, ''), title];
    let name = candidates.find((c) => !(c in this.schemas));
    for (let n = 2; !name; n++) if (!(`${title}${n}` in this.schemas)) name = `${title}${n}`;
    this.schemas[name] = { ...core, title: name };
    this.keys.set(key, name);
    return name;
  }
}

// ---------------------------------------------------------------------------------------------
// Examples of named components (operation-level examples live with the routes)

const ESIM_ID = 'esim_4fQ2x9LmT7bV1cN8kZ3d';
const ORDER_ID = 'ord_8Hc3Kq1Wz5Ty7Lp2Nb4M';
const LPA = 'LPA:1$smdp.example.com$K2-1XQ9P4-7H3L2M';
const QR = 'https://api.example.com/api/v1/esims/qr_Zp8Wm2Lk5Vx9Qa7Rt3Yb/qr';
const PLAN = { id: 'plan_tr_1gb_7d', dataAmountMb: 1024, durationDays: 7, priceUsd: 4.99, isTopUp: false };

const COMPONENT_EXAMPLES: Record<Surface, Record<string, unknown>> = {
  partner: {
    Plan: PLAN,
    Esim: {
      id: ESIM_ID,
      iccid: '8937204016150000001',
      activationCode: LPA,
      qrCodeUrl: `${QR}.png`,
      smdpAddress: 'smdp.example.com',
      status: 'ACTIVE',
      dataUsageMb: 312,
      totalVolumeMb: 1024,
      livemode: true,
    },
    OrderSummary: {
      id: ORDER_ID,
      orderNumber: 'SVC-API-261122-7KQ4M2XH',
      status: 'COMPLETED',
      amountUsd: 4.99,
      planId: PLAN.id,
      quantity: 1,
      createdAt: '2026-11-22T04:30:12.345Z',
      livemode: true,
    },
    Error: { error: { code: 'PLAN_NOT_FOUND', message: 'Plan plan_xx does not exist or is not sold' } },
  },
  mobile: {
    Error: {
      error: 'Plan not found.',
      code: 'PLAN_NOT_FOUND',
      requestId: '6f1c2a9e-0b7d-4c1e-9a55-2d3f4e5a6b7c',
    },
    Order: {
      id: ORDER_ID,
      orderNumber: 'SVC-261122-7KQ4M2XH',
      status: 'COMPLETED',
      planId: PLAN.id,
      quantity: 1,
      amount: 4.99,
      currency: 'USD',
      paymentMethod: 'wallet',
      esimIds: [ESIM_ID],
      topUpIccid: null,
      createdAt: '2026-11-22T04:30:12.345Z',
      completedAt: '2026-11-22T04:30:13.101Z',
    },
    Esim: {
      id: ESIM_ID,
      orderId: ORDER_ID,
      planId: PLAN.id,
      iccid: '8937204016150000001',
      activationCode: LPA,
      qrCodeUrl: `${QR}.png`,
      qrCodeSvgUrl: `${QR}.svg`,
      smdpAddress: 'smdp.example.com',
      matchingId: 'K2-1XQ9P4-7H3L2M',
      iosInstallUrl: `https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=${LPA}`,
      status: 'ACTIVE',
      dataUsage: 312,
      totalVolume: 1024,
      activatedAt: '2026-11-23T08:12:00.000Z',
      expiresAt: '2026-11-30T08:12:00.000Z',
    },
    WalletTransaction: {
      id: 'wtx_3Jd9Fs6Gh1Qw3Er5Ty8U',
      kind: 'purchase',
      amount: -4.99,
      currency: 'USD',
      balanceAfter: 45.01,
      description: 'Order SVC-261122-7KQ4M2XH',
      orderId: ORDER_ID,
      createdAt: '2026-11-22T04:30:12.345Z',
    },
  },
  admin: {
    Error: { error: { code: 'ORDER_NOT_FOUND', message: 'Order not found' } },
  },
};

// ---------------------------------------------------------------------------------------------
// Outbound webhooks (Partner API): what a partner's endpoint receives, as OpenAPI 3.1 `webhooks`

/**
 * One event body per type, each with its named `data` schema (./partner-event-schemas.ts). Plain
 * JSON copies: TypeBox's symbol keys stay behind.
 */
function webhookEventSchema(type: AnyEventType): Json {
  const payload = EVENT_PAYLOADS[type];
  return {
    title: payload.title,
    type: 'object',
    description: `The \`${type}\` event, as delivered to webhook endpoints${type === 'ping' ? '' : ' and listed by GET /events'}.`,
    required: ['id', 'type', 'createdAt', 'livemode', 'data'],
    properties: {
      id: { type: 'string', description: 'evt_…; equals the webhook-id header. Deduplicate on it.' },
      type: { type: 'string', const: type },
      createdAt: { type: 'string', format: 'date-time' },
      livemode: { type: 'boolean', description: 'false for events of test keys' },
      data: constToEnum(JSON.parse(JSON.stringify(payload.data))),
    },
  };
}

/**
 * `const: x` → `enum: [x]`, as @fastify/swagger writes the route schemas: the same object then
 * hoists to the same component (`Order`, `Wallet`) rather than a twin.
 */
function constToEnum(node: unknown): Json {
  if (Array.isArray(node)) return node.map(constToEnum) as unknown as Json;
  if (!isJson(node)) return node as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'const') out.enum = [value];
    else out[key] = ['example', 'examples', 'enum', 'default'].includes(key) ? value : constToEnum(value);
  }
  return out;
}

const WEBHOOK_HEADERS: Json[] = [
  ['webhook-id', 'The event id (evt_…); the same on every retry of the event.'],
  ['webhook-timestamp', 'Unix seconds of this attempt; reject deliveries more than 5 minutes away from now.'],
  [
    'webhook-signature',
    'Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed by ' +
      'the base64-decoded part of the endpoint secret after `whsec_` (Standard Webhooks).',
  ],
].map(([name, description]) => ({
  in: 'header',
  name,
  required: true,
  description,
  schema: { type: 'string' },
}));

/**
 * One OpenAPI 3.1 webhook per event type, named by the type; more types may be added, so a
 * receiver ignores types it does not know.
 */
function partnerWebhooks(registry: ComponentRegistry): Json {
  const types: AnyEventType[] = [...EVENT_TYPES, 'ping'];
  return Object.fromEntries(
    types.map((type) => [
      type,
      {
        post: {
          operationId: `receive${pascal(type.replace(/[._]/g, '-'))}Event`,
          summary: `${type} delivered to your endpoint`,
          description:
            `${EVENT_PAYLOADS[type].when} Sent to every enabled endpoint subscribed to the type` +
            `${type === 'ping' ? ' (ping: to the tested endpoint only)' : ''}. Verify the signature over ` +
            'the raw body, deduplicate on webhook-id and answer 2xx within 15 s; anything else is retried ' +
            'with growing delays for at least 24 h (410 Gone disables the endpoint). See docs/partners.md.',
          tags: ['Webhooks'],
          security: [],
          parameters: WEBHOOK_HEADERS,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: registry.hoist(webhookEventSchema(type)) } },
          },
          responses: {
            '200': { description: 'Received (any 2xx)' },
            '400': { description: 'Signature or timestamp did not verify: the delivery is retried' },
            '410': { description: 'The endpoint is gone: it is disabled and receives nothing more' },
          },
        },
      },
    ]),
  );
}

// ---------------------------------------------------------------------------------------------
// The document

const SURFACE_INFO: Record<Surface, { title: string; description: string }> = {
  mobile: {
    title: 'eSIM Resale Service — Mobile/Web API',
    description:
      'The API of the web app and the native apps, under /api/v1. Authenticate with the session token of ' +
      'register/login (`Authorization: Bearer`) or the session cookie. Errors are `{ error, code }` with a ' +
      'message in Turkish, or English with `Accept-Language: en`.',
  },
  partner: {
    title: 'eSIM Resale Service — Partner API',
    description:
      'The key-authenticated API for businesses, under /api/public/v1: catalog, wallet-paid orders with ' +
      'instant eSIM provisioning, and events. Authenticate with an API key (`Authorization: Bearer ' +
      'svc_live_sk_…` or `X-API-Key`); a test key (`svc_test_sk_…`) works against a separate test wallet. ' +
      'Errors are `{ error: { code, message, details? } }`; branch on `error.code`. Guide: docs/partners.md.',
  },
  admin: {
    title: 'eSIM Resale Service — Operator API',
    description:
      'The operator API under /api/admin/v1, enabled by ADMIN_TOKEN. Errors have the Partner shape.',
  },
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function collectRefs(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) return node.forEach((n) => collectRefs(n, into));
  if (!isJson(node)) return;
  if (typeof node.$ref === 'string') into.add(node.$ref);
  Object.values(node).forEach((v) => collectRefs(v, into));
}

/**
 * One surface's document, from the full document @fastify/swagger builds (which is not changed).
 */
export function finishDocument(full: Json, surface: Surface): Json {
  const doc = structuredClone(full);
  const prefix = SURFACE_PREFIX[surface];
  const paths = Object.fromEntries(
    Object.entries((doc.paths ?? {}) as Record<string, Json>).filter(([path]) => path.startsWith(prefix)),
  );
  const registry = new ComponentRegistry();
  const names = NAMES[surface];
  const usedTags = new Set<string>();
  const fullSchemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;

  for (const item of Object.values(paths)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const id = operation.operationId as string;
      for (const tag of (operation.tags as string[] | undefined) ?? []) usedTags.add(tag);
      // A request value with a default is filled in by the service: the caller may leave it out.
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        if (isJson(parameter.schema) && parameter.schema.default !== undefined) parameter.required = false;
      }
      const body = (operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
      for (const media of Object.values(body ?? {})) {
        optionalDefaults(media.schema);
        nameInline(media.schema, names[`${id}:body`] ?? `${pascal(id)}Request`);
        applyNames(names, media.schema);
        media.schema = registry.hoist(media.schema);
      }
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Responses)) {
        for (const media of Object.values((response.content ?? {}) as Record<string, Json>)) {
          const auto = status.startsWith('2') ? `${pascal(id)}Response` : undefined;
          nameInline(media.schema, names[`${id}:${status}`] ?? auto);
          applyNames(names, media.schema);
          const hoisted = registry.hoist(media.schema) as Json;
          // The response's description already says it; the schema need not repeat it.
          if (hoisted.$ref && hoisted.description === response.description) delete hoisted.description;
          media.schema = hoisted;
        }
      }
      addResponseHeaders(surface, operation);
    }
  }

  const webhooks = surface === 'partner' ? partnerWebhooks(registry) : undefined;
  if (webhooks) usedTags.add('Webhooks');

  // Schemas @fastify/swagger hoisted itself (TypeBox `$id`s): keep those this document uses.
  const refs = new Set<string>();
  collectRefs(paths, refs);
  collectRefs(webhooks, refs);
  collectRefs(registry.schemas, refs);
  const schemas: Record<string, Json> = { ...registry.schemas };
  for (const [name, example] of Object.entries(COMPONENT_EXAMPLES[surface])) {
    if (schemas[name] && !schemas[name].examples) schemas[name] = { ...schemas[name], examples: [example] };
  }
  for (const ref of refs) {
    const name = ref.replace('#/components/schemas/', '');
    if (ref.startsWith('#/components/schemas/') && !(name in schemas) && fullSchemas[name]) {
      schemas[name] = fullSchemas[name];
    }
  }
  const headers = Object.fromEntries(
    Object.entries(HEADERS).filter(([name]) => refs.has(`#/components/headers/${name}`)),
  );

  return {
    openapi: doc.openapi,
    info: {
      ...(doc.info as Json),
      ...SURFACE_INFO[surface],
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: doc.servers,
    tags: [...usedTags]
      .sort()
      .map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) })),
    paths,
    ...(webhooks ? { webhooks } : {}),
    components: {
      securitySchemes: SECURITY_SCHEMES[surface],
      headers,
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}
