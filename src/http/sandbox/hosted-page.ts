import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { PaymentMethod } from '../../domain/payments/settlement.js';
import type { SandboxView } from '../../providers/payments/types.js';
import { centsToDecimalString } from '../../lib/money.js';
import { partnerErrors } from '../shared/schemas.js';
import { forbidFraming } from '../shared/security.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function renderPage(method: PaymentMethod, view: SandboxView): string {
  const title = method === 'card' ? 'Sandbox card payment' : 'Sandbox crypto invoice';
  const amount = `${centsToDecimalString(view.amountMinor)} ${escapeHtml(view.currency)}`;
  const id = escapeHtml(view.id);
  const button = (outcome: string, label: string) =>
    `<form method="post" action="${id}/complete"><input type="hidden" name="outcome" value="${outcome}"><button type="submit">${label}</button></form>`;
  const actions =
    view.status === 'open'
      ? `${button('paid', 'Pay')}${button('cancelled', 'Cancel')}`
      : `<p>This payment is already <strong>${escapeHtml(view.status)}</strong>.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}form{display:inline-block;margin-right:.5rem}button{font-size:1.1rem;padding:.5rem 1.5rem}</style>
</head><body>
<h1>${title}</h1>
<p>No real money moves: this page stands in for the provider's hosted page.</p>
<p>Amount: <strong data-amount>${amount}</strong></p>
<p>Reference: <code>${id}</code></p>
${actions}
</body></html>`;
}

/** GET /sandbox/{method}/:id and POST /sandbox/{method}/:id/complete (decisions §6). */
export function sandboxPaymentPages(method: PaymentMethod) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const { config, payments } = app.container;
    if ((method === 'card' ? config.cardProvider : config.cryptoProvider) !== 'sandbox') return;
    await app.register(formbody);
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['Sandbox'];
    const params = Type.Object({ id: Type.String({ maxLength: 100 }) });

    r.get(
      `/${method}/:id`,
      {
        schema: {
          tags,
          summary: `Sandbox hosted ${method} payment page`,
          description: 'HTML page with the amount and Pay / Cancel buttons.',
          params,
          response: { 200: Type.String({ description: 'text/html' }), ...partnerErrors(404) },
        },
      },
      async (request, reply) => {
        const view = await payments.sandboxView(method, request.params.id);
        return forbidFraming(reply).type('text/html; charset=utf-8').send(renderPage(method, view));
      },
    );

    r.post(
      `/${method}/:id/complete`,
      {
        schema: {
          tags,
          summary: `Settle a sandbox ${method} payment`,
          description:
            'JSON or form body. The first outcome wins; it is delivered as a signed webhook through the normal webhook code, then 303 to successUrl (paid) or cancelUrl. Repeating it redirects again without a second credit.',
          params,
          body: Type.Object({ outcome: Type.Union([Type.Literal('paid'), Type.Literal('cancelled')]) }),
          response: {
            303: Type.Null({ description: 'Location: successUrl or cancelUrl' }),
            ...partnerErrors(404),
          },
        },
      },
      async (request, reply) => {
        const { redirectUrl } = await payments.completeSandbox(
          method,
          request.params.id,
          request.body.outcome,
        );
        return reply.redirect(redirectUrl, 303);
      },
    );
  };
}
