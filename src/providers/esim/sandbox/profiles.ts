import { createHash, randomBytes, randomInt } from 'node:crypto';
import { and, asc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../../db/client.js';
import { columnList, perShape, reusable, rowValues, typedValueRows } from '../../../db/reusable.js';
import { sandboxEsimProfiles, sandboxSettings } from '../../../db/schema/index.js';
import type { Clock } from '../../../lib/clock.js';
import {
  EsimProviderError,
  type EsimProvider,
  type ProviderEsimStatus,
  type ProviderInstallState,
  type ProviderPackage,
  type ProviderProfile,
} from '../types.js';
import { mapEsimAccessSmdpStatus } from '../esimaccess/profiles.js';
import { sandboxListPackages } from './catalogue.js';

export const SANDBOX_SMDP_ADDRESS = 'rsp.sandbox-esim.example.com';
export const FAIL_NEXT = 'esim.failNext';
/** Like real profiles: installable for 180 days; the plan's validity starts at first use. */
const INSTALL_WINDOW_DAYS = 180;
export const DAY_MS = 24 * 60 * 60 * 1000;

export type ProfileRow = typeof sandboxEsimProfiles.$inferSelect;

/** An eSIM Access-shaped webhook (notifyType, notifyId, eventGenerateTime, content). */
export interface SandboxNotification {
  notifyType: 'ORDER_STATUS' | 'ESIM_STATUS' | 'DATA_USAGE' | 'VALIDITY_USAGE';
  notifyId: string;
  eventGenerateTime: string;
  content: Record<string, unknown>;
}

/**
 * Where the sandbox "sends" its webhooks (a job running the inbound consumer, see container).
 * Notifications passed together are delivered in their order, as one connection would.
 */
export type SandboxNotify = (...notifications: SandboxNotification[]) => Promise<void>;

/**
 * The same sending as a data-modifying CTE of one of the sandbox's own statements, built once
 * (src/db/reusable.ts): `cte(source)` sends once per row of `source` (a CTE of that statement),
 * with the placeholders `values(...)` binds. The change and its webhook in one round trip.
 */
export interface SandboxNotifyWithin {
  /** The notification job as a CTE named `notified` of the sandbox's statement, a job per row of `source`. */
  cte(db: DbOrTx, source: SQL): unknown;
  values(...notifications: SandboxNotification[]): Record<string, unknown>;
}

/** The columns the issue statement writes (the others take their defaults). */
const ISSUED_COLUMNS = [
  'esimTranNo',
  'orderRef',
  'packageCode',
  'iccid',
  'smdpAddress',
  'matchingId',
  'status',
  'totalMb',
  'durationDays',
  'createdAt',
  'expiresAt',
] as const satisfies ReadonlyArray<keyof typeof sandboxEsimProfiles.$inferInsert>;

/**
 * One round trip: does the order have profiles already (a repeated call); if not, is a fault
 * injected (consumed here; a repeated call never consumes one); if neither, the `count` profiles
 * are inserted (placeholders `<i>.<column>`) and, with `notify`, their ORDER_STATUS sent.
 * Placeholders orderId, faultSetting. Built once per shape (src/db/reusable.ts).
 */
function buildIssueStatement(count: number, notify: SandboxNotifyWithin | undefined) {
  return reusable((db) => {
    const p = (name: string) => sql.placeholder(name);
    const existing$ = db
      .$with('existing', {})
      .as(sql`select count(*)::int as n from ${sandboxEsimProfiles} where order_ref = ${p('orderId')}::text`);
    const fault$ = db.$with('fault', {}).as(
      sql`update ${sandboxSettings} set value = value - 1
        where name = ${p('faultSetting')}::text and value > 0 and (select n from existing) = 0
        returning 1`,
    );
    const inserted$ = db.$with('inserted', {}).as(
      sql`insert into ${sandboxEsimProfiles} (${columnList(sandboxEsimProfiles, ISSUED_COLUMNS)})
        select * from (values ${typedValueRows(sandboxEsimProfiles, ISSUED_COLUMNS, count)}) as v
        where (select n from existing) = 0 and not exists (select 1 from fault)
        on conflict do nothing
        returning 1`,
    );
    const notified$ = notify
      ? [notify.cte(db, sql`(select 1 from inserted limit 1) as allocated`) as typeof existing$]
      : [];
    return db
      .with(existing$, fault$, inserted$, ...notified$)
      .select({
        existing: sql<number>`(select n from existing)`.mapWith(Number),
        fault: sql<boolean>`exists (select 1 from fault)`,
        inserted: sql<number>`(select count(*)::int from inserted)`.mapWith(Number),
      })
      .from(sql`(select 1) as one`);
  });
}

export const MB = 1_048_576;

/** Our status → the eSIM Access esimStatus the real provider would report. */
export const VENDOR_STATUS: Record<ProviderEsimStatus, string> = {
  PENDING: 'GOT_RESOURCE',
  ACTIVE: 'IN_USE',
  DEPLETED: 'USED_UP',
  EXPIRED: 'USED_EXPIRED',
  CANCELLED: 'CANCEL',
};

export function notification(
  notifyType: SandboxNotification['notifyType'],
  now: Date,
  content: Record<string, unknown>,
): SandboxNotification {
  return {
    notifyType,
    notifyId: randomBytes(16).toString('hex'),
    eventGenerateTime: now.toISOString().replace(/\.\d{3}Z$/, '+0000'),
    content,
  };
}

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
export function effectiveStatus(row: ProfileRow, now: Date): ProviderEsimStatus {
  const status = row.status as ProviderEsimStatus;
  if (status === 'CANCELLED' || status === 'EXPIRED') return status;
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return 'EXPIRED';
  return status;
}

export function toProfile(row: ProfileRow, now: Date): ProviderProfile {
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
    // Data cannot be used without installing the profile first.
    everInstalled: row.smdpStatus !== 'RELEASED' || row.usedMb > 0 || row.activatedAt !== null,
    // The sandbox keeps eSIM Access's smdpStatus and reads it as eSIM Access's adapter does.
    installState: mapEsimAccessSmdpStatus(row.smdpStatus) ?? 'RELEASED',
  };
}

