import ipaddr from 'ipaddr.js';
import { safeEqual } from '../../../lib/crypto.js';
import {
  EsimWebhookError,
  type EsimNotice,
  type EsimNotification,
  type EsimProviderWebhook,
  type NotifiedEsim,
} from '../types.js';
import { esimAccessUnits } from './client.js';
import { mapEsimAccessSmdpStatus, mapEsimAccessStatus } from './profiles.js';

/**
 * An eSIM Access webhook body (shared/research/providers-and-peers.md §2.11):
 * `{ notifyType, notifyId, eventGenerateTime, content: {…} }`. The sandbox sends the same shape.
 */
export interface EsimAccessNotification {
  notifyType: string;
  notifyId?: string;
  eventGenerateTime?: string;
  content: Record<string, unknown>;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
};

/** The envelope, or EsimWebhookError `invalid` (answered 400: eSIM Access then shows the failure). */
export function readEsimAccessNotification(body: unknown): EsimAccessNotification {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new EsimWebhookError('invalid', 'Body must be a JSON object');
  const b = body as Record<string, unknown>;
  const notifyType = str(b.notifyType);
  if (!notifyType) throw new EsimWebhookError('invalid', 'notifyType is missing', { field: 'notifyType' });
  const content = b.content && typeof b.content === 'object' ? (b.content as Record<string, unknown>) : {};
  return { notifyType, notifyId: str(b.notifyId), eventGenerateTime: str(b.eventGenerateTime), content };
}

/**
 * notifyType and content → what it means. Units: bytes → MB, `+0000` times → Date, vendor
 * esimStatus → ours (mapEsimAccessStatus), smdpStatus → install state. Other types are recorded, not applied.
 */
function noticeOf({ notifyType, content }: EsimAccessNotification): EsimNotice {
  const esim: NotifiedEsim = { providerRef: str(content.esimTranNo), iccid: str(content.iccid) };
  switch (notifyType) {
    case 'CHECK_HEALTH':
      return { kind: 'health_check' };
    case 'ORDER_STATUS': {
      // Our order id travels as the vendor transactionId; other order statuses change nothing.
      const orderId = str(content.transactionId);
      return str(content.orderStatus) === 'GOT_RESOURCE' && orderId
        ? { kind: 'order_ready', orderId }
        : { kind: 'other' };
    }
    case 'ESIM_STATUS':
    case 'SMDP_EVENT': {
      // SMDP_EVENT (the SM-DP+ lifecycle) carries the same esimStatus and smdpStatus fields.
      const vendorStatus = str(content.esimStatus);
      const installState = mapEsimAccessSmdpStatus(str(content.smdpStatus));
      return {
        kind: 'status',
        esim,
        ...(vendorStatus ? { status: mapEsimAccessStatus(vendorStatus) } : {}),
        ...(installState ? { installState } : {}),
      };
    }
    case 'DATA_USAGE': {
      const used = num(content.orderUsage);
      const total = num(content.totalVolume);
      const usage =
        used === undefined || total === undefined
          ? undefined
          : { usedMb: esimAccessUnits.bytesToMb(used), totalMb: esimAccessUnits.bytesToMb(total) };
      const measuredAt = esimAccessUnits.parseTime(str(content.lastUpdateTime));
      return { kind: 'usage', esim, ...(usage ? { usage } : {}), ...(measuredAt ? { measuredAt } : {}) };
    }
    case 'VALIDITY_USAGE': {
      const expiresAt = esimAccessUnits.parseTime(str(content.expiredTime));
      return { kind: 'validity', esim, ...(expiresAt ? { expiresAt } : {}) };
    }
    default:
      return { kind: 'other' };
  }
}

/** One body is one notification; without notifyId, the body itself is its identity (see the domain). */
export function parseEsimAccessWebhook(body: unknown): EsimNotification[] {
  const n = readEsimAccessNotification(body);
  return [
    { ...(n.notifyId ? { id: n.notifyId } : {}), type: n.notifyType, notice: noticeOf(n), payload: body },
  ];
}

/** `::ffff:1.2.3.4` and `1.2.3.4` are one peer. */
function normalizeIp(ip: string): string | null {
  if (!ipaddr.isValid(ip)) return null;
  return ipaddr.process(ip).toNormalizedString();
}

/**
 * eSIM Access signs nothing; it documents only the addresses it sends from. So the URL carries a
 * secret token (ESIMACCESS_WEBHOOK_TOKEN, compared in constant time; unset = no URL answers) and,
 * when ESIMACCESS_WEBHOOK_IPS is set, the sender must be one of those addresses. Which address
 * that is under a load balancer is settled before (TRUST_PROXY, see EsimWebhookRequest and
 * src/config/webhooks.ts). `/webhooks/esimaccess/<token>` stays an alias of the generic URL
 * because operators have registered it at eSIM Access.
 */
export function createEsimAccessWebhook(settings: {
  token: string | undefined;
  allowedIps: readonly string[];
}): EsimProviderWebhook {
  const { token } = settings;
  const allowed = new Set(settings.allowedIps.map(normalizeIp).filter((ip): ip is string => ip !== null));
  return {
    aliases: ['esimaccess'],
    verify(request) {
      // Same answer for "no token configured" and "wrong token": the URL does not exist.
      if (!token || !safeEqual(request.token, token))
        throw new EsimWebhookError('unknown_url', 'Route not found');
      if (allowed.size > 0 && !allowed.has(normalizeIp(request.peerAddress) ?? '')) {
        throw new EsimWebhookError('forbidden', 'Address not allowed', {
          logReason: 'eSIM Access webhook from an address not in ESIMACCESS_WEBHOOK_IPS',
        });
      }
    },
    parse: parseEsimAccessWebhook,
  };
}
