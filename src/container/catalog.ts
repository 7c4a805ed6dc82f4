import { createExchangeRateService } from '../domain/catalog/exchange-rates.js';
import { createCatalogService } from '../domain/catalog/catalog.service.js';
import type { Infrastructure } from './infrastructure.js';
import type { EsimProviders } from './esim.js';

/** Exchange rates, plans and prices, the catalog sync. */
export function buildCatalog(infra: Infrastructure, { providers }: EsimProviders) {
  const { config, db, database, clock, queue, log, audit, jobHandlers, startupTasks } = infra;
  const exchangeRates = createExchangeRateService({ db, clock });
  const catalog = createCatalogService({
    db,
    clock,
    queue,
    audit,
    exchangeRates,
    providers,
    markupPercent: config.catalog.markupPercent,
    syncIntervalMinutes: config.catalog.syncIntervalMinutes,
    onSyncError: (error) => log.warn({ err: error.message }, 'catalog sync failed'),
    notifications: database.notifications,
  });
  jobHandlers['catalog.sync'] = catalog.syncJob;
  startupTasks.push(() => exchangeRates.seed());
  startupTasks.push(() => catalog.startup());
  return { exchangeRates, catalog };
}
export type Catalog = ReturnType<typeof buildCatalog>;
