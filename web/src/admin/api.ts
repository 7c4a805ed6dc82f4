import createClient from 'openapi-fetch';
import type { paths } from '../api/admin';

/**
 * The operator console's one API client: openapi-fetch over the types generated from
 * openapi/admin.json. The session is the `svc_operator` cookie (SameSite=Strict), sent because
 * the console is same-origin; it talks to nothing but the operator API.
 */
export const adminApi = createClient<paths>({
  baseUrl: typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
  credentials: 'same-origin',
});

/** An error answer of the operator API ({ error: { code, message } }) or a network failure. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AdminApiError';
  }
}

interface Result<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

function errorOf(value: unknown): { code: string; message: string } | undefined {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string'
    ? { code: error.code, message: error.message }
    : undefined;
}

/** The data of a successful answer; otherwise throws an AdminApiError with the API's code and message. */
export async function call<T>(request: Promise<Result<T>>): Promise<T> {
  let result: Result<T>;
  try {
    result = await request;
  } catch {
    throw new AdminApiError(0, 'NETWORK', 'Network error: is the service reachable?');
  }
  const { data, error, response } = result;
  if (response.ok) return data as T;
  const known = errorOf(error);
  if (known) throw new AdminApiError(response.status, known.code, known.message);
  throw new AdminApiError(
    response.status,
    `HTTP_${response.status}`,
    response.statusText || 'Request failed',
  );
}

/** A fresh Idempotency-Key for one money action (a retry of the same click reuses it). */
export function idempotencyKey(): string {
  return crypto.randomUUID();
}
