import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { PushDevice } from '../../domain/devices/devices.service.js';
import { IsoDate, mobileErrors, Nullable, SuccessSchema } from '../shared/schemas.js';

const PushToken = Type.String({
  minLength: 1,
  maxLength: 4096,
  description: 'APNs or FCM registration token',
});

const PushDeviceSchema = Type.Object(
  {
    id: Type.String(),
    platform: Type.Union([Type.Literal('IOS'), Type.Literal('ANDROID')]),
    pushToken: Type.String(),
    appVersion: Nullable(Type.String()),
    createdAt: IsoDate,
    lastSeenAt: IsoDate,
  },
  { title: 'PushDevice' },
);

function toDevice(device: PushDevice) {
  return {
    id: device.id,
    platform: device.platform,
    pushToken: device.pushToken,
    appVersion: device.appVersion,
    createdAt: device.createdAt.toISOString(),
    lastSeenAt: device.lastSeenAt.toISOString(),
  };
}

/** `/user/push-devices`: registration only; delivery is not built yet (specification §1). */
export async function devicesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { devices } = app.container;

  r.post(
    '/user/push-devices',
    {
      schema: {
        operationId: 'registerPushDevice',
        tags: ['Push devices'],
        summary: 'Register this device',
        description:
          'Upsert by `pushToken`; call it on every app launch (it refreshes `appVersion` and `lastSeenAt`). ' +
          'A token registered earlier by another account moves to the caller.',
        body: Type.Object({
          platform: Type.Union([Type.Literal('IOS'), Type.Literal('ANDROID')]),
          pushToken: PushToken,
          appVersion: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
        }),
        response: {
          200: Type.Object({ success: Type.Literal(true), device: PushDeviceSchema }),
          ...mobileErrors(401),
        },
      },
    },
    async (request) => ({
      success: true as const,
      device: toDevice(await devices.register(request.auth!.account.id, request.body)),
    }),
  );

  r.get(
    '/user/push-devices',
    {
      schema: {
        operationId: 'listPushDevices',
        tags: ['Push devices'],
        summary: 'List my devices',
        description: 'The caller’s registered devices, most recently seen first.',
        response: { 200: Type.Object({ devices: Type.Array(PushDeviceSchema) }), ...mobileErrors(401) },
      },
    },
    async (request) => ({ devices: (await devices.list(request.auth!.account.id)).map(toDevice) }),
  );

  r.delete(
    '/user/push-devices',
    {
      schema: {
        operationId: 'unregisterPushDevice',
        tags: ['Push devices'],
        summary: 'Unregister a device',
        description:
          'Removes the caller’s device with this token (call it before logout). Idempotent: a token that is ' +
          'unknown or belongs to another account changes nothing and still answers success.',
        body: Type.Object({ pushToken: PushToken }),
        response: { 200: SuccessSchema, ...mobileErrors(401) },
      },
    },
    async (request) => {
      await devices.unregister(request.auth!.account.id, request.body.pushToken);
      return { success: true as const };
    },
  );
}
