import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import {
  columnList,
  perShape,
  placeholderAs,
  prefixed,
  reusable,
  rowValues,
  typedValueRows,
  type InsertRow,
} from '../../db/reusable.js';
import { eventValues, outboxCtes } from '../events/outbox.js';
import { esims, fulfillmentAttempts, orders, plans } from '../../db/schema/index.js';
import { randomToken } from '../../lib/crypto.js';
import { insertJobFrom, jobRow, settlePendingJob } from '../../jobs/queue.js';
import { newId } from '../../lib/ids.js';
import { EsimProviderError, type ProviderProfile } from '../../providers/esim/types.js';
import { AppError } from '../errors.js';
import { refundPurchase } from '../wallet/postings.js';
import {
  esimProviderFor,
  fulfillJobKey,
  type EsimRow,
  type OrderDeps,
  type OrderRow,
  type Tx,
} from './ports.js';

/** The plan fields an attempt needs; the placing transaction already has them. */
export type PlanForFulfillment = Pick<
  typeof plans.$inferSelect,
  'id' | 'providerPackageCode' | 'wholesaleCents'
>;

export type AttemptSource = 'request' | 'job' | 'admin';

export type AttemptResult =
  | { ok: true; order: OrderRow; esims: EsimRow[] }
  | { ok: false; order: OrderRow; error: Error; retryable: boolean };

/**
 * The CTEs completing an order: the conditional UPDATE completing the order and counting this
 * attempt (`done`), and, only if it matched, the attempt's row and the settled fulfillment job
 * (queued as a safety net in case this process dies; settled here, it never runs). Placeholders:
 * now, orderId, attemptId, source, jobKey.
 */
function completingCtes(db: DbOrTx) {
  const now = placeholderAs<Date>('now');
  const done$ = db.$with('done').as(
    db
      .update(orders)
      .set({
        status: 'COMPLETED',
        completedAt: now,
        updatedAt: now,
        lastError: null,
        fulfillmentAttempts: sql`${orders.fulfillmentAttempts} + 1`,
      })
      .where(and(eq(orders.id, sql.placeholder('orderId')), eq(orders.status, 'PROCESSING')))
      .returning(),
  );
  const attempt$ = db.$with('attempt').as(
    db.insert(fulfillmentAttempts).select(
      db
        .select({
          id: sql`${sql.placeholder('attemptId')}`.as('id'),
          orderId: done$.id,
          attempt: done$.fulfillmentAttempts,
          outcome: sql`'success'`.as('outcome'),
          source: sql`${sql.placeholder('source')}`.as('source'),
          error: sql`null`.as('error'),
          createdAt: done$.updatedAt,
        })
        .from(done$),
    ),
  );
  const settled$ = db
    .$with('settled')
    .as(settlePendingJob(db, sql.placeholder('jobKey'), now, sql`exists (select 1 from done)`));
  return [done$, attempt$, settled$] as const;
}

/** A top-up's completion (its eSIM is updated after): one statement, built once (src/db/reusable.ts). */
const completeOrderRow = reusable((db) => {
  const ctes = completingCtes(db);
  return db
    .with(...ctes)
    .select()
    .from(ctes[0]);
});

/**
 * The eSIM rows of a completion (`stored`, placeholders `<i>.<column>`), inserted only if the
 * order completed in this statement (`done`). `onConflict`: a profile already stored is skipped;
 * without it, it fails the whole statement.
 */
function storedCte(db: DbOrTx, count: number, onConflict: boolean) {
  return db.$with('stored', getTableColumns(esims)).as(
    sql`insert into ${esims} (${columnList(esims, ESIM_COLUMNS)})
      select * from (values ${typedValueRows(esims, ESIM_COLUMNS, count)}) as v where exists (select 1 from done)
      ${onConflict ? sql`on conflict (provider_ref) do nothing` : sql``} returning *`,
  );
}

