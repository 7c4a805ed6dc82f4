import type { ErrorCode } from '../../domain/errors.js';
import { PartnerErrorSchema } from '../shared/schemas.js';

/** Example values and error responses for the Partner API's OpenAPI document. */

const esim = {
  id: 'esim_4fQ2x9LmT7bV1cN8kZ3d',
  iccid: '8937204016150000001',
  activationCode: 'LPA:1$smdp.example.com$K2-1XQ9P4-7H3L2M',
  qrCodeUrl: 'https://api.example.com/api/v1/esims/qr_Zp8Wm2Lk5Vx9Qa7Rt3Yb/qr.png',
  smdpAddress: 'smdp.example.com',
  installUrl: 'https://api.example.com/install/pR7vXq2LmN9sT4wZ8bC1dF6gH3jK5yU0eA2iO7lQ1xS',
  status: 'PENDING',
  livemode: true,
};

const summary = {
  id: 'ord_8Hc3Kq1Wz5Ty7Lp2Nb4M',
  orderNumber: 'SVC-API-261122-7KQ4M2XH',
  status: 'COMPLETED',
  amountUsd: 4.99,
  planId: 'plan_tr_1gb_7d',
  quantity: 1,
  createdAt: '2026-11-22T04:30:12.345Z',
  livemode: true,
};

export const orderExamples = {
  created: { ...summary, esims: [esim] },
  cancelled: { ...summary, status: 'REFUNDED', esims: [{ ...esim, status: 'CANCELLED' }] },
  detail: { ...summary, esims: [{ ...esim, dataUsageMb: 312, totalVolumeMb: 1024 }] },
  list: {
    orders: [summary, { ...summary, id: 'ord_2Jd9Fs6Gh1Qw3Er5Ty8U', orderNumber: 'SVC-API-261121-3MZ8R1PD' }],
    hasMore: true,
    nextCursor: 'WzE3OTU0MDk0NTIzNDUsIm9yZF8ySmQ5RnM2R2gxUXczRXI1VHk4VSJd.q3TzV8m1Xy0aBcD4eF5gH6',
  },
};

const autoTopUp = { enabled: true, planId: 'plan_sbx-tr-1gb-topup', whenPercentUsed: 80, maxPerMonth: 2 };
const esimDetail = { ...esim, status: 'ACTIVE', dataUsageMb: 312, totalVolumeMb: 1024, autoTopUp };

export const esimExamples = {
  detail: esimDetail,
  list: {
    esims: [esimDetail],
    hasMore: false,
    nextCursor: null,
  },
};

const MESSAGES: Partial<Record<ErrorCode, { message: string; details?: Record<string, unknown> }>> = {
  UNAUTHORIZED: { message: 'Missing or invalid API key' },
  VALIDATION_ERROR: {
    message: 'body.quantity must be <= 10',
    details: { issues: [{ field: 'quantity', message: 'must be <= 10' }] },
  },
  INSUFFICIENT_BALANCE: { message: 'Wallet balance is below the amount', details: { requiredUsd: 4.99 } },
  PLAN_NOT_FOUND: { message: 'Plan plan_xx does not exist or is not sold' },
  ORDER_NOT_FOUND: { message: 'Order not found' },
  COUNTRY_NOT_FOUND: { message: 'Destination not found' },
  ESIM_NOT_FOUND: { message: 'No test-mode eSIM of yours has this id or ICCID' },
  FORBIDDEN: { message: 'Test helpers need a test-mode key (svc_test_sk_…); this request used a live key' },
  NOT_FOUND: { message: 'Webhook endpoint not found' },
  INVALID_STATE: { message: 'An expired eSIM cannot be topped up' },
  CONFLICT: {
    message: 'An account can have at most 10 webhook endpoints; delete one first',
    details: { limit: 10 },
  },
  ORDER_NOT_CANCELLABLE: {
    message:
      'Only a completed eSIM order (not a top-up) whose eSIMs are unused can be cancelled; this one cannot. Ask support at support@example.com or https://api.example.com/support.',
    details: { supportEmail: 'support@example.com', supportUrl: 'https://api.example.com/support' },
  },
  ESIM_INSTALLED: {
    message:
      'An eSIM of this order was installed on a device, so the order cannot be cancelled. Ask support at support@example.com or https://api.example.com/support.',
    details: { supportEmail: 'support@example.com', supportUrl: 'https://api.example.com/support' },
  },
  ESIM_USED: {
    message:
      'An eSIM of this order has used data, so the order cannot be cancelled. Ask support at support@example.com or https://api.example.com/support.',
    details: { supportEmail: 'support@example.com', supportUrl: 'https://api.example.com/support' },
  },
  REFUND_WINDOW_PASSED: {
    message:
      'The order is older than the self-service refund window. Ask support at support@example.com or https://api.example.com/support.',
    details: { supportEmail: 'support@example.com', supportUrl: 'https://api.example.com/support' },
  },
  SELF_REFUND_LIMIT: {
    message:
      'The account reached its self-service refunds for the last 30 days. Ask support at support@example.com or https://api.example.com/support.',
    details: { supportEmail: 'support@example.com', supportUrl: 'https://api.example.com/support' },
  },
  CANCELLATION_PENDING: {
    message:
      'The eSIM provider did not confirm the cancellation yet; it is retried automatically and the refund reaches the wallet when it does.',
    details: { orderId: 'ord_8Hc3Kq1Wz5Ty7Lp2Nb4M' },
  },
  PROVIDER_ERROR: { message: 'The eSIM provider could not be asked; try again shortly' },
  IDEMPOTENCY_KEY_REUSED: { message: 'This Idempotency-Key was already used with a different request body' },
  IDEMPOTENCY_KEY_IN_USE: { message: 'A request with this Idempotency-Key is still running' },
  RATE_LIMITED: { message: 'Too many requests; retry in 42 s' },
  FULFILLMENT_FAILED: {
    message:
      'Payment was taken but the eSIM provider failed to issue the eSIM; it is retried automatically. Do not pay again.',
    details: { orderId: 'ord_8Hc3Kq1Wz5Ty7Lp2Nb4M' },
  },
  INTERNAL_ERROR: {
    message: 'Internal server error',
    details: { requestId: '6f1c2a9e-0b7d-4c1e-9a55-2d3f4e5a6b7c' },
  },
};

/** `{ error: { code, message, details? } }` for one error code. */
export function partnerError(code: ErrorCode): { error: Record<string, unknown> } {
  const entry = MESSAGES[code] ?? { message: code };
  return { error: { code, ...entry } };
}

/** A documented error response: the partner error shape with a description and examples. */
export function errorResponse(description: string, ...codes: ErrorCode[]) {
  return { ...PartnerErrorSchema, description, examples: codes.map(partnerError) };
}

/** Errors every partner route can answer. */
export const partnerCommonErrors = {
  401: errorResponse('Missing or unknown API key, or the account is not active', 'UNAUTHORIZED'),
  429: errorResponse('Rate limit exceeded; Retry-After gives the seconds to wait', 'RATE_LIMITED'),
  500: errorResponse('Unexpected failure; details.requestId identifies it in the logs', 'INTERNAL_ERROR'),
};
