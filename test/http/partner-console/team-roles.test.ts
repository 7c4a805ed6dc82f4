import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerRole } from '../../../src/domain/partners/roles.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { balanceOf } from '../../helpers/factories.js';
import { expectLedgerInvariant } from '../../helpers/ledger.js';
import { partnerTeam } from './helpers.js';

let t: TestApp;
let team: Awaited<ReturnType<typeof partnerTeam>>;
beforeAll(async () => {
  t = await buildTestApp();
  team = await partnerTeam(t);
});
afterAll(() => t.close());
afterEach(async () => expectLedgerInvariant(t.container));

const ROLES: PartnerRole[] = ['owner', 'admin', 'developer', 'finance', 'viewer'];
const userOf = (role: PartnerRole) => (role === 'owner' ? team.owner : team[role]);
let n = 0;

/** Each route family: the request, and which roles it allows. */
const FAMILIES: Array<{
  name: string;
  allowed: PartnerRole[];
  request: () => { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object };
  ok?: number;
}> = [
  { name: 'GET members', allowed: ROLES, request: () => ({ method: 'GET', url: team.url('/members') }) },
  {
    name: 'PATCH member',
    allowed: ['owner', 'admin'],
    request: () => ({
      method: 'PATCH',
      url: team.url(`/members/${team.viewer.id}`),
      payload: { role: 'viewer' },
    }),
  },
  {
    name: 'GET invitations',
    allowed: ROLES,
    request: () => ({ method: 'GET', url: team.url('/invitations') }),
  },
  {
    name: 'POST invitation',
    allowed: ['owner', 'admin'],
    ok: 201,
    request: () => ({
      method: 'POST',
      url: team.url('/invitations'),
      payload: { email: `invitee-${++n}@example.com`, role: 'viewer' },
    }),
  },
  {
    name: 'GET keys',
    allowed: ['owner', 'admin', 'developer', 'viewer'],
    request: () => ({ method: 'GET', url: team.url('/keys') }),
  },
  {
    name: 'POST keys',
    allowed: ['owner', 'admin', 'developer'],
    request: () => ({ method: 'POST', url: team.url('/keys?mode=test'), payload: { mode: 'test' } }),
  },
  {
    name: 'POST test-wallet/reset',
    allowed: ['owner', 'admin', 'developer'],
    request: () => ({ method: 'POST', url: team.url('/test-wallet/reset?mode=test') }),
  },
  {
    name: 'POST wallet/top-ups',
    allowed: ['owner', 'admin', 'finance'],
    ok: 201,
    request: () => ({
      method: 'POST',
      url: team.url('/wallet/top-ups'),
      payload: { method: 'card', amount: 1000 },
    }),
  },
  {
    name: 'GET audit',
    allowed: ['owner', 'admin'],
    request: () => ({ method: 'GET', url: team.url('/audit') }),
  },
];

describe('every route family refuses the roles it does not allow with 403 ROLE_FORBIDDEN', () => {
  for (const family of FAMILIES) {
    for (const role of ROLES) {
      const allowed = family.allowed.includes(role);
      it(`${family.name}: ${role} → ${allowed ? 'allowed' : 'ROLE_FORBIDDEN'}`, async () => {
        const res = await t.app.inject({ ...family.request(), headers: userOf(role).auth });
        if (allowed) expect(res.statusCode, res.body).toBe(family.ok ?? 200);
        else {
          expect(res.statusCode).toBe(403);
          expect(res.json().code).toBe('ROLE_FORBIDDEN');
        }
      });
    }
    it(`${family.name}: a stranger gets 404`, async () => {
      const res = await t.app.inject({ ...family.request(), headers: team.stranger.auth });
      expect(res.statusCode).toBe(404);
    });
  }

  it('removing and revoking need members.write', async () => {
    for (const role of ['developer', 'finance', 'viewer'] as const) {
      const del = await t.app.inject({
        method: 'DELETE',
        url: team.url(`/members/${team.viewer.id}`),
        headers: userOf(role).auth,
      });
      expect(del.json().code).toBe('ROLE_FORBIDDEN');
      const revoke = await t.app.inject({
        method: 'DELETE',
        url: team.url('/invitations/pinv_x'),
        headers: userOf(role).auth,
      });
      expect(revoke.json().code).toBe('ROLE_FORBIDDEN');
    }
  });
});

