import { and, desc, eq, gte, like, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { keysetAfter, type KeyValue } from '../../db/keyset.js';
import { partnerRequests, type PartnerRequestRow } from '../../db/schema/index.js';

export type NewPartnerRequest = Omit<PartnerRequestRow, 'seq'>;
export type { PartnerRequestRow };

/** `?status=` of the request log: a status class. */
export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx';

export interface RequestLogFilters {
  status?: StatusClass | undefined;
  /** The URL path starts with this (a prefix, case-sensitive). */
  path?: string | undefined;
  requestId?: string | undefined;
}

/** `%`, `_` and `\` are literal in a path prefix. */
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Every SQL statement of the request log (partner_requests). */
export const requestLogRepository = {
  /**
   * One INSERT of a batch, each column as one array parameter (`unnest`). Not a multi-row
   * `VALUES`: Drizzle builds that on the event loop, 11 parameters a row, and every batch size is
   * a new statement text for PostgreSQL to parse; this one text takes any batch for about a tenth
   * of the CPU (docs/performance.md, "The request log's batches").
   */
  async insertMany(db: Db, rows: NewPartnerRequest[]): Promise<void> {
    if (rows.length === 0) return;
    const column = <T>(pick: (row: NewPartnerRequest) => T) => sql.param(rows.map(pick));
    await db.execute(sql`insert into ${partnerRequests} (account_id, livemode, created_at, method,
      route, path, status, duration_ms, request_id, idempotency_key, error_code)
      select * from unnest(${column((r) => r.accountId)}::text[], ${column((r) => r.livemode)}::boolean[],
        ${column((r) => r.createdAt.toISOString())}::timestamptz[], ${column((r) => r.method)}::text[],
        ${column((r) => r.route)}::text[], ${column((r) => r.path)}::text[],
        ${column((r) => r.status)}::int[], ${column((r) => r.durationMs)}::int[],
        ${column((r) => r.requestId)}::text[], ${column((r) => r.idempotencyKey)}::text[],
        ${column((r) => r.errorCode)}::text[])`);
  },

  /**
   * One account's requests of one mode, newest first (created_at, seq) on
   * partner_requests_account_idx; `after` is the keyset position of the last row already shown.
   */
  list(
    db: Db,
    accountId: string,
    livemode: boolean,
    filters: RequestLogFilters,
    page: { limit: number; after?: readonly KeyValue[] | undefined },
  ): Promise<PartnerRequestRow[]> {
    const conditions: SQL[] = [
      eq(partnerRequests.accountId, accountId),
      eq(partnerRequests.livemode, livemode),
    ];
    if (filters.status) {
      const low = Number(filters.status[0]) * 100;
      conditions.push(gte(partnerRequests.status, low), lt(partnerRequests.status, low + 100));
    }
    if (filters.path) conditions.push(like(partnerRequests.path, `${escapeLike(filters.path)}%`));
    if (filters.requestId) conditions.push(eq(partnerRequests.requestId, filters.requestId));
    if (page.after)
      conditions.push(keysetAfter([partnerRequests.createdAt, partnerRequests.seq], page.after, 'desc'));
    return db
      .select()
      .from(partnerRequests)
      .where(and(...conditions))
      .orderBy(desc(partnerRequests.createdAt), desc(partnerRequests.seq))
      .limit(page.limit);
  },

  /**
   * Deletes up to `batch` rows older than `cutoff` (oldest first, on partner_requests_created_idx);
   * returns how many. Small batches keep each statement short however much expired at once.
   */
  async deleteOlderThan(db: Db, cutoff: Date, batch: number): Promise<number> {
    const deleted = await db
      .delete(partnerRequests)
      .where(
        sql`${partnerRequests.seq} in (select ${partnerRequests.seq} from ${partnerRequests}
          where ${partnerRequests.createdAt} < ${cutoff.toISOString()}::timestamptz
          order by ${partnerRequests.createdAt} limit ${batch})`,
      )
      .returning({ seq: partnerRequests.seq });
    return deleted.length;
  },
};
