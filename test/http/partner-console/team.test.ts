import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../../src/lib/clock.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { createUser, type TestUser } from '../../helpers/factories.js';
import { CONSOLE_ROOT, partnerTeam } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

type Team = Awaited<ReturnType<typeof partnerTeam>>;

async function invite(team: Team, by: TestUser, email: string, role = 'developer') {
  return t.app.inject({
    method: 'POST',
    url: team.url('/invitations'),
    headers: by.auth,
    payload: { email, role },
  });
}
const tokenOf = (path: string) => path.split('/').pop()!;
const accept = (token: string, user: TestUser) =>
  t.app.inject({ method: 'POST', url: `/api/v1/partner-invitations/${token}/accept`, headers: user.auth });
const audit = async (team: Team) =>
  (await t.app.inject({ url: team.url('/audit'), headers: team.owner.auth })).json().entries as Array<
    Record<string, unknown>
  >;

describe('invitations', () => {
  it('invite → mail and link once → preview → accept joins with the role, audited', async () => {
    const team = await partnerTeam(t);
    const invitee = await createUser(t.container);
    const res = await invite(team, team.owner, invitee.email.toUpperCase(), 'finance');
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.path).toMatch(/^\/partner-invitations\/[A-Za-z0-9_-]+$/);
    expect(body.url).toBe(`http://localhost:3000${body.path}`);
    expect(body.invitation).toMatchObject({ email: invitee.email, role: 'finance', status: 'pending' });
    const mails = await t.container.mailer.list({ to: invitee.email });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(body.url);

    const listed = await t.app.inject({ url: team.url('/invitations'), headers: team.admin.auth });
    expect(listed.json().invitations).toEqual([expect.objectContaining({ id: body.invitation.id })]);
    expect(JSON.stringify(listed.json())).not.toContain(tokenOf(body.path));

    const preview = await t.app.inject({ url: `/api/v1/partner-invitations/${tokenOf(body.path)}` });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ partnerId: team.owner.id, role: 'finance', status: 'pending' });

    t.clock.advance(1000);
    const ok = await accept(tokenOf(body.path), invitee);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ partnerId: team.owner.id, role: 'finance' });
    const members = (await t.app.inject({ url: team.url('/members'), headers: invitee.auth })).json().members;
    expect(members[0]).toMatchObject({ accountId: team.owner.id, role: 'owner', self: true });
    expect(members).toContainEqual(expect.objectContaining({ accountId: invitee.id, role: 'finance' }));

    const again = await accept(tokenOf(body.path), invitee);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'INVALID_TOKEN', reason: 'used' });
    expect(
      (await t.app.inject({ url: team.url('/invitations'), headers: team.owner.auth })).json().invitations,
    ).toEqual([]);

    const entries = await audit(team);
    expect(entries[0]).toMatchObject({
      action: 'partner.member.add',
      actor: `account:${invitee.id}`,
      actorEmail: invitee.email,
      targetId: invitee.id,
      before: null,
      after: expect.objectContaining({ role: 'finance' }),
    });
    expect(entries[1]).toMatchObject({
      action: 'partner.invitation.create',
      actor: `account:${team.owner.id}`,
      after: { email: invitee.email, role: 'finance' },
    });
  });

  it('expires after 7 days on the clock', async () => {
    const team = await partnerTeam(t);
    const invitee = await createUser(t.container);
    const { path } = (await invite(team, team.owner, invitee.email)).json();
    t.clock.advance(7 * DAY);
    const preview = await t.app.inject({ url: `/api/v1/partner-invitations/${tokenOf(path)}` });
    expect(preview.json().status).toBe('expired');
    const res = await accept(tokenOf(path), invitee);
    expect(res.json()).toMatchObject({ code: 'INVALID_TOKEN', reason: 'expired' });
    expect((await t.app.inject({ url: team.url(), headers: invitee.auth })).statusCode).toBe(404);
  });

  it('a revoked invitation cannot be accepted; the revocation is audited', async () => {
    const team = await partnerTeam(t);
    const invitee = await createUser(t.container);
    const { path, invitation } = (await invite(team, team.admin, invitee.email)).json();
    t.clock.advance(1000);
    const del = await t.app.inject({
      method: 'DELETE',
      url: team.url(`/invitations/${invitation.id}`),
      headers: team.admin.auth,
    });
    expect(del.statusCode).toBe(200);
    expect((await accept(tokenOf(path), invitee)).json()).toMatchObject({
      code: 'INVALID_TOKEN',
      reason: 'revoked',
    });
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: team.url(`/invitations/${invitation.id}`),
          headers: team.admin.auth,
        })
      ).statusCode,
    ).toBe(404);
    expect((await audit(team))[0]).toMatchObject({
      action: 'partner.invitation.revoke',
      actor: `account:${team.admin.id}`,
      before: { email: invitee.email, role: 'developer' },
    });
  });

  it('binds to the invited address: another signed-in account is refused', async () => {
    const team = await partnerTeam(t);
    const { path } = (await invite(team, team.owner, 'someone-else@example.com')).json();
    const res = await accept(tokenOf(path), team.stranger);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', reason: 'email_mismatch' });
    expect((await accept('x'.repeat(43), team.stranger)).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/v1/partner-invitations/${tokenOf(path)}/accept` }))
        .statusCode,
    ).toBe(401);
  });

  it('refuses to invite someone already on the team', async () => {
    const team = await partnerTeam(t);
    const res = await invite(team, team.owner, team.developer.email);
    expect(res.statusCode).toBe(409);
  });
});

describe('roles: Owner and Admin rules', () => {
  const patch = (team: Team, by: TestUser, id: string, role: string) =>
    t.app.inject({ method: 'PATCH', url: team.url(`/members/${id}`), headers: by.auth, payload: { role } });
  const remove = (team: Team, by: TestUser, id: string) =>
    t.app.inject({ method: 'DELETE', url: team.url(`/members/${id}`), headers: by.auth });

  it('an Owner promotes to Owner; an Admin cannot make, demote or remove an Owner', async () => {
    const team = await partnerTeam(t);
    t.clock.advance(1000);
    const promoted = await patch(team, team.owner, team.viewer.id, 'owner');
    expect(promoted.statusCode).toBe(200);
    expect((await audit(team))[0]).toMatchObject({
      action: 'partner.member.role.update',
      actor: `account:${team.owner.id}`,
      targetId: team.viewer.id,
      before: { role: 'viewer' },
      after: { role: 'owner' },
    });
    for (const res of [
      await patch(team, team.admin, team.developer.id, 'owner'),
      await patch(team, team.admin, team.viewer.id, 'viewer'),
      await remove(team, team.admin, team.viewer.id),
      await invite(team, team.admin, 'new-owner@example.com', 'owner'),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('ROLE_FORBIDDEN');
    }
    expect((await patch(team, team.admin, team.developer.id, 'viewer')).statusCode).toBe(200);
    expect((await remove(team, team.owner, team.viewer.id)).statusCode).toBe(200);
  });

  it("nobody changes or removes the partner's own login; members can leave", async () => {
    const team = await partnerTeam(t);
    for (const res of [
      await patch(team, team.admin, team.owner.id, 'viewer'),
      await remove(team, team.admin, team.owner.id),
      await t.app.inject({ method: 'DELETE', url: team.url('/membership'), headers: team.owner.auth }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN', reason: 'partner_login' });
    }
    t.clock.advance(1000);
    const left = await t.app.inject({
      method: 'DELETE',
      url: team.url('/membership'),
      headers: team.viewer.auth,
    });
    expect(left.statusCode).toBe(200);
    expect((await t.app.inject({ url: team.url(), headers: team.viewer.auth })).statusCode).toBe(404);
    expect((await audit(team))[0]).toMatchObject({
      action: 'partner.member.leave',
      actor: `account:${team.viewer.id}`,
      before: { role: 'viewer', email: team.viewer.email },
    });
  });

  it('removing a member keeps the partner API key working and is audited', async () => {
    const team = await partnerTeam(t);
    // The developer rotates the key: it is the partner's key, not the developer's.
    const made = await t.app.inject({
      method: 'POST',
      url: team.url('/keys'),
      headers: team.developer.auth,
      payload: { mode: 'live' },
    });
    expect(made.statusCode).toBe(200);
    const key = made.json().key as string;
    t.clock.advance(1000);
    expect((await remove(team, team.admin, team.developer.id)).statusCode).toBe(200);
    const wallet = await t.app.inject({ url: '/api/public/v1/wallet', headers: { 'x-api-key': key } });
    expect(wallet.statusCode).toBe(200);
    const entries = await audit(team);
    expect(entries[0]).toMatchObject({
      action: 'partner.member.remove',
      actor: `account:${team.admin.id}`,
      before: { role: 'developer', email: team.developer.email },
    });
    expect(entries[1]).toMatchObject({ action: 'partner.key.rotate', actor: `account:${team.developer.id}` });
    expect(JSON.stringify(entries)).not.toContain(key);
  });

  it('pages the audit log newest first by cursor', async () => {
    const team = await partnerTeam(t);
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      t.clock.advance(1000);
      await invite(team, team.owner, email);
    }
    const first = (await t.app.inject({ url: team.url('/audit?limit=2'), headers: team.admin.auth })).json();
    expect(first.entries.map((e: { after: { email: string } }) => e.after.email)).toEqual([
      'c@example.com',
      'b@example.com',
    ]);
    const second = (
      await t.app.inject({
        url: team.url(`/audit?limit=2&cursor=${first.nextCursor}`),
        headers: team.admin.auth,
      })
    ).json();
    expect(second.entries.map((e: { after: { email: string } }) => e.after.email)).toEqual(['a@example.com']);
    expect(second.nextCursor).toBeNull();
    expect(CONSOLE_ROOT).toBe('/api/v1/partners');
  });
});