describe('keys, test wallet and top-ups', () => {
  it('a Finance member never receives a key prefix or secret from any route', async () => {
    await t.app.inject({
      method: 'POST',
      url: team.url('/keys'),
      headers: team.owner.auth,
      payload: { mode: 'test' },
    });
    const bodies: string[] = [];
    for (const path of ['', '/members', '/invitations', '/keys', '/audit', '?mode=test', '/keys?mode=test']) {
      bodies.push((await t.app.inject({ url: team.url(path), headers: team.finance.auth })).body);
    }
    bodies.push((await t.app.inject({ url: '/api/v1/partners', headers: team.finance.auth })).body);
    for (const body of bodies) expect(body).not.toMatch(/svc_(live|test)_sk_/);
  });

  it('lists the prefixes; a rotation returns the key once and the old one stops working', async () => {
    const before = (await t.app.inject({ url: team.url('/keys'), headers: team.viewer.auth })).json();
    expect(before.live.apiKeyPrefix).toMatch(/^svc_live_sk_.{4}….{4}$/);
    const made = await t.app.inject({
      method: 'POST',
      url: team.url('/keys'),
      headers: team.developer.auth,
      payload: { mode: 'live' },
    });
    const { key, apiKeyPrefix } = made.json();
    expect(key).toMatch(/^svc_live_sk_[A-Za-z0-9]{40}$/);
    const after = (await t.app.inject({ url: team.url('/keys'), headers: team.viewer.auth })).json();
    expect(after.live.apiKeyPrefix).toBe(apiKeyPrefix);
    expect(JSON.stringify(after)).not.toContain(key);
    const wallet = (k: string) => t.app.inject({ url: '/api/public/v1/wallet', headers: { 'x-api-key': k } });
    expect((await wallet(key)).statusCode).toBe(200);
    expect((await wallet(team.key)).statusCode).toBe(401);
    team.key = key;
  });

  it("the owner's personal key routes keep working on the same key", async () => {
    const mine = (await t.app.inject({ url: '/api/v1/user/api-keys', headers: team.owner.auth })).json();
    const dash = (await t.app.inject({ url: team.url('/keys'), headers: team.owner.auth })).json();
    expect(mine.live.apiKeyPrefix).toBe(dash.live.apiKeyPrefix);
  });

  it("resets the partner's test wallet", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: team.url('/test-wallet/reset?mode=test'),
      headers: team.developer.auth,
    });
    expect(res.json()).toEqual({ testBalanceUsd: 1000 });
  });

  it("a member's top-up credits the partner's wallet, not the member's", async () => {
    const partnerBefore = await balanceOf(t.container, team.owner.id);
    const financeBefore = await balanceOf(t.container, team.finance.id);
    const res = await t.app.inject({
      method: 'POST',
      url: team.url('/wallet/top-ups'),
      headers: team.finance.auth,
      payload: { method: 'card', amount: 2500 },
    });
    expect(res.statusCode).toBe(201);
    const sessionId = new URL(res.json().url).pathname.split('/').pop()!;
    const paid = await t.app.inject({
      method: 'POST',
      url: `/sandbox/card/${sessionId}/complete`,
      payload: { outcome: 'paid' },
    });
    expect(paid.statusCode).toBeLessThan(400);
    expect(await balanceOf(t.container, team.owner.id)).toBe(partnerBefore + 2500);
    expect(await balanceOf(t.container, team.finance.id)).toBe(financeBefore);
    const test = await t.app.inject({
      method: 'POST',
      url: team.url('/wallet/top-ups?mode=test'),
      headers: team.finance.auth,
      payload: { method: 'card', amount: 2500 },
    });
    expect(test.statusCode).toBe(400);
  });
});

describe('the top-up budget', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await buildTestApp({ env: { PAYMENT_SESSION_LIMIT: '3' } });
  });
  afterAll(() => small.close());

  it('top-ups share one payment-session budget per partner (429 past it)', async () => {
    const other = await partnerTeam(small);
    const start = (who: { auth: Record<string, string> }) =>
      small.app.inject({
        method: 'POST',
        url: other.url('/wallet/top-ups'),
        headers: who.auth,
        payload: { method: 'card', amount: 500 },
      });
    for (const who of [other.admin, other.finance, other.owner])
      expect((await start(who)).statusCode).toBe(201);
    const over = await start(other.finance);
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
  });
});
