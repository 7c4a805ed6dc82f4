/**
 * Cursor pagination shared by every list of the three surfaces (issue 12, decisions "Round 2"):
 *
 * - `limit` (1–100) and `cursor` query parameters (`pageQuery`);
 * - keyset pagination: the cursor holds the sort key of the last row of the page (plus its id),
 *   the list function seeks past it on an index matching its ORDER BY (`src/db/keyset.ts`), so a
 *   page costs the same however long the history is, and rows inserted meanwhile never shift it;
 * - the next page's address in `Link: <…>; rel="next"` (the same root-relative URL with the next
 *   cursor) and, in paged answers whose body is an object, `nextCursor` (null on the last page);
 * - without `limit` and `cursor` a list answers as it always did (the unpaged answer), with a
 *   `Link` header only when that answer was cut at the list's own default size.
 *
 * Cursors are opaque: `base64url(JSON of the key).tag`, where the tag is a SHA-256 over the list's
 * name, its scope (account, mode, filters) and the key. A cursor from another list, another
 * account or other filters, or an edited one, does not match and answers 400 VALIDATION_ERROR in
 * the surface's error shape. The server re-applies the caller's own scope on every page anyway, so
 * a cursor can only ever position within the caller's own list.
 */
import { createHash } from 'node:crypto';
import { Type, type TProperties } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeyValue } from '../../db/keyset.js';
import { AppError } from '../../domain/errors.js';
import { Nullable } from './schemas.js';

export const MAX_PAGE_LIMIT = 100;
/** Page size when a cursor comes without `limit` on a list that is unpaged by default. */
export const DEFAULT_PAGE_LIMIT = 25;
const MAX_CURSOR_LENGTH = 512;

export const LimitParam = Type.Integer({
  minimum: 1,
  maximum: MAX_PAGE_LIMIT,
  description:
    'Page size, 1 to 100. With `limit` (or `cursor`) the answer is one page; the next one is in the `Link` header (and `nextCursor`).',
});

export const CursorParam = Type.String({
  minLength: 1,
  maxLength: MAX_CURSOR_LENGTH,
  pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$',
  description:
    'Opaque cursor of the next page, from `nextCursor` or the `Link` header of the previous page. Only valid for the list (and filters) it came from; anything else → 400 VALIDATION_ERROR.',
});

/** A list's query string: its own filters plus `limit` and `cursor`. */
export function pageQuery<T extends TProperties>(filters: T) {
  return Type.Object({
    ...filters,
    limit: Type.Optional(LimitParam),
    cursor: Type.Optional(CursorParam),
  });
}

export const NextCursorSchema = Nullable(
  Type.String({
    description:
      'Cursor of the next page (pass it as `cursor` with the same query), null on the last page. Present when the request was paged (`limit` or `cursor`).',
  }),
);

export type KeyKind = 'date' | 'string' | 'int' | 'bool';
type Scope = ReadonlyArray<string | number | boolean | null | undefined>;

export interface ListDefinition<Row> {
  /** Names the list: a cursor of another list is refused. */
  list: string;
  /** The ORDER BY columns' kinds, id last. */
  key: readonly KeyKind[];
  keyOf: (row: Row) => KeyValue[];
  /**
   * Rows an unpaged request (no limit, no cursor) gets; undefined = every row (the lists the
   * specification defines unpaged). Also the page size of a cursor sent without `limit`.
   */
  unpagedLimit?: number;
}

export interface PagePlan<Row> {
  /** `limit` or `cursor` was sent: the body carries `nextCursor`. */
  paged: boolean;
  /** Rows to ask the list function for (one more than the page, to know whether another follows). */
  take: number | undefined;
  /** The position after which the page starts. */
  after: KeyValue[] | undefined;
  /** Cuts the rows to the page, sets the Link header and gives the next cursor. */
  finish(
    request: FastifyRequest,
    reply: FastifyReply,
    rows: Row[],
  ): { items: Row[]; nextCursor: string | null };
}

export interface List<Row> {
  plan(scope: Scope, query: { limit?: number | undefined; cursor?: string | undefined }): PagePlan<Row>;
}

