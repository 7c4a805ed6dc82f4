import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, operators } from '../../../src/db/schema/index.js';
import { totpCode } from '../../../src/domain/operators/second-factor.js';
import { ADMIN_TOKEN, BASE_URL, buildTestApp, type TestApp } from '../../helpers/app.js';
import { enrolledOperator, signedInOperator, tokenOfLink } from '../../helpers/operators.js';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

async function lastAudit(t: TestApp, targetId: string, action: string) {
  const [row] = await t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetId, targetId), eq(auditLog.action, action)))
    .orderBy(desc(auditLog.createdAt))
    .limit(1);
  return row;
}

describe('operator management (issue 33 O1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { AUTH_RATE_LIMIT: '1000' } });
  });
  afterAll(() => t.close());

  const api = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    headers: Record<string, string> = admin,
  ) => t.app.inject({ method, url: `/api/admin/v1${url}`, headers, ...(payload ? { payload } : {}) });

  it('invites: trims and lower-cases the address, mails the link, audits, and refuses a duplicate', async () => {
    const res = await api('POST', '/operators', {
      email: ' New.Person@Ops.Example ',
      role: 'support',
      name: 'Nia',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.operator).toMatchObject({
      email: 'new.person@ops.example',
      name: 'Nia',
      role: 'support',
      status: 'INVITED',
      createdBy: 'token',
      enrolledAt: null,
      lastSignInAt: null,
      enrolmentExpiresAt: body.expiresAt,
    });
    expect(body.enrolmentUrl).toMatch(new RegExp(`^${BASE_URL}/admin/enrol#[A-Za-z0-9_-]{43}$`));
    expect(new Date(body.expiresAt).getTime() - t.clock.now().getTime()).toBe(24 * 60 * 60 * 1000);
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, 'new.person@ops.example'));
    expect(mail!.subject).toMatch(/invitation/);
    expect(mail!.text).toContain(body.enrolmentUrl);
    expect(await lastAudit(t, body.operator.id, 'operator.create')).toMatchObject({
      actor: 'token',
      before: null,
      after: { email: 'new.person@ops.example', role: 'support', status: 'INVITED' },
    });
    const dup = await api('POST', '/operators', { email: 'NEW.PERSON@ops.example', role: 'finance' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.code).toBe('CONFLICT');
    expect((await api('POST', '/operators', { email: 'not-an-address', role: 'finance' })).statusCode).toBe(
      400,
    );
    expect((await api('POST', '/operators', { email: 'a@b.example', role: 'god' })).statusCode).toBe(400);
  });

  it('lists operators, Owners first, without credentials', async () => {
    const owner = await enrolledOperator(t, 'owner', 'aaa-owner@ops.example');
    const res = await api('GET', '/operators');
    expect(res.statusCode).toBe(200);
    const list = res.json().operators as Array<Record<string, unknown>>;
    expect(list[0]!.role).toBe('owner');
    const mine = list.find((o) => o.id === owner.id)!;
    expect(mine).toMatchObject({ status: 'ACTIVE', enrolmentExpiresAt: null });
    expect(mine.enrolledAt).toEqual(expect.any(String));
    expect(JSON.stringify(list)).not.toMatch(/argon2|totp|password/i);
  });

  it('changes a role with the acting operator and before/after in the audit log', async () => {
    const owner = await signedInOperator(t, 'owner');
    const target = await signedInOperator(t, 'support');
    const res = await api(
      'PATCH',
      `/operators/${target.id}`,
      { role: 'finance', name: ' Fin ' },
      owner.headers,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().operator).toMatchObject({ role: 'finance', name: 'Fin' });
    expect(await lastAudit(t, target.id, 'operator.update')).toMatchObject({
      actor: `operator:${owner.id}`,
      before: { role: 'support', name: 'support operator' },
      after: { role: 'finance', name: 'Fin' },
    });
    expect((await api('PATCH', `/operators/${target.id}`, {})).statusCode).toBe(400);
    expect((await api('PATCH', '/operators/opr_unknown', { role: 'support' })).statusCode).toBe(404);
    // Other roles cannot manage operators.
    expect((await api('GET', '/operators', undefined, target.headers)).statusCode).toBe(403);
  });

  it('disabling ends every session of the operator and refuses the link; enabling restores', async () => {
    const op = await enrolledOperator(t, 'support');
    const other = await signedInOperator(t, 'support');
    const me = (cookie: string) =>
      t.app.inject({ url: '/api/admin/v1/operator/me', headers: { cookie, origin: BASE_URL } });
    expect((await me(op.cookie)).statusCode).toBe(200);
    const sessions = await api('GET', `/operators/${op.id}/sessions`);
    expect(sessions.json().sessions).toHaveLength(1);
    expect(sessions.json().sessions[0]).toMatchObject({ ip: '127.0.0.1', createdAt: expect.any(String) });
    const link = tokenOfLink((await api('POST', `/operators/${op.id}/enrolment`)).json().enrolmentUrl);
    const disabled = await api('PATCH', `/operators/${op.id}`, { status: 'DISABLED' });
    expect(disabled.json().operator).toMatchObject({ status: 'DISABLED', enrolmentExpiresAt: null });
    expect((await me(op.cookie)).statusCode).toBe(401);
    expect((await me(other.headers.cookie!)).statusCode).toBe(200);
    expect((await api('GET', `/operators/${op.id}/sessions`)).json().sessions).toEqual([]);
    expect((await t.app.inject({ url: `/api/admin/v1/operator/enrolment/${link}` })).statusCode).toBe(404);
    expect(await lastAudit(t, op.id, 'operator.update')).toMatchObject({
      before: { status: 'ACTIVE' },
      after: { status: 'DISABLED', sessionsEnded: 1 },
    });
    expect((await api('POST', `/operators/${op.id}/enrolment`)).statusCode).toBe(409);
    const enabled = await api('PATCH', `/operators/${op.id}`, { status: 'ACTIVE' });
    expect(enabled.json().operator.status).toBe('ACTIVE');
  });

  it('refuses to enable an operator who has not enrolled', async () => {
    const invited = (
      await api('POST', '/operators', { email: 'pending@ops.example', role: 'readonly' })
    ).json();
    const res = await api('PATCH', `/operators/${invited.operator.id}`, { status: 'ACTIVE' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('INVALID_STATE');
  });

  it('ends one session (audited) and 404s for an unknown or ended one', async () => {
    const op = await enrolledOperator(t, 'catalog');
    const [session] = (await api('GET', `/operators/${op.id}/sessions`)).json().sessions;
    expect((await api('DELETE', `/operator-sessions/${session.id}`)).statusCode).toBe(204);
    const me = await t.app.inject({
      url: '/api/admin/v1/operator/me',
      headers: { cookie: op.cookie, origin: BASE_URL },
    });
    expect(me.statusCode).toBe(401);
    expect((await api('DELETE', `/operator-sessions/${session.id}`)).statusCode).toBe(404);
    expect(await lastAudit(t, op.id, 'operator.session.end')).toMatchObject({
      actor: 'token',
      before: { sessionId: session.id },
    });
  });

  it('a new enrolment link re-enrols a locked-out operator; their old password works until then', async () => {
    const op = await enrolledOperator(t, 'finance');
    const renewed = await api('POST', `/operators/${op.id}/enrolment`);
    expect(renewed.statusCode).toBe(200);
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, op.email))
      .orderBy(desc(mailOutbox.createdAt));
    expect(mail!.subject).toMatch(/new .* sign-in link/);
    const [row] = await t.database.db.select().from(operators).where(eq(operators.id, op.id));
    expect(row!.status).toBe('ACTIVE');
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/admin/v1/operator/session',
      payload: { email: op.email, password: op.password, code: op.recoveryCodes[0] },
    });
    expect(signIn.statusCode).toBe(200);
    // Using the link replaces the password, the secret and the recovery codes, and ends sessions.
    const token = tokenOfLink(renewed.json().enrolmentUrl);
    const { totpSecret } = (await t.app.inject({ url: `/api/admin/v1/operator/enrolment/${token}` })).json();
    expect(totpSecret).not.toBe(op.totpSecret);
    const enrolled = await t.app.inject({
      method: 'POST',
      url: `/api/admin/v1/operator/enrolment/${token}`,
      payload: { password: 'a brand new password', code: totpCode(totpSecret, t.clock.now()) },
    });
    expect(enrolled.statusCode).toBe(200);
    const me = await t.app.inject({
      url: '/api/admin/v1/operator/me',
      headers: { cookie: op.cookie, origin: BASE_URL },
    });
    expect(me.statusCode).toBe(401);
    t.clock.advance(30_000);
    const old = await t.app.inject({
      method: 'POST',
      url: '/api/admin/v1/operator/session',
      payload: { email: op.email, password: op.password, code: op.recoveryCodes[1] },
    });
    expect(old.statusCode).toBe(401);
  });
});

describe('the last active Owner', () => {
  it('cannot be demoted or disabled; with a second Owner it can', async () => {
    const t = await buildTestApp();
    try {
      const first = await signedInOperator(t, 'owner');
      const patch = (id: string, payload: object) =>
        t.app.inject({
          method: 'PATCH',
          url: `/api/admin/v1/operators/${id}`,
          headers: first.headers,
          payload,
        });
      for (const change of [{ role: 'support' }, { status: 'DISABLED' }]) {
        const res = await patch(first.id, change);
        expect(res.statusCode).toBe(409);
        expect(res.json().error).toMatchObject({
          code: 'CONFLICT',
          message: expect.stringMatching(/last active Owner/),
        });
      }
      const second = await signedInOperator(t, 'support');
      expect((await patch(second.id, { role: 'owner' })).statusCode).toBe(200);
      expect((await patch(first.id, { role: 'readonly' })).statusCode).toBe(200);
      // The second is now the last one.
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/admin/v1/operators/${second.id}`,
        headers: second.headers,
        payload: { status: 'DISABLED' },
      });
      expect(res.statusCode).toBe(409);
    } finally {
      await t.close();
    }
  });
});
