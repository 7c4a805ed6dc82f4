import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { installErrorHandling } from '../shared/errors.js';

const Token = Type.String({ maxLength: 256 });
const Received = Type.Object({ received: Type.Literal(true) });

/**
 * Inbound eSIM provider webhooks: `POST /webhooks/esim/<provider>/<token>` for every provider of
 * the registry, plus the aliases providers declare (`/webhooks/<alias>/<token>`, e.g. the URL
 * already registered at eSIM Access). The provider named verifies the request (token, sender
 * address, signature: its adapter's business, see src/providers/esim/types.ts) and reads the
 * body; the domain applies what it says (src/domain/events/esim-webhooks.ts). An unknown provider
 * and a wrong token both answer 404. Replays are no-ops.
 */
export async function inboundWebhooksSurface(app: FastifyInstance): Promise<void> {
  installErrorHandling(app, 'partner');
  const { esimWebhooks } = app.container;

  // Providers that sign their bodies verify the exact bytes: keep them beside the parsed JSON
  // (same parsing as the rest of the app, src/http/app.ts: an empty body is no body).
  const rawBodies = new WeakMap<FastifyRequest, Buffer>();
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const raw = body as Buffer;
    rawBodies.set(request, raw);
    if (raw.length === 0) return done(null, undefined);
    return parseJson(request, raw.toString('utf8'), done);
  });

  async function receive(provider: string, token: string, request: FastifyRequest) {
    const outcomes = await esimWebhooks.receive(
      provider,
      {
        token,
        peerAddress: request.ip,
        headers: request.headers,
        rawBody: rawBodies.get(request) ?? Buffer.alloc(0),
        body: request.body,
      },
      request.log,
    );
    request.log.info({ provider, outcomes }, 'eSIM provider notification');
    return { received: true as const };
  }

  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post(
    '/esim/:provider/:token',
    {
      schema: {
        hide: true,
        params: Type.Object({ provider: Type.String({ maxLength: 64 }), token: Token }),
        body: Type.Unknown(),
        response: { 200: Received },
      },
    },
    (request) => receive(request.params.provider, request.params.token, request),
  );
  for (const { alias, provider } of esimWebhooks.aliases()) {
    r.post(
      `/${alias}/:token`,
      {
        schema: {
          hide: true,
          params: Type.Object({ token: Token }),
          body: Type.Unknown(),
          response: { 200: Received },
        },
      },
      (request) => receive(provider, request.params.token, request),
    );
  }
}
