import type { ErrorCode } from '../../domain/errors.js';

export type Surface = 'mobile' | 'partner' | 'admin' | 'root';

/**
 * The single table from domain error code to HTTP status. `mobile` overrides exist where the
 * specification reserves a status for the Partner API (402 is "Partner API only").
 */
const STATUS: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  INVALID_TOKEN: 400,
  INVALID_SIGNATURE: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  // 400, not 401: a wrong current password must not look like an expired session to the app.
  CURRENT_PASSWORD_INCORRECT: 400,
  INSUFFICIENT_BALANCE: 402,
  ACCOUNT_SUSPENDED: 403,
  CSRF_REJECTED: 403,
  FORBIDDEN: 403,
  ROLE_FORBIDDEN: 403,
  NOT_FOUND: 404,
  ACCOUNT_NOT_FOUND: 404,
  ORDER_NOT_FOUND: 404,
  COUNTRY_NOT_FOUND: 404,
  PLAN_NOT_FOUND: 404,
  ESIM_NOT_FOUND: 404,
  TICKET_NOT_FOUND: 404,
  PAYMENT_NOT_FOUND: 404,
  EMAIL_TAKEN: 409,
  WALLET_NOT_EMPTY: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  CONFLICT: 409,
  INVALID_STATE: 409,
  ORDER_NOT_CANCELLABLE: 409,
  ESIM_INSTALLED: 409,
  ESIM_USED: 409,
  REFUND_WINDOW_PASSED: 409,
  SELF_REFUND_LIMIT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  URI_TOO_LONG: 414,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  PROVIDER_ERROR: 502,
  FULFILLMENT_FAILED: 502,
  SERVICE_UNAVAILABLE: 503,
  // Not stored for Idempotency-Key replays (5xx other than 502): a retry drives it on.
  CANCELLATION_PENDING: 503,
};

const MOBILE_OVERRIDES: Partial<Record<ErrorCode, number>> = {
  // Mobile checkout with too little balance: a plain client error, not the partner-only 402.
  INSUFFICIENT_BALANCE: 400,
  // An unknown plan is invalid input for the Mobile API (decisions §5).
  PLAN_NOT_FOUND: 400,
};

export function statusFor(code: ErrorCode, surface: Surface): number {
  if (surface === 'mobile') return MOBILE_OVERRIDES[code] ?? STATUS[code];
  return STATUS[code];
}
