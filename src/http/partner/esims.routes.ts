import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { PartnerEsimSchema, presentPartnerEsim } from '../shared/order-presenters.js';
import { PartnerErrorSchema } from '../shared/schemas.js';
import { errorResponse, orderExamples, partnerCommonErrors } from './openapi-examples.js';

/** Partner eSIMs: the hosted install page's link (issue 30 T2). */
export async function partnerEsimsRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { orders, config } = app.container;

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
        params: Type.Object({
          iccid: Type.String({
            minLength: 1,
            maxLength: 32,
            pattern: '^[0-9A-Za-z]+$',
            description: 'The eSIM’s ICCID',
          }),
        }),
        response: {
          200: {
            ...PartnerEsimSchema,
            description: 'The eSIM with its new installUrl',
            examples: [orderExamples.created.esims[0]],
          },
          400: errorResponse('iccid is not 1–32 letters and digits', 'VALIDATION_ERROR'),
          404: {
            ...PartnerErrorSchema,
            description: 'No eSIM of your Partner API orders in this mode has this ICCID',
            examples: [{ error: { code: 'ESIM_NOT_FOUND', message: 'No eSIM of yours has this ICCID' } }],
          },
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
