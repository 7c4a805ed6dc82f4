import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import {
  accounts,
  esims,
  jobs,
  orderCancellations,
  orders,
  walletTransactions,
} from '../../db/schema/index.js';
import { cancelJobKey, fulfillJobKey, ORDER_JOBS } from '../orders/ports.js';
import type { Clock } from '../../lib/clock.js';
import { autoTopUpProblems, type AutoTopUpProblem } from './reconcile-auto-topup.js';

/** One thing reconciliation found wrong; `check` is stable (alerts and tests match on it). */
export interface ReconcileProblem {
  check:
    | 'balance_mismatch'
    | 'negative_balance'
    | 'charge_mismatch'
    | 'completed_without_esims'
    | 'refund_mismatch'
    | 'stuck_processing'
    | 'fulfillment_dead_lettered'
    | 'charged_but_not_sold'
    | 'cancel_unfinished'
    | 'cancel_mismatch'
    | AutoTopUpProblem['check'];
  /** `live` unless the check is about another wallet of the same account (see WALLETS). */
  mode: string;
  accountId: string;
  orderId?: string;
  message: string;
}

export interface ReconcileReport {
  ok: boolean;
  checkedAt: string;
  accounts: number;
  orders: number;
  problems: ReconcileProblem[];
}

/**
 * A wallet to reconcile: the balance column and which ledger rows belong to it. The service has
 * one (live) wallet per account; another mode (for example a test wallet) adds one entry with
 * its own balance column and ledger filter, and every balance check runs for it too.
 */
export interface WalletDefinition {
  mode: string;
  balance: PgColumn;
  /** Ledger rows of this wallet; undefined: all of them. */
  ledger?: SQL;
  /** Orders paid from this wallet; undefined: all of them. */
  orders?: SQL;
}

export const WALLETS: WalletDefinition[] = [
  { mode: 'live', balance: accounts.walletBalanceCents, ledger: eq(walletTransactions.livemode, true) },
  { mode: 'test', balance: accounts.testWalletBalanceCents, ledger: eq(walletTransactions.livemode, false) },
];

/** A PROCESSING order this much older than its last change is reported as stuck. */
export const DEFAULT_STUCK_AFTER_MS = 6 * 60 * 60 * 1000;

const n = (v: unknown) => Number(v ?? 0);
const usd = (cents: number) => (cents / 100).toFixed(2);

/**
 * The books, checked from the database alone (read-only):
 * - every account's balance equals the sum of its ledger rows, and is not negative;
 * - every order was charged exactly its amount once it left AWAITING_PAYMENT/CANCELLED, and a
 *   charged order has its eSIMs (COMPLETED), its refund (REFUNDED) or is still being fulfilled
 *   (PROCESSING, and not for longer than `stuckAfterMs`);
 * - no charged, open (PROCESSING) order has a dead-lettered fulfillment job and none pending or
 *   running: nothing would ever fulfil or refund it, so it is reported at once, whatever its age;
 * - every auto top-up agrees with its order and none is stuck (./reconcile-auto-topup.ts).
 */
