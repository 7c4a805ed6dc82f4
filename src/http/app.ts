import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config/index.js';
import type { Container } from '../container.js';
import { pinoOptions } from '../lib/log-redaction.js';
import { adminSurface } from './admin/index.js';
import { AccessLogController, logAbortedRequests } from './shared/access-log.js';
import { installErrorHandling } from './shared/errors.js';
import { lazyRequestLogger } from './shared/request-logger.js';
import { rejectNonFiniteNumbers } from './shared/finite-numbers.js';
import { installSecurityHooks, securityServerOptions } from './shared/security.js';
import { registerApiReference } from './docs.js';
import { mobileSurface } from './mobile/index.js';
import { partnerSurface } from './partner/index.js';
import { sandboxSurface } from './sandbox/index.js';
import { inboundWebhooksSurface } from './webhooks/index.js';
import { registerOpenApiDocuments } from './shared/openapi.js';
import { allSecuritySchemes } from './shared/openapi-surfaces.js';
import { installMetrics } from './metrics.js';
import { installBodyRules, transportServerOptions } from './shared/transport.js';
import { readWebBuild, registerWebApp, webNotFoundPage } from './web.js';
import { AJV_OPTIONS, buildValidator } from './shared/validators.js';
import { lazySchemaCompilers } from './shared/lazy-schemas.js';
import { Type } from '@sinclair/typebox';
import './types.js';

export interface BuildAppOptions {
  /** Built by the caller (main, tests), who also closes it after the app: see src/container.ts. */
  container: Container;
  /** The process logger, which the container logs to as well (main). */
  loggerInstance?: FastifyBaseLogger;
  /** Otherwise pino options, or false to silence logs (tests); default: loggerOptions(config). */
  logger?: FastifyServerOptions['logger'];
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is a sane token, else a new UUID. */
function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
}

/** The process's pino options (src/lib/log-redaction.ts) for this configuration. */
export function loggerOptions(config: Readonly<Config>): FastifyServerOptions['logger'] {
  return pinoOptions(config.logLevel);
}

/**
 * Many HTTP clients send `Content-Type: application/json` on every request, also on body-less
 * POSTs such as logout or key generation. Fastify's default parser rejects an empty JSON body;
 * here an empty body is simply no body, and routes that require one still fail validation.
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    return parseJson(request, body as string, done);
  });
}

/**
 * The HTTP app on a built container, without listening: `main` listens, tests use `app.inject`.
 * Closing the app stops accepting and drains requests; the container (worker, Redis) and the
 * database are closed by whoever built them, after the app.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { container } = options;
  const { config } = container;
  const schemas = lazySchemaCompilers(buildValidator);
  const app = Fastify({
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: options.logger ?? loggerOptions(config) }),
    childLoggerFactory: lazyRequestLogger,
    // One line per request instead of Fastify's two: ./shared/access-log.ts.
    logController: new AccessLogController(),
    ...transportServerOptions(config),
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    ...securityServerOptions(),
    genReqId: requestIdOf,
    ajv: AJV_OPTIONS,
    schemaController: { compilersFactory: schemas.compilersFactory },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('container', container);
  app.decorate('compileSchemas', () => schemas.compileAll());
  app.decorateRequest('auth', null);
  app.decorateRequest('partner', null);
  app.decorateRequest('livemode', true);
  app.decorateRequest('partnerAccess', null);
  app.decorateRequest('operator', null);

  // Read before the handlers are installed: the root's 404 answers browsers with the app's page.
  const web = await readWebBuild(config.webDistDir);
  installErrorHandling(app, 'root', web ? webNotFoundPage(web, config) : undefined);
  installSecurityHooks(app);
  rejectNonFiniteNumbers(app);
  acceptEmptyJsonBodies(app);
  installBodyRules(app);
  installMetrics(app);
  logAbortedRequests(app);
  await app.register(cookie);
  // Responses only: request bodies are never inflated (H1, see ./shared/transport.ts).
  await app.register(compress, { global: true, globalDecompression: false, threshold: 1024 });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'eSIM Resale Service API',
        version: '1.0.0',
        description:
          'Mobile/Web API (/api/v1), Partner API (/api/public/v1) and operator API (/api/admin/v1).',
      },
      servers: [{ url: config.publicBaseUrl }],
      components: { securitySchemes: allSecuritySchemes },
    },
  });
  registerApiReference(app, '/docs');

  app.get(
    '/health',
    { schema: { hide: true, response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/ready',
    {
      schema: {
        hide: true,
        response: {
          200: Type.Object({ status: Type.String() }),
          503: Type.Object({ status: Type.String() }),
        },
      },
    },
    async (_request, reply) => {
      try {
        await container.database.ping();
        await container.readinessChecks.run();
        return { status: 'ready' };
      } catch {
        return reply.code(503).send({ status: 'unavailable' });
      }
    },
  );

  await app.register(mobileSurface, { prefix: '/api/v1' });
  await app.register(partnerSurface, { prefix: '/api/public/v1' });
  await app.register(adminSurface, { prefix: '/api/admin/v1' });
  await app.register(inboundWebhooksSurface, { prefix: '/webhooks' });
  if (config.cardProvider === 'sandbox' || config.cryptoProvider === 'sandbox') {
    await app.register(sandboxSurface, { prefix: '/sandbox' });
  }
  registerOpenApiDocuments(app);
  if (web) await registerWebApp(app, web);
  else
    app.log.warn({ dir: config.webDistDir }, 'web app not built (npm run build:web): serving the API only');
  return app;
}
