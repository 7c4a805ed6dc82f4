import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { adminErrors, IsoDate } from '../shared/schemas.js';

const FindingSchema = Type.Object({
  mode: Type.String({ description: 'live, or test: the test wallet of the same account' }),
  accountId: Type.String(),
  orderId: Type.Optional(Type.String()),
  message: Type.String(),
});

const ReconcileReportSchema = Type.Object(
  {
    ok: Type.Boolean({ description: 'true when every check passed' }),
    checkedAt: IsoDate,
    accounts: Type.Integer({ minimum: 0, description: 'Accounts checked' }),
    orders: Type.Integer({ minimum: 0, description: 'Orders checked' }),
    checks: Type.Array(
      Type.Object({
        check: Type.String({
          description: 'Stable name, as printed by npm run reconcile (e.g. balance_mismatch)',
        }),
        title: Type.String({ description: 'What the check proves when it passes' }),
        ok: Type.Boolean(),
        findings: Type.Array(FindingSchema),
      }),
      { description: 'Every check, passed ones included' },
    ),
  },
  {
    title: 'ReconcileReport',
    examples: [
      {
        ok: false,
        checkedAt: '2026-11-27T14:05:00.000Z',
        accounts: 1204,
        orders: 5310,
        checks: [
          {
            check: 'balance_mismatch',
            title: 'Every wallet balance equals the sum of its ledger',
            ok: true,
            findings: [],
          },
          {
            check: 'stuck_processing',
            title: 'No paid order waits for its eSIM for hours',
            ok: false,
            findings: [
              {
                mode: 'live',
                accountId: 'acc_7pQ2nVb4Xc9Lm1Ks8Dw0Tz',
                orderId: 'ord_2Qm8vXc0bK1pZt7Ls9Ew3R',
                message:
                  'order SVC-20261127-7K3QZ (PROCESSING, 12.50 USD) charged but neither fulfilled nor refunded since 2026-11-27T06:01:00.000Z',
              },
            ],
          },
        ],
      },
    ],
  },
);

/** POST /reconcile: `npm run reconcile` from the console (issue 33 O2). */
export async function adminReconcileRoutes(app: FastifyInstance): Promise<void> {
  const { reconcileRunner } = app.container;

  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/reconcile',
    {
      config: { operatorPermission: 'finance' },
      schema: {
        operationId: 'runReconcile',
        tags: ['Console'],
        summary: 'Check the books now',
        description:
          'Runs the checks of `npm run reconcile` on the live database (read-only: wallet balances against their ledgers, what every order was charged and refunded, orders stuck or dead-lettered in fulfilment, cancellations, auto top-ups) and answers the report: `ok`, and every check with its findings. Audited as `reconcile.run` with the outcome. Takes as long as the database needs to sum every ledger (seconds on a large one).',
        response: { 200: Type.Object({ report: ReconcileReportSchema }), ...adminErrors() },
      },
    },
    async (request) => ({ report: await reconcileRunner.run(request.id) }),
  );
}
