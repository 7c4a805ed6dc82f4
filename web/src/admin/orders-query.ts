import type { paths } from '../api/admin';

export type OrdersQuery = NonNullable<paths['/api/admin/v1/orders']['get']['parameters']['query']>;

const STATUSES = ['AWAITING_PAYMENT', 'PROCESSING', 'COMPLETED', 'CANCELLED', 'REFUNDED'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/**
 * The filters live in the URL (`/admin/orders?status=PROCESSING&from=2026-11-01`), so a filtered
 * list can be linked to and survives a reload. `failed=1` (also `status=FAILED`) lists orders with
 * a failed fulfilment attempt. `from` and `to` are UTC days (`to` included), as the date fields
 * write them, or instants (`to` excluded), as the overview links its day.
 */
function boundOf(value: string | null, end: boolean): string | undefined {
  if (!value) return undefined;
  if (DAY.test(value)) {
    const start = Date.parse(`${value}T00:00:00Z`);
    if (Number.isNaN(start)) return undefined;
    return new Date(end ? start + DAY_MS : start).toISOString();
  }
  const instant = Date.parse(value);
  return Number.isNaN(instant) ? undefined : new Date(instant).toISOString();
}

/** What a date field shows for a bound: the UTC day, the last one included for `to`. */
export function dayOf(value: string | null, end: boolean): string {
  if (!value) return '';
  if (DAY.test(value)) return value;
  const instant = Date.parse(value);
  if (Number.isNaN(instant)) return '';
  return new Date(end ? instant - 1 : instant).toISOString().slice(0, 10);
}

export function queryOf(params: URLSearchParams): OrdersQuery {
  const pick = <T extends string>(name: string, allowed: readonly T[]) => {
    const value = params.get(name);
    return allowed.includes(value as T) ? (value as T) : undefined;
  };
  const query: OrdersQuery = {
    status: pick('status', STATUSES),
    channel: pick('channel', ['mobile', 'partner'] as const),
    paymentMethod: pick('paymentMethod', ['wallet', 'card', 'crypto'] as const),
    mode: pick('mode', ['live', 'test', 'all'] as const),
    accountId: params.get('accountId')?.trim() || undefined,
    failed: params.get('failed') === '1' || params.get('status') === 'FAILED' ? true : undefined,
    from: boundOf(params.get('from'), false),
    to: boundOf(params.get('to'), true),
  };
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));
}
