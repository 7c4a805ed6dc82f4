import { randomUUID } from 'node:crypto';
import createClient, { type Client, type FetchResponse } from 'openapi-fetch';
import type { components, paths } from './generated/partner.js';

/** The typed Partner API client: `client.GET('/api/public/v1/orders/{id}', …)` and so on. */
export type PartnerClient = Client<paths>;

type Schemas = components['schemas'];
export type Order = Schemas['Order'];
export type OrderSummary = Schemas['OrderSummary'];
export type OrderList = Schemas['OrderList'];
export type Esim = Schemas['Esim'];
export type Plan = Schemas['Plan'];
export type Country = Schemas['Country'];
export type Region = Schemas['Region'];
export type Catalog = Schemas['Catalog'];
export type Wallet = Schemas['Wallet'];
export type CreateOrderRequest = Schemas['CreateOrderRequest'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
/** What creation and `rotate-secret` answer: the endpoint with its secret, shown only then. */
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
export type UpdateWebhookEndpointRequest = Schemas['UpdateWebhookEndpointRequest'];
/** One event to one endpoint, with every attempt (status or network error, duration, 1 KB of body). */
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryAttempt = Schemas['WebhookDeliveryAttempt'];
export type RequestLogEntry = Schemas['RequestLogEntry'];
export type RequestLogList = Schemas['RequestLogList'];
/** The error body of every non-2xx answer: `{ error: { code, message, details? } }`. */
export type PartnerErrorBody = Schemas['Error'];

export interface PartnerClientOptions {
  /** Where the service runs, without a path: `https://api.example.com`. */
  baseUrl: string;
  /** A live (`svc_live_sk_…`) or test (`svc_test_sk_…`) key. Sent as `Authorization: Bearer`. */
  apiKey: string;
  /** A fetch implementation (default: the global one). */
  fetch?: (input: Request) => Promise<Response>;
  /** Extra headers sent with every request (e.g. a User-Agent). */
  headers?: Record<string, string>;
}

/** A typed client for the Partner API (openapi-fetch over the generated `paths`). */
export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  if (!options.apiKey) throw new TypeError('apiKey is required');
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    headers: { ...options.headers, authorization: `Bearer ${options.apiKey}` },
  });
}

/**
 * A fresh Idempotency-Key. Create one per purchase *before* the first attempt and keep it with
 * your own record of the purchase; send the same key on every retry of that purchase.
 */
export function newIdempotencyKey(): string {
  return `order_${randomUUID()}`;
}

export interface CreateOrderOptions {
  /** The purchase's key; a new one when omitted (then retries must reuse `result.idempotencyKey`). */
  idempotencyKey?: string;
}

/**
 * `POST /orders` with an Idempotency-Key. The same key with the same body within 24 h answers
 * the first response again without a second charge, so a retry after a timeout is always safe.
 * The result is openapi-fetch's `{ data, error, response }` plus the key that was sent.
 */
export async function createOrder(
  client: PartnerClient,
  body: CreateOrderRequest,
  options: CreateOrderOptions = {},
) {
  const idempotencyKey = options.idempotencyKey ?? newIdempotencyKey();
  const result = await client.POST('/api/public/v1/orders', {
    body,
    params: { header: { 'idempotency-key': idempotencyKey } },
  });
  return { ...result, idempotencyKey };
}

/** A non-2xx answer of the Partner API, thrown by `unwrap`. */
export class PartnerApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  /** The X-Request-Id of the failed request: quote it to support. */
  readonly requestId: string | null;
  /** Seconds to wait after a 429 (Retry-After). */
  readonly retryAfterSeconds: number | null;

  constructor(response: Response, body: unknown) {
    const error = (body as Partial<PartnerErrorBody> | undefined)?.error;
    super(error?.message ?? `HTTP ${response.status}`);
    this.name = 'PartnerApiError';
    this.status = response.status;
    this.code = error?.code ?? 'HTTP_ERROR';
    this.details = error?.details;
    this.requestId = response.headers.get('x-request-id');
    const retryAfter = response.headers.get('retry-after');
    this.retryAfterSeconds = retryAfter === null ? null : Number(retryAfter);
  }
}

/**
 * What `unwrap` answers for `304 Not Modified`: the conditional GET's `If-None-Match` ETag is
 * still current, so the copy you kept is the answer (the response has no body).
 */
