import {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';

/**
 * One access log line per request, written when the response has gone out: request id, method,
 * URL (through the `req` serializer, which redacts secrets in it), status and time.
 *
 * Fastify's default writes two lines per request, "incoming request" and "request completed",
 * and each went through the process's redaction rules: their wildcard paths (`*.password`, …)
 * made a line cost five times an unredacted one, and a cached catalogue read paid that twice
 * (docs/performance.md). The first line says nothing the second does not. This line is built
 * from known fields only, none of them a secret, so its logger skips the path rules; the
 * serializers, the URL redaction among them, still apply. Fastify's other request-time lines
 * (errors, not found) keep their default.
 */
export class AccessLogController extends LogController {
  #log: FastifyBaseLogger | undefined;

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) return super.requestCompleted(error, request, reply);
    this.#log ??= request.server.log.child({}, { redact: { paths: [] } });
    this.#log.info(
      {
        reqId: request.id,
        req: request,
        res: { statusCode: reply.statusCode },
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
  }
}

/** A client that hangs up before the answer leaves no "request completed": say so. */
export function logAbortedRequests(app: FastifyInstance): void {
  app.addHook('onRequestAbort', (request, done) => {
    request.log.info({ req: request }, 'request aborted by the client');
    done();
  });
}
