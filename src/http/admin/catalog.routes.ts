import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { effectivePriceCents, type PlanRow } from '../../domain/catalog/catalog.service.js';
import { AppError } from '../../domain/errors.js';
import { centsToUsd, parseDecimalToCents } from '../../lib/money.js';
import { defineList, NextCursorSchema, pageQuery } from '../shared/pagination.js';
import { adminErrors, IsoDate, Nullable } from '../shared/schemas.js';

const AdminPlanSchema = Type.Object({
  id: Type.String(),
  provider: Type.String(),
  providerPackageCode: Type.String(),
  title: Type.String(),
  description: Type.String(),
  scope: Type.String({ description: 'country | region | global' }),
  destinationCode: Type.String(),
  coverage: Type.Array(Type.String()),
  dataAmountMb: Type.Integer(),
  durationDays: Type.Integer(),
  isTopUp: Type.Boolean(),
  wholesaleUsd: Type.Number(),
  syncedPriceUsd: Type.Number({ description: 'wholesale × markup, rounded to the price ending' }),
  priceOverrideUsd: Nullable(Type.Number()),
  priceUsd: Type.Number({ description: 'What buyers pay: override ?? synced price' }),
  markupPercent: Nullable(
    Type.Number({
      description: 'priceUsd over wholesaleUsd, in percent (one decimal); null when the wholesale price is 0',
    }),
  ),
  active: Type.Boolean({ description: 'Sellable: offered by the provider and enabled by an operator' }),
  offeredByProvider: Type.Boolean(),
  enabledByOperator: Type.Boolean(),
  lastSyncedAt: Nullable(IsoDate),
  updatedAt: IsoDate,
});

/** Retail over wholesale in percent, one decimal: what the plan earns as it is priced now. */
function markupPercent(p: PlanRow): number | null {
  if (p.wholesaleCents <= 0) return null;
  return Math.round(((effectivePriceCents(p) - p.wholesaleCents) / p.wholesaleCents) * 1000) / 10;
}

function toAdminPlan(p: PlanRow) {
  return {
    markupPercent: markupPercent(p),
    ...p,
    wholesaleUsd: centsToUsd(p.wholesaleCents),
    syncedPriceUsd: centsToUsd(p.priceCents),
    priceOverrideUsd: p.priceOverrideCents === null ? null : centsToUsd(p.priceOverrideCents),
    priceUsd: centsToUsd(effectivePriceCents(p)),
    active: p.active && p.enabledByOperator,
    offeredByProvider: p.active,
    lastSyncedAt: p.lastSyncedAt?.toISOString() ?? null,
    updatedAt: p.updatedAt.toISOString(),
  };
}

const Rate = Type.Union(
  [Type.String({ maxLength: 20 }), Type.Number({ exclusiveMinimum: 0, maximum: 999_999_999 })],
  {
    description: 'Units of the currency per 1 USD, > 0 (decimal string preferred)',
  },
);
const RatesSchema = Type.Object({
  USD: Type.String(),
  EUR: Type.String(),
  GBP: Type.String(),
  TRY: Type.String(),
});
const RateDatesSchema = Type.Object(
  {
    EUR: Nullable(IsoDate),
    GBP: Nullable(IsoDate),
    TRY: Nullable(IsoDate),
  },
  { description: 'When each rate was set; null while the built-in starting rate is in force' },
);

const SyncReportSchema = Type.Object(
  {
    ok: Type.Boolean({ description: 'false: the sync failed and the catalogue was left as it was' }),
    created: Type.Integer({ description: 'Plans added' }),
    updated: Type.Integer({ description: 'Plans whose provider data or synced price changed' }),
    deactivated: Type.Integer({ description: 'Plans the provider no longer lists (kept, not sellable)' }),
    unchanged: Type.Integer(),
    skipped: Type.Integer({ description: 'Packages for countries the service cannot name' }),
    durationMs: Type.Integer(),
    error: Nullable(Type.String({ description: 'Why it failed' })),
    syncedAt: IsoDate,
  },
  { title: 'CatalogSyncReport' },
);

function parseOverride(priceUsd: number | null): number | null {
  if (priceUsd === null) return null;
  const cents = parseDecimalToCents(String(priceUsd));
  if (cents === null || cents <= 0) {
    throw new AppError('VALIDATION_ERROR', 'priceUsd must be a positive amount with at most two decimals', {
      field: 'priceUsd',
    });
  }
  return cents;
}

/** Destination, base before top-up, size, id (plans_list_idx); every plan without limit/cursor. */
const planList = defineList<PlanRow>({
  list: 'admin.plans',
  key: ['string', 'bool', 'int', 'string'],
  keyOf: (p) => [p.destinationCode, p.isTopUp, p.dataAmountMb, p.id],
});

