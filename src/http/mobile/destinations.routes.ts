import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isLocale, LOCALES, type Locale } from '../../domain/catalog/countries.js';
import { mobileDestinationDetail, mobileDestinationList } from '../../domain/catalog/destinations.js';
import { MAX_SEARCH_LENGTH, normalizeSearchText } from '../../domain/catalog/search.js';
import { AppError } from '../../domain/errors.js';
import { CURRENCIES, isCurrency, type Currency } from '../../lib/money.js';
import { createCatalogResponseCache } from '../shared/catalog-cache.js';
import { localeFromHeader } from '../shared/locale.js';
import { ActivationPolicySchema, mobileErrors, Nullable, TopUpSupportedSchema } from '../shared/schemas.js';

const MoneySchema = Type.Object({
  amount: Type.Number({ description: 'In `currency`, at most two decimals' }),
  currency: Type.String(),
  formatted: Type.String({ description: 'Formatted for the caller locale with Intl.NumberFormat' }),
});

/** The rate behind converted prices (issue 30 T4). */
export const ExchangeRateSchema = Type.Object(
  {
    currency: Type.String({ description: 'The display currency' }),
    ratePerUsd: Type.String({ description: 'Units of `currency` per 1 USD, a decimal string' }),
    asOf: Nullable(
      Type.String({
        format: 'date-time',
        description: 'When the rate was set (null: a built-in rate never stored)',
      }),
    ),
  },
  { title: 'ExchangeRate', description: 'null when prices are in USD' },
);

const ViewQuery = {
  locale: Type.Optional(Type.Union(LOCALES.map((l) => Type.Literal(l)))),
  currency: Type.Optional(Type.Union(CURRENCIES.map((c) => Type.Literal(c)))),
};

const ListResponse = Type.Object({
  countries: Type.Array(
    Type.Object({
      code: Type.String(),
      name: Type.String(),
      flagEmoji: Type.String(),
      continent: Type.String({ description: 'English continent name, a stable grouping key ("Europe")' }),
      continentName: Type.String({ description: 'The continent in the caller locale ("Avrupa")' }),
      startingPrice: MoneySchema,
      planCount: Type.Integer(),
    }),
  ),
  regions: Type.Array(
    Type.Object({
      code: Type.String(),
      name: Type.String(),
      countryCount: Type.Integer(),
      startingPrice: MoneySchema,
      planCount: Type.Integer(),
    }),
  ),
});

const DetailResponse = Type.Object({
  destination: Type.Object({
    code: Type.String(),
    name: Type.String(),
    flagEmoji: Type.String(),
    continent: Type.String({ description: 'English continent name, a stable grouping key ("Europe")' }),
    continentName: Type.String({ description: 'The continent in the caller locale ("Avrupa")' }),
    description: Type.String(),
    plans: Type.Array(
      Type.Object({
        id: Type.String(),
        title: Type.String({ description: 'In the caller locale: "Türkiye · 1 GB · 7 gün"' }),
        description: Type.String({ description: 'One sentence in the caller locale' }),
        dataAmountMb: Type.Integer(),
        durationDays: Type.Integer(),
        isTopUp: Type.Boolean(),
        scope: Type.Union([Type.Literal('country'), Type.Literal('region'), Type.Literal('global')]),
        activationPolicy: ActivationPolicySchema,
        topUpSupported: TopUpSupportedSchema,
        coverage: Type.Array(Type.Object({ code: Type.String(), name: Type.String() }), {
          description:
            'Every country the plan works in (one for a country plan), named in the caller locale ' +
            'and sorted by that name',
        }),
        price: MoneySchema,
        priceUsd: MoneySchema,
      }),
    ),
  }),
  exchangeRate: Nullable(ExchangeRateSchema),
});

const NotModified = Type.Null({ description: 'Not modified: the If-None-Match ETag is current' });

/** decisions §4: query, else the session user's settings, else Accept-Language, else en / USD. */
function viewContext(request: FastifyRequest, query: { locale?: Locale; currency?: Currency }) {
  const account = request.auth?.account;
  const locale =
    query.locale ??
    (isLocale(account?.locale) ? account.locale : undefined) ??
    localeFromHeader(request.headers['accept-language']) ??
    'en';
  const currency =
    query.currency ?? (isCurrency(account?.preferredCurrency) ? account.preferredCurrency : 'USD');
  return { locale, currency };
}

const notFound = () => new AppError('COUNTRY_NOT_FOUND', 'Destination not found');

export async function destinationsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const cache = createCatalogResponseCache(app.container.catalog);

  r.get(
    '/destinations',
    {
      config: { auth: 'optional' },
      schema: {
        operationId: 'listDestinations',
        tags: ['Catalog'],
        summary: 'List destinations',
        description:
          'Countries and regions with sellable plans, names in the caller locale, starting prices ' +
          'converted to the caller currency. Sends an ETag; answers 304 to a matching If-None-Match.',
        querystring: Type.Object({
          filter: Type.Optional(
            Type.Union([Type.Literal('popular'), Type.Literal('regional'), Type.Literal('global')]),
          ),
          search: Type.Optional(Type.String({ maxLength: MAX_SEARCH_LENGTH })),
          ...ViewQuery,
        }),
        response: { 200: ListResponse, 304: NotModified, ...mobileErrors() },
      },
    },
    async (request, reply) => {
      const { locale, currency } = viewContext(request, request.query);
      const search = normalizeSearchText(request.query.search ?? '');
      const filter = request.query.filter;
      reply.header('vary', 'Accept-Language, Authorization, Cookie');
      return cache.send(
        request,
        reply,
        `list|${filter ?? ''}|${locale}|${currency}|${search}`,
        (snapshot) => mobileDestinationList(snapshot, { filter, search, locale, currency }),
        notFound,
      );
    },
  );

  r.get(
    '/destinations/:code',
    {
      config: { auth: 'optional' },
      schema: {
        operationId: 'getDestination',
        tags: ['Catalog'],
        summary: 'One destination with its plans',
        description:
          'Full detail of one country (ISO code, any case) or region (code from the list, e.g. EUROPE, GLOBAL): description and every sellable plan. ' +
          'Each plan has `price` in the caller currency and `priceUsd`, the amount charged (payments are in USD); ' +
          '`exchangeRate` is the rate used and when it was set (null for USD).',
        params: Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) }),
        querystring: Type.Object(ViewQuery),
        response: { 200: DetailResponse, 304: NotModified, ...mobileErrors(404) },
      },
    },
    async (request, reply) => {
      const { locale, currency } = viewContext(request, request.query);
      const code = request.params.code.toUpperCase();
      if (!/^[A-Z]{2}$|^[A-Z][A-Z_]{2,63}$/.test(code)) throw notFound();
      reply.header('vary', 'Accept-Language, Authorization, Cookie');
      return cache.send(
        request,
        reply,
        `detail|${code}|${locale}|${currency}`,
        (snapshot) => mobileDestinationDetail(snapshot, code, { locale, currency }),
        notFound,
      );
    },
  );
}
