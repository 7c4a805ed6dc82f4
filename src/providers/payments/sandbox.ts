import { createHmac } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { sandboxPayments } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { randomBase62, safeEqual } from '../../lib/crypto.js';
import { centsToDecimalString } from '../../lib/money.js';
import { PaymentProviderError } from './errors.js';
import type {
  PaymentWebhookEvent,
  RefundInput,
  SandboxCardProvider,
  SandboxCryptoProvider,
  SandboxOutcome,
  SandboxSettlement,
  WebhookHeaders,
} from './types.js';

export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';
/** Same replay window as Stripe's default. */
const TOLERANCE_SECONDS = 300;

export interface SandboxDeps {
  db: Db;
  clock: Clock;
  /** The signing secret (SANDBOX_WEBHOOK_SECRET, else the generated one kept in the database). */
  webhookSecret: () => Promise<string>;
  publicBaseUrl: string;
}

type Kind = 'card' | 'crypto';

interface SandboxEventBody {
  id: string;
  type: string;
  data: { object: { id: string; reference: string; amountMinor: number; currency: string; status: string } };
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, the scheme Stripe uses. */
export function signSandboxPayload(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

async function verifySandboxSignature(
  deps: SandboxDeps,
  rawBody: Buffer,
  headers: WebhookHeaders,
): Promise<void> {
  const header = headers[SANDBOX_SIGNATURE_HEADER];
  if (typeof header !== 'string')
    throw new PaymentProviderError('invalid_signature', 'Missing Sandbox-Signature header');
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1)
    throw new PaymentProviderError('invalid_signature', 'Malformed signature header');
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  if (Math.abs(now - t) > TOLERANCE_SECONDS)
    throw new PaymentProviderError('invalid_signature', 'Signature timestamp too old');
  const expected = signSandboxPayload(await deps.webhookSecret(), rawBody.toString('utf8'), t);
  if (!safeEqual(expected, `t=${t},v1=${parts.v1}`))
    throw new PaymentProviderError('invalid_signature', 'Bad signature');
}

async function parseSandboxEvent(deps: SandboxDeps, kind: Kind, rawBody: Buffer, headers: WebhookHeaders) {
  await verifySandboxSignature(deps, rawBody, headers);
  const body = JSON.parse(rawBody.toString('utf8')) as SandboxEventBody;
  const object = body.data.object;
  const status =
    body.type === `${kind}.paid` ? 'paid' : body.type === `${kind}.cancelled` ? 'cancelled' : null;
  return {
    eventId: body.id,
    type: body.type,
    paymentId: object.reference,
    providerRef: object.id,
    status,
    amountMinor: object.amountMinor,
    currency: object.currency,
    payload: body,
  } satisfies PaymentWebhookEvent;
}

/** The sandbox's refund: the session is recorded as refunded (idempotent). */
function sandboxRefund(deps: SandboxDeps, kind: Kind) {
  return async (input: RefundInput) => {
    await deps.db
      .update(sandboxPayments)
      .set({ status: 'refunded', updatedAt: deps.clock.now() })
      .where(and(eq(sandboxPayments.id, input.providerRef), eq(sandboxPayments.kind, kind)));
    return { refundId: `re_sbx_${input.providerRef}` };
  };
}

function createSettlement(deps: SandboxDeps, kind: Kind): SandboxSettlement {
  const { db, clock } = deps;
  const find = async (id: string) =>
    (
      await db
        .select()
        .from(sandboxPayments)
        .where(and(eq(sandboxPayments.id, id), eq(sandboxPayments.kind, kind)))
    )[0];

  return {
    async view(id) {
      const row = await find(id);
      return row
        ? { id: row.id, amountMinor: row.amountMinor, currency: row.currency, status: row.status }
        : null;
    },

    async settle(id, outcome: SandboxOutcome) {
      // The first outcome wins; later calls re-send the event of the final state (like a
      // provider retrying its webhook), which the event id makes a no-op on our side.
      await db
        .update(sandboxPayments)
        .set({ status: outcome, updatedAt: clock.now() })
        .where(
          and(eq(sandboxPayments.id, id), eq(sandboxPayments.kind, kind), eq(sandboxPayments.status, 'open')),
        );
      const row = await find(id);
      if (!row) return null;
      const body: SandboxEventBody = {
        id: `evt_${row.id}_${row.status}`,
        type: `${kind}.${row.status}`,
        data: {
          object: {
            id: row.id,
            reference: row.reference,
            amountMinor: row.amountMinor,
            currency: row.currency,
            status: row.status,
          },
        },
      };
      const rawBody = JSON.stringify(body);
      const signature = signSandboxPayload(
        await deps.webhookSecret(),
        rawBody,
        Math.floor(clock.now().getTime() / 1000),
      );
      return {
        rawBody: Buffer.from(rawBody),
        headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
        redirectUrl: row.status === 'paid' ? row.successUrl : row.cancelUrl,
        status: row.status,
      };
    },
  };
}

async function insertSession(
  deps: SandboxDeps,
  kind: Kind,
  values: { reference: string; amountMinor: number; currency: string; successUrl: string; cancelUrl: string },
) {
  const id = `${kind === 'card' ? 'cs_sbx' : 'inv_sbx'}_${randomBase62(24)}`;
  const now = deps.clock.now();
  await deps.db
    .insert(sandboxPayments)
    .values({ id, kind, status: 'open', createdAt: now, updatedAt: now, ...values });
  return { id, url: `${deps.publicBaseUrl}/sandbox/${kind}/${id}`, now };
}

export function createSandboxCardProvider(deps: SandboxDeps): SandboxCardProvider {
  return {
    name: 'sandbox',
    ...createSettlement(deps, 'card'),
    async createSession(input) {
      const { id, url } = await insertSession(deps, 'card', {
        reference: input.paymentId,
        amountMinor: input.amountMinor,
        currency: input.currency,
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
      });
      return { sessionId: id, url };
    },
    parseWebhook: (rawBody, headers) => parseSandboxEvent(deps, 'card', rawBody, headers),
    refund: sandboxRefund(deps, 'card'),
  };
}

/** Invoice lifetime shown in the sandbox invoice, like Cryptomus' default. */
const INVOICE_LIFETIME_MS = 3600_000;

export function createSandboxCryptoProvider(deps: SandboxDeps): SandboxCryptoProvider {
  return {
    name: 'sandbox',
    ...createSettlement(deps, 'crypto'),
    async createInvoice(input) {
      const { id, url, now } = await insertSession(deps, 'crypto', {
        reference: input.paymentId,
        amountMinor: input.amountMinor,
        currency: input.currency,
        successUrl: input.successUrl,
        cancelUrl: input.returnUrl,
      });
      // Shaped like a Cryptomus invoice so clients can be written against either.
      const invoice = {
        uuid: id,
        order_id: input.paymentId,
        amount: centsToDecimalString(input.amountMinor),
        currency: input.currency,
        payment_status: 'check',
        url,
        is_final: false,
        expired_at: Math.floor((now.getTime() + INVOICE_LIFETIME_MS) / 1000),
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      };
      return { invoiceId: id, url, invoice };
    },
    parseWebhook: (rawBody, headers) => parseSandboxEvent(deps, 'crypto', rawBody, headers),
    refund: sandboxRefund(deps, 'crypto'),
  };
}
