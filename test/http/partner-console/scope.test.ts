import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerScope } from '../../../src/http/mobile/partners/scope.js';
import { installErrorHandling } from '../../../src/http/shared/errors.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { CONSOLE_ROOT, partnerTeam } from './helpers.js';

describe('the partner dashboard scope (/api/v1/partners/{partnerId})', () => {
  let t: TestApp;
  let team: Awaited<ReturnType<typeof partnerTeam>>;
  beforeAll(async () => {
    t = await buildTestApp();
    team = await partnerTeam(t);
  });
  afterAll(() => t.close());

  it('lists your own account first, then the partners whose team you joined, with your role', async () => {
    const own = await t.app.inject({ url: CONSOLE_ROOT, headers: team.owner.auth });
    expect(own.statusCode).toBe(200);
    expect(own.json().partners).toEqual([
      expect.objectContaining({ id: team.owner.id, role: 'owner', self: true }),
    ]);
    const dev = (await t.app.inject({ url: CONSOLE_ROOT, headers: team.developer.auth })).json();
    expect(dev.partners.map((p: { id: string; role: string }) => [p.id, p.role])).toEqual([
      [team.developer.id, 'owner'],
      [team.owner.id, 'developer'],
    ]);
    const finance = dev.partners[1].permissions as string[];
    expect(finance).toContain('keys.write');
    expect(finance).not.toContain('wallet.topup');
  });

  it('answers a member with the partner and their role, and a stranger with 404', async () => {
    const res = await t.app.inject({ url: team.url(), headers: team.viewer.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: team.owner.id, role: 'viewer', self: false, hasLiveKey: true });
    expect(res.json().permissions).not.toContain('keys.write');

    const stranger = await t.app.inject({ url: team.url(), headers: team.stranger.auth });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().code).toBe('NOT_FOUND');
    expect((await t.app.inject({ url: team.url() })).statusCode).toBe(401);
  });

  it('refuses an unknown mode', async () => {
    const res = await t.app.inject({ url: team.url('?mode=staging'), headers: team.owner.auth });
    expect(res.statusCode).toBe(400);
  });

  it('refuses at start-up a dashboard route that names no permission', async () => {
    const app = Fastify();
    const registering = app.register(async (scoped) => {
      scoped.decorate('container', {} as never);
      await partnerScope(scoped);
      scoped.get('/keys', async () => ({}));
    });
    await expect(registering).rejects.toThrow(
      /GET \/keys: a partner dashboard route needs config.permission/,
    );
  });

  it('answers 401 without a session even where a route made its auth optional', async () => {
    const app = Fastify();
    app.decorateRequest('auth', null);
    app.decorateRequest('partnerAccess', null);
    await app.register(async (scoped) => {
      installErrorHandling(scoped, 'mobile');
      scoped.decorate('container', {} as never);
      await partnerScope(scoped);
      scoped.get(
        '/p/:partnerId/x',
        { config: { permission: 'partner.read', auth: 'optional' } },
        async () => ({
          reached: true,
        }),
      );
    });
    const res = await app.inject({ url: '/p/acc_1/x' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
