import type { FastifyInstance } from 'fastify';

/**
 * One access log line per request, written when the response has gone out: request id, method,
 * URL (through the `req` serializer, which redacts secrets in it), status and time.
 *
 * Fastify's own request logging (turned off in app.ts) writes two lines per request, "incoming
 * request" and "request completed", and each went through the process's redaction rules: their
 * wildcard paths (`*.password`, …) made a line cost five times an unredacted one, and a cached
 * catalog read paid that twice (docs/performance.md, "Access log"). This line is built here from
 * known fields only, none of them a secret, so its logger skips the path rules; the serializers,
 * the URL redaction among them, still apply.
 */
export function installAccessLog(app: FastifyInstance): void {
  const log = app.log.child({}, { redact: { paths: [] } });
  app.addHook('onResponse', (request, reply, done) => {
    log.info(
      {
        reqId: request.id,
        req: request,
        res: { statusCode: reply.statusCode },
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    log.info({ reqId: request.id, req: request }, 'request aborted by the client');
    done();
  });
}