export async function reconcile(deps: {
  db: Db;
  clock: Clock;
  stuckAfterMs?: number;
  wallets?: WalletDefinition[];
}): Promise<ReconcileReport> {
  const { db } = deps;
  const now = deps.clock.now();
  const stuckBefore = new Date(now.getTime() - (deps.stuckAfterMs ?? DEFAULT_STUCK_AFTER_MS));
  const problems: ReconcileProblem[] = [];

  const [{ count: accountCount } = { count: 0 }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(accounts);

  for (const wallet of deps.wallets ?? WALLETS) {
    const ledgerSum = sql<string>`coalesce(sum(${walletTransactions.amountCents}), 0)`;
    const rows = await db
      .select({ accountId: accounts.id, balance: wallet.balance, ledger: ledgerSum })
      .from(accounts)
      .leftJoin(
        walletTransactions,
        and(eq(walletTransactions.accountId, accounts.id), wallet.ledger ?? sql`true`),
      )
      .groupBy(accounts.id, wallet.balance)
      .having(sql`${wallet.balance} <> ${ledgerSum} or ${wallet.balance} < 0`);
    for (const row of rows) {
      const balance = n(row.balance);
      const ledger = n(row.ledger);
      if (balance !== ledger) {
        problems.push({
          check: 'balance_mismatch',
          mode: wallet.mode,
          accountId: row.accountId,
          message: `balance ${usd(balance)} USD but its ledger sums to ${usd(ledger)} USD`,
        });
      }
      if (balance < 0) {
        problems.push({
          check: 'negative_balance',
          mode: wallet.mode,
          accountId: row.accountId,
          message: `negative balance ${usd(balance)} USD`,
        });
      }
    }
  }

  // Per order: what the ledger charged and refunded for it, and how many eSIMs it has.
  const charged = sql<string>`coalesce(-sum(${walletTransactions.amountCents}) filter (where ${walletTransactions.kind} = 'purchase'), 0)`;
  const refunded = sql<string>`coalesce(sum(${walletTransactions.amountCents}) filter (where ${walletTransactions.kind} = 'refund'), 0)`;
  const esimCount = sql<string>`(select count(*) from ${esims} where ${esims.orderId} = ${orders.id})`;
  const [{ count: orderCount } = { count: 0 }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(orders);
  const orderRows = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      accountId: orders.accountId,
      status: orders.status,
      amountCents: orders.amountCents,
      quantity: orders.quantity,
      topUpEsimId: orders.topUpEsimId,
      updatedAt: orders.updatedAt,
      charged,
      refunded,
      esimCount,
    })
    .from(orders)
    .leftJoin(
      walletTransactions,
      and(
        eq(walletTransactions.orderId, orders.id),
        sql`${walletTransactions.kind} in ('purchase', 'refund')`,
      ),
    )
    .groupBy(orders.id)
    .having(
      sql`case ${orders.status}
        when 'COMPLETED' then ${charged} <> ${orders.amountCents} or ${refunded} <> 0
          or (${orders.topUpEsimId} is null and ${esimCount} < ${orders.quantity})
        when 'REFUNDED' then ${charged} <> ${orders.amountCents} or ${refunded} <> ${orders.amountCents}
        when 'PROCESSING' then ${charged} <> ${orders.amountCents} or ${refunded} <> 0
          or ${orders.updatedAt} < ${stuckBefore}
        else ${charged} <> 0 or ${refunded} <> 0
      end`,
    );

  for (const o of orderRows) {
    const c = n(o.charged);
    const r = n(o.refunded);
    const base = { mode: 'live', accountId: o.accountId, orderId: o.id };
    const label = `order ${o.orderNumber} (${o.status}, ${usd(o.amountCents)} USD)`;
    if (o.status === 'AWAITING_PAYMENT' || o.status === 'CANCELLED') {
      problems.push({
        ...base,
        check: 'charged_but_not_sold',
        message: `${label} charged ${usd(c)} USD, refunded ${usd(r)} USD`,
      });
      continue;
    }
    if (c !== o.amountCents) {
      problems.push({ ...base, check: 'charge_mismatch', message: `${label} charged ${usd(c)} USD` });
    }
    if (o.status === 'COMPLETED' && r !== 0) {
      problems.push({ ...base, check: 'refund_mismatch', message: `${label} also refunded ${usd(r)} USD` });
    }
    if (o.status === 'COMPLETED' && !o.topUpEsimId && n(o.esimCount) < o.quantity) {
      problems.push({
        ...base,
        check: 'completed_without_esims',
        message: `${label} has ${n(o.esimCount)} of ${o.quantity} eSIMs`,
      });
    }
    if (o.status === 'REFUNDED' && r !== o.amountCents) {
      problems.push({ ...base, check: 'refund_mismatch', message: `${label} refunded ${usd(r)} USD` });
    }
    if (o.status === 'PROCESSING' && r !== 0) {
      problems.push({ ...base, check: 'refund_mismatch', message: `${label} refunded ${usd(r)} USD` });
    }
    if (o.status === 'PROCESSING' && o.updatedAt < stuckBefore) {
      problems.push({
        ...base,
        check: 'stuck_processing',
        message: `${label} charged but neither fulfilled nor refunded since ${o.updatedAt.toISOString()}`,
      });
    }
  }

  // From the dead letters (few, on their partial index) to their orders; a job pending or running
  // under the same key (an operator retry) is still going to settle the order.
  const deadLettered = await db
    .selectDistinct({
      id: orders.id,
      orderNumber: orders.orderNumber,
      accountId: orders.accountId,
      livemode: orders.livemode,
    })
    .from(jobs)
    .innerJoin(orders, eq(orders.id, sql`${jobs.payload} ->> 'orderId'`))
    .where(
      and(
        eq(jobs.status, 'failed'),
        eq(jobs.kind, ORDER_JOBS.fulfill),
        eq(orders.status, 'PROCESSING'),
        sql`not exists (select 1 from ${jobs} active where active.dedupe_key = ${jobs.dedupeKey} and active.status in ('pending', 'running'))`,
      ),
    );
  for (const o of deadLettered) {
    problems.push({
      check: 'fulfillment_dead_lettered',
      mode: o.livemode ? 'live' : 'test',
      accountId: o.accountId,
      orderId: o.id,
      message: `order ${o.orderNumber} is charged and PROCESSING but its fulfillment job ${fulfillJobKey(o.id)} is dead-lettered: retry the job or refund the order`,
    });
  }

  problems.push(...(await cancellationProblems(db, stuckBefore)));
  problems.push(...(await autoTopUpProblems(db, stuckBefore)));

  return {
    ok: problems.length === 0,
    checkedAt: now.toISOString(),
    accounts: accountCount,
    orders: orderCount,
    problems,
  };
}

