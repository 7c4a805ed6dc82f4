import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { autoTopUpAttempts, orders } from '../../db/schema/index.js';

/** An auto top-up whose record and order disagree, or that never settled (docs/orders.md). */
export interface AutoTopUpProblem {
  check: 'auto_topup_mismatch' | 'auto_topup_stuck';
  mode: string;
  accountId: string;
  orderId?: string;
  message: string;
}

/**
 * The auto top-up records against the books: a `succeeded` attempt has its COMPLETED top-up order
 * of that eSIM, a `failed` one with an order has that order REFUNDED (nothing kept), and no
 * attempt is `pending` since before `stuckBefore` (its job died: nothing would settle it). That an
 * attempt charged at most once is the orders' own check (one purchase per order) plus the unique
 * (eSIM, crossing) and the order bound to its Idempotency-Key.
 */
export async function autoTopUpProblems(db: Db, stuckBefore: Date): Promise<AutoTopUpProblem[]> {
  const rows = await db
    .select({ attempt: autoTopUpAttempts, orderStatus: orders.status, orderEsimId: orders.topUpEsimId })
    .from(autoTopUpAttempts)
    .leftJoin(orders, eq(orders.id, autoTopUpAttempts.orderId))
    .where(
      or(
        and(
          eq(autoTopUpAttempts.status, 'succeeded'),
          // coalesce: a missing order (left join) counts as a mismatch too.
          sql`(coalesce(${orders.status}, '') <> 'COMPLETED' or coalesce(${orders.topUpEsimId}, '') <> ${autoTopUpAttempts.esimId})`,
        ),
        and(
          eq(autoTopUpAttempts.status, 'failed'),
          sql`${autoTopUpAttempts.orderId} is not null and coalesce(${orders.status}, '') <> 'REFUNDED'`,
        ),
        and(eq(autoTopUpAttempts.status, 'pending'), lt(autoTopUpAttempts.createdAt, stuckBefore)),
      ),
    );
  return rows.map(({ attempt, orderStatus }) => {
    const base = {
      mode: attempt.livemode ? 'live' : 'test',
      accountId: attempt.accountId,
      ...(attempt.orderId ? { orderId: attempt.orderId } : {}),
    };
    const label = `auto top-up ${attempt.id} (eSIM ${attempt.esimId}, crossing ${attempt.crossing})`;
    if (attempt.status === 'pending')
      return {
        ...base,
        check: 'auto_topup_stuck' as const,
        message: `${label} pending since ${attempt.createdAt.toISOString()}: retry its esim.auto-topup job`,
      };
    return {
      ...base,
      check: 'auto_topup_mismatch' as const,
      message: `${label} is ${attempt.status} but its order is ${orderStatus ?? 'missing'}`,
    };
  });
}
