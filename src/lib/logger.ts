/**
 * The logger port: what the domain, the jobs and the entry points need from a logger. pino's
 * logger (and so Fastify's `app.log`) satisfies it; tests pass `silentLogger`. Call it like pino:
 * `log.warn({ orderId }, 'message')` or `log.warn('message')`.
 */
export interface LogFn {
  (obj: object, msg?: string): void;
  (msg: string): void;
}

export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

const ignore: LogFn = () => undefined;

/** Writes nothing (tests, scripts). */
export const silentLogger: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore };
