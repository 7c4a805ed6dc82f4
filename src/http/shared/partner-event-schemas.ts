import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { AnyEventType } from '../../domain/events/outbox.js';
import type {
  EsimUsageThresholdData,
  PingData,
  WalletTopUpData,
} from '../../domain/events/partner-objects.js';
import { PartnerEsimSchema, PartnerOrderSchema } from './order-presenters.js';
import { PartnerWalletSchema } from './partner-wallet.js';

/**
 * The `data` of each partner event type, one named schema each: the OpenAPI `webhooks` section
 * of the Partner document is built from these (src/http/shared/openapi-contract.ts), and the
 * compile-time checks below hold them to what the domain emits.
 */
export const EsimUsageThresholdDataSchema = Type.Object(
  {
    esim: PartnerEsimSchema,
    thresholdPercent: Type.Union([Type.Literal(80), Type.Literal(100)]),
  },
  { title: 'EsimUsageThresholdData', description: 'The eSIM (with usage) and the share of data it reached' },
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
    when: 'An eSIM reached 80 % or 100 % of its data. data: { esim, thresholdPercent }.',
    data: EsimUsageThresholdDataSchema,
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
  Same<Static<typeof WalletTopUpDataSchema>, { [K in keyof WalletTopUpData]: WalletTopUpData[K] }>,
  Same<Static<typeof PingDataSchema>, PingData>,
] = [true, true, true];
