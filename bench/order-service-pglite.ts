/**
 * The service on an in-memory PGlite for the order scenarios' PGlite ratio: migrates, runs the
 * start-up tasks, seeds funded partners and Mobile users in its own process (an in-memory
 * database is private to it), listens on an ephemeral port and reports port, keys, tokens and
 * plan over IPC. Child process of bench/run.ts.
 */
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config/index.js';
import { openContainer } from '../src/container.js';
import { buildApp } from '../src/http/app.js';
import { silentLogger } from '../src/lib/logger.js';
import { seedMobileUsers } from './orders.js';
import { cheapestPlan, seedPartners } from './seed.js';

const count = Number(process.env.BENCH_PARTNERS ?? 64);
const container = await openContainer(loadConfig({ ...process.env, DATABASE_URL: 'memory://' }), {
  log: silentLogger,
});
const app = await buildApp({ container, logger: false });
await app.container.startup();
const plan = await cheapestPlan(app.container);
const funding = plan.priceCents * 100_000;
const partners = await seedPartners(app.container, count, funding);
const mobileTokens = await seedMobileUsers(app.container, count, funding);
await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({
  port: (app.server.address() as AddressInfo).port,
  partnerKeys: partners.map((p) => p.key),
  mobileTokens,
  planId: plan.id,
});
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => container.close())
    .then(() => process.exit(0));
});
