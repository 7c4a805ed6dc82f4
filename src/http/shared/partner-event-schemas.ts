import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { AutoTopUpFailedData, AutoTopUpSucceededData } from '../../domain/autotopup/announce.js';
import type { AnyEventType } from '../../domain/events/outbox.js';
import type {
  EsimExpiringData,
  EsimStatusChangedData,
  EsimUsageThresholdData,
  PingData,
  WalletTopUpData,
} from '../../domain/events/partner-objects.js';
import { PartnerEsimSchema, PartnerOrderSchema } from './order-presenters.js';
import { PartnerWalletSchema } from './partner-wallet.js';
import { Nullable } from './schemas.js';

/**
 * The `data` of each partner event type, one named schema each: the OpenAPI `webhooks` section
 * of the Partner document is built from these (src/http/shared/openapi-contract.ts), and the
 * compile-time checks below hold them to what the domain emits.
 */
export const EsimUsageThresholdDataSchema = Type.Object(
  {
    esim: PartnerEsimSchema,
    thresholdPercent: Type.Union([Type.Literal(50), Type.Literal(80), Type.Literal(90), Type.Literal(100)], {
      description:
        'The share of its data the eSIM reached. Each threshold is sent once per eSIM; when a top-up ' +
        'brings usage back below it, the next crossing is sent again.',
    }),
    usageUpdatedAt: Type.String({
      format: 'date-time',
      description: 'When the provider measured this usage (it can lag the network by hours)',
    }),
  },
  { title: 'EsimUsageThresholdData', description: 'The eSIM (with usage) and the share of data it reached' },
);

export const EsimExpiringDataSchema = Type.Object(
  {
    esim: PartnerEsimSchema,
    daysLeft: Type.Union([Type.Literal(3), Type.Literal(1)], {
      description: 'Whole days left, at most: 3, then 1. Sent once each per eSIM and validity end.',
    }),
    expiresAt: Type.String({ format: 'date-time', description: "When the eSIM's validity ends" }),
  },
  { title: 'EsimExpiringData', description: 'The eSIM, the days left and when its validity ends' },
);

const InstallState = Type.Union(
  [Type.Literal('INSTALLED'), Type.Literal('ENABLED'), Type.Literal('DISABLED'), Type.Literal('DELETED')],
  {
    description:
      "The profile's state on the traveller's device: INSTALLED (downloaded), ENABLED (in use), " +
      'DISABLED (switched off on the device), DELETED (removed from the device)',
  },
);

export const EsimStatusChangedDataSchema = Type.Object(
  {
    esim: PartnerEsimSchema,
    installState: InstallState,
    previousInstallState: Type.Union(
      [
        Type.Literal('RELEASED'),
        Type.Literal('INSTALLED'),
        Type.Literal('ENABLED'),
        Type.Literal('DISABLED'),
        Type.Literal('DELETED'),
        Type.Null(),
      ],
      { description: 'The state before: RELEASED = not downloaded yet; null = not known' },
    ),
  },
  { title: 'EsimStatusChangedData', description: "The eSIM and its profile's new state on the device" },
);

export const AutoTopUpSucceededDataSchema = Type.Object(
  {
    esim: PartnerEsimSchema,
    orderId: Type.String({ description: 'ord_…: the top-up order (GET /orders/{id}), paid from the wallet' }),
    planId: Type.String({ description: 'The top-up plan bought' }),
    amountUsd: Type.Number({ description: 'USD charged to the wallet' }),
  },
  {
    title: 'AutoTopUpSucceededData',
    description: 'The eSIM after its data was added (with usage) and the order that bought it',
  },
);

export const AutoTopUpFailedDataSchema = Type.Object(
  {
    esim: PartnerEsimSchema,
    planId: Type.String({ description: 'The top-up plan that was to be bought' }),
    reason: Type.Union(
      [
        Type.Literal('insufficient_balance'),
        Type.Literal('monthly_limit'),
        Type.Literal('plan_unavailable'),
        Type.Literal('provider_error'),
      ],
      {
        description:
          'insufficient_balance: nothing charged; monthly_limit: maxPerMonth already bought this month; ' +
          'plan_unavailable: the plan is no longer sold or cannot top up this eSIM; provider_error: the ' +
          'order was placed and refunded to the wallet',
      },
    ),
    orderId: Nullable(Type.String({ description: 'ord_…: the refunded order (provider_error), else null' })),
  },
  { title: 'AutoTopUpFailedData', description: 'The eSIM, the plan and why nothing was added' },
);

export const WalletTopUpDataSchema = Type.Object(
  {
    paymentId: Type.String({ description: 'pay_…: the credited payment' }),
    amountUsd: Type.Number({ description: 'USD credited to the wallet' }),
    wallet: PartnerWalletSchema,
  },
  { title: 'WalletTopUpData', description: 'The credited top-up and the wallet after it' },
);

