import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { PushDevice } from '../../domain/devices/devices.service.js';
import { IsoDate, mobileErrors, Nullable, SuccessSchema } from '../shared/schemas.js';

const PushToken = Type.String({
  minLength: 1,
  maxLength: 4096,
  description: 'APNs or FCM registration token; for `WEB` the subscription’s `endpoint`',
});

export const Platform = Type.Union([Type.Literal('IOS'), Type.Literal('ANDROID'), Type.Literal('WEB')]);

const Base64Url = (description: string) =>
  Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+={0,2}$', description });

/** What `PushSubscription.toJSON()` gives in the browser (`expirationTime` is accepted and ignored). */
const WebPushSubscriptionSchema = Type.Object(
  {
    endpoint: Type.String({
      minLength: 9,
      maxLength: 2048,
      pattern: '^https://',
      description: 'The push service URL (https); also the device’s `pushToken`',
    }),
    // Milliseconds since the epoch (bounded to the range of a JavaScript date).
    expirationTime: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 8.64e15 }))),
    keys: Type.Object({
      p256dh: Base64Url('The browser’s P-256 public key (65 bytes, base64url)'),
      auth: Base64Url('The 16-byte auth secret (base64url)'),
    }),
  },
  { title: 'WebPushSubscription' },
);

export const PushDeviceSchema = Type.Object(
  {
    id: Type.String(),
    platform: Platform,
    pushToken: Type.String(),
    appVersion: Nullable(Type.String()),
    createdAt: IsoDate,
    lastSeenAt: IsoDate,
  },
  { title: 'PushDevice' },
);

export function toDevice(device: PushDevice) {
  return {
    id: device.id,
    platform: device.platform,
    pushToken: device.pushToken,
    appVersion: device.appVersion,
    createdAt: device.createdAt.toISOString(),
    lastSeenAt: device.lastSeenAt.toISOString(),
  };
}

/**
 * `/user/push-devices`: the devices pushes go to (src/domain/push/), and the VAPID public key the
 * web app subscribes with.
 */
export async function devicesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { devices, push } = app.container;

  r.get(
    '/push/vapid-public-key',
    {
      config: { auth: 'none' },
      schema: {
        operationId: 'getVapidPublicKey',
        tags: ['Push devices'],
        summary: 'Web Push public key',
        description:
          'The VAPID public key (base64url) to pass as `applicationServerKey` to `PushManager.subscribe`; ' +
          'register the subscription with `POST /user/push-devices` and platform `WEB`.',
        response: { 200: Type.Object({ publicKey: Type.String() }), ...mobileErrors() },
      },
    },
    async () => ({ publicKey: await push.vapidPublicKey() }),
  );

  r.post(
    '/user/push-devices',
    {
      schema: {
        operationId: 'registerPushDevice',
        tags: ['Push devices'],
        summary: 'Register this device',
        description:
          'Upsert by `pushToken`; call it on every app launch (it refreshes `appVersion` and `lastSeenAt`). ' +
          'A token registered earlier by another account moves to the caller. A browser registers with ' +
          'platform `WEB`, its subscription’s endpoint as `pushToken` and the `subscription` itself ' +
          '(required for `WEB`, refused for the others).',
        body: Type.Object({
          platform: Platform,
          pushToken: PushToken,
          subscription: Type.Optional(WebPushSubscriptionSchema),
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
