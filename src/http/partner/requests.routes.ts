import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { RequestLogListSchema, RequestLogQuery, requestLogPage } from '../shared/request-log.js';
import { errorResponse, partnerCommonErrors } from './openapi-examples.js';

/** `GET /requests`: the request log of the key's mode (issue 32 C3). */
export async function requestLogRoutes(app: FastifyInstance): Promise<void> {
  const { requestLog } = app.container;
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/requests',
    {
      schema: {
        operationId: 'listRequests',
        tags: ['Requests'],
        summary: 'List your API requests',
        description:
          'The Partner API calls made with your keys of this mode (a test key sees test-mode calls ' +
          'only) in the last 30 days, newest first: method, path (never the query string or the ' +
          'body), status, duration, request id, Idempotency-Key and error code. Entries are written ' +
          'in batches and appear about a second after the call. Filters: status class, path prefix, ' +
          'request id (X-Request-Id).',
        querystring: RequestLogQuery,
        response: {
          200: RequestLogListSchema,
          400: errorResponse('A filter out of range or a cursor of another list', 'VALIDATION_ERROR'),
          ...partnerCommonErrors,
        },
      },
    },
    async (request, reply) => requestLogPage(requestLog, request, reply, request.partner!.id, request.query),
  );
}