export async function adminCatalogRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { catalog, exchangeRates } = app.container;

  r.get(
    '/plans',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'listPlans',
        tags: ['Catalog'],
        summary: 'List plans',
        description:
          'Every imported plan, including inactive ones. Filter by destination code and sellable state. ' +
          'With `limit` or `cursor` one page, the next in the `Link` header and `nextCursor`.',
        querystring: pageQuery({
          destination: Type.Optional(Type.String({ maxLength: 64 })),
          active: Type.Optional(Type.Boolean()),
        }),
        response: {
          200: Type.Object({
            plans: Type.Array(AdminPlanSchema),
            nextCursor: Type.Optional(NextCursorSchema),
          }),
          ...adminErrors(),
        },
      },
    },
    async (request, reply) => {
      const { destination, active } = request.query;
      const page = planList.plan([destination?.toUpperCase(), active], request.query);
      const rows = await catalog.listPlans({ destination, active }, { limit: page.take, after: page.after });
      const { items, nextCursor } = page.finish(request, reply, rows);
      return { plans: items.map(toAdminPlan), ...(page.paged ? { nextCursor } : {}) };
    },
  );

  r.patch(
    '/plans/:id',
    {
      config: { operatorPermission: 'catalog.write' },
      schema: {
        operationId: 'updatePlan',
        tags: ['Catalog'],
        summary: 'Enable/disable a plan or override its price',
        description:
          '`active` is the operator switch; `priceUsd` sets a retail override (null clears it). ' +
          'Both survive later syncs. Audited.',
        params: Type.Object({ id: Type.String({ maxLength: 200 }) }),
        body: Type.Object(
          {
            active: Type.Optional(Type.Boolean()),
            priceUsd: Type.Optional(
              Nullable(
                Type.Number({
                  minimum: 0.01,
                  maximum: 1_000_000,
                  description: 'Retail USD override, at most two decimals; null clears it',
                }),
              ),
            ),
          },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: { 200: Type.Object({ plan: AdminPlanSchema }), ...adminErrors(404) },
      },
    },
    async (request) => {
      const { active, priceUsd } = request.body;
      if (active === undefined && priceUsd === undefined) {
        throw new AppError('VALIDATION_ERROR', 'Send active and/or priceUsd');
      }
      const plan = await catalog.updatePlan(
        request.params.id,
        { active, ...(priceUsd !== undefined ? { priceOverrideCents: parseOverride(priceUsd) } : {}) },
        request.id,
      );
      return { plan: toAdminPlan(plan) };
    },
  );

  r.post(
    '/catalog/sync',
    {
      config: { operatorPermission: 'catalog.write' },
      schema: {
        operationId: 'syncCatalog',
        tags: ['Catalog'],
        summary: 'Sync the catalogue now',
        description:
          'Runs the provider catalogue sync at once (the same as the scheduled one) and answers its result: plans created, updated, deactivated, unchanged, skipped, and the duration. A provider failure is a result too (`ok: false`, `error`; the catalogue stays as it was), not an error status. Operator price overrides and switches survive. A sync already running in this instance is waited for, not run twice. Audited as `catalog.sync`.',
        response: { 200: Type.Object({ sync: SyncReportSchema }), ...adminErrors() },
      },
    },
    async (request) => {
      const report = await catalog.syncNow(request.id);
      return { sync: { ...report, syncedAt: report.syncedAt.toISOString() } };
    },
  );

  r.get(
    '/exchange-rates',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'getExchangeRates',
        tags: ['Catalog'],
        summary: 'Exchange rates',
        description:
          'Units of each currency per 1 USD as the catalogue converts prices now, and when each was set.',
        response: {
          200: Type.Object({ rates: RatesSchema, updatedAt: RateDatesSchema }),
          ...adminErrors(),
        },
      },
    },
    async () => {
      const dated = await exchangeRates.allDated();
      const at = (c: 'EUR' | 'GBP' | 'TRY') => dated[c].asOf?.toISOString() ?? null;
      return {
        rates: {
          USD: dated.USD.ratePerUsd,
          EUR: dated.EUR.ratePerUsd,
          GBP: dated.GBP.ratePerUsd,
          TRY: dated.TRY.ratePerUsd,
        },
        updatedAt: { EUR: at('EUR'), GBP: at('GBP'), TRY: at('TRY') },
      };
    },
  );

  r.put(
    '/exchange-rates',
    {
      config: { operatorPermission: 'catalog.write' },
      schema: {
        operationId: 'setExchangeRates',
        tags: ['Catalog'],
        summary: 'Set exchange rates',
        description: 'Units of EUR, GBP and TRY per 1 USD, used to show catalog prices. Audited.',
        body: Type.Object({ EUR: Rate, GBP: Rate, TRY: Rate }, { additionalProperties: false }),
        response: { 200: Type.Object({ rates: RatesSchema }), ...adminErrors() },
      },
    },
    async (request) => {
      const { EUR, GBP, TRY } = request.body;
      const rates = await catalog.setExchangeRates(
        { EUR: String(EUR), GBP: String(GBP), TRY: String(TRY) },
        request.id,
      );
      return { rates };
    },
  );
}
