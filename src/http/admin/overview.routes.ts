import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Overview } from '../../domain/ops/overview.service.js';
import { adminErrors, IsoDate } from '../shared/schemas.js';

const Count = Type.Integer({ minimum: 0 });
const Cents = Type.Integer({ minimum: 0, description: 'USD cents' });

const OverviewSchema = Type.Object(
  {
    day: Type.Object(
      { from: IsoDate, to: IsoDate },
      {
        description: 'The UTC day the figures are for: from its midnight (inclusive) to the next (exclusive)',
      },
    ),
    generatedAt: IsoDate,
    sales: Type.Object(
      {
        channels: Type.Array(
          Type.Object({
            channel: Type.Union([Type.Literal('mobile'), Type.Literal('partner')]),
            orders: Count,
            revenueCents: Cents,
          }),
          { description: 'Every channel, zeros included' },
        ),
        orders: Count,
        revenueCents: Cents,
      },
      { description: 'Live orders completed today (by completion time), by channel and in total' },
    ),
    fulfilmentFailures: Type.Object(
      {
        ordersWithFailedAttempts: Type.Integer({
          minimum: 0,
          description: 'Live orders with at least one failed fulfilment attempt today (retried or not)',
        }),
        refundedOrders: Type.Integer({ minimum: 0, description: 'Live orders refunded today' }),
      },
      { description: 'Fulfilment that went wrong today' },
    ),
    deadJobs: Type.Integer({
      minimum: 0,
      description: 'Dead-lettered jobs waiting for an operator (GET /jobs/failed)',
    }),
    tickets: Type.Object({
      open: Type.Integer({ minimum: 0, description: 'Tickets waiting for support (OPEN)' }),
      waitingForCustomer: Type.Integer({
        minimum: 0,
        description: 'Answered tickets waiting for the customer (ANSWERED)',
      }),
    }),
    providerBalance: Type.Null({
      description:
        'The eSIM provider’s balance. Always null for now: the provider contract has no balance call, so the service does not know it; see the provider’s own dashboard.',
    }),
  },
  {
    title: 'AdminOverview',
    examples: [
      {
        day: { from: '2026-11-27T00:00:00.000Z', to: '2026-11-28T00:00:00.000Z' },
        generatedAt: '2026-11-27T14:05:00.000Z',
        sales: {
          channels: [
            { channel: 'mobile', orders: 42, revenueCents: 39_800 },
            { channel: 'partner', orders: 17, revenueCents: 12_150 },
          ],
          orders: 59,
          revenueCents: 51_950,
        },
        fulfilmentFailures: { ordersWithFailedAttempts: 2, refundedOrders: 1 },
        deadJobs: 0,
        tickets: { open: 3, waitingForCustomer: 5 },
        providerBalance: null,
      },
    ],
  },
);

function present(o: Overview): Static<typeof OverviewSchema> {
  return {
    ...o,
    day: { from: o.day.from.toISOString(), to: o.day.to.toISOString() },
    generatedAt: o.generatedAt.toISOString(),
  };
}

/** GET /overview: today's business at a glance, the operator console's first page. */
export async function adminOverviewRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { consoleOverview } = app.container;

  r.get(
    '/overview',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'getOverview',
        tags: ['Console'],
        summary: 'Today’s orders, revenue, failures, dead jobs and tickets',
        description:
          'The figures of the current UTC day: live orders completed and their revenue by channel (test-mode orders never count), orders whose fulfilment failed or that were refunded, plus the current dead-letter jobs and open tickets. `providerBalance` is always null: the eSIM provider contract has no balance call.',
        response: { 200: Type.Object({ overview: OverviewSchema }), ...adminErrors() },
      },
    },
    async () => ({ overview: present(await consoleOverview.get()) }),
  );
}
