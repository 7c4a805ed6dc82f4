/**
 * Domain errors carry a stable code and no HTTP status. The single code → status table lives in
 * src/http/shared/error-map.ts; each surface wraps the result in its own error shape.
 */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'UNAUTHORIZED'
  | 'INVALID_CREDENTIALS'
  | 'CURRENT_PASSWORD_INCORRECT'
  | 'ACCOUNT_SUSPENDED'
  | 'CSRF_REJECTED'
  | 'FORBIDDEN'
  /** A partner's team member whose role does not allow the action (issue 32 C4). */
  | 'ROLE_FORBIDDEN'
  | 'NOT_FOUND'
  | 'ACCOUNT_NOT_FOUND'
  | 'ORDER_NOT_FOUND'
  | 'COUNTRY_NOT_FOUND'
  | 'PLAN_NOT_FOUND'
  | 'ESIM_NOT_FOUND'
  | 'TICKET_NOT_FOUND'
  | 'PAYMENT_NOT_FOUND'
  | 'EMAIL_TAKEN'
  | 'WALLET_NOT_EMPTY'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'IDEMPOTENCY_KEY_IN_USE'
  | 'CONFLICT'
  | 'INVALID_STATE'
  | 'ORDER_NOT_CANCELLABLE'
  | 'ESIM_INSTALLED'
  | 'ESIM_USED'
  | 'REFUND_WINDOW_PASSED'
  | 'SELF_REFUND_LIMIT'
  | 'CANCELLATION_PENDING'
  | 'INSUFFICIENT_BALANCE'
  | 'INVALID_TOKEN'
  | 'INVALID_SIGNATURE'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'URI_TOO_LONG'
  | 'HEADERS_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'PROVIDER_ERROR'
  | 'FULFILLMENT_FAILED'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL_ERROR';

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  /** Extra response headers (for example Retry-After) the surface should send. */
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message?: string,
    details?: Record<string, unknown>,
    headers?: Record<string, string>,
  ) {
    super(message ?? code);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
