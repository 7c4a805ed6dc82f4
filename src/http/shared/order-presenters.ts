import { Type, type Static } from '@sinclair/typebox';
import {
  presentPartnerEsim,
  presentPartnerOrder,
  presentPartnerOrderSummary,
  type AutoTopUpView,
  type PartnerEsim,
  type PartnerOrder,
  type PartnerOrderSummary,
} from '../../domain/events/partner-objects.js';
import { installUrl, iosInstallUrl, qrCodeUrl } from '../../domain/orders/esim-links.js';
import type { EsimRow, OrderRow } from '../../domain/orders/orders.service.js';
import { centsToUsd } from '../../lib/money.js';
import { IsoDate, Nullable } from './schemas.js';

/**
 * Order and eSIM response shapes shared by the Mobile and Partner surfaces. The schemas are the
 * allow-list of fields: the QR and install tokens appear only inside qrCodeUrl and installUrl,
 * never on their own.
 */

const INSTALL_URL_DESCRIPTION =
  'Hosted install page, public (no login): SM-DP+ address and activation code to copy, the QR ' +
  'code, the iPhone one-tap link, steps for iPhone and Android, live usage and a top-up link. ' +
  'Share it with whoever installs the eSIM; replacing it (POST …/esims/{iccid}/install-link) ' +
  'makes this URL answer 404.';

const PLAN_NAME_DESCRIPTION =
  'The plan as people name it, in the caller locale (the account language, else Accept-Language): ' +
  '"Türkiye · 3 GB · 15 days", a top-up "Türkiye · 1 GB · top-up". Show this, never planId';

const ORDER_STATUSES = ['AWAITING_PAYMENT', 'PROCESSING', 'COMPLETED', 'CANCELLED', 'REFUNDED'] as const;
const ESIM_STATUSES = ['PENDING', 'ACTIVE', 'DEPLETED', 'EXPIRED', 'CANCELLED'] as const;

const OrderStatus = Type.Union(
  ORDER_STATUSES.map((s) => Type.Literal(s)),
  {
    title: 'OrderStatus',
    description:
      'AWAITING_PAYMENT: card/crypto payment open; PROCESSING: paid, eSIM being issued (retried in the ' +
      'background); COMPLETED: eSIMs issued; CANCELLED: payment never completed; REFUNDED: money returned',
  },
);
export const EsimStatus = Type.Union(
  ESIM_STATUSES.map((s) => Type.Literal(s)),
  {
    title: 'EsimStatus',
    description: 'PENDING (issued, not installed yet), ACTIVE, DEPLETED (data used up), EXPIRED or CANCELLED',
  },
);

export const AutoTopUpSchema = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Buy `planId` from the wallet when usage crosses the threshold' }),
    planId: Nullable(
      Type.String({ description: 'The top-up plan bought: one of the eSIM’s destination’s top-up plans' }),
    ),
    whenPercentUsed: Type.Integer({
      minimum: 50,
      maximum: 100,
      description: 'Share of the data used (50–100 %) at which the top-up is bought; 100: when used up',
    }),
    maxPerMonth: Type.Integer({
      minimum: 1,
      maximum: 10,
      description: 'At most this many auto top-ups per calendar month (UTC), 1–10',
    }),
  },
  {
    title: 'AutoTopUp',
    description:
      'Auto top-up from the wallet: once per crossing of the threshold (the added data re-arms it), at ' +
      'most maxPerMonth a month. Defaults: disabled, 80 %, 2 a month.',
  },
);

/** PATCH body of both surfaces: any subset of AutoTopUp (planId required to enable). */
export const AutoTopUpPatchSchema = Type.Object(
  {
    autoTopUp: Type.Object(
      {
        enabled: Type.Optional(Type.Boolean()),
        planId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
        whenPercentUsed: Type.Optional(Type.Integer({ minimum: 50, maximum: 100, description: '50–100' })),
        maxPerMonth: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, description: '1–10' })),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [{ autoTopUp: { enabled: true, planId: 'plan_sbx-tr-1gb-topup', whenPercentUsed: 80 } }],
  },
);

export const MobileEsimSchema = Type.Object(
  {
    id: Type.String(),
    orderId: Type.String(),
    planId: Type.String(),
    planName: Type.String({ description: PLAN_NAME_DESCRIPTION }),
    iccid: Type.String(),
    activationCode: Type.String({ description: 'LPA activation string LPA:1$<smdpAddress>$<matchingId>' }),
    qrCodeUrl: Type.String({ description: 'PNG of the activation code; add ?format=svg or use qr.svg' }),
    qrCodeSvgUrl: Type.String(),
    smdpAddress: Type.String(),
    matchingId: Type.String({ description: 'Activation code for manual entry' }),
    iosInstallUrl: Type.String({ description: 'One-tap install link for iOS 17.4+' }),
    installUrl: Type.String({ description: INSTALL_URL_DESCRIPTION }),
    status: EsimStatus,
    dataUsage: Type.Integer({ description: 'MB used' }),
    totalVolume: Type.Integer({ description: 'MB included' }),
    activatedAt: Nullable(IsoDate),
    expiresAt: Nullable(IsoDate),
    autoTopUp: Type.Optional({
      ...AutoTopUpSchema,
      description: 'Auto top-up settings; on the eSIM list and eSIM endpoints',
    }),
  },
  { title: 'Esim' },
);