export const PingDataSchema = Type.Object(
  {
    endpointId: Type.String({ description: 'we_…: the endpoint the test was sent to' }),
    message: Type.String({ description: 'A fixed text: "Webhook test from the eSIM service"' }),
  },
  { title: 'PingData', description: 'A test delivery (POST /webhook-endpoints/{id}/test)' },
);

export interface EventPayload {
  /** The component name of the whole event body. */
  title: string;
  when: string;
  data: TSchema;
}

/** Every type a delivery can carry, with what it means and the schema of its `data`. */
export const EVENT_PAYLOADS: Record<AnyEventType, EventPayload> = {
  'order.completed': {
    title: 'OrderCompletedEvent',
    when: "An order's eSIMs were issued. data: the Order, as GET /orders/{id} returns it.",
    data: PartnerOrderSchema,
  },
  'order.fulfillment_failed': {
    title: 'OrderFulfillmentFailedEvent',
    when: 'Charged, eSIM not issued yet, retries running. data: the Order (PROCESSING, no eSIMs).',
    data: PartnerOrderSchema,
  },
  'order.refunded': {
    title: 'OrderRefundedEvent',
    when: 'The order was refunded to the wallet (fulfillment abandoned, or its unused eSIMs cancelled by POST /orders/{id}/cancel). data: the Order (REFUNDED; cancelled eSIMs CANCELLED).',
    data: PartnerOrderSchema,
  },
  'esim.usage_threshold': {
    title: 'EsimUsageThresholdEvent',
    when: 'An eSIM reached 50 %, 80 %, 90 % or 100 % of its data. data: { esim, thresholdPercent, usageUpdatedAt }.',
    data: EsimUsageThresholdDataSchema,
  },
  'esim.expiring': {
    title: 'EsimExpiringEvent',
    when: "An eSIM's validity ends in 3 days, or in 1 day. data: { esim, daysLeft, expiresAt }.",
    data: EsimExpiringDataSchema,
  },
  'esim.status_changed': {
    title: 'EsimStatusChangedEvent',
    when:
      "The eSIM's profile was installed, enabled, disabled or deleted on the device (the provider's " +
      'lifecycle). data: { esim, installState, previousInstallState }.',
    data: EsimStatusChangedDataSchema,
  },
  'esim.auto_topup_succeeded': {
    title: 'EsimAutoTopUpSucceededEvent',
    when: "An eSIM's auto top-up bought its plan from the wallet and the data was added. data: { esim, orderId, planId, amountUsd }.",
    data: AutoTopUpSucceededDataSchema,
  },
  'esim.auto_topup_failed': {
    title: 'EsimAutoTopUpFailedEvent',
    when: "An eSIM's auto top-up crossed its threshold but added nothing. data: { esim, planId, reason, orderId }.",
    data: AutoTopUpFailedDataSchema,
  },
  'wallet.topup_succeeded': {
    title: 'WalletTopUpSucceededEvent',
    when: 'A top-up was credited. data: { paymentId, amountUsd, wallet }.',
    data: WalletTopUpDataSchema,
  },
  'wallet.low_balance': {
    title: 'WalletLowBalanceEvent',
    when: 'A charge took the balance below lowBalanceThreshold. data: the Wallet, as GET /wallet returns it.',
    data: PartnerWalletSchema,
  },
  ping: {
    title: 'PingEvent',
    when: 'A test delivery to one endpoint; not listed by GET /events. data: { endpointId, message }.',
    data: PingDataSchema,
  },
};

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const _eventDataSchemasMatch: [
  Same<
    Static<typeof EsimUsageThresholdDataSchema>,
    { [K in keyof EsimUsageThresholdData]: EsimUsageThresholdData[K] }
  >,
  Same<Static<typeof EsimExpiringDataSchema>, { [K in keyof EsimExpiringData]: EsimExpiringData[K] }>,
  Same<
    Static<typeof EsimStatusChangedDataSchema>,
    { [K in keyof EsimStatusChangedData]: EsimStatusChangedData[K] }
  >,
  Same<Static<typeof WalletTopUpDataSchema>, { [K in keyof WalletTopUpData]: WalletTopUpData[K] }>,
  Same<Static<typeof PingDataSchema>, PingData>,
  Same<
    Static<typeof AutoTopUpSucceededDataSchema>,
    { [K in keyof AutoTopUpSucceededData]: AutoTopUpSucceededData[K] }
  >,
  Same<
    Static<typeof AutoTopUpFailedDataSchema>,
    { [K in keyof AutoTopUpFailedData]: AutoTopUpFailedData[K] }
  >,
] = [true, true, true, true, true, true, true];
