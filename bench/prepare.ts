import { loadConfig } from '../src/config/index.js';
import { openContainer } from '../src/container/open.js';
import { silentLogger } from '../src/lib/logger.js';
import type { BenchDatabaseKind } from './harness.js';
import { cheapestPlan, seedLoginUser, seedMobileUsers, seedPartners, type BenchSeed } from './seed.js';

/**
 * The service's environment in the bench: `npm start`'s defaults (sandbox providers, `LOG_LEVEL`
 * info: the request log written), plus the bench's database and rate limits and the per-client
 * hashing share raised out of the way (the same guard runs on every request, with a budget the
 * load cannot spend). Nothing else: a path that the bench takes and users do not is a defect
 * (docs/performance.md).
 */
export function serviceEnv(database: BenchDatabaseKind, url: string, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: database === 'postgresql' ? url : '',
    DATA_DIR: dataDir,
    ESIM_PROVIDER: 'sandbox',
    CARD_PROVIDER: 'sandbox',
    CRYPTO_PROVIDER: 'sandbox',
    SANDBOX_ESIM_LATENCY_MS: '0',
    PARTNER_READ_RATE_LIMIT: '10000000',
    PARTNER_ORDER_RATE_LIMIT: '10000000',
    AUTH_RATE_LIMIT: '10000000',
    // The load's connections stand for many users from one address: the per-client share of
    // password hashing (4) would refuse most logins with 429. The queue's own bound (64) stays.
    PASSWORD_HASH_CLIENT_LIMIT: '64',
    REDIS_URL: process.env.BENCH_REDIS_URL ?? '',
  };
  delete env.LOG_LEVEL;
  delete env.ADMIN_TOKEN;
  delete env.METRICS_TOKEN;
  // GET /metrics (heap, GC, event-loop lag) while a scenario runs, for a look inside the RSS figure.
  if (process.env.BENCH_METRICS_TOKEN) env.METRICS_TOKEN = process.env.BENCH_METRICS_TOKEN;
  return env;
}

/**
 * Migrates the database, runs the start-up tasks (catalog import) and seeds funded partners, funded
 * Mobile users with sessions and a login user, from this process, then closes it (on-disk PGlite cannot be shared by two processes).
 */
export async function prepare(
  env: NodeJS.ProcessEnv,
  dir: string,
  counts: { partners: number; ordersPerPartner: number },
): Promise<BenchSeed> {
  const container = await openContainer(loadConfig(env), { log: silentLogger });
  const app = { container, close: () => container.close() };
  try {
    await app.container.startup();
    const plan = await cheapestPlan(app.container);
    const funding = plan.priceCents * counts.ordersPerPartner;
    const partners = await seedPartners(app.container, counts.partners, funding);
    const mobileTokens = await seedMobileUsers(app.container, counts.partners, funding);
    const login = await seedLoginUser(app.container, dir);
    return { partners, planId: plan.id, login, mobileTokens };
  } finally {
    await app.close();
  }
}
