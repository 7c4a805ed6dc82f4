/**
 * `npx tsx bench/order-statements.ts`: how many SQL statements one Partner `POST /orders` and one
 * Mobile wallet checkout cost (sandbox provider, in-memory PGlite, worker off). Independent of
 * machine load, so it shows what the order path does where req/s on a busy machine cannot.
 */
import { PGlite } from '@electric-sql/pglite';
import type { InjectOptions } from 'fastify';
import { loadConfig } from '../src/config/index.js';
import { wrapPglite } from '../src/db/pglite.js';
import { createContainer } from '../src/container.js';
import { buildApp } from '../src/http/app.js';
import { systemClock } from '../src/lib/clock.js';
import { silentLogger } from '../src/lib/logger.js';
import { seedMobileUsers } from './seed.js';
import { cheapestPlan, seedPartners } from './seed.js';

const client = new PGlite();
const database = wrapPglite(client);
await database.migrate();
const config = loadConfig({
  ...process.env,
  DATABASE_URL: 'memory://',
  WORKER_ENABLED: 'false',
  LOG_LEVEL: 'silent',
});
const container = createContainer({ config, database, clock: systemClock, log: silentLogger });
const app = await buildApp({ container, logger: false });
await app.container.startup();
const plan = await cheapestPlan(app.container);
const [partner] = await seedPartners(app.container, 1, plan.priceCents * 100);
const [token] = await seedMobileUsers(app.container, 1, plan.priceCents * 100);

// Count every statement: top-level queries and those inside transactions (BEGIN/COMMIT included).
let statements: string[] = [];
type Query = (text: string, ...rest: unknown[]) => Promise<unknown>;
const wrap = (target: { query: Query }) => {
  const original = target.query.bind(target);
  target.query = (text, ...rest) => {
    statements.push(text.replace(/\s+/g, ' ').slice(0, 90));
    return original(text, ...rest);
  };
};
wrap(client as unknown as { query: Query });
const transaction = client.transaction.bind(client);
(client as unknown as { transaction: unknown }).transaction = (
  fn: (tx: { query: Query }) => Promise<unknown>,
) =>
  transaction(async (tx) => {
    statements.push('BEGIN');
    wrap(tx as unknown as { query: Query });
    const result = await fn(tx as unknown as { query: Query });
    statements.push('COMMIT');
    return result;
  });

async function count(name: string, request: InjectOptions): Promise<void> {
  statements = [];
  const response = await app.inject(request);
  process.stdout.write(`${name}: ${response.statusCode}, ${statements.length} statements\n`);
  for (const s of statements) process.stdout.write(`  ${s}\n`);
}

for (let i = 0; i < 2; i++) {
  await count('Partner POST /orders', {
    method: 'POST',
    url: '/api/public/v1/orders',
    headers: { 'x-api-key': partner!.key },
    payload: { planId: plan.id, quantity: 1 },
  });
  await count('Mobile wallet checkout', {
    method: 'POST',
    url: '/api/v1/checkout',
    headers: { authorization: `Bearer ${token!}` },
    payload: { planId: plan.id, quantity: 1, paymentMethod: 'wallet' },
  });
}
await app.close();
