import {
  EsimProviderError,
  type EsimProvider,
  type ProviderEsimStatus,
  type ProviderInstallState,
  type ProviderProfile,
  type ProviderUsage,
} from '../types.js';
import { esimAccessUnits, type EsimAccessClient } from './client.js';

/** One item of `obj.esimList` of POST /api/v1/open/esim/query (fields we read). */
export interface EsimAccessProfile {
  esimTranNo: string;
  orderNo?: string;
  iccid: string;
  /** LPA string `LPA:1$<smdp>$<matchingId>`. */
  ac: string;
  esimStatus: string;
  smdpStatus?: string;
  totalVolume: number;
  orderUsage?: number | null;
  activateTime?: string | null;
  installationTime?: string | null;
  expiredTime?: string | null;
}

interface EsimAccessUsage {
  esimTranNo: string;
  dataUsage: number;
  totalData: number;
  /** When eSIM Access measured it (`2025-03-19T18:00:00+0000`). */
  lastUpdateTime?: string;
}

/** Vendor `esimStatus` → our eSIM status (decisions §3). Unknown values count as not yet used. */
export function mapEsimAccessStatus(esimStatus: string): ProviderEsimStatus {
  switch (esimStatus.toUpperCase()) {
    case 'IN_USE':
    case 'ONBOARDING':
    case 'SUSPENDED':
      return 'ACTIVE';
    case 'USED_UP':
      return 'DEPLETED';
    case 'USED_EXPIRED':
    case 'UNUSED_EXPIRED':
      return 'EXPIRED';
    case 'CANCEL':
    case 'REVOKED':
    case 'DELETED':
      return 'CANCELLED';
    default:
      return 'PENDING';
  }
}

/** Vendor `smdpStatus` → the profile's install state; unknown values: none. */
export function mapEsimAccessSmdpStatus(smdpStatus: string | undefined): ProviderInstallState | undefined {
  switch (smdpStatus?.toUpperCase()) {
    case 'RELEASED':
      return 'RELEASED';
    case 'DOWNLOAD':
    case 'INSTALLATION':
      return 'INSTALLED';
    case 'ENABLED':
      return 'ENABLED';
    case 'DISABLED':
      return 'DISABLED';
    case 'DELETED':
      return 'DELETED';
    default:
      return undefined;
  }
}

/** `LPA:1$rsp.example.com$ABC123` → its SM-DP+ address and matching id. */
export function parseLpa(ac: string): { smdpAddress: string; matchingId: string } {
  const [, smdpAddress = '', matchingId = ''] = ac.split('$');
  return { smdpAddress, matchingId };
}

export function toProviderProfile(p: EsimAccessProfile): ProviderProfile {
  const { smdpAddress, matchingId } = parseLpa(p.ac);
  const installState = mapEsimAccessSmdpStatus(p.smdpStatus);
  return {
    providerRef: p.esimTranNo,
    iccid: p.iccid,
    smdpAddress,
    matchingId,
    activationCode: p.ac,
    status: mapEsimAccessStatus(p.esimStatus),
    totalVolumeMb: esimAccessUnits.bytesToMb(p.totalVolume),
    dataUsageMb: esimAccessUnits.bytesToMb(p.orderUsage ?? 0),
    activatedAt: esimAccessUnits.parseTime(p.activateTime ?? p.installationTime),
    expiresAt: esimAccessUnits.parseTime(p.expiredTime),
    ...everInstalled(p),
    ...(installState ? { installState } : {}),
  };
}

/**
 * Whether the profile was ever downloaded: smdpStatus RELEASED is "available for download"
 * (DOWNLOAD, INSTALLATION, ENABLED, DISABLED, DELETED all came after a device took it), and an
 * installation time says so too. eSIM Access cancels only GOT_RESOURCE + RELEASED profiles.
 */
