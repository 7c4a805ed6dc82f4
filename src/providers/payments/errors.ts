/**
 * The payment providers' own error: adapters throw it and the payments service maps it to its
 * own error codes (provider-errors.ts of the payments area), so providers import nothing from
 * the domain.
 *
 * - `invalid_signature`: a webhook whose signature, timestamp or body does not verify (nothing is
 *   stored; the caller answers 400 INVALID_SIGNATURE);
 * - `unavailable`: the provider could not be reached, refused the request or answered something
 *   unusable (502 PROVIDER_ERROR; the payment is marked failed);
 * - `switched_off`: the method is configured `off` (creating a payment is 503, its webhook 404).
 */
export type PaymentProviderErrorKind = 'invalid_signature' | 'unavailable' | 'switched_off';

export class PaymentProviderError extends Error {
  readonly kind: PaymentProviderErrorKind;
  /** Safe to log and to show to an operator: provider name, HTTP status, cause message. */
  readonly details: Record<string, unknown> | undefined;

  constructor(kind: PaymentProviderErrorKind, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'PaymentProviderError';
    this.kind = kind;
    this.details = details;
  }
}

export function isPaymentProviderError(error: unknown): error is PaymentProviderError {
  return error instanceof PaymentProviderError;
}
