import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { LOCALES, type Locale } from '../../domain/catalog/countries.js';
import { planTitle } from '../../domain/catalog/plan-names.js';
import { iosInstallUrl, qrCodeUrl } from '../../domain/orders/esim-links.js';
import type { InstallPageView } from '../../domain/orders/install-links.js';
import { localeFromHeader } from '../shared/locale.js';
import { EsimStatus } from '../shared/order-presenters.js';
import { IsoDate, mobileErrors, Nullable } from '../shared/schemas.js';

/**
 * The hosted install page's data (issue 30 T2): `GET /api/v1/install/{token}`, public. It answers
 * what the page at `/install/<token>` shows and nothing else: no account, order or payment data,
 * not even the eSIM's or order's ids.
 */

const InstallPageSchema = Type.Object(
  {
    planId: Type.String(),
    planName: Type.String({ description: 'In the caller locale: "Türkiye · 1 GB · 7 gün"' }),
    iccid: Type.String(),
    status: EsimStatus,
    smdpAddress: Type.String({ description: 'SM-DP+ address, for manual entry' }),
    matchingId: Type.String({ description: 'Activation code, for manual entry' }),
    activationCode: Type.String({ description: 'LPA activation string LPA:1$<smdpAddress>$<matchingId>' }),
    qrCodeUrl: Type.String({ description: 'PNG of the activation string' }),
    qrCodeSvgUrl: Type.String(),
    iosInstallUrl: Type.String({ description: 'One-tap install link for iOS 17.4+' }),
    dataUsage: Type.Integer({
      description: 'MB used, read from the provider (reused for USAGE_CACHE_SECONDS)',
    }),
    totalVolume: Type.Integer({ description: 'MB included' }),
    activatedAt: Nullable(IsoDate),
    expiresAt: Nullable(IsoDate),
    topUpUrl: Nullable(
      Type.String({
        description:
          'The storefront page with this eSIM’s top-up plans (buying needs the owner’s login). null for ' +
          'an eSIM bought through the Partner API (its seller tops it up), a test eSIM, or one that ' +
          'expired or was cancelled',
      }),
    ),
    livemode: Type.Boolean({ description: 'false: a test-mode eSIM (sandbox profile, does not install)' }),
  },
  { title: 'InstallPage' },
);

function topUpUrl(view: InstallPageView, publicBaseUrl: string): string | null {
  const { esim, plan, channel } = view;
  if (!plan || channel !== 'mobile' || !esim.livemode) return null;
  if (esim.status === 'EXPIRED' || esim.status === 'CANCELLED') return null;
  return `${publicBaseUrl}/destinations/${plan.destinationCode}?iccid=${encodeURIComponent(esim.iccid)}`;
}

function presentInstallPage(
  view: InstallPageView,
  publicBaseUrl: string,
  locale: Locale,
): Static<typeof InstallPageSchema> {
  const { esim, plan } = view;
  return {
    planId: esim.planId,
    planName: plan ? planTitle(plan, locale) : esim.planId,
    iccid: esim.iccid,
    status: esim.status,
    smdpAddress: esim.smdpAddress,
    matchingId: esim.matchingId,
    activationCode: esim.activationCode,
    qrCodeUrl: qrCodeUrl(publicBaseUrl, esim.qrToken),
    qrCodeSvgUrl: qrCodeUrl(publicBaseUrl, esim.qrToken, 'svg'),
    iosInstallUrl: iosInstallUrl(esim.activationCode),
    dataUsage: esim.dataUsageMb,
    totalVolume: esim.totalVolumeMb,
    activatedAt: esim.activatedAt?.toISOString() ?? null,
    expiresAt: esim.expiresAt?.toISOString() ?? null,
    topUpUrl: topUpUrl(view, publicBaseUrl),
    livemode: esim.livemode,
  };
}

export async function installRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { orders, config } = app.container;

  r.get(
    '/install/:token',
    {
      config: { auth: 'none' },
      schema: {
        operationId: 'getInstallPage',
        tags: ['eSIMs'],
        summary: 'The hosted install page of an eSIM (public)',
        description:
          'What `/install/<token>` shows: how to install the eSIM (SM-DP+ address, activation code, LPA ' +
          'string, QR code, iOS one-tap link), its usage and a top-up link. The token of the eSIM’s ' +
          '`installUrl` is the only credential; a replaced or unknown token is 404.',
        params: Type.Object({ token: Type.String({ pattern: '^[A-Za-z0-9_-]{16,128}$' }) }),
        querystring: Type.Object({
          locale: Type.Optional(
            Type.Union(
              LOCALES.map((l) => Type.Literal(l)),
              { description: 'Language of planName; else Accept-Language, else en' },
            ),
          ),
        }),
        response: { 200: InstallPageSchema, ...mobileErrors(404) },
      },
    },
    async (request, reply) => {
      const view = await orders.installPage(request.params.token);
      const locale = request.query.locale ?? localeFromHeader(request.headers['accept-language']) ?? 'en';
      // Activation data behind a capability URL: no cache may keep it past a replaced link.
      reply.header('cache-control', 'no-store');
      return presentInstallPage(view, config.publicBaseUrl, locale);
    },
  );
}