/** Install state → the smdpStatus eSIM Access would report for it. */
export const SMDP_STATUS: Record<ProviderInstallState, string> = {
  RELEASED: 'RELEASED',
  INSTALLED: 'INSTALLATION',
  ENABLED: 'ENABLED',
  DISABLED: 'DISABLED',
  DELETED: 'DELETED',
};

/**
 * Sandbox profile lifecycle with DB-held state: it survives restarts and is shared by every
 * instance. Faults (`failNext`) and usage are set through the admin API (decisions §6).
 */
export function createSandboxProfiles(deps: {
  db: Db;
  clock: Clock;
  latencyMs: number;
  /**
   * Test mode: package codes outside the sandbox catalogue (another provider's plans) are
   * resolved here, so the sandbox can provision any plan the catalog sells.
   */
  resolvePackage?: (code: string) => Promise<ProviderPackage | undefined>;
  /** The sandbox_settings row of injected faults (default `esim.failNext`, the operator's). */
  faultSetting?: string;
  notify?: SandboxNotify;
  /** With `notify`: issued profiles' ORDER_STATUS goes out in the statement that stores them. */
  notifyWithin?: SandboxNotifyWithin;
}): Omit<EsimProvider, 'name' | 'listPackages'> {
  const { db, clock } = deps;
  const faultSetting = deps.faultSetting ?? FAIL_NEXT;
  const notifyWithin = deps.notify && deps.notifyWithin;
  const issueStatement = perShape((count: number) => buildIssueStatement(count, notifyWithin));

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

  async function knownPackage(code: string, topUp: boolean): Promise<ProviderPackage> {
    const pkg = packagesByCode().get(code) ?? (await deps.resolvePackage?.(code));
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
      .where(and(eq(sandboxSettings.name, faultSetting), gt(sandboxSettings.value, 0)))
      .returning();
    if (hit) throw new EsimProviderError('unavailable', 'sandbox fault injected (failNext)', true, '900001');
  }

  return {
    async issueProfiles({ orderId, packageCode, quantity }) {
      await sleep(deps.latencyMs);
      const now = clock.now();
      let pkg: ProviderPackage;
      try {
        pkg = await knownPackage(packageCode, false);
      } catch (err) {
        const existing = await byOrder(orderId);
        if (existing.length > 0) return existing.map((r) => toProfile(r, now));
        throw err;
      }
      const rows: ProfileRow[] = Array.from({ length: quantity }, (_, i) => ({
        esimTranNo: tranNoFor(orderId, i),
        orderRef: orderId,
        packageCode,
        iccid: sandboxIccid(),
        smdpAddress: SANDBOX_SMDP_ADDRESS,
        matchingId: randomBytes(16).toString('hex').toUpperCase(),
        status: 'PENDING',
        totalMb: pkg.dataAmountMb,
        usedMb: 0,
        durationDays: pkg.durationDays,
        createdAt: now,
        activatedAt: null,
        expiresAt: new Date(now.getTime() + INSTALL_WINDOW_DAYS * DAY_MS),
        smdpStatus: 'RELEASED',
        topUpOrders: [],
      }));
      // Like eSIM Access: ORDER_STATUS GOT_RESOURCE once the order's profiles are allocated.
      const allocated = notification('ORDER_STATUS', now, {
        orderNo: orderId,
        transactionId: orderId,
        orderStatus: 'GOT_RESOURCE',
      });
      const [state] = await issueStatement(quantity)(db, {
        orderId,
        faultSetting,
        ...rowValues(rows),
        ...(notifyWithin && notifyWithin.values(allocated)),
      });
      if (state!.existing > 0) return (await byOrder(orderId)).map((r) => toProfile(r, now));
      if (state!.fault)
        throw new EsimProviderError('unavailable', 'sandbox fault injected (failNext)', true, '900001');
      const inserted = state!.inserted;
      if (inserted > 0 && !notifyWithin) await deps.notify?.(allocated);
      // All ours (the usual case): they are the rows written; else a concurrent call won, read its.
      const issued =
        inserted === quantity
          ? rows.sort((a, b) => (a.esimTranNo < b.esimTranNo ? -1 : a.esimTranNo > b.esimTranNo ? 1 : 0))
          : await byOrder(orderId);
      return issued.map((r) => toProfile(r, now));
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
      const pkg = await knownPackage(packageCode, true);
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
      // Like eSIM Access: only a never-installed (RELEASED), unused (GOT_RESOURCE) profile.
      const [cancelled] = await db
        .update(sandboxEsimProfiles)
        .set({ status: 'CANCELLED' })
        .where(
          and(
            eq(sandboxEsimProfiles.esimTranNo, providerRef),
            eq(sandboxEsimProfiles.status, 'PENDING'),
            eq(sandboxEsimProfiles.usedMb, 0),
            eq(sandboxEsimProfiles.smdpStatus, 'RELEASED'),
          ),
        )
        .returning();
      if (cancelled) return;
      const row = await byRef(providerRef); // throws not_found
      if (row.status === 'CANCELLED') return; // a repeated cancel
      throw new EsimProviderError(
        'not_cancellable',
        'only unused profiles can be cancelled',
        false,
        '200002',
      );
    },
  };
}
