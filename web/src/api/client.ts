import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './mobile';

/** The one API client: openapi-fetch over the types generated from openapi/mobile.json. */
export type { paths };

/** An error answer of the Mobile/Web API ({ error, code }), or a network failure (code NETWORK). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly orderId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let currentLanguage = 'en';
/** The UI language, sent as Accept-Language so the API's own messages match it. */
export function setApiLanguage(language: string): void {
  currentLanguage = language;
}

const language: Middleware = {
  onRequest({ request }) {
    request.headers.set('accept-language', currentLanguage);
    return request;
  },
};

export const api = createClient<paths>({
  baseUrl: typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
  credentials: 'same-origin',
});
api.use(language);

interface Result<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

function isErrorBody(value: unknown): value is { error: string; code: string; orderId?: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { error?: unknown }).error === 'string' &&
    typeof (value as { code?: unknown }).code === 'string'
  );
}

/** The data of a successful answer; otherwise throws an ApiError with the API's code and message. */
export async function unwrap<T>(call: Promise<Result<T>>): Promise<T> {
  let result: Result<T>;
  try {
    result = await call;
  } catch {
    throw new ApiError(0, 'NETWORK', 'Network error');
  }
  const { data, error, response } = result;
  if (response.ok && data !== undefined) return data;
  if (isErrorBody(error)) throw new ApiError(response.status, error.code, error.error, error.orderId);
  throw new ApiError(response.status, `HTTP_${response.status}`, response.statusText || 'Request failed');
}
