import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/index.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';

/**
 * H6: which address ESIMACCESS_WEBHOOK_IPS is checked against. Without TRUST_PROXY only the TCP
 * peer counts; with TRUST_PROXY naming the load balancer, the address that balancer forwards
 * counts, and X-Forwarded-For from anyone else (or entries a client put in front) never does.
 */
const TOKEN = 'esimaccess-hook-token-0123456789';
const PATH = `/webhooks/esim/esimaccess/${TOKEN}`;
const PROVIDER = '3.1.131.226';
const STRANGER = '203.0.113.9';
const BALANCER = '10.0.0.1';

type Send = (remoteAddress: string, forwardedFor?: string) => Promise<number>;

/** An app with the allow-list and `env`, built once for its describe block. */
function appWith(env: Record<string, string>): Send {
  let t: TestApp;
  let n = 0;
  beforeAll(async () => {
    t = await buildTestApp({
      env: { ESIMACCESS_WEBHOOK_TOKEN: TOKEN, ESIMACCESS_WEBHOOK_IPS: `${PROVIDER}, 54.254.74.88`, ...env },
    });
  });
  afterAll(() => t.close());
  return async (remoteAddress, forwardedFor) => {
    const res = await t.app.inject({
      method: 'POST',
      url: PATH,
      payload: { notifyType: 'CHECK_HEALTH', notifyId: `ip-${++n}`, content: {} },
      remoteAddress,
      headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    });
    return res.statusCode;
  };
}

describe('ESIMACCESS_WEBHOOK_IPS and TRUST_PROXY (H6)', () => {
  describe('without TRUST_PROXY', () => {
    const send = appWith({});
    it('checks the TCP peer and ignores X-Forwarded-For', async () => {
      expect(await send(STRANGER, PROVIDER)).toBe(403);
      expect(await send(BALANCER, PROVIDER)).toBe(403);
      expect(await send(PROVIDER)).toBe(200);
      expect(await send(PROVIDER, STRANGER)).toBe(200);
    });
  });

  describe('with TRUST_PROXY naming the load balancer', () => {
    const send = appWith({ TRUST_PROXY: BALANCER });
    it('checks the address that balancer forwards, and only that', async () => {
      // The provider, through the balancer (which appends the peer it saw).
      expect(await send(BALANCER, PROVIDER)).toBe(200);
      expect(await send(BALANCER, `::ffff:${PROVIDER}`)).toBe(200);
      // A stranger through the balancer, with the provider's address put in front by itself.
      expect(await send(BALANCER, `${PROVIDER}, ${STRANGER}`)).toBe(403);
      // A stranger reaching the service directly: its X-Forwarded-For is not believed.
      expect(await send(STRANGER, PROVIDER)).toBe(403);
      // The balancer's own address is not the provider's.
      expect(await send(BALANCER)).toBe(403);
    });
  });

  it.each([['true'], ['1'], ['2']])(
    'refuses to start with TRUST_PROXY=%s, which believes any sender’s X-Forwarded-For',
    (trust) => {
      const start = () => loadConfig({ ESIMACCESS_WEBHOOK_IPS: PROVIDER, TRUST_PROXY: trust });
      expect(start).toThrow(ConfigError);
      expect(start).toThrow(/^ESIMACCESS_WEBHOOK_IPS .*TRUST_PROXY/);
      // Each alone is fine.
      expect(() => loadConfig({ TRUST_PROXY: trust })).not.toThrow();
      expect(() => loadConfig({ ESIMACCESS_WEBHOOK_IPS: PROVIDER, TRUST_PROXY: BALANCER })).not.toThrow();
    },
  );
});
