import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../../db/errors.js';
import { AppError, type ErrorCode } from '../../domain/errors.js';
import { statusFor, type Surface } from './error-map.js';
import { EXPECTED_ORIGIN, messageFor, preferredLang } from './messages.js';
import { bodyTooLargeMessage } from './transport.js';

interface ValidationIssue {
  field: string;
  message: string;
}

/** Turns anything thrown in a request into an AppError; unknown errors become INTERNAL_ERROR. */
export function toAppError(err: unknown, bodyLimit?: number): { error: AppError; unexpected: boolean } {
  if (err instanceof AppError) return { error: err, unexpected: false };
  const fe = err as Partial<FastifyError> & { validation?: unknown[] };
  if (Array.isArray(fe.validation)) {
    const issues: ValidationIssue[] = fe.validation.map((v) => {
      const item = v as { instancePath?: string; message?: string; params?: Record<string, unknown> };
      const missing = item.params?.missingProperty;
      const path = (item.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
      const field = typeof missing === 'string' ? (path ? `${path}.${missing}` : missing) : path;
      return { field: field || (fe.validationContext ?? 'body'), message: item.message ?? 'is invalid' };
    });
    const first = issues[0];
    const context = fe.validationContext ?? 'body';
    const message = first
      ? `${context}${first.field ? `.${first.field}` : ''} ${first.message}`
      : 'Invalid request';
    return { error: new AppError('VALIDATION_ERROR', message, { issues }), unexpected: false };
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        error: new AppError('PAYLOAD_TOO_LARGE', bodyTooLargeMessage(bodyLimit)),
        unexpected: false,
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { error: new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Type'), unexpected: false };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { error: new AppError('VALIDATION_ERROR', 'Request body is not valid JSON'), unexpected: false };
  }
  if (fe.statusCode === 429)
    return { error: new AppError('RATE_LIMITED', 'Too many requests'), unexpected: false };
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    const code: ErrorCode =
      fe.statusCode === 404 ? 'NOT_FOUND' : fe.statusCode === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR';
    return {
      error: new AppError(code, code === 'VALIDATION_ERROR' ? 'Invalid request' : code),
      unexpected: false,
    };
  }
  if (isDatabaseUnavailable(err)) {
    // Database down or restarting: a retryable 503, not a 500 (and no stack in the log).
    return {
      error: new AppError(
        'SERVICE_UNAVAILABLE',
        'The service is temporarily unavailable; retry shortly',
        undefined,
        {
          'retry-after': '5',
        },
      ),
      unexpected: false,
    };
  }
  return { error: new AppError('INTERNAL_ERROR', 'Internal server error'), unexpected: true };
}

/** Mobile: `{ error: "<localised message>", code }` (decisions §5). */
export function mobileBody(error: AppError, request: FastifyRequest): Record<string, unknown> {
  const lang = preferredLang(request.headers['accept-language']);
  let message = messageFor(error.code, lang);
  const origins = error.details?.expectedOrigins;
  if (error.code === 'CSRF_REJECTED' && Array.isArray(origins))
    message = `${message} (${EXPECTED_ORIGIN[lang]}: ${origins.join(', ')})`;
  if (error.code === 'VALIDATION_ERROR' && error.details?.issues) {
    const first = (error.details.issues as ValidationIssue[])[0];
    if (first?.field) message = `${message} (${first.field})`;
  }
  const body: Record<string, unknown> = { error: message, code: error.code };
  if (error.code === 'INTERNAL_ERROR') body.requestId = request.id;
  if (
    (error.code === 'FULFILLMENT_FAILED' || error.code === 'CANCELLATION_PENDING') &&
    error.details?.orderId
  )
    body.orderId = error.details.orderId;
  if (typeof error.details?.supportEmail === 'string') body.supportEmail = error.details.supportEmail;
  if (typeof error.details?.reason === 'string') body.reason = error.details.reason;
  return body;
}

/** Partner and admin: `{ error: { code, message, details? } }`, English. */
export function partnerBody(error: AppError, request: FastifyRequest): Record<string, unknown> {
  const details = error.code === 'INTERNAL_ERROR' ? { requestId: request.id } : error.details;
  return { error: { code: error.code, message: error.message, ...(details ? { details } : {}) } };
}

/** The error code each request was answered with (the Partner API's request log reads it). */
const answeredCodes = new WeakMap<FastifyRequest, string>();

/** The `code` of the error answer this request got, if it got one. */
export function errorCodeOf(request: FastifyRequest): string | undefined {
  return answeredCodes.get(request);
}

/** Notes the code of an error answer sent without sendError (an idempotent replay). */
export function noteErrorCode(request: FastifyRequest, body: unknown): void {
  const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
  if (typeof code === 'string') answeredCodes.set(request, code);
}

export function sendError(
  reply: FastifyReply,
  request: FastifyRequest,
  surface: Surface,
  error: AppError,
): FastifyReply {
  answeredCodes.set(request, error.code);
  const status = statusFor(error.code, surface);
  if (error.headers) reply.headers(error.headers);
  const body = surface === 'mobile' ? mobileBody(error, request) : partnerBody(error, request);
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Answers a request no route matched with a page of its own (the web app's, for a browser: see
 * src/http/web.ts), or returns false to leave it to the JSON 404.
 */
export type NotFoundPage = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | false;

/**
 * Installs the surface's error and not-found handlers. The fallback never echoes the original
 * message: stack traces and SQL stay in the log, keyed by the request id the client sees.
 * `notFoundPage` is asked first (Fastify takes one not-found handler per prefix, so the root's
 * page answer has to be part of this one).
 */
export function installErrorHandling(
  app: FastifyInstance,
  surface: Surface,
  notFoundPage?: NotFoundPage,
): void {
  app.setErrorHandler((err, request, reply) => {
    const { error, unexpected } = toAppError(err, request.routeOptions.bodyLimit);
    if (unexpected) request.log.error({ err }, 'unhandled error');
    else if (statusFor(error.code, surface) >= 500)
      request.log.warn({ code: error.code, msg: error.message }, 'request failed');
    return sendError(reply, request, surface, error);
  });
  app.setNotFoundHandler(
    (request, reply) =>
      notFoundPage?.(request, reply) ||
      sendError(
        reply,
        request,
        surface,
        new AppError('NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`),
      ),
  );
}