function everInstalled(p: EsimAccessProfile): { everInstalled?: boolean } {
  if (p.installationTime) return { everInstalled: true };
  if (p.smdpStatus) return { everInstalled: p.smdpStatus.toUpperCase() !== 'RELEASED' };
  return {};
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * esim/order, esim/query, usage, top-up, cancel. Profiles are keyed by `esimTranNo` because the
 * vendor reuses ICCIDs. Our order id is the vendor `transactionId`, so a retried order is the
 * same purchase, never a second one.
 */
export function createEsimAccessProfiles(
  client: EsimAccessClient,
  options: { allocationWaitMs: number; pollIntervalMs?: number },
): Omit<EsimProvider, 'name' | 'listPackages'> {
  const pollMs = options.pollIntervalMs ?? Math.min(1000, Math.max(50, options.allocationWaitMs / 20));
  /** orderId → vendor orderNo, for queries by our order id within this process. */
  const orderNumbers = new Map<string, string>();

  async function queryByOrderNo(orderNo: string, quantity: number): Promise<EsimAccessProfile[]> {
    const obj = await client.call<{ esimList?: EsimAccessProfile[] }>('esim/query', {
      orderNo,
      pager: { pageNum: 1, pageSize: Math.min(500, Math.max(5, quantity)) },
    });
    return obj.esimList ?? [];
  }

  /** Polls while the vendor answers 200010 (still allocating), up to allocationWaitMs. */
  async function waitForProfiles(orderNo: string, quantity: number): Promise<EsimAccessProfile[]> {
    const deadline = Date.now() + options.allocationWaitMs;
    for (;;) {
      try {
        const list = await queryByOrderNo(orderNo, quantity);
        if (list.length >= quantity) return list;
      } catch (err) {
        if (!(err instanceof EsimProviderError && err.kind === 'allocation_pending')) throw err;
      }
      if (Date.now() + pollMs > deadline) {
        throw new EsimProviderError(
          'allocation_pending',
          `profiles of ${orderNo} still being allocated after ${options.allocationWaitMs} ms`,
          true,
          '200010',
        );
      }
      await sleep(pollMs);
    }
  }

  async function queryOne(esimTranNo: string): Promise<EsimAccessProfile> {
    const obj = await client.call<{ esimList?: EsimAccessProfile[] }>('esim/query', {
      esimTranNo,
      pager: { pageNum: 1, pageSize: 5 },
    });
    const found = obj.esimList?.find((p) => p.esimTranNo === esimTranNo);
    if (!found) throw new EsimProviderError('not_found', `profile ${esimTranNo} not found`, false);
    return found;
  }

  return {
    async issueProfiles({ orderId, packageCode, quantity, wholesaleCents }) {
      const priceCheck =
        wholesaleCents !== undefined
          ? {
              amount: esimAccessUnits.centsToPrice(wholesaleCents) * quantity,
              price: esimAccessUnits.centsToPrice(wholesaleCents),
            }
          : undefined;
      const { orderNo } = await client.call<{ orderNo: string }>('esim/order', {
        transactionId: orderId,
        ...(priceCheck ? { amount: priceCheck.amount } : {}),
        packageInfoList: [
          { packageCode, count: quantity, ...(priceCheck ? { price: priceCheck.price } : {}) },
        ],
      });
      orderNumbers.set(orderId, orderNo);
      const list = await waitForProfiles(orderNo, quantity);
      return list.map(toProviderProfile);
    },

    async queryProfiles(query) {
      if ('providerRef' in query) return [toProviderProfile(await queryOne(query.providerRef))];
      const orderNo = orderNumbers.get(query.orderId);
      if (!orderNo)
        throw new EsimProviderError(
          'not_found',
          'query by order id needs the vendor orderNo; use providerRef',
          false,
        );
      return (await queryByOrderNo(orderNo, 500)).map(toProviderProfile);
    },

    async queryUsage(refs): Promise<ProviderUsage[]> {
      if (refs.length === 0) return [];
      const obj = await client.call<EsimAccessUsage[] | { esimUsageList?: EsimAccessUsage[] }>(
        'esim/usage/query',
        { esimTranNoList: refs.slice(0, 10) },
      );
      const list = Array.isArray(obj) ? obj : (obj.esimUsageList ?? []);
      return list.map((u) => {
        const measuredAt = esimAccessUnits.parseTime(u.lastUpdateTime);
        return {
          providerRef: u.esimTranNo,
          dataUsageMb: esimAccessUnits.bytesToMb(u.dataUsage),
          totalVolumeMb: esimAccessUnits.bytesToMb(u.totalData),
          ...(measuredAt ? { measuredAt } : {}),
        };
      });
    },

    async topUp({ orderId, providerRef, packageCode }) {
      await client.call('esim/topup', { esimTranNo: providerRef, packageCode, transactionId: orderId });
      return toProviderProfile(await queryOne(providerRef));
    },

    async cancelProfile(providerRef) {
      await client.call('esim/cancel', { esimTranNo: providerRef });
    },
  };
}