function tagOf(list: string, scope: Scope, payload: string): string {
  return createHash('sha256')
    .update(`${list}\n${JSON.stringify(scope)}\n${payload}`)
    .digest('base64url')
    .slice(0, 22);
}

export function encodeCursor(list: string, scope: Scope, kinds: readonly KeyKind[], key: KeyValue[]): string {
  const values = key.map((v, i) => (kinds[i] === 'date' ? (v as Date).getTime() : v));
  const payload = Buffer.from(JSON.stringify(values)).toString('base64url');
  return `${payload}.${tagOf(list, scope, payload)}`;
}

function invalidCursor(): AppError {
  return new AppError('VALIDATION_ERROR', 'cursor is not a cursor of this list', {
    field: 'cursor',
    issues: [
      { field: 'cursor', message: 'is not a cursor of this list (use the one the previous page gave)' },
    ],
  });
}

export function decodeCursor(
  list: string,
  scope: Scope,
  kinds: readonly KeyKind[],
  cursor: string,
): KeyValue[] {
  const [payload, tag, extra] = cursor.split('.');
  if (!payload || !tag || extra !== undefined || tagOf(list, scope, payload) !== tag) throw invalidCursor();
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(values) || values.length !== kinds.length) throw invalidCursor();
  return values.map((v, i) => {
    switch (kinds[i]) {
      case 'date':
        // Within the range a Date can hold (±8.64e15 ms), so toISOString never throws.
        if (typeof v !== 'number' || !Number.isSafeInteger(v) || Math.abs(v) > 8.64e15) throw invalidCursor();
        return new Date(v);
      case 'int':
        if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw invalidCursor();
        return v;
      case 'bool':
        if (typeof v !== 'boolean') throw invalidCursor();
        return v;
      default:
        if (typeof v !== 'string' || v.length > 200) throw invalidCursor();
        return v;
    }
  });
}

/** The request's own root-relative URL with `cursor` replaced: every other parameter is kept. */
export function nextPageUrl(requestUrl: string, cursor: string): string {
  const url = new URL(requestUrl, 'http://localhost');
  url.searchParams.set('cursor', cursor);
  return `${url.pathname}${url.search}`;
}

export function defineList<Row>(definition: ListDefinition<Row>): List<Row> {
  const { list, key, keyOf, unpagedLimit } = definition;
  return {
    plan(scope, query) {
      // The schema says 1–100; this also refuses what a coercing validator may let through (1e309).
      if (
        query.limit !== undefined &&
        !(Number.isSafeInteger(query.limit) && query.limit >= 1 && query.limit <= MAX_PAGE_LIMIT)
      )
        throw new AppError('VALIDATION_ERROR', `limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`, {
          field: 'limit',
          issues: [{ field: 'limit', message: `must be an integer from 1 to ${MAX_PAGE_LIMIT}` }],
        });
      const paged = query.limit !== undefined || query.cursor !== undefined;
      const limit = query.limit ?? (paged ? (unpagedLimit ?? DEFAULT_PAGE_LIMIT) : unpagedLimit);
      const after = query.cursor === undefined ? undefined : decodeCursor(list, scope, key, query.cursor);
      return {
        paged,
        take: limit === undefined ? undefined : limit + 1,
        after,
        finish(request, reply, rows) {
          if (limit === undefined || rows.length <= limit) return { items: rows, nextCursor: null };
          const items = rows.slice(0, limit);
          const nextCursor = encodeCursor(list, scope, key, keyOf(items[items.length - 1]!));
          reply.header('link', `<${nextPageUrl(request.url, nextCursor)}>; rel="next"`);
          return { items, nextCursor };
        },
      };
    },
  };
}

/** Reads the `rel="next"` target of a Link header (tests, bench, SDK-style clients). */
export function nextLink(header: string | string[] | number | undefined): string | null {
  const value = Array.isArray(header) ? header.join(', ') : typeof header === 'string' ? header : '';
  const match = /<([^>]*)>\s*;\s*rel="?next"?/.exec(value);
  return match ? match[1]! : null;
}
