import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import ipaddr from 'ipaddr.js';
import { AppError } from '../../domain/errors.js';
import { safeEqual } from '../../lib/crypto.js';
import { installErrorHandling } from '../shared/errors.js';

/** `::ffff:1.2.3.4` and `1.2.3.4` are one peer. */
function normalizeIp(ip: string): string | null {
  if (!ipaddr.isValid(ip)) return null;
  return ipaddr.process(ip).toNormalizedString();
}

/**
 * Inbound eSIM provider webhooks, `/webhooks/esimaccess/<ESIMACCESS_WEBHOOK_TOKEN>`.
 *
 * eSIM Access signs nothing; it documents only the addresses it sends from. So the URL carries a
 * secret token (compared in constant time; the route is absent while the token is unset) and,
 * when ESIMACCESS_WEBHOOK_IPS is set, the client address must be one of those. That address is
 * request.ip: the TCP peer, or, under TRUST_PROXY (then a list of proxy addresses: config refuses
 * true and hop counts beside the allow-list), the address the trusted proxies forwarded, because
 * behind a load balancer the peer is always the balancer. Replays are no-ops (notifyId, see
 * src/domain/events/provider-notifications.ts).
 */
export async function inboundWebhooksSurface(app: FastifyInstance): Promise<void> {
  installErrorHandling(app, 'partner');
  const { config, providerNotifications } = app.container;
  const token = config.webhooks.esimAccessToken;
  const allowed = new Set(
    config.webhooks.esimAccessAllowedIps.map(normalizeIp).filter((ip): ip is string => ip !== null),
  );

  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/esimaccess/:token',
    {
      schema: {
        hide: true,
        params: Type.Object({ token: Type.String({ maxLength: 256 }) }),
        body: Type.Unknown(),
        response: { 200: Type.Object({ received: Type.Literal(true) }) },
      },
    },
    async (request) => {
      // Same answer for "no token configured" and "wrong token": the path does not exist.
      if (!token || !safeEqual(request.params.token, token))
        throw new AppError('NOT_FOUND', 'Route not found');
      if (allowed.size > 0 && !allowed.has(normalizeIp(request.ip) ?? '')) {
        request.log.warn(
          { ip: request.ip },
          'eSIM Access webhook from an address not in ESIMACCESS_WEBHOOK_IPS',
        );
        throw new AppError('FORBIDDEN', 'Address not allowed');
      }
      const outcome = await providerNotifications.apply('esimaccess', request.body);
      request.log.info({ outcome }, 'eSIM Access notification');
      return { received: true as const };
    },
  );
}
