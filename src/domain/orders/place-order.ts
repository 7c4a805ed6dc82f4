import { sql } from 'drizzle-orm';
import { perShape, reusable } from '../../db/reusable.js';
import { bind, produced, type Step } from '../../db/steps.js';
import { enqueueStep, jobRow } from '../../jobs/queue.js';
import { newId } from '../../lib/ids.js';
import { planAsSeen, planSoldAsSeen } from '../catalog/sellable.js';
import { AppError } from '../errors.js';
import { partnerPriceCents, type PriceRule } from '../pricing/partner-price.js';
import { pricingRepository } from '../pricing/pricing.repository.js';
import { eventSteps, eventValues } from '../events/outbox.js';
import { claimSteps, claimValues, type IdempotencyClaim } from '../idempotency/store.js';
import { balanceOf } from '../wallet/ledger.js';
import { purchaseSteps, purchaseValues } from '../wallet/postings.js';
import { newOrderNumber, type OrderChannel } from './order-numbers.js';
import { orderSteps, type NewOrderRow, type OrdersRepository, type PlacedCte } from './orders.repository.js';
import {
  fulfillJobKey,
  ORDER_JOBS,
  UNPAID_ORDER_TTL_MS,
  type OrderDeps,
  type OrderRow,
  type SellablePlanLike,
} from './ports.js';

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
  /** The request's Idempotency-Key claim, bound to the order by the order's own statement. */
  idempotency?: { claim: IdempotencyClaim };
  /**
   * Partner orders: the partner's price rule (issue 32 C5) as the key check read it (null: retail).
   * Left undefined on a partner order (an automatic top-up), it is read here; other channels
   * always pay retail.
   */
  priceRule?: PriceRule | null;
}

export const MAX_QUANTITY = 10;

/** The statement of `steps`, answering the order `placed` wrote (no row: nothing was written). */
function selectPlaced(steps: ReadonlyArray<Step<object>>, placed: Step<object>) {
  return reusable((db) => {
    const placed$ = placed.cte(db) as PlacedCte;
    return db
      .with(...steps.map((s) => s.cte(db) as PlacedCte))
      .select()
      .from(placed$);
  });
}

/**
 * A wallet order in one statement (src/db/steps.ts): only while the plan is sold as the caller
 * saw it and (with an Idempotency-Key) the claim is still this request's, the purchase (balance and
 * ledger row), the order from it, its fulfillment job, the claim bound to it, and the
 * wallet.low_balance event when the purchase crossed the threshold. Built once per wallet (live,
 * test), with or without a key, with or without partner events.
 */
function buildWalletStatement(livemode: boolean, keyed: boolean, withEvents: boolean) {
  const gates: Array<Step<object>> = keyed ? [planSoldAsSeen, claimSteps.held] : [planSoldAsSeen];
  const purchase = purchaseSteps(livemode, sql.join(gates.map(produced), sql` and `));
  const placed = orderSteps.placed(purchase.moved);
  const job = enqueueStep('fulfillment_job', placed);
  const bound = keyed ? claimSteps.boundOrder(placed) : undefined;
  const lowBalance = withEvents
    ? eventSteps('low_balance', purchase.moved, 'subscribers', {
        data: purchase.walletData,
        where: purchase.crossedThreshold,
      })
    : undefined;
  const steps = [
    ...gates,
    purchase.moved,
    placed,
    job,
    purchase.posted,
    ...(bound ? [bound] : []),
    ...(lowBalance ? [lowBalance.event, lowBalance.delivery, lowBalance.deliveryJob] : []),
  ];
  return { purchase, placed, job, bound, lowBalance, statement: selectPlaced(steps, placed) };
}
export const walletStatement = perShape(buildWalletStatement);

/** A card or crypto order in one statement: the order (gated like a wallet order) and its expiry job. */
function buildAwaitingStatement(keyed: boolean) {
  const gates: Array<Step<object>> = keyed ? [planSoldAsSeen, claimSteps.held] : [planSoldAsSeen];
  const placed = orderSteps.placed(undefined, sql.join(gates.map(produced), sql` and `));
  const job = enqueueStep('expiry_job', placed);
  const bound = keyed ? claimSteps.boundOrder(placed) : undefined;
  const steps = [...gates, placed, job, ...(bound ? [bound] : [])];
  return { placed, job, bound, statement: selectPlaced(steps, placed) };
}
export const awaitingStatement = perShape(buildAwaitingStatement);

