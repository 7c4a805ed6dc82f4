import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer, type Container } from '../../src/container.js';
import { buildApp, loggerOptions } from '../../src/http/app.js';
import { installErrorHandling } from '../../src/http/shared/errors.js';
import { silentLogger } from '../../src/lib/logger.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../helpers/app.js';
import { createUser } from '../helpers/factories.js';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const SECRET_SQL = 'select * from secret_table where password_hash = $1';

function breakServices(container: Container) {
  const fail = async (): Promise<never> => {
    throw new Error(`${SECRET_SQL} failed`);
  };
  container.accounts.login = fail;
  container.accounts.listAccounts = fail;
}

describe('error handling', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ configure: breakServices });
  });
  afterAll(() => t.close());

  const login = (payload: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload,
      headers: { 'content-type': 'application/json', ...headers },
    });

  it('treats an empty JSON body as no body: body-less POSTs work, required bodies fail validation', async () => {
    const user = await createUser(t.container);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      payload: '',
      headers: { 'content-type': 'application/json', ...user.auth },
    });
    expect(logout.statusCode).toBe(200);
    const emptyLogin = await login('');
    expect(emptyLogin.statusCode).toBe(400);
    expect(emptyLogin.json().code).toBe('VALIDATION_ERROR');
  });

  it('answers malformed JSON with 400 VALIDATION_ERROR in the mobile and the partner shape', async () => {
    const mobile = await login('{"email": "a@b.co",');
    expect(mobile.statusCode).toBe(400);
    expect(mobile.json()).toEqual({ error: 'Geçersiz istek.', code: 'VALIDATION_ERROR' });

    const adminRes = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/v1/accounts/acc_x',
      payload: '{"status":',
      headers: { ...admin, 'content-type': 'application/json' },
    });
    expect(adminRes.statusCode).toBe(400);
    expect(adminRes.json()).toEqual({
      error: { code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON' },
    });

    // No Partner route takes a body yet: the Partner error handling on a minimal app.
    const partner = Fastify();
    installErrorHandling(partner, 'partner');
    partner.post('/echo', async (request) => request.body);
    const res = await partner.inject({
      method: 'POST',
      url: '/echo',
      payload: '{oops',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON' },
    });
    await partner.close();
  });

  it('answers a body over 2 MB with 413', async () => {
    const big = JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) });
    const mobile = await login(big);
    expect(mobile.statusCode).toBe(413);
    expect(mobile.json()).toEqual({ error: 'İstek gövdesi çok büyük.', code: 'PAYLOAD_TOO_LARGE' });
    const adminRes = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/v1/accounts/acc_x',
      payload: big,
      headers: { ...admin, 'content-type': 'application/json' },
    });
    expect(adminRes.statusCode).toBe(413);
    expect(adminRes.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('words validation errors in Turkish by default and English on request, naming the field', async () => {
    const payload = JSON.stringify({ email: 'a@b.co' });
    expect((await login(payload)).json()).toEqual({
      error: 'Geçersiz istek. (password)',
      code: 'VALIDATION_ERROR',
    });
    expect((await login(payload, { 'accept-language': 'en-US,en;q=0.8,tr;q=0.5' })).json()).toEqual({
      error: 'Invalid request. (password)',
      code: 'VALIDATION_ERROR',
    });
  });

  it('words errors in German, French or Spanish when Accept-Language prefers one (q wins)', async () => {
    const payload = JSON.stringify({ email: 'a@b.co' });
    const cases: Array<[string, string]> = [
      ['de-DE,de;q=0.9,en;q=0.8', 'Ungültige Anfrage. (password)'],
      ['fr-CA', 'Requête invalide. (password)'],
      ['it-IT, es;q=0.8, en;q=0.5', 'Solicitud no válida. (password)'],
      ['en;q=0.4, de;q=0.9', 'Ungültige Anfrage. (password)'],
      ['it-IT, ja', 'Geçersiz istek. (password)'],
    ];
    for (const [header, error] of cases) {
      const res = await login(payload, { 'accept-language': header });
      expect(res.json(), header).toEqual({ error, code: 'VALIDATION_ERROR' });
    }
    const failed = await login(JSON.stringify({ email: 'a@b.co', password: 'whatever1' }), {
      'accept-language': 'es-ES',
    });
    expect(failed.statusCode).toBe(500);
    expect(failed.json().error).toBe('Se ha producido un error inesperado.');
  });

  it('turns an unexpected error into a generic 500 with the request id, never the details', async () => {
    const mobile = await login(JSON.stringify({ email: 'a@b.co', password: 'whatever1' }), {
      'x-request-id': 'req-500-mobile',
    });
    expect(mobile.statusCode).toBe(500);
    expect(mobile.json()).toEqual({
      error: 'Beklenmeyen bir hata oluştu.',
      code: 'INTERNAL_ERROR',
      requestId: 'req-500-mobile',
    });
    expect(mobile.headers['x-request-id']).toBe('req-500-mobile');

    const adminRes = await t.app.inject({ url: '/api/admin/v1/accounts', headers: admin });
    expect(adminRes.statusCode).toBe(500);
    expect(adminRes.json()).toEqual({
      error: {
        code: 'INTERNAL_ERROR',
        message: 'Internal server error',
        details: { requestId: adminRes.headers['x-request-id'] },
      },
    });
    for (const body of [mobile.body, adminRes.body]) {
      expect(body).not.toMatch(/select|secret|stack|\.ts:\d+/i);
    }
  });
});

describe('request logs', () => {
  it('carry the request id, keep error details, and redact credentials and URL tokens', async () => {
    const base = await buildTestApp();
    const lines: string[] = [];
    const config = { ...base.config, logLevel: 'info' };
    const container = createContainer({
      config,
      database: base.database,
      clock: base.clock,
      log: silentLogger,
    });
    breakServices(container);
    const app = await buildApp({
      container,
      logger: {
        ...(loggerOptions(config) as object),
        stream: { write: (line: string) => void lines.push(line) },
      },
    });
    try {
      await app.inject({
        url: '/api/v1/auth/reset-password?token=raw-reset-token-123',
        headers: { authorization: 'Bearer raw-session-token-456', cookie: 'svc_session=raw-cookie-789' },
      });
      await app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'a@b.co', password: 'raw-password-000' },
        headers: { 'x-request-id': 'req-logged-1' },
      });
      const log = lines.join('');
      expect(log).toContain('token=[REDACTED]');
      for (const secret of [
        'raw-reset-token-123',
        'raw-session-token-456',
        'raw-cookie-789',
        'raw-password-000',
      ]) {
        expect(log).not.toContain(secret);
      }
      const failure = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error');
      expect(failure.reqId).toBe('req-logged-1');
      expect(failure.err.message).toContain(SECRET_SQL);
    } finally {
      await app.close();
      await container.close();
      await base.close();
    }
  });
});
