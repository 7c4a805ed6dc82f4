import { createHash } from 'node:crypto';
import { safeEqual } from '../../lib/crypto.js';
import { centsToDecimalString, parseDecimalToCents } from '../../lib/money.js';
import { PaymentProviderError } from './errors.js';
import type { CryptoInvoice, CryptoProvider, PaymentEventStatus, PaymentWebhookEvent } from './types.js';

export interface CryptomusOptions {
  merchantId: string;
  apiKey: string;
  baseUrl: string;
}

const REQUEST_TIMEOUT_MS = 20_000;

/** `md5(base64(body) + apiKey)`: the request and the webhook signature of Cryptomus. */
export function cryptomusSign(body: string, apiKey: string): string {
  return createHash('md5')
    .update(Buffer.from(body, 'utf8').toString('base64') + apiKey)
    .digest('hex');
}

/**
 * Re-encodes a webhook body the way PHP's `json_encode($data, JSON_UNESCAPED_UNICODE)` does, which
 * is what Cryptomus signs: received key order, unicode unescaped, and `/` escaped as `\/`.
 */
export function phpJsonEncode(value: unknown): string {
  return JSON.stringify(value).replace(/\//g, '\\/');
}

/** `paid`/`paid_over` are money received; `cancel` is an expired invoice; other states are only recorded. */
function statusOf(status: unknown, isFinal: unknown): PaymentEventStatus {
  if (status === 'paid' || status === 'paid_over') return 'paid';
  if (status === 'cancel') return 'cancelled';
  if ((status === 'fail' || status === 'system_fail') && isFinal === true) return 'failed';
  return null;
}

export function createCryptomusProvider(options: CryptomusOptions): CryptoProvider {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');

  async function post(path: string, payload: Record<string, unknown>): Promise<Record<string, unknown>> {
    const body = JSON.stringify(payload);
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          merchant: options.merchantId,
          sign: cryptomusSign(body, options.apiKey),
        },
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new PaymentProviderError('unavailable', 'Crypto payment provider unreachable', {
        provider: 'cryptomus',
        cause: error instanceof Error ? error.message : String(error),
      });
    }
    const json = (await response.json().catch(() => null)) as { state?: number; result?: unknown } | null;
    if (!response.ok || json?.state !== 0 || typeof json.result !== 'object' || json.result === null) {
      throw new PaymentProviderError('unavailable', 'Crypto payment provider refused the request', {
        provider: 'cryptomus',
        status: response.status,
      });
    }
    return json.result as Record<string, unknown>;
  }

  return {
    name: 'cryptomus',

    async createInvoice(input): Promise<CryptoInvoice> {
      // order_id is our payment id: Cryptomus answers a repeated order_id with the existing
      // invoice, so a retried create never opens a second invoice.
      const result = await post('/v1/payment', {
        amount: centsToDecimalString(input.amountMinor),
        currency: input.currency,
        order_id: input.paymentId,
        url_return: input.returnUrl,
        url_success: input.successUrl,
        url_callback: input.callbackUrl,
        additional_data: JSON.stringify({ accountId: input.accountId, purpose: input.purpose }),
      });
      if (typeof result.url !== 'string' || typeof result.uuid !== 'string') {
        throw new PaymentProviderError(
          'unavailable',
          'Crypto payment provider returned an invoice without url',
          {
            provider: 'cryptomus',
          },
        );
      }
      return { invoiceId: result.uuid, url: result.url, invoice: { ...result, url: result.url } };
    },

    parseWebhook(rawBody): PaymentWebhookEvent {
      let data: Record<string, unknown>;
      try {
        data = JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>;
      } catch {
        throw new PaymentProviderError('invalid_signature', 'Webhook body is not JSON');
      }
      if (typeof data !== 'object' || data === null || typeof data.sign !== 'string') {
        throw new PaymentProviderError('invalid_signature', 'Webhook body carries no sign');
      }
      const { sign, ...unsigned } = data;
      if (!safeEqual(cryptomusSign(phpJsonEncode(unsigned), options.apiKey), sign)) {
        throw new PaymentProviderError('invalid_signature', 'Cryptomus signature verification failed');
      }
      const uuid = typeof data.uuid === 'string' ? data.uuid : null;
      const amount = typeof data.amount === 'string' ? parseDecimalToCents(data.amount) : null;
      return {
        // Cryptomus has no event id; one invoice reaches each status once.
        eventId: `${uuid ?? 'unknown'}:${String(data.status)}`,
        type: `payment.${String(data.status)}`,
        paymentId: typeof data.order_id === 'string' ? data.order_id : null,
        providerRef: uuid,
        status: statusOf(data.status, data.is_final),
        amountMinor: amount,
        currency: typeof data.currency === 'string' ? data.currency.toUpperCase() : null,
        payload: data,
      };
    },
  };
}