/**
 * Placing an order: validate, then write it with its money and jobs in one statement, the only
 * write path (no transaction; the provider is called after it commits). A statement that wrote
 * nothing is explained by reading what it checked: the plan changed (read again, at most three
 * times), the balance is short (INSUFFICIENT_BALANCE), or the Idempotency-Key claim moved on.
 */
export function createOrderPlacing(deps: OrderDeps, repository: OrdersRepository) {
  const { db, clock } = deps;

  /**
   * The plan each order last went through with, by id (at most one entry per plan). Not a cache
   * to trust: the order's own statement checks the plan is still sold as seen here, and a plan
   * that changed since is read again. It saves the plan read of nearly every order.
   */
  const plansSeen = new Map<string, SellablePlanLike>();

  async function topUpTarget(input: PlaceOrderInput, isTopUp: boolean): Promise<string | null> {
    if (!isTopUp) {
      if (input.topUpIccid) throw new AppError('VALIDATION_ERROR', 'iccid is only accepted for top-up plans');
      return null;
    }
    if (!input.topUpIccid)
      throw new AppError('VALIDATION_ERROR', 'Top-up plans require the iccid of your eSIM');
    if (input.quantity !== 1)
      throw new AppError('VALIDATION_ERROR', 'Top-up plans are ordered one at a time');
    const target = await repository.ownEsimByIccid(input.accountId, input.topUpIccid, input.livemode ?? true);
    if (!target) throw new AppError('VALIDATION_ERROR', 'iccid does not name an eSIM of this account');
    if (target.status === 'EXPIRED' || target.status === 'CANCELLED')
      throw new AppError('VALIDATION_ERROR', `An ${target.status.toLowerCase()} eSIM cannot be topped up`);
    return target.id;
  }

  /** The rule an order is priced with: the partner's (Partner API) or none (retail). */
  async function storedRule(accountId: string): Promise<PriceRule | null> {
    return (await pricingRepository.find(db, accountId))?.rule ?? null;
  }

  function orderRow(
    input: PlaceOrderInput,
    plan: SellablePlanLike,
    topUpEsimId: string | null,
    now: Date,
    rule: PriceRule | null,
  ) {
    // The plan's own price and cost, checked by the statement (planSoldAsSeen): the partner price
    // derived from them is the one of the plan as written.
    const unitCents = partnerPriceCents(
      { retailCents: plan.effectivePriceCents, wholesaleCents: plan.wholesaleCents },
      rule,
    );
    return {
      id: newId('ord'),
      orderNumber: newOrderNumber(input.channel, now),
      accountId: input.accountId,
      channel: input.channel,
      planId: plan.id,
      quantity: input.quantity,
      topUpIccid: input.topUpIccid ?? null,
      topUpEsimId,
      amountCents: unitCents * input.quantity,
      paymentMethod: input.paymentMethod,
      status: input.paymentMethod === 'wallet' ? 'PROCESSING' : 'AWAITING_PAYMENT',
      createdAt: now,
      updatedAt: now,
      livemode: input.livemode ?? true,
    } satisfies NewOrderRow;
  }

  /** The one statement for this order; its row, or undefined when it wrote nothing. */
  async function write(input: PlaceOrderInput, row: NewOrderRow, plan: SellablePlanLike, now: Date) {
    const claim = input.idempotency?.claim;
    const gates = {
      ...bind(planSoldAsSeen, planAsSeen(plan)),
      ...(claim && bind(claimSteps.held, claimValues(claim))),
    };
    if (row.paymentMethod !== 'wallet') {
      const s = awaitingStatement(Boolean(claim));
      const expiry = {
        kind: ORDER_JOBS.expire,
        payload: { orderId: row.id },
        runAt: new Date(now.getTime() + UNPAID_ORDER_TTL_MS),
        dedupeKey: `expire:${row.id}`,
      };
      const [order] = await s.statement(db, {
        ...gates,
        ...bind(s.placed, row),
        ...bind(s.job, jobRow(expiry, now)),
        ...(s.bound && claim && bind(s.bound, claimValues(claim))),
      });
      return order;
    }
    const s = walletStatement(row.livemode, Boolean(claim), Boolean(deps.events));
    // The fulfillment job starts a little later, so the request's own attempt normally wins; if
    // the process dies first, the job recovers the order.
    const fulfillment = {
      kind: ORDER_JOBS.fulfill,
      payload: { orderId: row.id },
      runAt: new Date(now.getTime() + deps.settings.fulfillmentRetryBaseSeconds * 1000),
      maxAttempts: deps.settings.fulfillmentMaxAttempts,
      dedupeKey: fulfillJobKey(row.id),
    };
    const money = purchaseValues(row, now);
    const [order] = await s.statement(db, {
      ...gates,
      ...bind(s.purchase.moved, money),
      ...bind(s.purchase.posted, money),
      ...bind(s.placed, row),
      ...bind(s.job, jobRow(fulfillment, now)),
      ...(s.bound && claim && bind(s.bound, claimValues(claim))),
      ...(s.lowBalance &&
        bind(
          s.lowBalance.event,
          eventValues(
            { accountId: row.accountId, type: 'wallet.low_balance', livemode: row.livemode, data: {} },
            now,
          ),
        )),
    });
    return order;
  }

  /** Why the statement wrote nothing, when the plan has not changed: a short balance or a lost claim. */
  async function explainNothingWritten(input: PlaceOrderInput, row: NewOrderRow): Promise<never> {
    if (row.paymentMethod === 'wallet') {
      const balance = await balanceOf(db, row.accountId, row.livemode);
      if (balance !== undefined && balance < row.amountCents)
        throw new AppError('INSUFFICIENT_BALANCE', 'Wallet balance is below the amount', {
          requiredUsd: row.amountCents / 100,
        });
    }
    if (input.idempotency) throw new Error('Idempotency-Key claim was taken over by a retry; not committing');
    throw new AppError('CONFLICT', 'The order could not be placed; try again');
  }

  /** Validates and writes the order; its row and the plan it was placed with. */
  async function insertOrder(input: PlaceOrderInput): Promise<{ order: OrderRow; plan: SellablePlanLike }> {
    if (!Number.isInteger(input.quantity) || input.quantity < 1 || input.quantity > MAX_QUANTITY)
      throw new AppError('VALIDATION_ERROR', `quantity must be an integer from 1 to ${MAX_QUANTITY}`);
    if (input.livemode === false && input.paymentMethod !== 'wallet')
      throw new AppError('VALIDATION_ERROR', 'Test-mode orders are paid from the test wallet');
    // No await on the hot path: the Partner API passes the rule its key check read.
    const rule =
      input.channel !== 'partner'
        ? null
        : input.priceRule !== undefined
          ? input.priceRule
          : await storedRule(input.accountId);
    let seen = plansSeen.get(input.planId);
    for (let attempt = 1; ; attempt++) {
      const plan = seen ?? (await deps.findActivePlan(db, input.planId));
      if (!plan) {
        plansSeen.delete(input.planId);
        throw new AppError('PLAN_NOT_FOUND', `Plan ${input.planId} does not exist or is not sold`);
      }
      const topUpEsimId = await topUpTarget(input, plan.isTopUp);
      const now = clock.now();
      const row = orderRow(input, plan, topUpEsimId, now, rule);
      const order = await write(input, row, plan, now);
      if (order) {
        plansSeen.set(plan.id, plan);
        return { order, plan };
      }
      const current = await deps.findActivePlan(db, input.planId);
      if (current && samePlan(current, plan)) return explainNothingWritten(input, row);
      // The plan changed since it was seen or read: nothing was written; read it again.
      plansSeen.delete(input.planId);
      seen = undefined;
      if (attempt >= 3)
        throw new AppError('CONFLICT', 'The plan changed while the order was placed; try again');
    }
  }

  return { insertOrder };
}

function samePlan(a: SellablePlanLike, b: SellablePlanLike): boolean {
  const x = planAsSeen(a);
  const y = planAsSeen(b);
  return (
    x.id === y.id &&
    x.isTopUp === y.isTopUp &&
    x.effectivePriceCents === y.effectivePriceCents &&
    x.providerPackageCode === y.providerPackageCode &&
    x.wholesaleCents === y.wholesaleCents
  );
}
