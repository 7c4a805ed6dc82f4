import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestLog, RequestLogEntry, StatusClass } from '../../domain/requestlog/request-log.js';
import { presentRequest } from '../../domain/requestlog/request-log.js';
import type { PartnerRequestRow } from '../../domain/requestlog/request-log.repository.js';
import { defineList, NextCursorSchema, pageQuery } from './pagination.js';
import { IsoDate, Nullable } from './schemas.js';

/** One logged Partner API call: GET /api/public/v1/requests and the dashboard's request log. */
export const RequestLogEntrySchema = Type.Object(
  {
    createdAt: { ...IsoDate, description: 'When the request arrived' },
    method: Type.String({ description: 'GET, POST, PATCH, DELETE, …' }),
    route: Nullable(Type.String({ description: 'The route pattern, e.g. /api/public/v1/orders/:id' })),
    path: Type.String({ description: 'The URL path called, without the query string' }),
    status: Type.Integer({ description: 'HTTP status answered' }),
    durationMs: Type.Integer({ description: 'Time to answer, in milliseconds' }),
    requestId: Type.String({ description: 'The X-Request-Id of the answer (quote it to support)' }),
    idempotencyKey: Nullable(Type.String({ description: 'The Idempotency-Key header sent, if any' })),
    errorCode: Nullable(Type.String({ description: 'error.code of an error answer, else null' })),
    livemode: Type.Boolean(),
  },
  {
    title: 'RequestLogEntry',
    examples: [
      {
        createdAt: '2026-11-22T04:30:12.345Z',
        method: 'POST',
        route: '/api/public/v1/orders',
        path: '/api/public/v1/orders',
        status: 402,
        durationMs: 18,
        requestId: '6f1c2e4a-8d0b-4e55-9a57-2b3f1c0e9d11',
        idempotencyKey: 'order-4711',
        errorCode: 'INSUFFICIENT_BALANCE',
        livemode: true,
      },
    ],
  },
);

export const RequestLogQuery = pageQuery({
  status: Type.Optional(
    Type.Union([Type.Literal('2xx'), Type.Literal('3xx'), Type.Literal('4xx'), Type.Literal('5xx')], {
      description: 'Only answers of this status class',
    }),
  ),
  path: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Only paths starting with this, e.g. /api/public/v1/orders',
    }),
  ),
  requestId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 128, description: 'The request with this X-Request-Id' }),
  ),
});

export const RequestLogListSchema = Type.Object(
  {
    data: Type.Array(RequestLogEntrySchema),
    hasMore: Type.Boolean({ description: 'Another page follows (Link header and nextCursor)' }),
    nextCursor: Type.Optional(NextCursorSchema),
  },
  { title: 'RequestLogList' },
);

/** Newest first on partner_requests_account_idx, 25 a page unless `limit` says otherwise. */
const requestList = defineList<PartnerRequestRow>({
  list: 'partner.requests',
  key: ['date', 'int'],
  keyOf: (r) => [r.createdAt, r.seq],
  unpagedLimit: 25,
});

/** One page of an account's request log of one mode (both surfaces answer the same). */
export async function requestLogPage(
  requestLog: RequestLog,
  request: FastifyRequest,
  reply: FastifyReply,
  accountId: string,
  query: { status?: StatusClass; path?: string; requestId?: string; limit?: number; cursor?: string },
): Promise<{ data: RequestLogEntry[]; hasMore: boolean; nextCursor?: string | null }> {
  const { status, path, requestId } = query;
  // Filters and mode are part of the cursor's binding: a page of one list never continues another.
  const page = requestList.plan([accountId, request.livemode, status, path, requestId], query);
  const rows = await requestLog.list(
    accountId,
    request.livemode,
    { status, path, requestId },
    { limit: page.take!, after: page.after },
  );
  const { items, nextCursor } = page.finish(request, reply, rows);
  return {
    data: items.map(presentRequest),
    hasMore: nextCursor !== null,
    ...(page.paged ? { nextCursor } : {}),
  };
}
