import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { adminErrors, IsoDate, Nullable } from '../shared/schemas.js';

const RuleSchema = Type.Object(
  {
    rule: Type.Union([Type.Literal('discount'), Type.Literal('markup')]),
    percent: Type.Number({ description: 'discount: off the retail price; markup: over the wholesale cost' }),
    minMarginPercent: Type.Number(),
    updatedAt: Nullable(IsoDate),
  },
  { title: 'AdminPriceRule' },
);

const Params = Type.Object({ id: Type.String({ maxLength: 100 }) });

/** A partner's price rule (issue 32 C5; docs/operations.md "Partner prices"). */
export async function adminPricingRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { pricing } = app.container;

  r.get(
    '/accounts/:id/pricing',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'getAccountPricing',
        tags: ['Accounts'],
        summary: 'A partner’s price rule',
        description: '`rule: null`: the partner pays retail prices.',
        params: Params,
        response: { 200: Type.Object({ rule: Nullable(RuleSchema) }), ...adminErrors(404) },
      },
    },
    async (request) => ({ rule: await pricing.getRule(request.params.id) }),
  );

  r.put(
    '/accounts/:id/pricing',
    {
      config: { operatorPermission: 'catalog.write' },
      schema: {
        operationId: 'setAccountPricing',
        tags: ['Accounts'],
        summary: 'Set a partner’s price rule',
        description:
          'The Partner API’s catalogue and orders of the account then use the partner price: `discount` = retail × (1 − percent/100), `markup` = wholesale × (1 + percent/100), rounded to the cent (half up), never below wholesale × (1 + minMarginPercent/100) rounded up (minMarginPercent defaults to 5). Percentages with at most two decimals. The storefront and Mobile API keep retail prices. Orders already placed keep their price. Audited (`account.pricing.update`).',
        params: Params,
        body: Type.Object(
          {
            rule: Type.Union([Type.Literal('discount'), Type.Literal('markup')]),
            percent: Type.Number({
              minimum: 0,
              maximum: 1000,
              description: 'discount: 0–100; markup: 0–1000',
            }),
            minMarginPercent: Type.Optional(
              Type.Number({ minimum: 0, maximum: 1000, description: 'Default 5' }),
            ),
          },
          { additionalProperties: false, examples: [{ rule: 'discount', percent: 10, minMarginPercent: 5 }] },
        ),
        response: { 200: Type.Object({ rule: RuleSchema }), ...adminErrors(400, 404) },
      },
    },
    async (request) => ({ rule: await pricing.setRule(request.params.id, request.body, request.id) }),
  );

  r.delete(
    '/accounts/:id/pricing',
    {
      config: { operatorPermission: 'catalog.write' },
      schema: {
        operationId: 'deleteAccountPricing',
        tags: ['Accounts'],
        summary: 'Remove a partner’s price rule',
        description: 'Back to retail prices. Audited (`account.pricing.delete`).',
        params: Params,
        response: { 204: Type.Null(), ...adminErrors(404) },
      },
    },
    async (request, reply) => {
      await pricing.clearRule(request.params.id, request.id);
      return reply.code(204).send(null);
    },
  );
}