export function presentMobileEsim(
  esim: EsimRow,
  publicBaseUrl: string,
  planNames: ReadonlyMap<string, string>,
  autoTopUp?: AutoTopUpView,
): Static<typeof MobileEsimSchema> {
  return {
    id: esim.id,
    orderId: esim.orderId,
    planId: esim.planId,
    planName: planNames.get(esim.planId) ?? esim.planId,
    iccid: esim.iccid,
    activationCode: esim.activationCode,
    qrCodeUrl: qrCodeUrl(publicBaseUrl, esim.qrToken),
    qrCodeSvgUrl: qrCodeUrl(publicBaseUrl, esim.qrToken, 'svg'),
    smdpAddress: esim.smdpAddress,
    matchingId: esim.matchingId,
    iosInstallUrl: iosInstallUrl(esim.activationCode),
    installUrl: installUrl(publicBaseUrl, esim.installToken),
    status: esim.status,
    dataUsage: esim.dataUsageMb,
    totalVolume: esim.totalVolumeMb,
    activatedAt: esim.activatedAt?.toISOString() ?? null,
    expiresAt: esim.expiresAt?.toISOString() ?? null,
    ...(autoTopUp ? { autoTopUp } : {}),
  };
}

export const PartnerEsimSchema = Type.Object(
  {
    id: Type.String(),
    iccid: Type.String(),
    activationCode: Type.String({ description: 'LPA activation string' }),
    qrCodeUrl: Type.String(),
    smdpAddress: Type.String(),
    installUrl: Type.String({ description: INSTALL_URL_DESCRIPTION }),
    status: EsimStatus,
    dataUsageMb: Type.Optional(Type.Integer()),
    totalVolumeMb: Type.Optional(Type.Integer()),
    livemode: Type.Boolean({ description: 'false for test-mode objects (made with a svc_test_sk_ key)' }),
    autoTopUp: Type.Optional({
      ...AutoTopUpSchema,
      description: 'Auto top-up settings; on the /esims endpoints only (not in orders or events)',
    }),
  },
  { title: 'PartnerEsim' },
);

export const MobileOrderSchema = Type.Object(
  {
    id: Type.String(),
    orderNumber: Type.String(),
    status: OrderStatus,
    planId: Type.String(),
    planName: Type.String({ description: PLAN_NAME_DESCRIPTION }),
    quantity: Type.Integer(),
    amount: Type.Number({ description: 'USD' }),
    currency: Type.String(),
    paymentMethod: Type.Union([Type.Literal('wallet'), Type.Literal('card'), Type.Literal('crypto')]),
    esimIds: Type.Array(Type.String()),
    topUpIccid: Nullable(Type.String()),
    createdAt: IsoDate,
    completedAt: Nullable(IsoDate),
  },
  { title: 'Order' },
);

export function presentMobileOrder(
  order: OrderRow,
  esimIds: string[],
  planNames: ReadonlyMap<string, string>,
): Static<typeof MobileOrderSchema> {
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    status: order.status,
    planId: order.planId,
    planName: planNames.get(order.planId) ?? order.planId,
    quantity: order.quantity,
    amount: centsToUsd(order.amountCents),
    currency: order.currency,
    paymentMethod: order.paymentMethod,
    esimIds,
    topUpIccid: order.topUpIccid,
    createdAt: order.createdAt.toISOString(),
    completedAt: order.completedAt?.toISOString() ?? null,
  };
}

export const PartnerOrderSummarySchema = Type.Object(
  {
    id: Type.String(),
    orderNumber: Type.String(),
    status: OrderStatus,
    amountUsd: Type.Number(),
    planId: Type.String(),
    quantity: Type.Integer(),
    createdAt: IsoDate,
    livemode: Type.Boolean({ description: 'false for test-mode objects (made with a svc_test_sk_ key)' }),
  },
  { title: 'PartnerOrderSummary' },
);

export const PartnerOrderSchema = Type.Composite(
  [PartnerOrderSummarySchema, Type.Object({ esims: Type.Array(PartnerEsimSchema) })],
  { title: 'PartnerOrder' },
);

/**
 * The Partner presenters live in the domain, because partner events carry the same objects; the
 * schemas above must describe exactly what they return (checked here at compile time).
 */
export { presentPartnerEsim, presentPartnerOrder, presentPartnerOrderSummary };

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const _partnerOrderSchemasMatch: [
  Same<Static<typeof PartnerEsimSchema>, PartnerEsim>,
  Same<Static<typeof PartnerOrderSummarySchema>, PartnerOrderSummary>,
  Same<Static<typeof PartnerOrderSchema>, { [K in keyof PartnerOrder]: PartnerOrder[K] }>,
] = [true, true, true];
