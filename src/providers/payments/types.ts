/**
 * Hosted payment providers (card checkout sessions, crypto invoices). Adapters translate one
 * provider's protocol into these shapes; the payments service never sees provider specifics.
 */

export type PaymentPurpose = 'topup' | 'order';

/**
 * What a verified provider event means for our payment. `null`: nothing to change (recorded
 * only), for example a Stripe `completed` that is still unpaid or a Cryptomus `confirm_check`.
 */
export type PaymentEventStatus = 'paid' | 'cancelled' | 'expired' | 'failed' | null;

export interface PaymentWebhookEvent {
  /** Unique per provider event; a second delivery with the same id is a replay. */
  eventId: string;
  type: string;
  /** Our payment id as echoed by the provider (client_reference_id, order_id), when present. */
  paymentId: string | null;
  /** The provider's id of the session or invoice. */
  providerRef: string | null;
  status: PaymentEventStatus;
  /** Amount of the session or invoice in minor units of `currency`, when the event carries it. */
  amountMinor: number | null;
  currency: string | null;
  /** The provider's id of the captured payment, when the event names it (Stripe: payment_intent). */
  chargeRef?: string | null;
  payload: unknown;
}

export interface RefundInput {
  paymentId: string;
  /** The session or invoice id (`providerRef`). */
  providerRef: string;
  chargeRef: string | null;
  amountMinor: number;
  currency: string;
}

export type WebhookHeaders = Record<string, string | string[] | undefined>;

interface WebhookParser {
  readonly name: string;
  /**
   * Hands a captured payment back to the payer, idempotently per payment. Absent when the
   * provider cannot refund through its API (Cryptomus): an operator does it.
   */
  refund?(input: RefundInput): Promise<{ refundId: string }>;
  /** Verifies the signature over the exact raw body; throws PaymentProviderError `invalid_signature` otherwise. */
  parseWebhook(rawBody: Buffer, headers: WebhookHeaders): PaymentWebhookEvent | Promise<PaymentWebhookEvent>;
}

export interface CreateCardSessionInput {
  paymentId: string;
  accountId: string;
  purpose: PaymentPurpose;
  amountMinor: number;
  currency: string;
  description: string;
  successUrl: string;
  cancelUrl: string;
}

export interface CardSession {
  sessionId: string;
  url: string;
}

export interface CardProvider extends WebhookParser {
  createSession(input: CreateCardSessionInput): Promise<CardSession>;
}

export interface CreateCryptoInvoiceInput {
  paymentId: string;
  accountId: string;
  purpose: PaymentPurpose;
  /** Minor units of `currency` (USD cents). */
  amountMinor: number;
  currency: string;
  returnUrl: string;
  successUrl: string;
  callbackUrl: string;
}

export interface CryptoInvoice {
  invoiceId: string;
  url: string;
  /** The provider's invoice object as returned to the client (contains `url`). */
  invoice: Record<string, unknown> & { url: string };
}

export interface CryptoProvider extends WebhookParser {
  createInvoice(input: CreateCryptoInvoiceInput): Promise<CryptoInvoice>;
}

export type SandboxOutcome = 'paid' | 'cancelled';

export interface SandboxView {
  id: string;
  amountMinor: number;
  currency: string;
  status: string;
}

/** The built-in sandbox providers also act as the hosted page and as the webhook sender. */
export interface SandboxSettlement {
  view(id: string): Promise<SandboxView | null>;
  /**
   * Settles the session once (the first outcome wins) and returns the signed webhook of its
   * final state, which the caller delivers to the normal webhook handler, plus where to redirect.
   */
  settle(
    id: string,
    outcome: SandboxOutcome,
  ): Promise<{ rawBody: Buffer; headers: WebhookHeaders; redirectUrl: string | null; status: string } | null>;
}

export type SandboxCardProvider = CardProvider & SandboxSettlement;
export type SandboxCryptoProvider = CryptoProvider & SandboxSettlement;
