import { ADMIN_TOKEN, type TestApp } from '../../helpers/app.js';
import { createUser } from '../../helpers/factories.js';

export const PARTNER_ROOT = '/api/public/v1';

/** An ACTIVE account with a funded wallet and an API key, as a partner holds it. */
export async function createPartner(t: TestApp, balanceCents = 0) {
  const user = await createUser(t.container, { balanceCents });
  const { key } = await t.container.apiKeys.generate(user.id);
  return { id: user.id, key, headers: { 'x-api-key': key } };
}

export function postOrder(
  t: TestApp,
  headers: Record<string, string>,
  payload: unknown,
  extra: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'POST',
    url: `${PARTNER_ROOT}/orders`,
    headers: { ...headers, ...extra },
    payload: payload as object,
  });
}

/** An operator call (sandbox faults and usage, decisions §6). */
export function adminPost(t: TestApp, url: string, payload: object) {
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/v1${url}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload,
  });
}

/** An account with a funded live wallet and both keys (live, test), made through the Mobile API. */
export async function partnerWithBothKeys(t: TestApp, balanceCents = 50_000) {
  const user = await createUser(t.container, { balanceCents });
  const generate = (payload?: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/user/api-key/generate',
      headers: user.auth,
      ...(payload ? { payload } : {}),
    });
  const live = (await generate()).json().key as string;
  const test = (await generate({ mode: 'test' })).json().key as string;
  return { user, live: { 'x-api-key': live }, test: { 'x-api-key': test } };
}