export interface NotModified {
  readonly notModified: true;
  readonly status: 304;
  /** The ETag the service sent with the 304 (the one you already have), or null. */
  readonly etag: string | null;
}

/** True for the result `unwrap` gives a `304 Not Modified`. */
export function isNotModified(value: unknown): value is NotModified {
  return typeof value === 'object' && value !== null && (value as NotModified).notModified === true;
}

type ConditionalHeader = 'if-none-match' | 'if-modified-since';
/** Whether a header set names a conditional header; for a Headers object or a list of pairs the type cannot tell, so it may. */
type NamesConditional<H> = [H] extends [undefined]
  ? false
  : H extends Record<string, unknown>
    ? Extract<Lowercase<Extract<keyof H, string>>, ConditionalHeader> extends never
      ? false
      : true
    : true;
/**
 * Whether a request's init makes it conditional (`If-None-Match` / `If-Modified-Since` in
 * `params.header` or `headers`): only a conditional request can be answered 304 (RFC 9110
 * §15.4.5). No init (`undefined`) is never conditional.
 */
type IsConditional<Init> = undefined extends Init
  ? false
  : true extends
        | (Init extends { params: { header: infer H } } ? NamesConditional<H> : false)
        | (Init extends { headers: infer G } ? NamesConditional<G> : false)
    ? true
    : false;
type DataOf<R> = R extends { data: infer D; error?: never } ? D : never;

/**
 * The data of a successful call, `NotModified` for a 304 (the typed result includes it when the
 * request sent `If-None-Match` or `If-Modified-Since`), or a thrown `PartnerApiError`.
 */
export async function unwrap<
  Op extends Record<string | number, unknown>,
  Init,
  M extends `${string}/${string}`,
>(
  call: Promise<FetchResponse<Op, Init, M>> | FetchResponse<Op, Init, M>,
): Promise<
  IsConditional<Init> extends true
    ? DataOf<FetchResponse<Op, Init, M>> | NotModified
    : DataOf<FetchResponse<Op, Init, M>>
>;
export async function unwrap<T>(
  call:
    | Promise<{ data?: T; error?: unknown; response: Response }>
    | { data?: T; error?: unknown; response: Response },
): Promise<T>;
export async function unwrap(
  call:
    | Promise<{ data?: unknown; error?: unknown; response: Response }>
    | { data?: unknown; error?: unknown; response: Response },
): Promise<unknown> {
  const { data, error, response } = await call;
  if (response.status === 304) {
    const notModified: NotModified = { notModified: true, status: 304, etag: response.headers.get('etag') };
    return notModified;
  }
  if (!response.ok) throw new PartnerApiError(response, error);
  return data;
}

export interface ListOrdersOptions {
  /** Page size of each request, 1–100 (default 100: fewest requests). */
  pageSize?: number;
  /** Start after this page (a `nextCursor` kept from an earlier run). */
  cursor?: string;
}

/**
 * Every order, newest first, fetched page by page with the API's cursors (`nextCursor`, the same
 * as the `Link: rel="next"` header). Orders placed while iterating do not shift the pages.
 *
 * ```ts
 * for await (const order of listAllOrders(client)) console.log(order.orderNumber);
 * ```
 */
