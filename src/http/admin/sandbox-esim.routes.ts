import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { adminErrors, IsoDate, Nullable } from '../shared/schemas.js';

/**
 * Controls of the sandbox eSIM provider (decisions §6). With another ESIM_PROVIDER these routes
 * answer 409 INVALID_STATE: the route exists, but there is no sandbox to control.
 */
export async function adminSandboxEsimRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db, audit, sandboxEsim } = app.container;
  /** The container has the controls exactly when ESIM_PROVIDER is the sandbox. */
  const controls = () => {
    if (!sandboxEsim)
      throw new AppError(
        'INVALID_STATE',
        'ESIM_PROVIDER is not sandbox; there is no sandbox provider to control',
      );
    return sandboxEsim;
  };

  r.post(
    '/sandbox/esim-provider/faults',
    {
      schema: {
        operationId: 'setSandboxEsimFaults',
        tags: ['Sandbox'],
        summary: 'Make the sandbox eSIM provider fail the next n issue calls',
        description:
          'Each failure is a retryable provider outage (issue and top-up calls). `failNext: 0` clears it.',
        body: Type.Object({ failNext: Type.Integer({ minimum: 0, maximum: 1000 }) }),
        response: { 200: Type.Object({ failNext: Type.Integer() }), ...adminErrors(409) },
      },
    },
    async (request) => {
      await controls().setFailNext(request.body.failNext);
      await audit.record(db, {
        action: 'sandbox.esim.faults',
        targetType: 'sandbox',
        targetId: 'esim-provider',
        after: { failNext: request.body.failNext },
        requestId: request.id,
      });
      return { failNext: request.body.failNext };
    },
  );

  r.post(
    '/sandbox/esim-provider/usage',
    {
      schema: {
        operationId: 'setSandboxEsimUsage',
        tags: ['Sandbox'],
        summary: 'Set the data used by a sandbox eSIM',
        description:
          'First use activates the profile (ACTIVE, validity starts); usedMb ≥ its volume makes it DEPLETED. Our cached usage refreshes after USAGE_CACHE_SECONDS.',
        body: Type.Object({
          iccid: Type.String({ minLength: 10, maxLength: 22 }),
          usedMb: Type.Integer({ minimum: 0, maximum: 10_000_000 }),
        }),
        response: {
          200: Type.Object({
            iccid: Type.String(),
            status: Type.String(),
            dataUsageMb: Type.Integer(),
            totalVolumeMb: Type.Integer(),
            activatedAt: Nullable(IsoDate),
            expiresAt: Nullable(IsoDate),
          }),
          ...adminErrors(404, 409),
        },
      },
    },
    async (request) => {
      const profile = await controls().setUsage(request.body.iccid, request.body.usedMb);
      if (!profile) throw new AppError('ESIM_NOT_FOUND', 'No sandbox eSIM has this ICCID');
      return {
        iccid: profile.iccid,
        status: profile.status,
        dataUsageMb: profile.dataUsageMb,
        totalVolumeMb: profile.totalVolumeMb,
        activatedAt: profile.activatedAt?.toISOString() ?? null,
        expiresAt: profile.expiresAt?.toISOString() ?? null,
      };
    },
  );

  r.post(
    '/sandbox/esim-provider/install',
    {
      schema: {
        operationId: 'installSandboxEsim',
        tags: ['Sandbox'],
        summary: 'Mark a sandbox eSIM as installed on a device',
        description:
          'Like a phone downloading the profile (eSIM Access smdpStatus past RELEASED), without using data: ' +
          'a self-service cancel of its order is then refused with 409 ESIM_INSTALLED.',
        body: Type.Object({ iccid: Type.String({ minLength: 10, maxLength: 22 }) }),
        response: {
          200: Type.Object({ iccid: Type.String(), status: Type.String(), everInstalled: Type.Boolean() }),
          ...adminErrors(404, 409),
        },
      },
    },
    async (request) => {
      const profile = await controls().setInstalled(request.body.iccid);
      if (!profile) throw new AppError('ESIM_NOT_FOUND', 'No sandbox eSIM has this ICCID');
      await audit.record(db, {
        action: 'sandbox.esim.install',
        targetType: 'sandbox',
        targetId: profile.iccid,
        requestId: request.id,
      });
      return { iccid: profile.iccid, status: profile.status, everInstalled: profile.everInstalled === true };
    },
  );
}
