import type { Db } from '../../db/client.js';
import type { KeyValue } from '../../db/keyset.js';
import { deleteInBatches } from '../../db/purge.js';
import { DAY, type Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import {
  requestLogRepository as repository,
  type NewPartnerRequest,
  type PartnerRequestRow,
  type RequestLogFilters,
} from './request-log.repository.js';

/** How long the log keeps a request (issue 32 C3): the retention job deletes older rows. */
export const REQUEST_LOG_RETENTION_DAYS = 30;
/** A batch is written at the latest this long after its first entry arrived. */
export const REQUEST_LOG_FLUSH_MS = 1000;
/** …or as soon as this many entries wait (one multi-row INSERT each). */
export const REQUEST_LOG_BATCH = 500;
/**
 * Entries one instance records per account per UTC day; beyond it the day's further requests of
 * that account are not logged (a runaway client cannot fill the disk: at most this × instances ×
 * 30 days rows per account).
 */
export const REQUEST_LOG_DAILY_CAP = 100_000;
/** Entries held while the database does not take them; the oldest are dropped beyond it. */
export const REQUEST_LOG_MAX_BUFFERED = 20_000;

export interface RequestLogEntry {
  createdAt: string;
  method: string;
  route: string | null;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  idempotencyKey: string | null;
  errorCode: string | null;
  livemode: boolean;
}

export function presentRequest(row: PartnerRequestRow): RequestLogEntry {
  return {
    createdAt: row.createdAt.toISOString(),
    method: row.method,
    route: row.route,
    path: row.path,
    status: row.status,
    durationMs: row.durationMs,
    requestId: row.requestId,
    idempotencyKey: row.idempotencyKey,
    errorCode: row.errorCode,
    livemode: row.livemode,
  };
}

/**
 * The Partner API request log. `record` is synchronous and writes nothing: entries wait in memory
 * and go to the database in one multi-row INSERT per batch (every REQUEST_LOG_FLUSH_MS or
 * REQUEST_LOG_BATCH entries, and on close), so a partner call costs no database write of its own
 * (the order path is benchmarked). A crash loses at most the last second's entries; a failed
 * write keeps them for the next batch up to REQUEST_LOG_MAX_BUFFERED.
 */
export function createRequestLog(deps: {
  db: Db;
  clock: Clock;
  log: Logger;
  flushMs?: number;
  batch?: number;
  dailyCap?: number;
  maxBuffered?: number;
}) {
  const { db, clock, log } = deps;
  const flushMs = deps.flushMs ?? REQUEST_LOG_FLUSH_MS;
  const batch = deps.batch ?? REQUEST_LOG_BATCH;
  const dailyCap = deps.dailyCap ?? REQUEST_LOG_DAILY_CAP;
  const maxBuffered = deps.maxBuffered ?? REQUEST_LOG_MAX_BUFFERED;

  const buffer: NewPartnerRequest[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The running write: writes never overlap, so entries land in arrival order. */
  let writing: Promise<void> = Promise.resolve();
  let closed = false;
  /** Entries recorded today per account (this instance), and the UTC day they count. */
  let counts = new Map<string, number>();
  let countedDay = -1;
  let dropped = 0;

  function underCap(accountId: string): boolean {
    const day = Math.floor(clock.now().getTime() / DAY);
    if (day !== countedDay) {
      counts = new Map();
      countedDay = day;
    }
    const count = counts.get(accountId) ?? 0;
    if (count >= dailyCap) {
      if (count === dailyCap)
        log.warn({ accountId, dailyCap }, 'request log: daily cap reached, not logging');
      counts.set(accountId, dailyCap + 1);
      return false;
    }
    counts.set(accountId, count + 1);
    return true;
  }

  function record(entry: NewPartnerRequest): void {
    if (!underCap(entry.accountId)) return;
    buffer.push({ ...entry, path: entry.path.slice(0, 512), route: entry.route?.slice(0, 512) ?? null });
    if (buffer.length > maxBuffered) {
      dropped += buffer.length - maxBuffered;
      buffer.splice(0, buffer.length - maxBuffered);
    }
    if (buffer.length >= batch) void flush();
    else if (!timer && !closed) {
      timer = setTimeout(() => void flush(), flushMs);
      timer.unref?.();
    }
  }

  async function writeBuffered(): Promise<void> {
    while (buffer.length > 0) {
      const taken = buffer.splice(0, batch);
      try {
        await repository.insertMany(db, taken);
      } catch (err) {
        // Kept for the next batch (bounded by maxBuffered); the next record or close retries.
        buffer.unshift(...taken);
        log.warn({ err: (err as Error).message, pending: buffer.length }, 'request log: batch not written');
        return;
      }
    }
    if (dropped > 0) {
      log.warn({ dropped }, 'request log: entries dropped while the database did not take them');
      dropped = 0;
    }
  }

  /** Writes what is buffered now; resolves when it is in the database (or the write failed). */
  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    writing = writing.then(writeBuffered);
    return writing;
  }

  return {
    record,
    flush,
    /** Entries not yet written (tests, shutdown). */
    pending: () => buffer.length,
    /** Stops the timer and writes what is left: call before the database closes. */
    async close(): Promise<void> {
      closed = true;
      await flush();
    },
    async list(
      accountId: string,
      livemode: boolean,
      filters: RequestLogFilters,
      page: { limit: number; after?: readonly KeyValue[] | undefined },
    ): Promise<PartnerRequestRow[]> {
      return repository.list(db, accountId, livemode, filters, page);
    },
    /** Deletes requests older than the retention (bounded per run); returns how many. */
    async purge(): Promise<number> {
      const cutoff = new Date(clock.now().getTime() - REQUEST_LOG_RETENTION_DAYS * DAY);
      return deleteInBatches((limit) => repository.deleteOlderThan(db, cutoff, limit));
    },
  };
}

export type RequestLog = ReturnType<typeof createRequestLog>;
export type { RequestLogFilters, StatusClass } from './request-log.repository.js';