/**
 * An order's completion with its `count` new eSIM rows, in the caller's transaction. A row per
 * stored eSIM, each with the completed order; one row with no eSIM when every profile was
 * already stored; none when the order did not complete here.
 */
function buildCompleteWithEsims(count: number) {
  return reusable((db) => {
    const ctes = completingCtes(db);
    const stored$ = storedCte(db, count, true);
    return db
      .with(...ctes, stored$)
      .select()
      .from(ctes[0])
      .leftJoin(stored$, sql`true`);
  });
}

/**
 * The usual completion in one statement and one commit, without a transaction around it: the
 * order, its attempt, the settled job, the eSIM rows, and from `done` the order.completed event
 * with its deliveries (outboxCtes, placeholders `event.<column>`) and the receipt job
 * (placeholders `receipt.<column>`). A profile already stored fails it (nothing written): the
 * completion then takes the transaction.
 */
function buildCompleteAtOnce(count: number, withEvent: boolean, withReceipt: boolean) {
  return reusable((db) => {
    const ctes = completingCtes(db);
    const stored$ = storedCte(db, count, false);
    const alongside = [
      ...(withEvent ? outboxCtes(db, sql`from done`) : []),
      ...(withReceipt ? [db.$with('receipt_job', {}).as(insertJobFrom('receipt.', sql`done`))] : []),
    ];
    return db
      .with(...ctes, stored$, ...alongside)
      .select()
      .from(ctes[0])
      .leftJoin(stored$, sql`true`);
  });
}

const completeWithEsimsFor = perShape(buildCompleteWithEsims);
const completeAtOnceFor = perShape(buildCompleteAtOnce);

/**
 * One fulfillment attempt: provider call outside any transaction, then the result stored in one
 * transaction. Safe to run concurrently for the same order (request + job + operator): the
 * provider is idempotent on the order id, eSIM rows are keyed by the unique provider_ref, and
 * completion is a conditional UPDATE on status PROCESSING.
 */
