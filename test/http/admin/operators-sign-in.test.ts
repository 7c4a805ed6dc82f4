import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, operators } from '../../../src/db/schema/index.js';
import { totpCode } from '../../../src/domain/operators/second-factor.js';
import { HOUR } from '../../../src/lib/clock.js';
import { ADMIN_TOKEN, BASE_URL, buildTestApp, type TestApp } from '../../helpers/app.js';
import {
  enrolledOperator,
  operatorCookieOf,
  tokenOfLink,
  type EnrolledOperator,
} from '../../helpers/operators.js';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const STEP = 30_000;

describe('operator enrolment and sign-in (issue 33 O1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Throttling has its own tests below; here every request comes from one address.
    t = await buildTestApp({ env: { AUTH_RATE_LIMIT: '1000' } });
  });
  afterAll(() => t.close());

  const invite = async (email: string, role = 'support') => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/v1/operators',
      headers: admin,
      payload: { email, role },
    });
    expect(res.statusCode).toBe(201);
    return { id: res.json().operator.id as string, token: tokenOfLink(res.json().enrolmentUrl) };
  };
  const preview = (token: string) => t.app.inject({ url: `/api/admin/v1/operator/enrolment/${token}` });
  const enrol = (token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/api/admin/v1/operator/enrolment/${token}`, payload });
  const signIn = (payload: { email: string; password: string; code: string }, ip = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/admin/v1/operator/session', payload, remoteAddress: ip });
  const me = (cookie: string) =>
    t.app.inject({ url: '/api/admin/v1/operator/me', headers: { cookie, origin: BASE_URL } });
  const code = (op: EnrolledOperator, offsetMs = 0) =>
    totpCode(op.totpSecret, new Date(t.clock.now().getTime() + offsetMs));

  it('shows the link’s operator and TOTP secret as text, URI and QR code, uncached', async () => {
    const { token } = await invite('  Preview@Ops.Example ', 'finance');
    const res = await preview(token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({ email: 'preview@ops.example', name: '', role: 'finance' });
    expect(body.totpSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauthUri).toContain(`secret=${body.totpSecret}`);
    expect(body.qrSvg).toMatch(/^<svg/);
    expect((await preview('x'.repeat(43))).statusCode).toBe(404);
  });

  it('enrols with a password and the app’s code, signs in, and shows 10 recovery codes once', async () => {
    const { id, token } = await invite('enrol@ops.example');
    const { totpSecret } = (await preview(token)).json();
    expect((await enrol(token, { password: 'short', code: '123456' })).statusCode).toBe(400);
    const wrong = await enrol(token, { password: 'long enough password', code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toMatch(/code does not match/);
    const res = await enrol(token, {
      password: 'long enough password',
      code: totpCode(totpSecret, t.clock.now()),
      name: ' Enid Rolls ',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().operator).toMatchObject({
      id,
      email: 'enrol@ops.example',
      name: 'Enid Rolls',
      role: 'support',
    });
    expect(res.json().recoveryCodes).toHaveLength(10);
    const cookie = res.cookies.find((c) => c.name === 'svc_operator')!;
    expect(cookie.sameSite).toBe('Strict');
    expect(cookie.httpOnly).toBe(true);
    expect((await me(operatorCookieOf(res))).json().operator.email).toBe('enrol@ops.example');
    const [row] = await t.database.db.select().from(operators).where(eq(operators.id, id));
    expect(row).toMatchObject({ status: 'ACTIVE', totpSecret });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, id), eq(auditLog.action, 'operator.enrol')));
    expect(audit).toMatchObject({ actor: `operator:${id}`, before: { status: 'INVITED' } });
    // The link works once.
    expect((await preview(token)).statusCode).toBe(404);
    const again = await enrol(token, {
      password: 'long enough password',
      code: totpCode(totpSecret, t.clock.now()),
    });
    expect(again.statusCode).toBe(404);
  });

  it('refuses a link after 24 hours, and an older link once a new one is issued', async () => {
    const first = await invite('expiry@ops.example');
    t.clock.advance(24 * 60 * 60 * 1000 - 1000);
    expect((await preview(first.token)).statusCode).toBe(200);
    t.clock.advance(1000);
    expect((await preview(first.token)).statusCode).toBe(404);
    const renewed = await t.app.inject({
      method: 'POST',
      url: `/api/admin/v1/operators/${first.id}/enrolment`,
      headers: admin,
    });
    expect(renewed.statusCode).toBe(200);
    const second = tokenOfLink(renewed.json().enrolmentUrl);
    expect((await preview(second)).statusCode).toBe(200);
    const third = await t.app.inject({
      method: 'POST',
      url: `/api/admin/v1/operators/${first.id}/enrolment`,
      headers: admin,
    });
    expect((await preview(second)).statusCode).toBe(404);
    expect((await preview(tokenOfLink(third.json().enrolmentUrl))).statusCode).toBe(200);
  });

  it('signs in with e-mail, password and a TOTP code, once per code, ±1 step', async () => {
    const op = await enrolledOperator(t, 'support', 'totp@ops.example');
    const res = await signIn({ email: ' TOTP@ops.example', password: op.password, code: code(op) });
    expect(res.statusCode).toBe(200);
    expect(res.json().operator).toMatchObject({ id: op.id, role: 'support', permissions: expect.any(Array) });
    expect((await me(operatorCookieOf(res))).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(operators).where(eq(operators.id, op.id));
    expect(row!.lastSignInAt).toEqual(t.clock.now());
    // The same code again: a replay.
    const replay = await signIn({ email: op.email, password: op.password, code: code(op) });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.code).toBe('INVALID_CREDENTIALS');
    t.clock.advance(STEP);
    // The previous step's code is within the window, but older than the last one accepted.
    expect((await signIn({ email: op.email, password: op.password, code: code(op, -STEP) })).statusCode).toBe(
      401,
    );
    expect(
      (await signIn({ email: op.email, password: op.password, code: code(op, 2 * STEP) })).statusCode,
    ).toBe(401);
    expect((await signIn({ email: op.email, password: op.password, code: code(op, STEP) })).statusCode).toBe(
      200,
    );
  });

  it('ends a session after 12 idle hours, and 24 hours after sign-in however much it is used', async () => {
    const op = await enrolledOperator(t, 'finance', 'lifetime@ops.example');
    const signedIn = async () => {
      const res = await signIn({ email: op.email, password: op.password, code: code(op) });
      expect(res.statusCode).toBe(200);
      t.clock.advance(STEP);
      return operatorCookieOf(res);
    };
    const idle = await signedIn();
    t.clock.advance(12 * HOUR);
    expect((await me(idle)).statusCode).toBe(401);

    const busy = await signedIn();
    // Used every 11 hours: never idle, yet over a day old at the third use.
    t.clock.advance(11 * HOUR);
    expect((await me(busy)).statusCode).toBe(200);
    t.clock.advance(11 * HOUR);
    expect((await me(busy)).statusCode).toBe(200);
    t.clock.advance(2 * HOUR);
    expect((await me(busy)).statusCode).toBe(401);
  });

  it('answers every wrong part with one 401 message', async () => {
    const op = await enrolledOperator(t, 'readonly', 'wrong@ops.example');
    const attempts = [
      { email: 'nobody@ops.example', password: op.password, code: code(op) },
      { email: op.email, password: 'not the password', code: code(op) },
      { email: op.email, password: op.password, code: '000000' },
      { email: op.email, password: op.password, code: 'zzzz-zzzz' },
      { email: op.email, password: op.password, code: 'nonsense' },
    ];
    const answers = new Set<string>();
    for (const attempt of attempts) {
      const res = await signIn(attempt);
      expect(res.statusCode).toBe(401);
      answers.add(res.body);
    }
    expect(answers.size).toBe(1);
  });

  it('takes each recovery code once, in any case', async () => {
    const op = await enrolledOperator(t, 'catalog', 'recovery@ops.example');
    const [first, second] = op.recoveryCodes;
    expect((await signIn({ email: op.email, password: op.password, code: first! })).statusCode).toBe(200);
    expect((await signIn({ email: op.email, password: op.password, code: first! })).statusCode).toBe(401);
    t.clock.advance(1000);
    const upper = await signIn({ email: op.email, password: op.password, code: second!.toUpperCase() });
    expect(upper.statusCode).toBe(200);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, op.id), eq(auditLog.action, 'operator.sign_in')))
      .orderBy(auditLog.createdAt);
    expect(audit!.after).toMatchObject({ method: 'recovery', recoveryCodesLeft: 9 });
  });

  it('refuses an invited or disabled operator with the same 401', async () => {
    await invite('invited@ops.example');
    expect(
      (await signIn({ email: 'invited@ops.example', password: 'whatever password', code: '123456' }))
        .statusCode,
    ).toBe(401);
    const op = await enrolledOperator(t, 'support', 'disabled@ops.example');
    await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/v1/operators/${op.id}`,
      headers: admin,
      payload: { status: 'DISABLED' },
    });
    const res = await signIn({ email: op.email, password: op.password, code: code(op) });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('INVALID_CREDENTIALS');
  });
});

