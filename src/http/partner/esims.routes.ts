import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { EsimWithAutoTopUp } from '../../domain/autotopup/autotopup.service.js';
import type { EsimRow } from '../../domain/orders/orders.service.js';
import { AutoTopUpPatchSchema, PartnerEsimSchema, presentPartnerEsim } from '../shared/order-presenters.js';
import { defineList, NextCursorSchema, pageQuery } from '../shared/pagination.js';
import { PartnerErrorSchema } from '../shared/schemas.js';
import { errorResponse, esimExamples, orderExamples, partnerCommonErrors } from './openapi-examples.js';

/** Newest first on esims_account_list_idx; pages of 25 by default, as GET /orders. */
const partnerEsimList = defineList<EsimRow>({
  list: 'partner.esims',
  key: ['date', 'string'],
  keyOf: (e) => [e.createdAt, e.id],
  unpagedLimit: 25,
});

const IccidParams = Type.Object({
  iccid: Type.String({
    minLength: 1,
    maxLength: 32,
    pattern: '^[0-9A-Za-z]+$',
    description: 'The eSIM’s ICCID',
  }),
});

const EsimListSchema = Type.Object(
  {
    esims: Type.Array(PartnerEsimSchema),
    hasMore: Type.Boolean({
      description: 'True when another page follows (its address is in the Link header and nextCursor)',
    }),
    nextCursor: Type.Optional(NextCursorSchema),
  },
  { title: 'PartnerEsimList', examples: [esimExamples.list] },
);

const notFound = {
  ...PartnerErrorSchema,
  description: 'No eSIM of your Partner API orders in this mode has this ICCID',
  examples: [{ error: { code: 'ESIM_NOT_FOUND', message: 'No eSIM of yours has this ICCID' } }],
};

/**
 * Partner eSIMs: the list and one eSIM with usage and auto top-up settings (issue 31 L5), the
 * auto top-up settings, and the hosted install page's link (issue 30 T2).
 */
export async function partnerEsimsRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { orders, config, autoTopUp } = app.container;
  const present = ({ esim, autoTopUp: settings }: EsimWithAutoTopUp) => ({
    ...presentPartnerEsim(esim, config.publicBaseUrl, true),
    autoTopUp: settings,
  });

  typed.get(
    '/esims',
    {
      schema: {
        operationId: 'listEsims',
        tags: ['eSIMs'],
        summary: 'List eSIMs',
        description:
          'The eSIMs of your Partner API orders in the key’s mode, newest first, with usage (read from the ' +
          'provider for the page, reused for USAGE_CACHE_SECONDS) and auto top-up settings, in pages of ' +
          '`limit` (default 25, max 100); the next page is in the `Link` header and `nextCursor`.',
        querystring: pageQuery({}),
        response: {
          200: EsimListSchema,
          400: errorResponse(
            'limit outside 1–100, or a cursor that is not one of this list',
            'VALIDATION_ERROR',
          ),
          ...partnerCommonErrors,
        },
      },
    },
    async (request, reply) => {
      const accountId = request.partner!.id;
      const page = partnerEsimList.plan([accountId, request.livemode], request.query);
      const rows = await orders.listEsims(
        accountId,
        request.livemode,
        { limit: page.take, after: page.after },
        'partner',
      );
      const { items, nextCursor } = page.finish(request, reply, rows);
      const list = await autoTopUp.withSettings(await orders.refreshUsage(items));
      return {
        esims: list.map(present),
        hasMore: nextCursor !== null,
        ...(page.paged ? { nextCursor } : {}),
      };
    },
  );

  typed.get(
    '/esims/:iccid',
    {
      schema: {
        operationId: 'getEsim',
        tags: ['eSIMs'],
        summary: 'Get an eSIM',
        description:
          'One eSIM of your Partner API orders (the newest with this ICCID, in the key’s mode) with fresh ' +
          'usage and its auto top-up settings.',
        params: IccidParams,
        response: {
          200: { ...PartnerEsimSchema, examples: [esimExamples.detail] },
          400: errorResponse('iccid is not 1–32 letters and digits', 'VALIDATION_ERROR'),
          404: notFound,
          ...partnerCommonErrors,
        },
      },
    },
    async (request) =>
      present(
        await autoTopUp.get(
          { accountId: request.partner!.id, livemode: request.livemode, channel: 'partner' },
          request.params.iccid,
        ),
      ),
  );

  typed.patch(
    '/esims/:iccid',
    {
      schema: {
        operationId: 'updateEsim',
        tags: ['eSIMs'],
        summary: 'Change an eSIM’s auto top-up',
        description:
          'Sets any of `autoTopUp` (the rest is kept): when the eSIM’s usage crosses `whenPercentUsed` ' +
          '(50–100, default 80) the top-up plan `planId` is bought from the wallet (the test wallet for a ' +
          'test key) once per crossing, at most `maxPerMonth` (1–10, default 2) a calendar month (UTC). The ' +
          'added data re-arms it. Outcomes: events esim.auto_topup_succeeded / esim.auto_topup_failed. ' +
          '`planId` must be a top-up plan of the eSIM’s destination (GET /destinations/{code}, isTopUp).',
        params: IccidParams,
        body: AutoTopUpPatchSchema,
        response: {
          200: { ...PartnerEsimSchema, examples: [esimExamples.detail] },
          400: errorResponse(
            'A value out of range, enabling without planId, or a planId that is not a top-up plan for this eSIM',
            'VALIDATION_ERROR',
          ),
          404: notFound,
          409: errorResponse('The eSIM expired or was cancelled: it cannot be topped up', 'INVALID_STATE'),
          ...partnerCommonErrors,
        },
      },
    },
    async (request) => {
      const owner = {
        accountId: request.partner!.id,
        livemode: request.livemode,
        channel: 'partner' as const,
      };
      const updated = await autoTopUp.update(owner, request.params.iccid, request.body.autoTopUp);
      return present(updated);
    },
  );

  typed.post(
    '/esims/:iccid/install-link',
    {
      schema: {
        operationId: 'replaceEsimInstallLink',
        tags: ['eSIMs'],
        summary: 'Replace the install page link of an eSIM',
        description:
          'Gives one of your eSIMs a new `installUrl` (the hosted install page you can share with the ' +
          'traveller) and makes the previous link answer 404 at once: use it when a link reached the ' +
          'wrong person. Only eSIMs of your Partner API orders, of the key’s mode (a test key sees test ' +
          'eSIMs only). No body. Spends the read budget.',
        params: IccidParams,
        response: {
          200: {
            ...PartnerEsimSchema,
            description: 'The eSIM with its new installUrl',
            examples: [orderExamples.created.esims[0]],
          },
          400: errorResponse('iccid is not 1–32 letters and digits', 'VALIDATION_ERROR'),
          404: notFound,
          ...partnerCommonErrors,
        },
      },
    },
    async (request) => {
      const esim = await orders.replaceInstallLink(
        // The account's web orders are not the Partner API's to show (as GET /orders/{id}).
        { accountId: request.partner!.id, livemode: request.livemode, channel: 'partner' },
        request.params.iccid,
      );
      return presentPartnerEsim(esim, config.publicBaseUrl);
    },
  );
}