export function createFulfillment(deps: OrderDeps) {
  const { db, clock } = deps;

  async function loadOrder(orderId: string): Promise<OrderRow> {
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    if (!order) throw new AppError('ORDER_NOT_FOUND', 'Order not found');
    return order;
  }

  async function callProvider(order: OrderRow, known?: PlanForFulfillment): Promise<ProviderProfile[]> {
    const provider = esimProviderFor(deps, order.livemode);
    const plan =
      known?.id === order.planId
        ? known
        : (
            await db
              .select({
                id: plans.id,
                providerPackageCode: plans.providerPackageCode,
                wholesaleCents: plans.wholesaleCents,
              })
              .from(plans)
              .where(eq(plans.id, order.planId))
          )[0];
    if (!plan) throw new EsimProviderError('unknown_package', 'plan row missing', false);
    if (order.topUpEsimId) {
      const [target] = await db.select().from(esims).where(eq(esims.id, order.topUpEsimId));
      if (!target) throw new EsimProviderError('not_found', 'top-up target eSIM missing', false);
      const profile = await provider.topUp({
        orderId: order.id,
        providerRef: target.providerRef,
        iccid: target.iccid,
        packageCode: plan.providerPackageCode,
      });
      return [profile];
    }
    return provider.issueProfiles({
      orderId: order.id,
      packageCode: plan.providerPackageCode,
      quantity: order.quantity,
      wholesaleCents: plan.wholesaleCents,
    });
  }

  /** Counts a failed attempt on the order and records it; returns the order as it now is. */
  async function recordFailure(
    tx: Tx,
    orderId: string,
    source: AttemptSource,
    error: string,
  ): Promise<OrderRow> {
    const now = clock.now();
    const [counted] = await tx
      .update(orders)
      .set({
        fulfillmentAttempts: sql`${orders.fulfillmentAttempts} + 1`,
        lastError: error,
        updatedAt: now,
      })
      .where(eq(orders.id, orderId))
      .returning();
    await insertAttempt(tx, counted!, source, error);
    return counted!;
  }

  async function insertAttempt(tx: Tx, counted: OrderRow, source: AttemptSource, error: string | null) {
    await tx.insert(fulfillmentAttempts).values({
      id: newId('att'),
      orderId: counted.id,
      attempt: counted.fulfillmentAttempts,
      outcome: error ? 'failure' : 'success',
      source,
      error,
      createdAt: counted.updatedAt,
    });
  }

  /** The order's eSIM rows as stored (a provider repeated a profile, or a concurrent attempt won). */
  function storedEsims(tx: Tx, orderId: string): Promise<EsimRow[]> {
    return tx.select().from(esims).where(eq(esims.orderId, orderId)).orderBy(esims.createdAt, esims.id);
  }

  /**
   * The usual completion (not a top-up) in one statement: undefined when it wrote nothing because
   * a profile was already stored (the caller takes the transaction), null when the order did not
   * complete here (a concurrent attempt or a refund won).
   */
  async function completeAtOnce(
    order: OrderRow,
    profiles: ProviderProfile[],
    completing: Record<string, unknown>,
    now: Date,
  ): Promise<{ order: OrderRow; esims: EsimRow[] } | null | undefined> {
    const rows = profiles.map((p) => esimRowFor(order, p, now));
    // The order and eSIMs as this statement writes them, for the event and the receipt: their
    // presented fields are the placed order's, the completion's and the rows' (checked by tests
    // against the order as read back).
    const done: OrderRow = {
      ...order,
      status: 'COMPLETED',
      completedAt: now,
      updatedAt: now,
      lastError: null,
      fulfillmentAttempts: order.fulfillmentAttempts + 1,
    };
    const written = rows.map((r) => ({ ...r, usageThresholdNotified: 0 })).sort(byCreationThenId);
    const event = deps.events?.orderCompletedEvent(done, written);
    const receipt = deps.receipts?.orderCompletedJob(done);
    try {
      const result = await completeAtOnceFor(
        rows.length,
        Boolean(event),
        Boolean(receipt),
      )(db, {
        ...completing,
        ...rowValues(rows),
        ...(event && prefixed('event.', eventValues(event, now))),
        ...(receipt && prefixed('receipt.', jobRow(receipt, now))),
      });
      if (result.length === 0) return null;
      const stored = result.flatMap((r) => (r.stored ? [r.stored] : []));
      return { order: result[0]!.done, esims: stored.sort(byCreationThenId) };
    } catch (err) {
      if (isUniqueViolation(err)) return undefined;
      throw err;
    }
  }

  /**
   * Stores the provider's result, conditional on PROCESSING: one statement in the usual case
   * (completeAtOnce), else one transaction. Returns the completed order with its eSIMs, or null
   * when a concurrent attempt or a refund won.
   */
  async function complete(
    order: OrderRow,
    profiles: ProviderProfile[],
    source: AttemptSource,
  ): Promise<{ order: OrderRow; esims: EsimRow[] } | null> {
    const now = clock.now();
    const completing = {
      now,
      orderId: order.id,
      attemptId: newId('att'),
      source,
      jobKey: fulfillJobKey(order.id),
    };
    if (!order.topUpEsimId) {
      const atOnce = await completeAtOnce(order, profiles, completing, now);
      if (atOnce !== undefined) return atOnce;
    }
    return db.transaction(async (tx) => {
      let done: OrderRow;
      let stored: EsimRow[];
      if (order.topUpEsimId) {
        const [row] = await completeOrderRow(tx, completing);
        // Lost a race with a concurrent attempt (already COMPLETED) or a refund: store nothing.
        if (!row) return null;
        done = row;
        const p = profiles[0]!;
        stored = await tx
          .update(esims)
          .set({
            status: p.status,
            totalVolumeMb: p.totalVolumeMb,
            dataUsageMb: p.dataUsageMb,
            expiresAt: p.expiresAt,
            usageCheckedAt: now,
            updatedAt: now,
          })
          .where(eq(esims.id, order.topUpEsimId))
          .returning();
      } else {
        const rows = profiles.map((p) => esimRowFor(order, p, now));
        const result = await completeWithEsimsFor(rows.length)(tx, {
          ...completing,
          ...rowValues(rows),
        });
        // Lost a race: the statement stored nothing.
        if (result.length === 0) return null;
        done = result[0]!.done;
        stored = result.flatMap((r) => (r.stored ? [r.stored] : []));
        // The winner of the completing UPDATE inserts every row (rows are only ever stored together
        // with that UPDATE); should a provider have repeated a profile, read what is stored.
        stored =
          stored.length === profiles.length ? stored.sort(byCreationThenId) : await storedEsims(tx, order.id);
      }
      await deps.receipts?.orderCompleted(tx, done);
      if (deps.events) {
        await deps.events.orderCompleted(tx, done, stored);
        if (order.topUpEsimId) await deps.events.usageChanged(tx, order.topUpEsimId);
      }
      return { order: done, esims: stored };
    });
  }

  /**
   * One attempt for an order, given as its id (jobs, operator) or as the row the caller has just
   * written (placing an order, with the plan it read): the order is read at most once.
   */
  async function attempt(
    orderOrId: string | OrderRow,
    source: AttemptSource,
    plan?: PlanForFulfillment,
  ): Promise<AttemptResult> {
    const order = typeof orderOrId === 'string' ? await loadOrder(orderOrId) : orderOrId;
    const orderId = order.id;
    if (order.status !== 'PROCESSING') {
      return order.status === 'COMPLETED'
        ? { ok: true, order, esims: await esimsOfOrder(order) }
        : { ok: false, order, error: new Error(`order is ${order.status}`), retryable: false };
    }
    let profiles: ProviderProfile[];
    try {
      profiles = await callProvider(order, plan);
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      const retryable = !(err instanceof EsimProviderError) || err.retryable;
      const counted = await db.transaction((tx) =>
        recordFailure(tx, order.id, source, error.message.slice(0, 500)),
      );
      deps.log.warn({ orderId, source, err: error.message }, 'fulfillment attempt failed');
      deps.metrics?.fulfillmentFailed(source, retryable);
      return { ok: false, order: counted, error, retryable };
    }
    const completed = await complete(order, profiles, source);
    if (completed) return { ok: true, ...completed };
    // Lost the race: read what the winner (a concurrent attempt or a refund) left.
    const latest = await loadOrder(orderId);
    if (latest.status === 'COMPLETED') return { ok: true, order: latest, esims: await esimsOfOrder(latest) };
    if (!order.topUpEsimId) await cancelOrphans(order, profiles);
    return { ok: false, order: latest, error: new Error(`order is ${latest.status}`), retryable: false };
  }

  /** Profiles that arrived after the order was refunded: hand them back (best effort, logged). */
  async function cancelOrphans(order: OrderRow, profiles: ProviderProfile[]): Promise<void> {
    const orderId = order.id;
    for (const profile of profiles) {
      try {
        await esimProviderFor(deps, order.livemode).cancelProfile(profile.providerRef);
      } catch (err) {
        deps.log.error(
          { orderId, providerRef: profile.providerRef, err: (err as Error).message },
          'could not cancel a profile issued for a refunded order',
        );
      }
    }
  }

  async function esimsOfOrder(order: OrderRow): Promise<EsimRow[]> {
    if (order.topUpEsimId) return db.select().from(esims).where(eq(esims.id, order.topUpEsimId));
    return db.select().from(esims).where(eq(esims.orderId, order.id)).orderBy(esims.createdAt, esims.id);
  }

  /**
   * Fulfillment abandoned: the order becomes REFUNDED and its amount goes back to the wallet, in
   * one transaction conditional on PROCESSING; the unique ledger reference makes a second refund
   * impossible even under races. Returns null when the order was not PROCESSING.
   */
  async function refund(orderId: string, reason: string, onRefunded?: (tx: Tx) => Promise<void>) {
    return db.transaction(async (tx) => {
      const now = clock.now();
      const [order] = await tx
        .update(orders)
        .set({ status: 'REFUNDED', updatedAt: now, lastError: reason.slice(0, 500) })
        .where(and(eq(orders.id, orderId), eq(orders.status, 'PROCESSING')))
        .returning();
      if (!order) return null;
      await refundPurchase(tx, order, now);
      await deps.events?.orderRefunded(tx, order);
      await onRefunded?.(tx);
      return order;
    });
  }

  /** Tells support once per order (ticket on the account; SUPPORT_EMAIL through the outbox). */
  async function notifySupportOnce(order: OrderRow, error: Error): Promise<void> {
    // The claim and order.fulfillment_failed commit together: the event fires once per order.
    const claimed = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(orders)
        .set({ supportNotifiedAt: clock.now() })
        .where(and(eq(orders.id, order.id), sql`${orders.supportNotifiedAt} is null`))
        .returning();
      if (row && row.status === 'PROCESSING') await deps.events?.orderFulfillmentFailed(tx, row);
      return row;
    });
    // Test-mode failures are the partner's own experiments (often requested through the test
    // helpers): the webhook event above, but no ticket and no mail to support.
    if (!order.livemode) return;
    if (!claimed) return;
    // The ticket is visible to the customer, so it says what happens next and never carries the
    // provider's error text; operators find that in the order's fulfillment attempts (admin API).
    deps.log.warn({ orderId: order.id, err: error.message }, 'fulfillment failed; support notified');
    const subject = `eSIM for order ${order.orderNumber} is delayed`;
    const message =
      `We could not issue the eSIM for order ${order.orderNumber} yet. Your payment of ` +
      `${(order.amountCents / 100).toFixed(2)} USD is safe: we retry automatically, and if the eSIM ` +
      `cannot be issued the full amount is returned to your wallet. Please do not pay again.`;
    try {
      const support = deps.support;
      // The support service announces new system tickets to SUPPORT_EMAIL itself.
      if (support)
        await support.openSystemTicket({ accountId: order.accountId, orderId: order.id, subject, message });
      else await deps.mailer.send({ to: deps.settings.supportEmail, subject, text: message });
    } catch (err) {
      deps.log.error({ orderId: order.id, err: (err as Error).message }, 'support notification failed');
    }
  }

  return { attempt, refund, notifySupportOnce, esimsOfOrder, loadOrder };
}

