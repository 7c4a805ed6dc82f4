import { createHash, randomBytes, randomInt } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { sandboxEsimProfiles, sandboxSettings } from '../../../db/schema/index.js';
import type { Clock } from '../../../lib/clock.js';
import {
  EsimProviderError,
  type EsimProvider,
  type ProviderEsimStatus,
  type ProviderPackage,
  type ProviderProfile,
} from '../types.js';
import { sandboxListPackages } from './catalogue.js';

export const SANDBOX_SMDP_ADDRESS = 'rsp.sandbox-esim.example.com';
const FAIL_NEXT = 'esim.failNext';
/** Like real profiles: installable for 180 days; the plan's validity starts at first use. */
const INSTALL_WINDOW_DAYS = 180;
const DAY_MS = 24 * 60 * 60 * 1000;

type ProfileRow = typeof sandboxEsimProfiles.$inferSelect;

/** Luhn check digit of a digit string (ICCIDs end with one, ITU-T E.118). */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) d *= 2;
    sum += d > 9 ? d - 9 : d;
  }
  return (10 - (sum % 10)) % 10;
}

/** `89` (telecom) + `90` (country code of the test range) + 15 random digits + Luhn = 20 digits. */
export function sandboxIccid(): string {
  let body = '8990';
  for (let i = 0; i < 15; i++) body += String(randomInt(10));
  return body + String(luhnCheckDigit(body));
}

/** Deterministic per order and index, so two concurrent issue calls insert the same keys. */
function tranNoFor(orderId: string, index: number): string {
  const hex = createHash('sha256').update(`${orderId}:${index}`).digest('hex').slice(0, 16);
  return (BigInt(`0x${hex}`) % 10n ** 18n).toString().padStart(18, '0');
}

let packageIndex: Map<string, ProviderPackage> | undefined;

/** The sandbox catalogue is deterministic, so its index is built once per process. */
function packagesByCode(): Map<string, ProviderPackage> {
  packageIndex ??= new Map(sandboxListPackages().map((p) => [p.packageCode, p]));
  return packageIndex;
}

const sleep = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

/** Time-derived status: validity over → EXPIRED (unless already final). */
function effectiveStatus(row: ProfileRow, now: Date): ProviderEsimStatus {
  const status = row.status as ProviderEsimStatus;
  if (status === 'CANCELLED' || status === 'EXPIRED') return status;
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return 'EXPIRED';
  return status;
}

function toProfile(row: ProfileRow, now: Date): ProviderProfile {
  return {
    providerRef: row.esimTranNo,
    iccid: row.iccid,
    smdpAddress: row.smdpAddress,
    matchingId: row.matchingId,
    activationCode: `LPA:1$${row.smdpAddress}$${row.matchingId}`,
    status: effectiveStatus(row, now),
    totalVolumeMb: row.totalMb,
    dataUsageMb: row.usedMb,
    activatedAt: row.activatedAt,
    expiresAt: row.expiresAt,
  };
}

/**
 * Sandbox profile lifecycle with DB-held state: it survives restarts and is shared by every
 * instance. Faults (`failNext`) and usage are set through the admin API (decisions §6).
 */
