import { and, asc, desc, eq, lte, notExists, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { exchangeRateHistory, exchangeRates } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Currency } from '../../lib/money.js';

/** Units of each currency per 1 USD, used until an operator sets real ones (PUT /exchange-rates). */
export const SEED_RATES: Record<Exclude<Currency, 'USD'>, string> = {
  EUR: '0.92',
  GBP: '0.79',
  TRY: '34.25',
};

const RATE_PATTERN = /^\d{1,9}(\.\d{1,8})?$/;

export function isValidRate(rate: string): boolean {
  return RATE_PATTERN.test(rate) && Number(rate) > 0;
}

/**
 * Converts cents of `currency` to USD cents at `ratePerUsd` (a decimal string), rounding down
 * so a top-up never credits more than was paid. Integer maths on scaled values, no floats.
 */
export function toUsdCentsRoundedDown(minorUnits: number, ratePerUsd: string): number {
  const [whole, frac = ''] = ratePerUsd.split('.');
  const scale = 10n ** BigInt(frac.length);
  const scaledRate = BigInt(whole! + frac);
  return Number((BigInt(minorUnits) * scale) / scaledRate);
}

/** USD cents → minor units of a currency at `ratePerUsd`, rounded half up (display prices). */
export function fromUsdCents(usdCents: number, ratePerUsd: string): number {
  const [whole, frac = ''] = ratePerUsd.split('.');
  const scale = 10n ** BigInt(frac.length);
  const scaledRate = BigInt(whole! + frac);
  return Number((BigInt(usdCents) * scaledRate * 2n + scale) / (2n * scale));
}

/** A rate with the time it was set: what a price or receipt converted with, and since when. */
export interface DatedRate {
  ratePerUsd: string;
  /** When the rate was set; null for USD (no conversion) or a seed rate never stored. */
  asOf: Date | null;
}

/**
 * The rate in force at `at`, from the history: the last one set at or before it; for a time before
 * the first recorded rate, the first one (the rate was never stored earlier); null when the
 * currency has no recorded rate. USD is "1" with no date.
 */
export async function rateInForce(db: DbOrTx, currency: Currency, at: Date): Promise<DatedRate | null> {
  if (currency === 'USD') return { ratePerUsd: '1', asOf: null };
  const byCurrency = eq(exchangeRateHistory.currency, currency);
  const [before] = await db
    .select()
    .from(exchangeRateHistory)
    .where(and(byCurrency, lte(exchangeRateHistory.effectiveAt, at)))
    .orderBy(desc(exchangeRateHistory.effectiveAt))
    .limit(1);
  const [row] = before
    ? [before]
    : await db
        .select()
        .from(exchangeRateHistory)
        .where(byCurrency)
        .orderBy(asc(exchangeRateHistory.effectiveAt))
        .limit(1);
  return row ? { ratePerUsd: row.ratePerUsd, asOf: row.effectiveAt } : null;
}

export function createExchangeRateService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    /** Inserts the seed rates that are missing; never overwrites an operator's rate. */
    async seed(): Promise<void> {
      const now = clock.now();
      for (const [currency, ratePerUsd] of Object.entries(SEED_RATES)) {
        await db.insert(exchangeRates).values({ currency, ratePerUsd, updatedAt: now }).onConflictDoNothing();
      }
      // A rate set before the history existed (migration 0009) enters it as of its own date.
      await db.insert(exchangeRateHistory).select(
        db
          .select({
            id: sql<string>`'fx_' || ${exchangeRates.currency} || '_' || extract(epoch from ${exchangeRates.updatedAt})::bigint`.as(
              'id',
            ),
            currency: exchangeRates.currency,
            ratePerUsd: exchangeRates.ratePerUsd,
            effectiveAt: exchangeRates.updatedAt,
          })
          .from(exchangeRates)
          .where(
            notExists(
              db
                .select({ one: sql`1` })
                .from(exchangeRateHistory)
                .where(eq(exchangeRateHistory.currency, exchangeRates.currency)),
            ),
          ),
      );
    },

    /** Every rate with its date, USD included as "1" (no date). */
    async allDated(): Promise<Record<Currency, DatedRate>> {
      const rows = await db.select().from(exchangeRates);
      const rates = { USD: { ratePerUsd: '1', asOf: null } } as Record<Currency, DatedRate>;
      for (const [currency, ratePerUsd] of Object.entries(SEED_RATES))
        rates[currency as Currency] = { ratePerUsd, asOf: null };
      for (const row of rows)
        rates[row.currency as Currency] = { ratePerUsd: row.ratePerUsd, asOf: row.updatedAt };
      return rates;
    },

    /**
     * The rate in force at `at`: the last one set at or before it; for a time before the first
     * recorded rate, the first one (the rate was never stored earlier); else the current one.
     */
    async at(currency: Currency, at: Date): Promise<DatedRate> {
      return (await rateInForce(db, currency, at)) ?? (await this.allDated())[currency];
    },

    /** Every rate, USD included as "1". */
    async all(): Promise<Record<Currency, string>> {
      const rows = await db.select().from(exchangeRates);
      const rates: Record<string, string> = { USD: '1', ...SEED_RATES };
      for (const row of rows) rates[row.currency] = row.ratePerUsd;
      return rates;
    },

    async get(currency: Currency): Promise<string> {
      if (currency === 'USD') return '1';
      const [row] = await db.select().from(exchangeRates).where(eq(exchangeRates.currency, currency));
      return row?.ratePerUsd ?? SEED_RATES[currency];
    },

    async set(tx: DbOrTx, rates: Partial<Record<Exclude<Currency, 'USD'>, string>>): Promise<void> {
      const now = clock.now();
      for (const [currency, ratePerUsd] of Object.entries(rates)) {
        await tx
          .insert(exchangeRates)
          .values({ currency, ratePerUsd, updatedAt: now })
          .onConflictDoUpdate({ target: exchangeRates.currency, set: { ratePerUsd, updatedAt: now } });
        await tx
          .insert(exchangeRateHistory)
          .values({ id: newId('fx'), currency, ratePerUsd, effectiveAt: now });
      }
    },
  };
}

export type ExchangeRateService = ReturnType<typeof createExchangeRateService>;
