import { pino, stdSerializers, type Logger as PinoLogger, type LoggerOptions } from 'pino';

/**
 * What the logs must never hold (docs/security.md): secrets, password hashes, tokens, e-mail
 * addresses in URLs, and SQL parameters of failed queries. `createLogger` builds the process's
 * logger with these rules (main, the worker process; the HTTP app logs through the same one).
 */

/** Extra pino redact paths besides the ones in pinoOptions. */
export const LOG_REDACT_PATHS = [
  '*.passwordHash',
  '*.apiKeyHash',
  '*.tokenHash',
  '*.resetToken',
  '*.webhookSecret',
  '*.signature',
  // Push tokens and Web Push subscriptions (endpoint, encryption keys) address one device.
  '*.pushToken',
  '*.subscription',
  'req.headers["stripe-signature"]',
  'req.headers["sandbox-signature"]',
  'req.headers.sign',
];

const SECRET_PARAM = /^(?:token|key|api_?key|secret|password|signature|sign|code|email|e-mail)$/i;
const EMAIL_LIKE = /@|%40/i;

/** Query values that are secrets, or look like e-mail addresses, become [REDACTED]. */
export function redactQuery(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return EMAIL_LIKE.test(pair) ? '[REDACTED]' : pair;
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let decodedName = name;
      try {
        decodedName = decodeURIComponent(name);
      } catch {
        // keep the raw name
      }
      return SECRET_PARAM.test(decodedName) || EMAIL_LIKE.test(value) ? `${name}=[REDACTED]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

const EMAIL = /[^\s"'<>()[\]{}:;,]+@[^\s"'<>()[\]{}:;,]+/g;
/** `Failed query: …\nparams: a,b,c` (drizzle) – everything after `params:` up to the stack. */
const PARAMS = /(\nparams:)[\s\S]*?(?=\n\s+at |$)/g;

function scrubText(text: string, databaseValueError: boolean): string {
  let out = text.replace(PARAMS, '$1 [REDACTED]').replace(EMAIL, '[REDACTED-EMAIL]');
  // PostgreSQL data exceptions (class 22) quote the offending value: `invalid input syntax … "x"`.
  if (databaseValueError) out = out.replace(/"(?:[^"\\]|\\.)*"/g, '"[REDACTED]"');
  return out;
}

function scrub(value: unknown, depth = 0): unknown {
  if (depth > 5 || value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const code = typeof record.code === 'string' ? record.code : '';
  const sqlState = /^[0-9A-Z]{5}$/.test(code);
  const databaseValueError = sqlState && code.startsWith('22');
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) {
    if (key === 'params' || key === 'parameters') continue;
    // PostgreSQL's detail names offending values: `Key (email)=(a@b.c) already exists.`
    if (sqlState && (key === 'detail' || key === 'where' || key === 'internalQuery')) continue;
    if (typeof item === 'string') out[key] = scrubText(item, databaseValueError);
    else out[key] = scrub(item, depth + 1);
  }
  return out;
}

/** pino's error serializer, then no SQL parameters, PostgreSQL details or e-mail addresses. */
type SerializedError = { type: string; message: string; stack: string; [key: string]: unknown };

export function serializeError(err: Error): SerializedError {
  if (!(err instanceof Error)) return scrub(err) as SerializedError;
  const serialized = stdSerializers.err(err) as unknown as Record<string, unknown>;
  const cause = (err as { cause?: unknown }).cause;
  const causeCode = (cause as { code?: unknown } | undefined)?.code;
  const scrubbed = scrub(serialized) as Record<string, unknown>;
  // A data exception in the cause quotes the value in the wrapper's message and stack as well.
  if (typeof causeCode === 'string' && causeCode.startsWith('22')) {
    for (const key of ['message', 'stack']) {
      if (typeof scrubbed[key] === 'string') scrubbed[key] = scrubText(scrubbed[key], true);
    }
  }
  return scrubbed as SerializedError;
}

/**
 * Inbound provider webhooks carry their secret as the path segment after the provider
 * (`/webhooks/esim/<provider>/<token>`, or an alias `/webhooks/<alias>/<token>`).
 */
const WEBHOOK_PATH_TOKEN = /^(\/webhooks\/(?:esim\/[^/?#]+\/|[^/?#]+\/))[^/?#]+/;

/**
 * The hosted install page of an eSIM and its data carry their token as the last path segment
 * (`/install/<token>`, `/api/v1/install/<token>`): whoever holds it can install the eSIM.
 */
const INSTALL_PATH_TOKEN = /^((?:\/api\/v1)?\/install\/)[^/?#]+/;

/**
 * A guest's link to a support thread (`/support/guest/<token>`, the web page, and its API under
 * /api/v1): the token is the guest's only credential. Not anchored, so that any prefix is covered.
 */
const GUEST_PATH_TOKEN = /(\/support\/guest\/)[^/?#]+/g;

/**
 * An eSIM's QR image (`/api/v1/esims/<qrToken>/qr.png`, `.svg`) is served to whoever holds the
 * token, and the image is the eSIM's activation code: the token is as secret as the code.
 */
const QR_PATH_TOKEN = /(\/esims\/)[^/?#]+(\/qr\.(?:png|svg))/g;

/**
 * An operator's enrolment link (`/api/admin/v1/operator/enrolment/<token>`, issue 33 O1): whoever
 * holds it sets the operator's password and second factor.
 */
const ENROLMENT_PATH_TOKEN = /(\/operator\/enrolment\/)[^/?#]+/g;

/**
 * Query values that are secrets when they appear in a URL (reset links, QR tokens), webhook path
 * tokens, install page tokens, guest thread tokens, QR image tokens and operator enrolment tokens.
 */
export function redactUrl(url: string): string {
  return redactQuery(
    url
      .replace(WEBHOOK_PATH_TOKEN, '$1[REDACTED]')
      .replace(INSTALL_PATH_TOKEN, '$1[REDACTED]')
      .replace(GUEST_PATH_TOKEN, '$1[REDACTED]')
      .replace(QR_PATH_TOKEN, '$1[REDACTED]$2')
      .replace(ENROLMENT_PATH_TOKEN, '$1[REDACTED]')
      .replace(/([?&](?:token|key|api_key)=)[^&]*/gi, '$1[REDACTED]'),
  );
}

/** pino options of every process: level, redaction, and the request and error serializers. */
export function pinoOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.newPassword',
        '*.currentPassword',
        '*.token',
        '*.apiKey',
        '*.key',
        '*.secret',
        ...LOG_REDACT_PATHS,
      ],
      censor: '[REDACTED]',
    },
    serializers: {
      err: serializeError,
      req: (req: { method: string; url: string; id: string; ip?: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
    },
  };
}

/** The process logger (JSON lines on stdout); it satisfies the Logger port of ./logger.ts. */
export function createLogger(level: string): PinoLogger {
  return pino(pinoOptions(level));
}
