import { randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '../../src/config/index.js';
import type { Container } from '../../src/container.js';
import type { Resolver } from '../../src/domain/webhooks/ssrf.js';
import type { WebhookTransport } from '../../src/domain/webhooks/transport.js';
import type { EsimProvider } from '../../src/providers/esim/types.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const BASE_URL = 'http://localhost:3000';

const testRedisUrl = process.env.TEST_REDIS_URL;

/**
 * The configuration every test app and container starts from, plus `env` as a user would set it.
 * `shareWith`: a second instance keeps the first one's Redis key space.
 */
export function testConfig(
  env: Record<string, string | undefined> = {},
  shareWith?: Readonly<Config>,
): Readonly<Config> {
  return loadConfig({
    PUBLIC_BASE_URL: BASE_URL,
    ADMIN_TOKEN: 'ADMIN_TOKEN' in env ? env.ADMIN_TOKEN : ADMIN_TOKEN,
    LOG_LEVEL: 'silent',
    WORKER_ENABLED: 'false',
    DATABASE_URL: 'memory://',
    REDIS_URL: testRedisUrl,
    REDIS_KEY_PREFIX: shareWith ? shareWith.redisKeyPrefix : `esim-test:${randomBytes(6).toString('hex')}:`,
    // Tests send every request from 127.0.0.1 and register many accounts; the register limit
    // and app redirect schemes are exercised explicitly in test/http/security/*.
    REGISTER_RATE_LIMIT: '100000',
    // Per-account budgets (issue 28 H9) likewise: test/http/mobile/account-limits.test.ts.
    PAYMENT_SESSION_LIMIT: '100000',
    TICKET_LIMIT: '100000',
    TICKET_MESSAGE_LIMIT: '100000',
    APP_URL_SCHEMES: 'myapp',
    // The scheduled poll's spacing is exercised in test/domain/orders/esim-poll.test.ts.
    ESIM_POLL_RATE_PER_SECOND: '100',
    ...env,
  });
}

/**
 * Stand-ins a test builds its app or container with from the start, instead of swapping a
 * provider on a running one.
 */
export interface TestReplacements {
  /** The live eSIM provider, given the one the configuration made (to wrap or delegate to). */
  esimProvider?: (configured: EsimProvider) => EsimProvider;
  /** DNS lookups of partner webhook deliveries. */
  webhookResolve?: Resolver;
  /** The HTTP transport of partner webhook deliveries. */
  webhookTransport?: WebhookTransport;
  /** The jitter source of webhook retries; default `() => 0`, so retries keep the bare schedule. */
  webhookRandom?: () => number;
}

export function applyReplacements(container: Container, replacements: TestReplacements): void {
  if (replacements.esimProvider)
    container.providers.esim = replacements.esimProvider(container.providers.esim);
  if (replacements.webhookResolve) container.webhookNet.resolve = replacements.webhookResolve;
  if (replacements.webhookTransport) container.webhookNet.transport = replacements.webhookTransport;
  container.webhookNet.random = replacements.webhookRandom ?? (() => 0);
}
