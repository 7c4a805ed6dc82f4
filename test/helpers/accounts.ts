import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { Container } from '../../src/container.js';
import { randomBase62 } from '../../src/lib/crypto.js';

export const uniqueEmail = (tag = 'u') => `${tag}-${randomBase62(10).toLowerCase()}@example.com`;

/** Registers through the API and returns what a client would keep. */
export async function registerViaApi(
  app: FastifyInstance,
  overrides: Partial<{ firstName: string; lastName: string; email: string; password: string }> = {},
  headers: Record<string, string> = {},
) {
  const body = {
    firstName: 'Ayşe',
    lastName: 'Yılmaz',
    email: uniqueEmail(),
    password: 'a long enough password',
    ...overrides,
  };
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: body, headers });
  expect(res.statusCode, res.body).toBe(200);
  const json = res.json();
  return {
    id: json.user.id as string,
    email: json.user.email as string,
    password: body.password,
    token: json.token as string,
    auth: { authorization: `Bearer ${json.token}` },
    response: res,
  };
}

/** The raw reset token from the newest reset mail to `email` (after running due background jobs). */
export async function latestResetToken(container: Container, email: string): Promise<string | undefined> {
  await container.worker.runDue();
  const [mail] = await container.mailer.list({ to: email });
  return mail ? /token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] : undefined;
}

/** The requests the auth test files share; `getApp` is read lazily because apps are built in beforeAll. */
export function authRequests(getApp: () => FastifyInstance, adminToken: string) {
  const admin = { authorization: `Bearer ${adminToken}` };
  const inject = (options: InjectOptions) => getApp().inject(options);
  return {
    inject,
    me: (headers: Record<string, string>) => inject({ url: '/api/v1/auth/me', headers }),
    login: (email: string, password: string, headers: Record<string, string> = {}) =>
      inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, headers }),
    setStatus: (id: string, status: string) =>
      inject({ method: 'PATCH', url: `/api/admin/v1/accounts/${id}`, headers: admin, payload: { status } }),
  };
}
