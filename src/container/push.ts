import { createPushService } from '../domain/push/push.service.js';
import { vapidKeySource } from '../domain/push/vapid.js';
import { createApnsSender } from '../providers/push/apns.js';
import { createFcmSender } from '../providers/push/fcm.js';
import { createWebPushSender } from '../providers/push/web-push.js';
import type { Infrastructure } from './infrastructure.js';

/**
 * Push delivery (issue 31 L1): `push` is the PushPort the traveller alerts call, plus the
 * operator's list and the VAPID public key the web app subscribes with.
 */
export function buildPush({ config, db, clock, queue, log, jobHandlers }: Infrastructure) {
  const { fcm, apns, vapid } = config.push;
  const vapidKeys = vapidKeySource({ db, clock }, vapid);
  const service = createPushService({
    db,
    clock,
    queue,
    log,
    transport: config.push.transport,
    senders: {
      fcm: fcm ? createFcmSender(fcm) : undefined,
      apns: apns ? createApnsSender({ ...apns, now: () => clock.now().getTime() }) : undefined,
      webPush: createWebPushSender({ vapidKeys, subject: vapid.subject ?? `mailto:${config.supportEmail}` }),
    },
  });
  Object.assign(jobHandlers, service.jobs);
  const push = {
    ...service,
    /** `GET /api/v1/push/vapid-public-key`: the key the browser's PushManager subscribes with. */
    vapidPublicKey: async () => (await vapidKeys()).publicKey,
  };
  return { push };
}
export type Push = ReturnType<typeof buildPush>;