/** The report as lines for a terminal or a log: one per problem, then a summary. */
export function formatReport(report: ReconcileReport): string {
  const lines = report.problems.map(
    (p) =>
      `${p.check} [${p.mode}] account ${p.accountId}${p.orderId ? ` order ${p.orderId}` : ''}: ${p.message}`,
  );
  lines.push(
    report.ok
      ? `reconcile OK: ${report.accounts} accounts, ${report.orders} orders checked at ${report.checkedAt}`
      : `reconcile FAILED: ${report.problems.length} problem(s) in ${report.accounts} accounts, ${report.orders} orders at ${report.checkedAt}`,
  );
  return lines.join('\n');
}

/**
 * Self-service cancellations (issue 31 L4; docs/orders.md "Cancel and refund"):
 * - `cancel_unfinished`: a claim still pending with no `order.cancel` job pending or running
 *   (dead-lettered: nothing would finish it), or pending for longer than `stuckBefore`;
 * - `cancel_mismatch`: a claim `done` whose order is not REFUNDED (the refund itself is checked
 *   with every REFUNDED order above).
 */
async function cancellationProblems(db: Db, stuckBefore: Date): Promise<ReconcileProblem[]> {
  const rows = await db
    .select({
      orderId: orderCancellations.orderId,
      accountId: orderCancellations.accountId,
      livemode: orderCancellations.livemode,
      status: orderCancellations.status,
      updatedAt: orderCancellations.updatedAt,
      orderNumber: orders.orderNumber,
      orderStatus: orders.status,
      jobActive: sql<boolean>`exists (select 1 from ${jobs} where ${jobs.dedupeKey} = 'cancel:' || ${orderCancellations.orderId} and ${jobs.status} in ('pending', 'running'))`,
    })
    .from(orderCancellations)
    .innerJoin(orders, eq(orders.id, orderCancellations.orderId))
    .where(
      sql`(${orderCancellations.status} = 'pending') or (${orderCancellations.status} = 'done' and ${orders.status} <> 'REFUNDED')`,
    );
  const problems: ReconcileProblem[] = [];
  for (const row of rows) {
    const base = { mode: row.livemode ? 'live' : 'test', accountId: row.accountId, orderId: row.orderId };
    if (row.status === 'done') {
      problems.push({
        ...base,
        check: 'cancel_mismatch',
        message: `order ${row.orderNumber} was cancelled by its owner but is ${row.orderStatus}, not REFUNDED`,
      });
    } else if (!row.jobActive || row.updatedAt < stuckBefore) {
      problems.push({
        ...base,
        check: 'cancel_unfinished',
        message: `order ${row.orderNumber}: a self-service cancel claimed at ${row.updatedAt.toISOString()} is unfinished${row.jobActive ? '' : ` and its job ${cancelJobKey(row.orderId)} is not pending`}: retry the job`,
      });
    }
  }
  return problems;
}
