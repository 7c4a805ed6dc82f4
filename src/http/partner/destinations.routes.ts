import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { LOCALES } from '../../domain/catalog/countries.js';
import { partnerCatalog, partnerCountry } from '../../domain/catalog/destinations.js';
import { priceRuleKey } from '../../domain/pricing/partner-price.js';
import { AppError } from '../../domain/errors.js';
import { createCatalogResponseCache } from '../shared/catalog-cache.js';
import { ActivationPolicySchema, partnerErrors, TopUpSupportedSchema } from '../shared/schemas.js';

const PlanSchema = Type.Object({
  id: Type.String({ description: 'planId for POST /orders' }),
  dataAmountMb: Type.Integer(),
  durationDays: Type.Integer(),
  priceUsd: Type.Number({
    description:
      'Your price in USD, at most two decimals: your partner price when an operator set you a price rule (what POST /orders charges), else retail',
  }),
  retailPriceUsd: Type.Optional(
    Type.Number({
      description: 'Only with a partner price rule: the storefront’s retail price of the plan, USD',
    }),
  ),
  isTopUp: Type.Boolean(),
  activationPolicy: ActivationPolicySchema,
  topUpSupported: TopUpSupportedSchema,
  coverage: Type.Array(Type.String(), {
    description: 'ISO 3166-1 alpha-2 codes of every country the plan works in (one for a country plan)',
  }),
});

const NameSchema = Type.Object(
  Object.fromEntries(LOCALES.map((l) => [l, Type.String()])) as Record<
    (typeof LOCALES)[number],
    ReturnType<typeof Type.String>
  >,
  { description: 'Locale code → name; en and tr always present, more locales may be added' },
);

const CountrySchema = Type.Object({
  code: Type.String({ description: 'ISO 3166-1 alpha-2, upper case' }),
  name: NameSchema,
  flagEmoji: Type.String(),
  continent: Type.String(),
  plans: Type.Array(PlanSchema),
});

const RegionSchema = Type.Object({
  code: Type.String({ description: 'Region code, upper case (EUROPE, ASIA, GLOBAL, …)' }),
  name: NameSchema,
  countryCount: Type.Integer({ description: 'Countries covered by the region plans' }),
  plans: Type.Array(PlanSchema),
});

const NotModified = Type.Null({ description: 'Not modified: the If-None-Match ETag is current' });

const notFound = () => new AppError('COUNTRY_NOT_FOUND', 'Country not found');

export async function partnerDestinationsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const cache = createCatalogResponseCache(app.container.catalog);

  r.get(
    '/destinations',
    {
      config: { catalogRead: true },
      schema: {
        operationId: 'listDestinations',
        tags: ['Catalog'],
        summary: 'Full catalog',
        description:
          'Every country and region with sellable plans. Sends an ETag; 304 on a matching If-None-Match.',
        response: {
          200: Type.Object({ countries: Type.Array(CountrySchema), regions: Type.Array(RegionSchema) }),
          304: NotModified,
          ...partnerErrors(),
        },
      },
    },
    async (request, reply) => {
      // Cached per price rule, never per key: partners on one rule share an entry, and another
      // rule's prices can never be served (the key names the prices the entry holds).
      const rule = request.partner!.priceRule;
      const key = `${priceRuleKey(rule)}|list`;
      return cache.send(request, reply, key, (s) => partnerCatalog(s, rule), notFound);
    },
  );

  r.get(
    '/destinations/:code',
    {
      config: { catalogRead: true },
      schema: {
        operationId: 'getDestination',
        tags: ['Catalog'],
        summary: 'One country',
        description:
          'One country by ISO code (upper case; lower case is accepted too). 404 COUNTRY_NOT_FOUND when not sold.',
        params: Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: CountrySchema, 304: NotModified, ...partnerErrors(404) },
      },
    },
    async (request, reply) => {
      const code = request.params.code.toUpperCase();
      if (!/^[A-Z]{2}$/.test(code)) throw notFound();
      const rule = request.partner!.priceRule;
      const key = `${priceRuleKey(rule)}|country|${code}`;
      return cache.send(request, reply, key, (s) => partnerCountry(s, code, rule), notFound);
    },
  );
}