/** The order of esimsOfOrder (created_at, id) for rows held in memory. */
function byCreationThenId(a: EsimRow, b: EsimRow): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

const ESIM_COLUMNS = [
  'id',
  'orderId',
  'accountId',
  'planId',
  'iccid',
  'providerRef',
  'smdpAddress',
  'matchingId',
  'activationCode',
  'qrToken',
  'status',
  'dataUsageMb',
  'totalVolumeMb',
  'usageCheckedAt',
  'activatedAt',
  'expiresAt',
  'createdAt',
  'updatedAt',
  'livemode',
] as const satisfies ReadonlyArray<keyof typeof esims.$inferInsert>;

type NewEsimRow = InsertRow<typeof esims, typeof ESIM_COLUMNS>;

function esimRowFor(order: OrderRow, p: ProviderProfile, now: Date): NewEsimRow {
  return {
    id: newId('esim'),
    orderId: order.id,
    accountId: order.accountId,
    planId: order.planId,
    iccid: p.iccid,
    providerRef: p.providerRef,
    smdpAddress: p.smdpAddress,
    matchingId: p.matchingId,
    activationCode: p.activationCode,
    qrToken: randomToken(24),
    status: p.status,
    dataUsageMb: p.dataUsageMb,
    totalVolumeMb: p.totalVolumeMb,
    usageCheckedAt: now,
    activatedAt: p.activatedAt,
    expiresAt: p.expiresAt,
    createdAt: now,
    updatedAt: now,
    livemode: order.livemode,
  };
}

export type Fulfillment = ReturnType<typeof createFulfillment>;
