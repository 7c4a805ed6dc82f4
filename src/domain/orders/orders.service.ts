import { and, asc, desc, eq, getTableColumns, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { keysetAfter, type KeyValue } from '../../db/keyset.js';
import {
  columnList,
  perShape,
  placeholderList,
  placeholders,
  prefixed,
  reusable,
  type InsertRow,
} from '../../db/reusable.js';
import { insertJobFrom, jobRow } from '../../jobs/queue.js';
import { planAsSeen, soldAsSeen } from '../catalog/sellable.js';
import { claimValues, claimWithin, type IdempotencyClaim } from '../idempotency/store.js';
import { purchaseValues, purchaseWithin } from '../wallet/postings.js';
import { esims, orders } from '../../db/schema/index.js';
import { newId } from '../../lib/ids.js';
import { AppError } from '../errors.js';
import { createEsimReads } from './esims.js';
import { createFulfillment } from './fulfillment.js';
import { newOrderNumber, type OrderChannel } from './order-numbers.js';
import { createOrderCharging } from './order-payments.js';
import {
  ORDER_JOBS,
  UNPAID_ORDER_TTL_MS,
  type EsimRow,
  type OrderDeps,
  type OrderRow,
  type SellablePlanLike,
  type Tx,
} from './ports.js';

export type { EsimRow, OrderRow } from './ports.js';

export interface PlaceOrderInput {
  accountId: string;
  channel: OrderChannel;
  planId: string;
  quantity: number;
  /** Top-up plans only: the ICCID of the caller's eSIM to top up. */
  topUpIccid?: string;
  paymentMethod: 'wallet' | 'card' | 'crypto';
  successUrl?: string;
  cancelUrl?: string;
  /**
   * false: a test-mode order (Partner API test key): paid from the test wallet, provisioned by the
   * sandbox provider, invisible to live reads. Default true.
   */
  livemode?: boolean;
  /**
   * The request's Idempotency-Key claim. The order is bound to it where the order is written: by
   * the order's own statement (one-statement path) or by `bind` inside the placing transaction;
   * a retry taking the claim over then recovers the order instead of placing another.
   */
  idempotency?: { claim: IdempotencyClaim; bind: (tx: Tx, order: OrderRow) => Promise<void> };
}

export interface PlacedOrder {
  order: OrderRow;
  esims: EsimRow[];
  /** card/crypto: the hosted payment page. */
  paymentUrl?: string;
}

export const MAX_QUANTITY = 10;

/** The columns an order is placed with; the rest take their defaults. */
const ORDER_COLUMNS = [
  'id',
  'orderNumber',
  'accountId',
  'channel',
  'planId',
  'quantity',
  'topUpIccid',
  'topUpEsimId',
  'amountCents',
  'paymentMethod',
  'status',
  'createdAt',
  'updatedAt',
  'livemode',
] as const satisfies ReadonlyArray<keyof typeof orders.$inferInsert>;

type NewOrderRow = InsertRow<typeof orders, typeof ORDER_COLUMNS>;

/** On every order: built once (src/db/reusable.ts), a placeholder per column. */
const insertOrderRow = reusable((db) =>
  db
    .insert(orders)
    .values(placeholders(ORDER_COLUMNS) as never)
    .returning(),
);

/** `insert into orders (the placed columns) select (their placeholders) <rest>`. */
function insertOrderSelect(db: DbOrTx, rest: SQL) {
  return db
    .$with('placed', getTableColumns(orders))
    .as(
      sql`insert into ${orders} (${columnList(orders, ORDER_COLUMNS)}) select ${placeholderList(ORDER_COLUMNS)} ${rest} returning *`,
    );
}

/**
 * A wallet order with its fulfillment job, written only while the plan is still sold as the
 * caller saw it (placeholders `plan.<field>`, see soldAsSeen): one round trip, no read of the plan.
 * No row back: the plan changed (or is no longer sold) since the caller saw it.
 */
const insertWalletOrder = reusable((db) => {
  const placed$ = insertOrderSelect(db, sql`where ${soldAsSeen('plan.')}`);
  const job$ = db.$with('fulfillment_job', {}).as(insertJobFrom('job.', sql`placed`));
  return db.with(placed$, job$).select().from(placed$);
});

/**
 * A whole wallet order in one statement, without a transaction around it: the charge
 * (purchaseWithin, placeholders `ledger.<field>`), and from it the order (while the plan is still
 * sold as seen), its fulfillment job and its ledger row. No row back: nothing was written, and
 * the order takes the general path (the balance is short, a low-balance alert is due, or the plan
 * changed). Built once per wallet (live, test) and with or without an Idempotency-Key.
 */
function buildPlaceAtOnce(livemode: boolean, keyed: boolean) {
  return reusable((db) => {
    // With an Idempotency-Key: only while the claim is still this request's (its row locked until
    // the statement ends), and the order bound to it (placeholders `claim.<field>`).
    const held$ = keyed ? [db.$with('held_claim', {}).as(claimWithin.heldClaim())] : [];
    const onlyIf = keyed
      ? sql`${soldAsSeen('plan.')} and exists (select 1 from held_claim)`
      : soldAsSeen('plan.');
    const { moved, posted } = purchaseWithin(livemode, onlyIf);
    const moved$ = db.$with('moved', {}).as(moved);
    const placed$ = insertOrderSelect(db, sql`from moved`);
    const job$ = db.$with('fulfillment_job', {}).as(insertJobFrom('job.', sql`placed`));
    const posted$ = db.$with('posted', {}).as(posted);
    const bound$ = keyed ? [db.$with('bound_claim', {}).as(claimWithin.bindOrder(sql`placed`))] : [];
    return db
      .with(...held$, moved$, placed$, job$, posted$, ...bound$)
      .select()
      .from(placed$);
  });
}
const placeAtOnce = perShape(buildPlaceAtOnce);

/**
 * The order core shared by Mobile checkout and Partner orders. The charge, the order row and its
 * fulfillment job are written together: in one statement for the usual wallet order
 * (placeAtOnceIfUsual), else in one transaction; the provider is called after commit.
 */
export function createOrderService(deps: OrderDeps) {
  const { db, clock, queue } = deps;
  const fulfillment = createFulfillment(deps);
  const esimReads = createEsimReads(deps);
  const { charge, fulfillmentJob, cancelUnpaid } = createOrderCharging({
    ...deps,
    fulfillmentMaxAttempts: deps.settings.fulfillmentMaxAttempts,
  });

  async function validateTopUp(tx: Tx, input: PlaceOrderInput, isTopUp: boolean): Promise<string | null> {
    if (!isTopUp) {
      if (input.topUpIccid) throw new AppError('VALIDATION_ERROR', 'iccid is only accepted for top-up plans');
      return null;
    }
    if (!input.topUpIccid)
      throw new AppError('VALIDATION_ERROR', 'Top-up plans require the iccid of your eSIM');
    if (input.quantity !== 1)
      throw new AppError('VALIDATION_ERROR', 'Top-up plans are ordered one at a time');
    const [target] = await tx
      .select({ id: esims.id, status: esims.status })
      .from(esims)
      .where(
        and(
          eq(esims.accountId, input.accountId),
          eq(esims.iccid, input.topUpIccid),
          eq(esims.livemode, input.livemode ?? true),
        ),
      )
      .orderBy(desc(esims.createdAt))
      .limit(1);
    if (!target) throw new AppError('VALIDATION_ERROR', 'iccid does not name an eSIM of this account');
    if (target.status === 'EXPIRED' || target.status === 'CANCELLED')
      throw new AppError('VALIDATION_ERROR', `An ${target.status.toLowerCase()} eSIM cannot be topped up`);
    return target.id;
  }

  /**
   * The plan each wallet order last went through with, by id (at most one entry per plan). Not a
   * cache to trust: the order's own statement checks the plan is still sold as seen here, and a
   * plan that changed since is read again. It saves the plan read of nearly every order.
   */
  const plansSeen = new Map<string, SellablePlanLike>();

  function orderRow(
    input: PlaceOrderInput,
    plan: SellablePlanLike,
    topUpEsimId: string | null,
    now: Date,
  ): NewOrderRow {
    const wallet = input.paymentMethod === 'wallet';
    return {
      id: newId('ord'),
      orderNumber: newOrderNumber(input.channel, now),
      accountId: input.accountId,
      channel: input.channel,
      planId: plan.id,
      quantity: input.quantity,
      topUpIccid: input.topUpIccid ?? null,
      topUpEsimId,
      amountCents: plan.effectivePriceCents * input.quantity,
      paymentMethod: input.paymentMethod,
      status: wallet ? 'PROCESSING' : 'AWAITING_PAYMENT',
      createdAt: now,
      updatedAt: now,
      livemode: input.livemode ?? true,
    };
  }

  /** The wallet order's statement values: the order, its fulfillment job, the plan as seen. */
  function walletOrderValues(row: NewOrderRow, plan: SellablePlanLike, now: Date) {
    const job = fulfillmentJob(row.id, deps.settings.fulfillmentRetryBaseSeconds * 1000);
    return { ...row, ...prefixed('job.', jobRow(job, now)), ...prefixed('plan.', planAsSeen(plan)) };
  }

  /**
   * The usual wallet order (a plan seen before, not a top-up; an Idempotency-Key bound by the same
   * statement) in one statement and one commit; undefined when it has to take the transaction
   * (nothing written).
   */
  async function placeAtOnceIfUsual(
    input: PlaceOrderInput,
  ): Promise<{ order: OrderRow; plan: SellablePlanLike } | undefined> {
    const plan = plansSeen.get(input.planId);
    if (!plan || plan.isTopUp || input.topUpIccid) return undefined;
    const now = clock.now();
    const row = orderRow(input, plan, null, now);
    const claim = input.idempotency?.claim;
    const [order] = await placeAtOnce(row.livemode, Boolean(claim))(db, {
      ...walletOrderValues(row, plan, now),
      ...prefixed('ledger.', purchaseValues(row, now)),
      ...(claim && prefixed('claim.', claimValues(claim))),
    });
    return order && { order, plan };
  }

  /** The placing transaction: validate, charge (wallet) or await payment, insert order + jobs. */
  async function insertOrder(input: PlaceOrderInput): Promise<{ order: OrderRow; plan: SellablePlanLike }> {
    if (!Number.isInteger(input.quantity) || input.quantity < 1 || input.quantity > MAX_QUANTITY)
      throw new AppError('VALIDATION_ERROR', `quantity must be an integer from 1 to ${MAX_QUANTITY}`);
    const livemode = input.livemode ?? true;
    if (!livemode && input.paymentMethod !== 'wallet')
      throw new AppError('VALIDATION_ERROR', 'Test-mode orders are paid from the test wallet');
    const wallet = input.paymentMethod === 'wallet';
    if (wallet) {
      const placed = await placeAtOnceIfUsual(input);
      if (placed) return placed;
    }
    return db.transaction(async (tx) => {
      let seen = wallet ? plansSeen.get(input.planId) : undefined;
      // A plan seen before is checked by the insert; one not seen (or changed since) is read. Read
      // plans are checked too: a third change in a row within one order is reported as a conflict.
      for (let attempt = 1; ; attempt++) {
        const plan = seen ?? (await deps.findActivePlan(tx, input.planId));
        if (!plan) {
          plansSeen.delete(input.planId);
          throw new AppError('PLAN_NOT_FOUND', `Plan ${input.planId} does not exist or is not sold`);
        }
        const topUpEsimId = await validateTopUp(tx, input, plan.isTopUp);
        const now = clock.now();
        const row = orderRow(input, plan, topUpEsimId, now);
        let order: OrderRow | undefined;
        if (wallet) {
          // The order and its fulfillment job in one statement, then the charge.
          [order] = await insertWalletOrder(tx, walletOrderValues(row, plan, now));
          if (!order) {
            // The plan changed since it was seen or read: nothing was written; read it again.
            plansSeen.delete(input.planId);
            seen = undefined;
            if (attempt < 3) continue;
            throw new AppError('CONFLICT', 'The plan changed while the order was placed; try again');
          }
          plansSeen.set(plan.id, plan);
          await charge(tx, order);
        } else {
          [order] = await insertOrderRow(tx, row);
          await queue.enqueue(tx, {
            kind: ORDER_JOBS.expire,
            payload: { orderId: order!.id },
            runAt: new Date(now.getTime() + UNPAID_ORDER_TTL_MS),
            dedupeKey: `expire:${order!.id}`,
          });
        }
        await input.idempotency?.bind(tx, order!);
        return { order: order!, plan };
      }
    });
  }

  async function startPayment(order: OrderRow, input: PlaceOrderInput): Promise<string> {
    const payments = deps.payments;
    try {
      if (!payments) throw new AppError('SERVICE_UNAVAILABLE', 'Card and crypto payments are not available');
      const common = { accountId: order.accountId, purpose: 'order' as const, orderId: order.id };
      const created =
        input.paymentMethod === 'card'
          ? await payments.createCardPayment({
              ...common,
              amountMinor: order.amountCents,
              currency: 'USD',
              successUrl: input.successUrl,
              cancelUrl: input.cancelUrl,
            })
          : await payments.createCryptoPayment({
              ...common,
              amountCents: order.amountCents,
              currency: 'USD',
              returnUrl: input.successUrl,
            });
      const url = 'url' in created ? created.url : created.invoice.url;
      await db.update(orders).set({ paymentId: created.paymentId }).where(eq(orders.id, order.id));
      return url;
    } catch (err) {
      // No payment page, no way to pay: the order is cancelled (nothing was charged).
      await cancelUnpaid(order.id);
      throw err;
    }
  }

  async function placeOrder(input: PlaceOrderInput): Promise<PlacedOrder> {
    const { order, plan } = await insertOrder(input);
    if (order.status === 'AWAITING_PAYMENT') {
      const paymentUrl = await startPayment(order, input);
      return { order: await fulfillment.loadOrder(order.id), esims: [], paymentUrl };
    }
    // The row just written and the plan just read: the attempt reads neither again.
    const result = await fulfillment.attempt(order, 'request', plan);
    if (result.ok) return { order: result.order, esims: result.esims };
    await fulfillment.notifySupportOnce(result.order, result.error);
    throw new AppError(
      'FULFILLMENT_FAILED',
      'Payment was taken but the eSIM provider failed to issue the eSIM; it is retried automatically. Do not pay again.',
      { orderId: order.id },
    );
  }

  /**
   * The account's orders of one mode (live unless `livemode: false`), newest first (created_at,
   * id). `after` is a keyset position [createdAt, id] (cursor pagination): the rows after it, read
   * on orders_account_list_idx, so a page costs the same however many orders came before.
   */
  async function listOrders(
    accountId: string,
    options: {
      limit?: number | undefined;
      startingAfter?: string | undefined;
      after?: readonly KeyValue[] | undefined;
      livemode?: boolean;
      /** Only orders placed through this channel (the Partner API sees its own only). */
      channel?: OrderChannel | undefined;
    } = {},
  ): Promise<{ orders: OrderRow[]; hasMore: boolean }> {
    const conditions = [eq(orders.accountId, accountId), eq(orders.livemode, options.livemode ?? true)];
    if (options.channel) conditions.push(eq(orders.channel, options.channel));
    if (options.after) conditions.push(keysetAfter([orders.createdAt, orders.id], options.after, 'desc'));
    if (options.startingAfter) {
      const [cursor] = await db
        .select()
        .from(orders)
        .where(and(eq(orders.id, options.startingAfter), ...conditions));
      if (!cursor) throw new AppError('VALIDATION_ERROR', 'startingAfter does not name one of your orders');
      conditions.push(
        or(
          lt(orders.createdAt, cursor.createdAt),
          and(eq(orders.createdAt, cursor.createdAt), lt(orders.id, cursor.id)),
        )!,
      );
    }
    const query = db
      .select()
      .from(orders)
      .where(and(...conditions))
      .orderBy(desc(orders.createdAt), desc(orders.id));
    const rows = options.limit ? await query.limit(options.limit + 1) : await query;
    const hasMore = options.limit !== undefined && rows.length > options.limit;
    return { orders: hasMore ? rows.slice(0, options.limit) : rows, hasMore };
  }

  /**
   * One order of the account with its eSIMs; another account's order, or one of the other mode
   * (a test order read live, or the reverse), or of another `channel` when one is given, is
   * ORDER_NOT_FOUND.
   */
  async function getOrder(
    accountId: string,
    orderId: string,
    livemode = true,
    channel?: OrderChannel,
  ): Promise<{ order: OrderRow; esims: EsimRow[] }> {
    const [order] = await db
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.id, orderId),
          eq(orders.accountId, accountId),
          eq(orders.livemode, livemode),
          channel ? eq(orders.channel, channel) : undefined,
        ),
      );
    if (!order) throw new AppError('ORDER_NOT_FOUND', 'Order not found');
    return { order, esims: await fulfillment.esimsOfOrder(order) };
  }

  /** eSIM ids of many orders at once (order lists). */
  async function esimIdsByOrder(list: OrderRow[]): Promise<Map<string, string[]>> {
    const result = new Map<string, string[]>(list.map((o) => [o.id, o.topUpEsimId ? [o.topUpEsimId] : []]));
    if (list.length === 0) return result;
    // Only the listed orders' eSIMs (esims_order_idx): a page costs the same however long the history.
    const rows = await db
      .select({ id: esims.id, orderId: esims.orderId })
      .from(esims)
      .where(
        inArray(
          esims.orderId,
          list.map((o) => o.id),
        ),
      )
      .orderBy(asc(esims.createdAt), asc(esims.id));
    for (const row of rows) result.get(row.orderId)?.push(row.id);
    return result;
  }

  return {
    placeOrder,
    listOrders,
    getOrder,
    esimIdsByOrder,
    listEsims: esimReads.listForAccount,
    refreshUsage: esimReads.refreshUsage,
    refreshStatuses: esimReads.refreshStatuses,
    findEsimByQrToken: esimReads.findByQrToken,
    cancelUnpaid,
    fulfillment,
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
