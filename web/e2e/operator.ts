import { randomBytes } from 'node:crypto';
import { expect, request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { ADMIN_TOKEN, baseURL } from './env';

/**
 * Issue 33 O1: named operators for the console's journeys. `createOperator` invites one with the
 * admin token and enrols them through the enrolment API with the code an authenticator app would
 * show; `signIn` gives a page their console session. The console's own sign-in and enrolment
 * pages are exercised by admin-operators.spec.ts.
 */

export type OperatorRole = 'owner' | 'support' | 'finance' | 'catalog' | 'readonly';

export interface TestOperator {
  id: string;
  email: string;
  name: string;
  role: OperatorRole;
  password: string;
  /** The authenticator secret (base32) the enrolment page offered. */
  totpSecret: string;
  recoveryCodes: string[];
  /** The last TOTP time step the server accepted: each code works once. */
  lastStep: number;
}

const STEP_MS = 30_000;
export const OPERATOR_PASSWORD = 'operator-horse-42';

function totp(secret: string): TOTP {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
}

/** The code of a time step, as the phone would show it then. */
export function codeAt(secret: string, step: number): string {
  return totp(secret).generate({ timestamp: step * STEP_MS });
}

/**
 * A code the server has not seen yet: this step's, or the next one's (within its ±1 step window)
 * when this one was spent; when both were, one of the recovery codes (each works once), and only
 * when those are gone, a wait for the clock.
 */
export async function nextCode(operator: TestOperator): Promise<string> {
  let now = Math.floor(Date.now() / STEP_MS);
  if (operator.lastStep >= now + 1) {
    const recovery = operator.recoveryCodes.shift();
    if (recovery) return recovery;
    await new Promise((resolve) => setTimeout(resolve, (operator.lastStep - now) * STEP_MS));
    now = Math.floor(Date.now() / STEP_MS);
  }
  const step = Math.max(now, operator.lastStep + 1);
  operator.lastStep = step;
  return codeAt(operator.totpSecret, step);
}

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

/**
 * An ACTIVE operator of `role`: invited with ADMIN_TOKEN through `request`, then enrolled through
 * the public enrolment API in a context of its own (so its session cookie lands in no page).
 */
export async function createOperator(
  request: APIRequestContext,
  role: OperatorRole,
  options: { email?: string; name?: string } = {},
): Promise<TestOperator> {
  const email = options.email ?? `${role}-${randomBytes(4).toString('hex')}@ops.example`;
  const name = options.name ?? `${role[0]!.toUpperCase()}${role.slice(1)} Tester`;
  const invited = await request.post(`${baseURL}/api/admin/v1/operators`, {
    headers: admin,
    data: { email, role, name },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const { operator, enrolmentUrl } = (await invited.json()) as {
    operator: { id: string };
    enrolmentUrl: string;
  };
  const token = enrolmentUrl.slice(enrolmentUrl.indexOf('#') + 1);
  const own = await playwrightRequest.newContext({ baseURL });
  try {
    const preview = await own.get(`/api/admin/v1/operator/enrolment/${token}`);
    expect(preview.status(), await preview.text()).toBe(200);
    const { totpSecret } = (await preview.json()) as { totpSecret: string };
    const step = Math.floor(Date.now() / STEP_MS);
    const done = await own.post(`/api/admin/v1/operator/enrolment/${token}`, {
      data: { password: OPERATOR_PASSWORD, code: codeAt(totpSecret, step) },
    });
    expect(done.status(), await done.text()).toBe(200);
    const { recoveryCodes } = (await done.json()) as { recoveryCodes: string[] };
    return {
      id: operator.id,
      email,
      name,
      role,
      password: OPERATOR_PASSWORD,
      totpSecret,
      recoveryCodes,
      lastStep: step,
    };
  } finally {
    await own.dispose();
  }
}

/**
 * Signs the page's browser context in as `operator` (the sign-in API with a fresh TOTP code; the
 * cookie is shared with the page), then opens `path` of the console.
 */
export async function signIn(page: Page, operator: TestOperator, path = '/admin'): Promise<void> {
  const res = await page.request.post(`${baseURL}/api/admin/v1/operator/session`, {
    headers: { origin: baseURL },
    data: { email: operator.email, password: operator.password, code: await nextCode(operator) },
  });
  expect(res.status(), await res.text()).toBe(200);
  await page.goto(path);
}
