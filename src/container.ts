import { warmSearchIndex } from './domain/catalog/destinations.js';
import { buildAccounts } from './container/accounts.js';
import { buildAutoTopUp } from './container/autotopup.js';
import { buildBilling } from './container/billing.js';
import { buildCatalog } from './container/catalog.js';
import type { ContainerDeps } from './container/deps.js';
import { buildEsimProviders } from './container/esim.js';
import { buildEvents } from './container/events.js';
import { buildInfrastructure } from './container/infrastructure.js';
import { buildOps } from './container/ops.js';
import { buildOperators } from './container/operators.js';
import { buildOrders } from './container/orders.js';
import { buildPartnerConsole } from './container/partners.js';
import { buildPayments } from './container/payments.js';
import { buildPush } from './container/push.js';
import { buildWebhooks } from './container/webhooks.js';

export type { ContainerDeps } from './container/deps.js';

/**
 * The composition root: one small builder per area (src/container/<area>.ts), composed here. `main`
 * and the worker process build the container and hand it to the HTTP app and the job worker;
 * domain services get narrow dependencies, never the container itself, so tests can build any one
 * of them with stubs. See docs/architecture.md.
 */

export function createContainer(deps: ContainerDeps) {
  const infra = buildInfrastructure(deps);
  const push = buildPush(infra);
  const events = buildEvents(infra, push.push);
  const accounts = buildAccounts(infra, events);
  const esim = buildEsimProviders(infra, events, deps.esimProviders);
  const catalog = buildCatalog(infra, esim);
  const payments = buildPayments(infra, events, catalog);
  const orders = buildOrders(infra, { events, esim, catalog, accounts, payments, push: push.push });
  const autoTopUp = buildAutoTopUp(infra, { events, catalog, orders });
  const webhooks = buildWebhooks(infra, events);
  const operators = buildOperators(infra, accounts);
  const ops = buildOps(infra, { payments, orders, push, operators });
  const partnerConsole = buildPartnerConsole(infra, { accounts, orders, payments });
  const billing = buildBilling(infra, { ...catalog, ...accounts });

  return {
    ...infra,
    ...events,
    ...accounts,
    ...push,
    ...esim,
    ...catalog,
    ...payments,
    ...orders,
    ...autoTopUp,
    ...webhooks,
    ...ops,
    ...partnerConsole,
    ...billing,
    ...operators,
    /** The start-up tasks in order (first catalog sync, periodic jobs); the entry points call it. */
    async startup(): Promise<void> {
      for (const task of infra.startupTasks) await task();
    },
    /**
     * Work that only makes first requests faster, run by `npm start` once it listens so that
     * readiness does not wait for it: the catalogue search index (every country's names in ~85
     * languages, the largest start-up task), a few countries per turn of the event loop; a search
     * that comes first completes it.
     */
    warmUp(): Promise<void> {
      return warmSearchIndex();
    },
    /**
     * Releases what the container holds: stops the worker (after the jobs it is running, up to
     * the grace) and disconnects Redis. The database belongs to whoever opened it.
     */
    async close(): Promise<void> {
      await ops.worker.stop();
      // Before the database closes (its owner closes it after this): the last second's requests.
      await ops.requestLog.close();
      await catalog.catalog.close();
      await push.push.close();
      infra.redis?.disconnect();
    },
  };
}

export type Container = ReturnType<typeof createContainer>;
