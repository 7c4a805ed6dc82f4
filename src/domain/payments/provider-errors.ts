import { isPaymentProviderError } from '../../providers/payments/errors.js';
import { AppError } from '../errors.js';

/**
 * The payment providers' errors in the domain's terms. `operation` matters only for a switched-off
 * method: creating a payment is 503 SERVICE_UNAVAILABLE, its webhook route does not exist (404).
 * Anything that is not a PaymentProviderError is returned unchanged.
 */
export function paymentProviderFailure(error: unknown, operation: 'create' | 'webhook'): unknown {
  if (!isPaymentProviderError(error)) return error;
  switch (error.kind) {
    case 'invalid_signature':
      return new AppError('INVALID_SIGNATURE', error.message, error.details);
    case 'unavailable':
      return new AppError('PROVIDER_ERROR', error.message, error.details);
    case 'switched_off':
      return new AppError(operation === 'create' ? 'SERVICE_UNAVAILABLE' : 'NOT_FOUND', error.message);
  }
}