describe('operator sign-in throttling', () => {
  it('limits attempts per client address and address+e-mail', async () => {
    const t = await buildTestApp({ env: { AUTH_RATE_LIMIT: '3' } });
    try {
      const attempt = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/admin/v1/operator/session',
          payload: { email: 'x@ops.example', password: 'whatever', code: '123456' },
          remoteAddress: '10.0.0.1',
        });
      for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
      const refused = await attempt();
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('RATE_LIMITED');
      expect(refused.headers['retry-after']).toBeDefined();
      // Unknown enrolment links: after 3 in a minute the address is refused, others are not.
      const probe = (ip: string) =>
        t.app.inject({ url: `/api/admin/v1/operator/enrolment/${'x'.repeat(43)}`, remoteAddress: ip });
      for (let i = 0; i < 3; i++) expect((await probe('10.0.0.9')).statusCode).toBe(404);
      expect((await probe('10.0.0.9')).statusCode).toBe(429);
      expect((await probe('10.0.0.8')).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('past the failures for one e-mail, refuses addresses that failed, still checks others', async () => {
    const t = await buildTestApp({ env: { AUTH_ACCOUNT_FAILURE_LIMIT: '2', AUTH_RATE_LIMIT: '100' } });
    try {
      const op = await enrolledOperator(t, 'support', 'target@ops.example');
      const from = (ip: string, password: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/admin/v1/operator/session',
          payload: { email: op.email, password, code: totpCode(op.totpSecret, t.clock.now()) },
          remoteAddress: ip,
        });
      expect((await from('10.0.0.2', 'wrong password')).statusCode).toBe(401);
      expect((await from('10.0.0.2', 'wrong password')).statusCode).toBe(401);
      // The attacker's address is refused even with the right password …
      expect((await from('10.0.0.2', op.password)).statusCode).toBe(429);
      // … the operator's own address still signs in.
      expect((await from('10.0.0.3', op.password)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
