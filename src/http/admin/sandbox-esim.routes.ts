import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import type { ProviderProfile as ProviderProfileView } from '../../providers/esim/types.js';
import { adminErrors, IsoDate, Nullable } from '../shared/schemas.js';

const Iccid = Type.String({ minLength: 10, maxLength: 22 });

/** A sandbox profile as the provider now has it. */
const SandboxProfile = Type.Object({
  iccid: Type.String(),
  status: Type.String(),
  installState: Type.String({ description: 'RELEASED, INSTALLED, ENABLED, DISABLED or DELETED' }),
  dataUsageMb: Type.Integer(),
  totalVolumeMb: Type.Integer(),
  activatedAt: Nullable(IsoDate),
  expiresAt: Nullable(IsoDate),
});

function present(profile: ProviderProfileView | null) {
  if (!profile) throw new AppError('ESIM_NOT_FOUND', 'No sandbox eSIM has this ICCID');
  return {
    iccid: profile.iccid,
    status: profile.status,
    installState: profile.installState ?? 'RELEASED',
    dataUsageMb: profile.dataUsageMb,
    totalVolumeMb: profile.totalVolumeMb,
    activatedAt: profile.activatedAt?.toISOString() ?? null,
    expiresAt: profile.expiresAt?.toISOString() ?? null,
  };
}

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
      config: { operatorPermission: 'sandbox.write' },
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
      config: { operatorPermission: 'sandbox.write' },
      schema: {
        operationId: 'setSandboxEsimUsage',
        tags: ['Sandbox'],
        summary: 'Set the data used by a sandbox eSIM',
        description:
          'First use activates the profile (ACTIVE, validity starts); usedMb ≥ its volume makes it DEPLETED. Our cached usage refreshes after USAGE_CACHE_SECONDS.',
        body: Type.Object({
          iccid: Iccid,
          usedMb: Type.Integer({ minimum: 0, maximum: 10_000_000 }),
        }),
        response: { 200: SandboxProfile, ...adminErrors(404, 409) },
      },
    },
    async (request) => present(await controls().setUsage(request.body.iccid, request.body.usedMb)),
  );

  r.post(
    '/sandbox/esim-provider/status',
    {
      config: { operatorPermission: 'sandbox.write' },
      schema: {
        operationId: 'setSandboxEsimStatus',
        tags: ['Sandbox'],
        summary: 'Set where a sandbox eSIM is on its device',
        description:
          'The profile was installed, enabled, disabled or deleted on the device: the sandbox sends ' +
          'ESIM_STATUS with that smdpStatus, like eSIM Access, and the same events follow as live ' +
          '(esim.status_changed for a Partner API eSIM).',
        body: Type.Object({
          iccid: Iccid,
          status: Type.Union([
            Type.Literal('INSTALLED'),
            Type.Literal('ENABLED'),
            Type.Literal('DISABLED'),
            Type.Literal('DELETED'),
          ]),
        }),
        response: { 200: SandboxProfile, ...adminErrors(404, 409) },
      },
    },
    async (request) => {
      // An unknown ICCID answers 404 before anything is audited.
      const view = present(await controls().setInstallState(request.body.iccid, request.body.status));
      await audit.record(db, {
        action: 'sandbox.esim.status',
        targetType: 'sandbox',
        targetId: request.body.iccid,
        after: { status: request.body.status },
        requestId: request.id,
      });
      return view;
    },
  );

  r.post(
    '/sandbox/esim-provider/expiry',
    {
      config: { operatorPermission: 'sandbox.write' },
      schema: {
        operationId: 'setSandboxEsimExpiry',
        tags: ['Sandbox'],
        summary: 'Move the end of a sandbox eSIM’s validity',
        description:
          'Validity ends `daysLeft` days from now; the sandbox sends VALIDITY_USAGE (and, for 0, ' +
          'ESIM_STATUS …_EXPIRED), like eSIM Access. 3 or 1 day left announces the expiry (partner ' +
          'event or traveller alert), 0 expires the eSIM.',
        body: Type.Object({ iccid: Iccid, daysLeft: Type.Integer({ minimum: 0, maximum: 365 }) }),
        response: { 200: SandboxProfile, ...adminErrors(404, 409) },
      },
    },
    async (request) => {
      // An unknown ICCID answers 404 before anything is audited.
      const view = present(await controls().setExpiry(request.body.iccid, request.body.daysLeft));
      await audit.record(db, {
        action: 'sandbox.esim.expiry',
        targetType: 'sandbox',
        targetId: request.body.iccid,
        after: { daysLeft: request.body.daysLeft },
        requestId: request.id,
      });
      return view;
    },
  );
}