export async function* listAllOrders(
  client: PartnerClient,
  options: ListOrdersOptions = {},
): AsyncGenerator<OrderSummary, void, undefined> {
  let cursor = options.cursor;
  const limit = options.pageSize ?? 100;
  do {
    const page: OrderList = await unwrap(
      client.GET('/api/public/v1/orders', {
        params: { query: { limit, ...(cursor ? { cursor } : {}) } },
      }),
    );
    yield* page.orders;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

export interface ListDeliveriesOptions {
  /** Page size of each request, 1–100 (default 100). */
  pageSize?: number;
  /** Start after this page (a `nextCursor` kept from an earlier run). */
  cursor?: string;
}

export interface ListRequestsOptions {
  /** Only answers of this status class. */
  status?: '2xx' | '3xx' | '4xx' | '5xx';
  /** Only URL paths starting with this, e.g. `/api/public/v1/orders`. */
  path?: string;
  /** The one request with this X-Request-Id (`PartnerApiError.requestId`). */
  requestId?: string;
  /** Page size, 1 to 100 (default 25). */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

/**
 * Every delivery of one webhook endpoint (the last 30 days), newest first, each with its
 * attempts, fetched page by page (`GET /webhook-endpoints/{id}/deliveries`).
 *
 * ```ts
 * for await (const d of listAllWebhookDeliveries(client, 'we_…'))
 *   if (d.status === 'failed') await resendWebhookDelivery(client, 'we_…', d.id);
 * ```
 */
export async function* listAllWebhookDeliveries(
  client: PartnerClient,
  endpointId: string,
  options: ListDeliveriesOptions = {},
): AsyncGenerator<WebhookDelivery, void, undefined> {
  let cursor = options.cursor;
  const limit = options.pageSize ?? 100;
  do {
    const page = await unwrap(
      client.GET('/api/public/v1/webhook-endpoints/{id}/deliveries', {
        params: { path: { id: endpointId }, query: { limit, ...(cursor ? { cursor } : {}) } },
      }),
    );
    yield* page.data;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/**
 * Sends a delivery again now, with the same event and so the same `webhook-id` (your receiver's
 * deduplication key). Calling it twice before the attempt ran queues one attempt.
 */
export function resendWebhookDelivery(
  client: PartnerClient,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  return unwrap(
    client.POST('/api/public/v1/webhook-endpoints/{id}/deliveries/{deliveryId}/resend', {
      params: { path: { id: endpointId, deliveryId } },
    }),
  );
}

/**
 * A new signing secret, answered once. For 24 h each delivery carries a signature with the new
 * and with the previous secret (`verifyWebhook` accepts either), so deploy the new one meanwhile.
 */
export function rotateWebhookSecret(
  client: PartnerClient,
  endpointId: string,
): Promise<WebhookEndpointWithSecret> {
  return unwrap(
    client.POST('/api/public/v1/webhook-endpoints/{id}/rotate-secret', {
      params: { path: { id: endpointId } },
    }),
  );
}

/** `PATCH /webhook-endpoints/{id}`: only the fields given change (`enabled: false` disables it). */
export function updateWebhookEndpoint(
  client: PartnerClient,
  endpointId: string,
  body: UpdateWebhookEndpointRequest,
): Promise<WebhookEndpoint> {
  return unwrap(
    client.PATCH('/api/public/v1/webhook-endpoints/{id}', { params: { path: { id: endpointId } }, body }),
  );
}

/**
 * `GET /requests`: one page of the request log of the key's mode (the last 30 days, newest
 * first; entries appear about a second after the call). Throws PartnerApiError on a refusal.
 *
 * ```ts
 * const { data } = await listRequests(client, { requestId: err.requestId! });
 * ```
 */
export async function listRequests(
  client: PartnerClient,
  options: ListRequestsOptions = {},
): Promise<RequestLogList> {
  const query = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  return unwrap(client.GET('/api/public/v1/requests', { params: { query } }));
}

export type Statement = Schemas['Statement'];

/**
 * `GET /statements/{month}` as JSON: the wallet statement of one UTC month (`YYYY-MM`) of the
 * key's mode. `final: true` for a closed month (it never changes); the open month is live.
 */
export async function getStatement(client: PartnerClient, month: string): Promise<Statement> {
  const data = await unwrap(
    client.GET('/api/public/v1/statements/{month}', {
      params: { path: { month }, query: { format: 'json' } },
    }),
  );
  return data as Statement;
}

/** The same statement as a CSV text. */
export async function getStatementCsv(client: PartnerClient, month: string): Promise<string> {
  const data = await unwrap(
    client.GET('/api/public/v1/statements/{month}', {
      params: { path: { month }, query: { format: 'csv' } },
      parseAs: 'text',
    }),
  );
  return data;
}

/** The same statement as PDF bytes. */
export async function getStatementPdf(client: PartnerClient, month: string): Promise<Uint8Array> {
  const data = await unwrap(
    client.GET('/api/public/v1/statements/{month}', {
      params: { path: { month }, query: { format: 'pdf' } },
      parseAs: 'arrayBuffer',
    }),
  );
  return new Uint8Array(data);
}

/** `GET /wallet/transactions.csv`: the ledger rows of `from`..`to` (UTC days `YYYY-MM-DD`, both included). */
export async function exportWalletTransactions(
  client: PartnerClient,
  range: { from: string; to: string },
): Promise<string> {
  const data = await unwrap(
    client.GET('/api/public/v1/wallet/transactions.csv', { params: { query: range }, parseAs: 'text' }),
  );
  return data;
}
