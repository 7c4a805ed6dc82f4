import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../errors.js';
import {
  buildStatement,
  monthOf,
  monthRange,
  statementCsv,
  transactionsCsv,
  type Statement,
} from './statement.js';
import { statementPdf } from './statement-pdf.js';
import { statementsRepository } from './statements.repository.js';

/**
 * A closed month is stored (and final) only this long after it ended: a posting that began
 * in the month's last moments, with its time, has committed by then.
 */
export const CLOSING_GRACE_MS = 5 * 60 * 1000;
/** A date-range export covers at most this many days (bounded work per request). */
export const MAX_EXPORT_DAYS = 366;

const DAY_MS = 24 * 60 * 60 * 1000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A template literal: test/scripts/dependencies.test.ts reads `from` + a quote as an import. */
const FROM_FIELD = `from`;

function parseDay(text: string, field: string): Date {
  const at = DAY.test(text) ? new Date(`${text}T00:00:00.000Z`) : new Date(NaN);
  if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== text)
    throw new AppError('VALIDATION_ERROR', `${field} must be a date YYYY-MM-DD (UTC)`, { field });
  return at;
}

export interface StatementMonth {
  month: string;
  final: boolean;
}

/**
 * Monthly statements and ledger exports of a partner, per mode (issue 32 C6). A closed month's
 * statement is stored the first time it is produced and served from storage ever after; the
 * current month is computed from the ledger on every request and marked not final.
 */
export function createStatementsService(deps: { db: Db; clock: Clock; companyName: string }) {
  const { db, clock } = deps;

  const isClosed = (month: string, now: Date) =>
    monthRange(month).end.getTime() + CLOSING_GRACE_MS <= now.getTime();

  async function statement(partnerId: string, livemode: boolean, month: string): Promise<Statement> {
    const { start, end } = monthRange(month);
    const now = clock.now();
    if (start.getTime() > now.getTime())
      throw new AppError(
        'NOT_FOUND',
        `No statement for ${month}: the month has not started yet (months are UTC)`,
      );
    const closed = isClosed(month, now);
    if (closed) {
      const stored = await statementsRepository.findFrozen(db, partnerId, livemode, month);
      if (stored) return stored as Statement;
    }
    const [openingCents, rows] = await Promise.all([
      statementsRepository.balanceBefore(db, partnerId, livemode, start),
      statementsRepository.rows(db, partnerId, livemode, start, end),
    ]);
    const built = buildStatement({ partnerId, livemode, month, openingCents, rows, final: closed, now });
    // A closed month without a transaction is not stored: nothing can be posted into the past,
    // so it reads the same every time, and asking for every month since the year 0000 must not
    // fill the table.
    if (!closed || rows.length === 0) return built;
    return (await statementsRepository.freeze(db, {
      accountId: partnerId,
      livemode,
      month,
      body: built,
      createdAt: now,
    })) as Statement;
  }

  return {
    statement,

    async statementCsv(partnerId: string, livemode: boolean, month: string): Promise<string> {
      return statementCsv(await statement(partnerId, livemode, month));
    },

    async statementPdf(partnerId: string, livemode: boolean, month: string): Promise<Buffer> {
      return statementPdf(await statement(partnerId, livemode, month), { name: deps.companyName });
    },

    /** The months with ledger activity, newest first, and always the current month (not final). */
    async months(partnerId: string, livemode: boolean): Promise<StatementMonth[]> {
      const now = clock.now();
      const current = monthOf(now);
      const active = await statementsRepository.activeMonths(db, partnerId, livemode);
      const months = active.includes(current) ? active : [current, ...active];
      return months.map((month) => ({ month, final: isClosed(month, now) }));
    },

    /** The ledger rows of `from`..`to` (UTC days, both included) as CSV. */
    async transactionsCsv(partnerId: string, livemode: boolean, from: string, to: string): Promise<string> {
      const start = parseDay(from, FROM_FIELD);
      const end = new Date(parseDay(to, 'to').getTime() + DAY_MS);
      if (end.getTime() <= start.getTime())
        throw new AppError('VALIDATION_ERROR', 'to must not be before the first day (from)', { field: 'to' });
      if (end.getTime() - start.getTime() > MAX_EXPORT_DAYS * DAY_MS)
        throw new AppError('VALIDATION_ERROR', `A range covers at most ${MAX_EXPORT_DAYS} days`, {
          field: 'to',
        });
      return transactionsCsv(await statementsRepository.rows(db, partnerId, livemode, start, end));
    },
  };
}

export type StatementsService = ReturnType<typeof createStatementsService>;
