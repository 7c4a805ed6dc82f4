import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config/index.js';
import type { Container } from '../container.js';
import { pinoOptions } from '../lib/log-redaction.js';
import { adminSurface } from './admin/index.js';
import { installErrorHandling } from './shared/errors.js';
import { lazyRequestLogger } from './shared/request-logger.js';
import { installSecurityHooks, securityServerOptions } from './shared/security.js';
import { registerApiReference } from './docs.js';
import { mobileSurface } from './mobile/index.js';
import { partnerSurface } from './partner/index.js';
import { sandboxSurface } from './sandbox/index.js';
import { inboundWebhooksSurface } from './webhooks/index.js';
import { registerOpenApiDocuments } from './shared/openapi.js';
import { allSecuritySchemes, routeTransform } from './shared/openapi-contract.js';
import { installMetrics, requestObserver } from './metrics.js';
import { type CatalogReplay, createCatalogReplay } from './shared/catalog-replay.js';
import { installBodyRules, transportServerOptions } from './shared/transport.js';
import { registerWebApp } from './web.js';
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

/** Log levels at which Fastify writes lines for every request (incoming, completed). */
const PER_REQUEST_LOG_LEVELS = new Set(['info', 'debug', 'trace']);

/** The process's pino options (src/lib/log-redaction.ts) for this configuration. */
export function loggerOptions(config: Readonly<Config>): FastifyServerOptions['logger'] {
  return pinoOptions(config.logLevel) as FastifyServerOptions['logger'];
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
  // Assigned right after the app is made; the server calls it only once listening.
  let replay: CatalogReplay = undefined as unknown as CatalogReplay;
  const app = Fastify({
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: options.logger ?? loggerOptions(config) }),
    childLoggerFactory: lazyRequestLogger,
    ...transportServerOptions(config),
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    ...securityServerOptions(),
    genReqId: requestIdOf,
    // Node's HTTP server as Fastify makes it, with the catalog replay in front of Fastify's handler.
    serverFactory: (handler, opts) => {
      const server = createServer(opts.http ?? {}, (req, res) => {
        if (!replay.serve(req, res, () => handler(req, res))) handler(req, res);
      });
      // Fastify has filled in its defaults by now (fastify.js); the same settings as its own server.
      server.keepAliveTimeout = Number(opts.keepAliveTimeout);
      server.requestTimeout = Number(opts.requestTimeout);
      server.setTimeout(Number(opts.connectionTimeout));
      if (Number(opts.maxRequestsPerSocket) > 0)
        server.maxRequestsPerSocket = Number(opts.maxRequestsPerSocket);
      return server;
    },
    ajv: {
      customOptions: { removeAdditional: true, coerceTypes: 'array', useDefaults: true, allErrors: false },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  replay = createCatalogReplay({
    version: () => container.catalog.version(),
    requestId: requestIdOf,
    observe: requestObserver(container),
    enabled: !PER_REQUEST_LOG_LEVELS.has(app.log.level),
  });
  app.addHook('preClose', (done) => {
    replay.close();
    done();
  });

  app.decorate('container', container);
  app.decorate('catalogReplay', replay);
  app.decorateRequest('auth', null);
  app.decorateRequest('partner', null);
  app.decorateRequest('livemode', true);

  installErrorHandling(app, 'root');
  installSecurityHooks(app);
  acceptEmptyJsonBodies(app);
  installBodyRules(app);
  installMetrics(app);
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
    // operationId, security and tags per route: see ./shared/openapi-contract.ts
    transform: routeTransform,
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
  if (config.adminToken) await app.register(adminSurface, { prefix: '/api/admin/v1' });
  await app.register(inboundWebhooksSurface, { prefix: '/webhooks' });
  if (config.cardProvider === 'sandbox' || config.cryptoProvider === 'sandbox') {
    await app.register(sandboxSurface, { prefix: '/sandbox' });
  }
  registerOpenApiDocuments(app);
  await registerWebApp(app, config.webDistDir);
  return app;
}
