import { api, unwrap } from '../api/client';

/**
 * Web Push in the browser: the service worker (src/sw.js, emitted by the build as a file of its
 * own), the permission and the subscription the server sends to (POST /api/v1/user/push-devices,
 * platform WEB). The worker's scope is its folder; a push needs no page under it.
 */
const WORKER_URL = new URL('../sw.js', import.meta.url);

export type PushState = 'unsupported' | 'blocked' | 'off' | 'on';

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

async function registration(create: boolean): Promise<ServiceWorkerRegistration | undefined> {
  const existing = await navigator.serviceWorker.getRegistration(WORKER_URL.href);
  if (existing || !create) return existing;
  return navigator.serviceWorker.register(WORKER_URL.href);
}

/** A registration's worker once active: PushManager.subscribe needs one. */
function activeWorker(reg: ServiceWorkerRegistration): Promise<void> {
  const pending = reg.installing ?? reg.waiting;
  if (reg.active || !pending) return Promise.resolve();
  return new Promise((resolve) => {
    pending.addEventListener('statechange', () => {
      if (pending.state === 'activated') resolve();
    });
  });
}

/** The state this browser is in now, without asking anything. */
export async function currentPushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  if (Notification.permission !== 'granted') return 'off';
  const reg = await registration(false);
  return (await reg?.pushManager.getSubscription()) ? 'on' : 'off';
}

/** base64url (the VAPID public key) → the bytes `applicationServerKey` takes. */
export function base64UrlBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Asks for permission, subscribes with the server's VAPID key and registers the device. */
export async function enablePush(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return 'blocked';
  if (permission !== 'granted') return 'off';
  const reg = (await registration(true))!;
  await activeWorker(reg);
  const { publicKey } = await unwrap(api.GET('/api/v1/push/vapid-public-key'));
  const subscription =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: base64UrlBytes(publicKey),
    }));
  const json = subscription.toJSON();
  await unwrap(
    api.POST('/api/v1/user/push-devices', {
      body: {
        platform: 'WEB',
        pushToken: subscription.endpoint,
        subscription: {
          endpoint: subscription.endpoint,
          keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
        },
        appVersion: 'web',
      },
    }),
  );
  return 'on';
}

/** Unregisters the device and drops the browser's subscription. */
export async function disablePush(): Promise<PushState> {
  const subscription = await (await registration(false))?.pushManager.getSubscription();
  if (subscription) {
    await unwrap(api.DELETE('/api/v1/user/push-devices', { body: { pushToken: subscription.endpoint } }));
    await subscription.unsubscribe();
  }
  return 'off';
}
