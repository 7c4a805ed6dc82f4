import { describe, expect, test } from 'vitest';
import { exactHit, type SearchResults } from './search-hits';

const none: SearchResults = { accounts: [], orders: [], esims: [], payments: [] };
const account = {
  id: 'acc_1',
  email: 'ayse@example.com',
  firstName: 'Ayşe',
  lastName: 'Kaya',
  status: 'ACTIVE',
  createdAt: '2026-11-27T09:00:00.000Z',
};
const esim = {
  id: 'esim_1',
  iccid: '8988228066612345678',
  status: 'ACTIVE',
  accountId: 'acc_1',
  accountEmail: 'ayse@example.com',
  orderId: 'ord_1',
  livemode: true,
  createdAt: '2026-11-27T09:00:00.000Z',
};
const order = {
  id: 'ord_1',
  orderNumber: 'SVC-261127-ABCD',
  accountId: 'acc_1',
  accountEmail: 'ayse@example.com',
  channel: 'mobile',
  status: 'COMPLETED',
  amountCents: 450,
  currency: 'USD',
  livemode: true,
  createdAt: '2026-11-27T09:00:00.000Z',
};
const payment = {
  id: 'pay_1',
  provider: 'stripe',
  providerRef: 'cs_test_1',
  status: 'paid',
  amountMinor: 450,
  currency: 'USD',
  accountId: 'acc_1',
  orderId: null,
  createdAt: '2026-11-27T09:00:00.000Z',
};

describe('exactHit', () => {
  test('a whole e-mail address (any case) or an id opens the account', () => {
    expect(exactHit(' AYSE@example.com ', { ...none, accounts: [account] })).toBe('/admin/accounts/acc_1');
    expect(exactHit('acc_1', { ...none, accounts: [account] })).toBe('/admin/accounts/acc_1');
  });

  test('a name or the start of an address shows the list, even with one hit', () => {
    expect(exactHit('Ayşe', { ...none, accounts: [account] })).toBeNull();
    expect(exactHit('ayse@ex', { ...none, accounts: [account] })).toBeNull();
  });

  test('an ICCID opens its customer, an order number its order, a wallet payment its account', () => {
    expect(exactHit(esim.iccid, { ...none, esims: [esim] })).toBe('/admin/accounts/acc_1');
    expect(exactHit('svc-261127-abcd', { ...none, orders: [order] })).toBe('/admin/orders/ord_1');
    expect(exactHit('cs_test_1', { ...none, payments: [payment] })).toBe('/admin/accounts/acc_1');
    expect(exactHit('pay_1', { ...none, payments: [{ ...payment, orderId: 'ord_9' }] })).toBe(
      '/admin/orders/ord_9',
    );
  });

  test('two hits, or none, never jump', () => {
    expect(exactHit(esim.iccid, { ...none, esims: [esim, { ...esim, id: 'esim_2' }] })).toBeNull();
    expect(exactHit('anything', none)).toBeNull();
  });
});
