import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import { AppError } from '../../domain/errors.js';
import type { EsimRow } from '../../domain/orders/orders.service.js';
import type { EsimWithAutoTopUp } from '../../domain/autotopup/autotopup.service.js';
import { AutoTopUpPatchSchema, MobileEsimSchema, presentMobileEsim } from '../shared/order-presenters.js';
import { defineList, NextCursorSchema, pageQuery } from '../shared/pagination.js';
import { callerLocale } from '../shared/locale.js';
import { mobileErrors } from '../shared/schemas.js';
import { qrPng } from '../../lib/qr-png.js';

/** QR images never change for a token, but they are personal: cache only in the user's client. */
const QR_CACHE_CONTROL = 'private, max-age=86400';

/** Newest first on esims_account_list_idx; unpaged without limit/cursor (specification §4.4). */
const esimList = defineList<EsimRow>({
  list: 'mobile.esims',
  key: ['date', 'string'],
  keyOf: (e) => [e.createdAt, e.id],
});

export async function esimsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { orders, config, catalog, autoTopUp } = app.container;
  const namesFor = (request: FastifyRequest, list: EsimRow[]) =>
    catalog.planNames(
      list.map((e) => e.planId),
      callerLocale(request),
    );
  /** eSIMs with their auto top-up settings (issue 31 L5), named in the caller's language. */
  async function presentAll(request: FastifyRequest, list: EsimWithAutoTopUp[]) {
    const names = await namesFor(
      request,
      list.map((e) => e.esim),
    );
    return list.map((e) => presentMobileEsim(e.esim, config.publicBaseUrl, names, e.autoTopUp));
  }

  r.get(
    '/user/esims',
    {
      schema: {
        operationId: 'listEsims',
        tags: ['eSIMs'],
        summary: 'All my eSIMs',
        description: `The eSIMs of orders placed in the app or on the web, newest first; those of Partner API orders (SVC-API-…) are the partner dashboard's, never listed here. Usage (dataUsage/totalVolume in MB) is read from the provider and reused for USAGE_CACHE_SECONDS (${config.usageCacheSeconds} s). Every eSIM without \`limit\` and \`cursor\`; with them one page, the next in the \`Link\` header and \`nextCursor\`.`,
        querystring: pageQuery({
          channel: Type.Optional(
            Type.Literal('web', {
              description:
                'web (the only value, kept for older clients): eSIMs of orders placed in the app or on the web',
            }),
          ),
        }),
        response: {
          200: Type.Object({
            esims: Type.Array(MobileEsimSchema),
            nextCursor: Type.Optional(NextCursorSchema),
          }),
          ...mobileErrors(401, 403),
        },
      },
    },
    async (request, reply) => {
      const accountId = request.auth!.account.id;
      // Web purchases only (issue 32 C7): Partner API eSIMs belong to the partner dashboard.
      const page = esimList.plan([accountId, 'web'], request.query);
      const rows = await orders.listEsims(accountId, true, { limit: page.take, after: page.after }, 'mobile');
      const { items, nextCursor } = page.finish(request, reply, rows);
      // Usage is refreshed for the page only: a long history does not mean more provider calls.
      const list = await autoTopUp.withSettings(await orders.refreshUsage(items));
      return {
        esims: await presentAll(request, list),
        ...(page.paged ? { nextCursor } : {}),
      };
    },
  );

  const iccidParams = Type.Object({
    iccid: Type.String({
      minLength: 1,
      maxLength: 32,
      pattern: '^[0-9A-Za-z]+$',
      description: 'The eSIM’s ICCID',
    }),
  });
  // The account's own eSIMs, whichever channel they were bought through; live ones only (test-mode
  // eSIMs belong to the Partner API's test keys).
  const owner = (accountId: string) => ({ accountId, livemode: true });

  r.get(
    '/user/esims/:iccid',
    {
      schema: {
        operationId: 'getEsim',
        tags: ['eSIMs'],
        summary: 'One of my eSIMs, by ICCID',
        description:
          'The eSIM (the newest of yours with this ICCID) with usage, as in the list. Another account’s ICCID is 404.',
        params: iccidParams,
        response: { 200: Type.Object({ esim: MobileEsimSchema }), ...mobileErrors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const found = await autoTopUp.get(owner(request.auth!.account.id), request.params.iccid);
      // It carries the install page's capability URL: never kept by a shared cache.
      reply.header('cache-control', 'no-store');
      const [esim] = await presentAll(request, [found]);
      return { esim: esim! };
    },
  );

  r.patch(
    '/user/esims/:iccid',
    {
      schema: {
        operationId: 'updateEsim',
        tags: ['eSIMs'],
        summary: 'Change the auto top-up of one of my eSIMs',
        description:
          'Sets any of `autoTopUp` (the rest is kept). When the eSIM’s usage crosses `whenPercentUsed` ' +
          '(50–100 %, default 80) the top-up plan `planId` is bought from the wallet once per crossing, at ' +
          'most `maxPerMonth` (1–10, default 2) a calendar month (UTC); the added data re-arms it. You are ' +
          'told by push and e-mail whether it worked. `planId` must be a top-up plan of the eSIM’s ' +
          'destination (GET /destinations/{code}, isTopUp). 400 for values out of range or a plan that ' +
          'cannot top up this eSIM, 409 INVALID_STATE to enable it on an expired or cancelled eSIM.',
        params: iccidParams,
        body: AutoTopUpPatchSchema,
        response: { 200: Type.Object({ esim: MobileEsimSchema }), ...mobileErrors(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const updated = await autoTopUp.update(
        owner(request.auth!.account.id),
        request.params.iccid,
        request.body.autoTopUp,
      );
      reply.header('cache-control', 'no-store');
      const [esim] = await presentAll(request, [updated]);
      return { esim: esim! };
    },
  );

  r.post(
    '/user/esims/:iccid/install-link',
    {
      schema: {
        operationId: 'replaceEsimInstallLink',
        tags: ['eSIMs'],
        summary: 'Replace the install page link of one of my eSIMs',
        description:
          'Gives the eSIM a new installUrl; the previous link stops working at once (its page answers ' +
          '404). Use it when a link was shared with the wrong person. No body.',
        params: iccidParams,
        response: { 200: Type.Object({ esim: MobileEsimSchema }), ...mobileErrors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const esim = await orders.replaceInstallLink(owner(request.auth!.account.id), request.params.iccid);
      reply.header('cache-control', 'no-store');
      const [presented] = await presentAll(request, await autoTopUp.withSettings([esim]));
      return { esim: presented! };
    },
  );

  const params = Type.Object({ qrToken: Type.String({ pattern: '^[A-Za-z0-9_-]{16,128}$' }) });
  async function lpaFor(qrToken: string): Promise<string> {
    const esim = await orders.findEsimByQrToken(qrToken);
    if (!esim) throw new AppError('ESIM_NOT_FOUND', 'No eSIM behind this QR code URL');
    return esim.activationCode;
  }
  const send = (reply: FastifyReply, type: string, body: string | Buffer) =>
    reply.header('cache-control', QR_CACHE_CONTROL).type(type).send(body);

  r.get(
    '/esims/:qrToken/qr.png',
    {
      config: { auth: 'none' },
      schema: {
        operationId: 'getQrCodePng',
        tags: ['eSIMs'],
        summary: 'QR code (PNG) of an eSIM activation code',
        description: 'The unguessable token in the path is the credential; this is the eSIM qrCodeUrl.',
        params,
        response: { 200: Type.Any({ description: 'image/png' }), ...mobileErrors(404) },
      },
    },
    async (request, reply) => {
      const png = qrPng(await lpaFor(request.params.qrToken), 512);
      return send(reply, 'image/png', png);
    },
  );

  r.get(
    '/esims/:qrToken/qr.svg',
    {
      config: { auth: 'none' },
      schema: {
        operationId: 'getQrCodeSvg',
        tags: ['eSIMs'],
        summary: 'QR code (SVG) of an eSIM activation code',
        params,
        response: { 200: Type.Any({ description: 'image/svg+xml' }), ...mobileErrors(404) },
      },
    },
    async (request, reply) => {
      const svg = await QRCode.toString(await lpaFor(request.params.qrToken), {
        type: 'svg',
        errorCorrectionLevel: 'M',
        margin: 2,
      });
      return send(reply, 'image/svg+xml; charset=utf-8', svg);
    },
  );
}
