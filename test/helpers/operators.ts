import { operators } from '../../src/db/schema/index.js';
import type { OperatorRole } from '../../src/domain/operators/roles.js';
import { totpCode } from '../../src/domain/operators/second-factor.js';
import { newId } from '../../src/lib/ids.js';
import { ADMIN_TOKEN, BASE_URL } from './config.js';
import type { TestApp } from './app.js';

export interface SignedInOperator {
  id: string;
  email: string;
  role: OperatorRole;
  /** Headers of a console request: the session cookie, and the console's own origin. */
  headers: Record<string, string>;
}

/**
 * An ACTIVE operator with a console session, written straight to the tables: for tests of what a
 * role may do. The sign-in itself (password + TOTP) is tested with the real flow.
 */
export async function signedInOperator(
  t: TestApp,
  role: OperatorRole,
  email?: string,
): Promise<SignedInOperator> {
  const id = newId('opr');
  const address = email ?? `${role}-${id.slice(4, 12).toLowerCase()}@ops.example`;
  await t.database.db.insert(operators).values({
    id,
    email: address,
    name: `${role} operator`,
    role,
    status: 'ACTIVE',
    createdBy: 'test',
    createdAt: t.clock.now(),
    enrolledAt: t.clock.now(),
  });
  const { token } = await t.container.operatorSessions.issue(t.database.db, id, {});
  return { id, email: address, role, headers: { cookie: `svc_operator=${token}`, origin: BASE_URL } };
}

export interface EnrolledOperator {
  id: string;
  email: string;
  role: OperatorRole;
  password: string;
  totpSecret: string;
  recoveryCodes: string[];
  /** The session cookie enrolment signed in with. */
  cookie: string;
}

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** The session cookie `Set-Cookie` carried, as a request's Cookie header. */
export function operatorCookieOf(res: { cookies: Array<{ name: string; value: string }> }): string {
  const cookie = res.cookies.find((c) => c.name === 'svc_operator');
  if (!cookie) throw new Error('no svc_operator cookie in the answer');
  return `svc_operator=${cookie.value}`;
}

/** The token of `…/admin/enrol#<token>`. */
export const tokenOfLink = (url: string) => url.slice(url.indexOf('#') + 1);

/**
 * An operator through the real flow: invited with the admin token, enrolled with the code an
 * authenticator app would show at the test clock's time. The clock is then moved one TOTP step
 * on, so the next sign-in's code is not the (spent) enrolment code.
 */
export async function enrolledOperator(
  t: TestApp,
  role: OperatorRole,
  email = `${role}-${newId('opr').slice(4, 12).toLowerCase()}@ops.example`,
): Promise<EnrolledOperator> {
  const invited = await t.app.inject({
    method: 'POST',
    url: '/api/admin/v1/operators',
    headers: admin,
    payload: { email, role },
  });
  if (invited.statusCode !== 201) throw new Error(`invite failed: ${invited.body}`);
  const token = tokenOfLink(invited.json().enrolmentUrl);
  const preview = await t.app.inject({ url: `/api/admin/v1/operator/enrolment/${token}` });
  const { totpSecret } = preview.json();
  const password = 'correct horse battery';
  const done = await t.app.inject({
    method: 'POST',
    url: `/api/admin/v1/operator/enrolment/${token}`,
    payload: { password, code: totpCode(totpSecret, t.clock.now()) },
  });
  if (done.statusCode !== 200) throw new Error(`enrolment failed: ${done.body}`);
  t.clock.advance(30_000);
  return {
    id: invited.json().operator.id,
    email,
    role,
    password,
    totpSecret,
    recoveryCodes: done.json().recoveryCodes,
    cookie: operatorCookieOf(done),
  };
}