export function createSandboxProfiles(deps: {
  db: Db;
  clock: Clock;
  latencyMs: number;
}): Omit<EsimProvider, 'name' | 'listPackages'> {
  const { db, clock } = deps;

  async function byOrder(orderId: string): Promise<ProfileRow[]> {
    return db
      .select()
      .from(sandboxEsimProfiles)
      .where(eq(sandboxEsimProfiles.orderRef, orderId))
      .orderBy(asc(sandboxEsimProfiles.createdAt), asc(sandboxEsimProfiles.esimTranNo));
  }

  async function byRef(ref: string): Promise<ProfileRow> {
    const [row] = await db.select().from(sandboxEsimProfiles).where(eq(sandboxEsimProfiles.esimTranNo, ref));
    if (!row) throw new EsimProviderError('not_found', `profile ${ref} does not exist`, false, '310403');
    return row;
  }

  function knownPackage(code: string, topUp: boolean): ProviderPackage {
    const pkg = packagesByCode().get(code);
    if (!pkg)
      throw new EsimProviderError('unknown_package', `packageCode ${code} does not exist`, false, '310241');
    if (pkg.isTopUp !== topUp)
      throw new EsimProviderError(
        'rejected',
        `package ${code} is ${pkg.isTopUp ? '' : 'not '}a top-up`,
        false,
      );
    return pkg;
  }

  async function consumeFault(): Promise<void> {
    const [hit] = await db
      .update(sandboxSettings)
      .set({ value: sql`${sandboxSettings.value} - 1` })
      .where(and(eq(sandboxSettings.name, FAIL_NEXT), gt(sandboxSettings.value, 0)))
      .returning();
    if (hit) throw new EsimProviderError('unavailable', 'sandbox fault injected (failNext)', true, '900001');
  }

  return {
    async issueProfiles({ orderId, packageCode, quantity }) {
      await sleep(deps.latencyMs);
      const now = clock.now();
      const existing = await byOrder(orderId);
      if (existing.length > 0) return existing.map((r) => toProfile(r, now));
      const pkg = knownPackage(packageCode, false);
      await consumeFault();
      const rows = Array.from({ length: quantity }, (_, i) => ({
        esimTranNo: tranNoFor(orderId, i),
        orderRef: orderId,
        packageCode,
        iccid: sandboxIccid(),
        smdpAddress: SANDBOX_SMDP_ADDRESS,
        matchingId: randomBytes(16).toString('hex').toUpperCase(),
        status: 'PENDING',
        totalMb: pkg.dataAmountMb,
        durationDays: pkg.durationDays,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INSTALL_WINDOW_DAYS * DAY_MS),
      }));
      await db.insert(sandboxEsimProfiles).values(rows).onConflictDoNothing();
      return (await byOrder(orderId)).map((r) => toProfile(r, now));
    },

    async queryProfiles(query) {
      await sleep(deps.latencyMs);
      const now = clock.now();
      if ('orderId' in query) return (await byOrder(query.orderId)).map((r) => toProfile(r, now));
      return [toProfile(await byRef(query.providerRef), now)];
    },

    async queryUsage(refs) {
      await sleep(deps.latencyMs);
      if (refs.length === 0) return [];
      const now = clock.now();
      const rows = await db
        .select()
        .from(sandboxEsimProfiles)
        .where(inArray(sandboxEsimProfiles.esimTranNo, refs.slice(0, 10)));
      return rows.map((r) => ({
        providerRef: r.esimTranNo,
        dataUsageMb: r.usedMb,
        totalVolumeMb: r.totalMb,
        status: effectiveStatus(r, now),
      }));
    },

    async topUp({ orderId, providerRef, packageCode }) {
      await sleep(deps.latencyMs);
      const now = clock.now();
      const row = await byRef(providerRef);
      if (row.topUpOrders.includes(orderId)) return toProfile(row, now);
      const pkg = knownPackage(packageCode, true);
      const status = effectiveStatus(row, now);
      if (status === 'EXPIRED' || status === 'CANCELLED')
        throw new EsimProviderError(
          'not_cancellable',
          `a ${status} profile cannot be topped up`,
          false,
          '200009',
        );
      await consumeFault();
      const base = Math.max(row.expiresAt?.getTime() ?? now.getTime(), now.getTime());
      await db
        .update(sandboxEsimProfiles)
        .set({
          totalMb: sql`${sandboxEsimProfiles.totalMb} + ${pkg.dataAmountMb}`,
          status: status === 'DEPLETED' ? 'ACTIVE' : status,
          expiresAt: new Date(base + pkg.durationDays * DAY_MS),
          topUpOrders: sql`${sandboxEsimProfiles.topUpOrders} || ${JSON.stringify([orderId])}::jsonb`,
        })
        .where(
          and(
            eq(sandboxEsimProfiles.esimTranNo, providerRef),
            sql`not (${sandboxEsimProfiles.topUpOrders} @> ${JSON.stringify([orderId])}::jsonb)`,
          ),
        );
      return toProfile(await byRef(providerRef), now);
    },

    async cancelProfile(providerRef) {
      await sleep(deps.latencyMs);
      const [cancelled] = await db
        .update(sandboxEsimProfiles)
        .set({ status: 'CANCELLED' })
        .where(
          and(
            eq(sandboxEsimProfiles.esimTranNo, providerRef),
            eq(sandboxEsimProfiles.status, 'PENDING'),
            eq(sandboxEsimProfiles.usedMb, 0),
          ),
        )
        .returning();
      if (cancelled) return;
      await byRef(providerRef); // throws not_found
      throw new EsimProviderError(
        'not_cancellable',
        'only unused profiles can be cancelled',
        false,
        '200002',
      );
    },
  };
}

/** Operator controls of the sandbox provider (admin API, decisions §6). */
export function createSandboxEsimControls(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    /** The next `n` issue/top-up calls fail with a retryable outage. */
    async setFailNext(n: number): Promise<void> {
      await db
        .insert(sandboxSettings)
        .values({ name: FAIL_NEXT, value: n })
        .onConflictDoUpdate({ target: sandboxSettings.name, set: { value: n } });
    },

    /**
     * Sets the data used by the profile with this ICCID (the newest one: ICCIDs can be reused).
     * First use activates it (validity starts); using it all depletes it. Null when unknown.
     */
    async setUsage(iccid: string, usedMb: number): Promise<ProviderProfile | null> {
      const [row] = await db
        .select()
        .from(sandboxEsimProfiles)
        .where(eq(sandboxEsimProfiles.iccid, iccid))
        .orderBy(desc(sandboxEsimProfiles.createdAt))
        .limit(1);
      if (!row) return null;
      const now = clock.now();
      const activating = usedMb > 0 && !row.activatedAt;
      const final = row.status === 'CANCELLED' || row.status === 'EXPIRED';
      const status = final
        ? row.status
        : usedMb >= row.totalMb
          ? 'DEPLETED'
          : usedMb > 0
            ? 'ACTIVE'
            : row.status;
      const [updated] = await db
        .update(sandboxEsimProfiles)
        .set({
          usedMb,
          status,
          ...(activating
            ? { activatedAt: now, expiresAt: new Date(now.getTime() + row.durationDays * DAY_MS) }
            : {}),
        })
        .where(eq(sandboxEsimProfiles.esimTranNo, row.esimTranNo))
        .returning();
      return toProfile(updated!, now);
    },
  };
}
