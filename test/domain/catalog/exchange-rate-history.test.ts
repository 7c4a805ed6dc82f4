import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeRateHistory, exchangeRates } from '../../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';

/** The rate in force at a time (issue 30 T9: receipts convert at the rate of the purchase). */
describe('exchange rate history', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers the last rate set at or before a time, with its date', async () => {
    const rates = t.container.exchangeRates;
    t.clock.advance(1000);
    const first = t.clock.now();
    await rates.set(t.container.db, { GBP: '0.7' });
    t.clock.advance(86_400_000);
    const second = t.clock.now();
    await rates.set(t.container.db, { GBP: '0.75' });

    expect(await rates.at('GBP', new Date(first.getTime() + 5))).toEqual({ ratePerUsd: '0.7', asOf: first });
    expect(await rates.at('GBP', second)).toEqual({ ratePerUsd: '0.75', asOf: second });
    // Before any recorded rate: the first one (no earlier rate was ever stored).
    expect(await rates.at('GBP', new Date(first.getTime() - 60_000))).toEqual({
      ratePerUsd: '0.7',
      asOf: first,
    });
    expect(await rates.at('USD', second)).toEqual({ ratePerUsd: '1', asOf: null });
  });

  it('start-up copies a rate that predates the history in, as of its own date, once', async () => {
    const updatedAt = new Date('2026-01-02T03:04:05.000Z');
    await t.container.db
      .insert(exchangeRates)
      .values({ currency: 'TRY', ratePerUsd: '33.5', updatedAt })
      .onConflictDoUpdate({ target: exchangeRates.currency, set: { ratePerUsd: '33.5', updatedAt } });
    await t.container.db.delete(exchangeRateHistory).where(eq(exchangeRateHistory.currency, 'TRY'));

    await t.container.exchangeRates.seed();
    await t.container.exchangeRates.seed();
    const rows = await t.container.db
      .select()
      .from(exchangeRateHistory)
      .where(eq(exchangeRateHistory.currency, 'TRY'));
    expect(rows).toEqual([expect.objectContaining({ ratePerUsd: '33.5', effectiveAt: updatedAt })]);
    expect(await t.container.exchangeRates.at('TRY', new Date())).toEqual({
      ratePerUsd: '33.5',
      asOf: updatedAt,
    });
  });
});
