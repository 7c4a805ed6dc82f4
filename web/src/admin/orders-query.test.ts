import { describe, expect, it } from 'vitest';
import { dayOf, queryOf } from './orders-query';

const q = (search: string) => queryOf(new URLSearchParams(search));

describe('the orders list URL', () => {
  it('reads days (to included) and instants (to excluded, as the overview links them)', () => {
    expect(q('from=2026-11-01&to=2026-11-03')).toEqual({
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-04T00:00:00.000Z',
    });
    const overview = 'from=2026-11-27T00%3A00%3A00.000Z&to=2026-11-28T00%3A00%3A00.000Z';
    expect(q(overview)).toEqual({ from: '2026-11-27T00:00:00.000Z', to: '2026-11-28T00:00:00.000Z' });
    expect(dayOf('2026-11-28T00:00:00.000Z', true)).toBe('2026-11-27');
    expect(dayOf('2026-11-27T00:00:00.000Z', false)).toBe('2026-11-27');
    expect(q('from=yesterday&to=2026-02-31x')).toEqual({});
  });

  it('keeps known values only; FAILED is the failed-attempt filter', () => {
    expect(q('status=PROCESSING&channel=partner&paymentMethod=card&mode=all&accountId=%20acc_1%20')).toEqual({
      status: 'PROCESSING',
      channel: 'partner',
      paymentMethod: 'card',
      mode: 'all',
      accountId: 'acc_1',
    });
    expect(q('status=FAILED')).toEqual({ failed: true });
    expect(q('failed=1&status=nope&channel=fax')).toEqual({ failed: true });
  });
});
