import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { operatorEnrolments, operatorRecoveryCodes, operators } from '../../db/schema/index.js';
import { newId } from '../../lib/ids.js';

export type OperatorRow = typeof operators.$inferSelect;
export type EnrolmentRow = typeof operatorEnrolments.$inferSelect;
export type OperatorPatch = Partial<
  Pick<
    OperatorRow,
    | 'name'
    | 'role'
    | 'status'
    | 'passwordHash'
    | 'totpSecret'
    | 'totpLastStep'
    | 'enrolledAt'
    | 'lastSignInAt'
  >
>;

/**
 * The SQL of operators, their enrolment links and their recovery codes (issue 33 O1); the
 * operators service composes it. Console sessions have their own module (operator-sessions.ts).
 */
export const operatorsRepository = {
  /** False when the address is taken (the unique index decides, so two invites cannot both win). */
  async tryInsert(db: DbOrTx, row: typeof operators.$inferInsert): Promise<OperatorRow | null> {
    const [inserted] = await db.insert(operators).values(row).onConflictDoNothing().returning();
    return inserted ?? null;
  },

  async byId(db: DbOrTx, id: string, lock = false): Promise<OperatorRow | null> {
    const query = db.select().from(operators).where(eq(operators.id, id));
    const [row] = lock ? await query.for('update') : await query;
    return row ?? null;
  },

  async byEmail(db: DbOrTx, email: string): Promise<OperatorRow | null> {
    const [row] = await db.select().from(operators).where(eq(operators.email, email));
    return row ?? null;
  },

  /** Owners first, then by address. */
  async list(db: DbOrTx): Promise<OperatorRow[]> {
    return db
      .select()
      .from(operators)
      .orderBy(sql`case ${operators.role} when 'owner' then 0 else 1 end`, asc(operators.email));
  },

  /**
   * The ACTIVE Owners, their rows locked until the transaction ends: two Owners demoting or
   * disabling each other at once are serialised, so the second sees the first's change and the
   * service never ends up without an Owner.
   */
  async lockActiveOwners(db: DbOrTx): Promise<string[]> {
    const rows = await db
      .select({ id: operators.id })
      .from(operators)
      .where(and(eq(operators.role, 'owner'), eq(operators.status, 'ACTIVE')))
      .orderBy(asc(operators.id))
      .for('update');
    return rows.map((r) => r.id);
  },

  async update(db: DbOrTx, id: string, patch: OperatorPatch): Promise<OperatorRow> {
    const [row] = await db.update(operators).set(patch).where(eq(operators.id, id)).returning();
    return row!;
  },

  /**
   * Records `step` as the last TOTP step used, only when it is later than the one recorded: of
   * two sign-ins with the same code only one succeeds (false for the other).
   */
  async claimTotpStep(db: DbOrTx, id: string, step: number): Promise<boolean> {
    const rows = await db
      .update(operators)
      .set({ totpLastStep: String(step) })
      .where(
        and(
          eq(operators.id, id),
          or(isNull(operators.totpLastStep), sql`${operators.totpLastStep}::bigint < ${step}`),
        ),
      )
      .returning({ id: operators.id });
    return rows.length === 1;
  },

  async insertEnrolment(db: DbOrTx, row: EnrolmentRow): Promise<void> {
    await db.insert(operatorEnrolments).values(row);
  },

  /** Deletes an operator's unused links: a new link (or disabling them) makes older ones useless. */
  async dropOpenEnrolments(db: DbOrTx, operatorId: string): Promise<void> {
    await db
      .delete(operatorEnrolments)
      .where(and(eq(operatorEnrolments.operatorId, operatorId), isNull(operatorEnrolments.usedAt)));
  },

  /** The unused, unexpired link with this token hash, and its operator. */
  async openEnrolment(db: DbOrTx, tokenHash: string, now: Date) {
    const [row] = await db
      .select({ enrolment: operatorEnrolments, operator: operators })
      .from(operatorEnrolments)
      .innerJoin(operators, eq(operators.id, operatorEnrolments.operatorId))
      .where(
        and(
          eq(operatorEnrolments.tokenHash, tokenHash),
          isNull(operatorEnrolments.usedAt),
          gt(operatorEnrolments.expiresAt, now),
        ),
      );
    return row ?? null;
  },

  /** When each operator's open link (if any) expires: the list shows pending invitations. */
  async openEnrolmentExpiries(db: DbOrTx, operatorIds: string[], now: Date): Promise<Map<string, Date>> {
    if (operatorIds.length === 0) return new Map();
    const rows = await db
      .select({ operatorId: operatorEnrolments.operatorId, expiresAt: operatorEnrolments.expiresAt })
      .from(operatorEnrolments)
      .where(
        and(
          inArray(operatorEnrolments.operatorId, operatorIds),
          isNull(operatorEnrolments.usedAt),
          gt(operatorEnrolments.expiresAt, now),
        ),
      );
    return new Map(rows.map((r) => [r.operatorId, r.expiresAt]));
  },

  /** Single use: a conditional UPDATE claims the link; false when used or expired meanwhile. */
  async claimEnrolment(db: DbOrTx, id: string, now: Date): Promise<boolean> {
    const rows = await db
      .update(operatorEnrolments)
      .set({ usedAt: now })
      .where(
        and(
          eq(operatorEnrolments.id, id),
          isNull(operatorEnrolments.usedAt),
          gt(operatorEnrolments.expiresAt, now),
        ),
      )
      .returning({ id: operatorEnrolments.id });
    return rows.length === 1;
  },

  /** Used links and those expired a day ago: the maintenance job deletes them. */
  async purgeEnrolments(db: DbOrTx, cutoff: Date): Promise<number> {
    const rows = await db
      .delete(operatorEnrolments)
      .where(lt(operatorEnrolments.expiresAt, cutoff))
      .returning({ id: operatorEnrolments.id });
    return rows.length;
  },

  /** An enrolment replaces every earlier recovery code with the new ones. */
  async replaceRecoveryCodes(db: DbOrTx, operatorId: string, hashes: string[], now: Date): Promise<void> {
    await db.delete(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.operatorId, operatorId));
    await db
      .insert(operatorRecoveryCodes)
      .values(hashes.map((codeHash) => ({ id: newId('orc'), operatorId, codeHash, createdAt: now })));
  },

  /** Marks an unused code used; false when unknown or used (a code signs in once). */
  async useRecoveryCode(db: DbOrTx, operatorId: string, codeHash: string, now: Date): Promise<boolean> {
    const rows = await db
      .update(operatorRecoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(operatorRecoveryCodes.operatorId, operatorId),
          eq(operatorRecoveryCodes.codeHash, codeHash),
          isNull(operatorRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: operatorRecoveryCodes.id });
    return rows.length === 1;
  },

  async unusedRecoveryCodes(db: DbOrTx, operatorId: string): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(operatorRecoveryCodes)
      .where(and(eq(operatorRecoveryCodes.operatorId, operatorId), isNull(operatorRecoveryCodes.usedAt)));
    return row?.n ?? 0;
  },
};
