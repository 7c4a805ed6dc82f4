import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/crypto.js';
import { assertPasswordLength, type Passwords } from '../accounts/passwords.js';
import type { AuditService } from '../audit/audit.service.js';
import { AppError } from '../errors.js';
import type { OperatorIdentity, OperatorSessions } from './operator-sessions.js';
import { operatorsRepository as repo, type OperatorRow } from './operators.repository.js';
import { normalizeName } from '../accounts/normalize.js';
import {
  isRecoveryCode,
  isTotpCode,
  newRecoveryCodes,
  otpauthUri,
  qrSvg,
  recoveryCodeHash,
  totpStep,
} from './second-factor.js';

export interface ClientInfo {
  ip?: string | undefined;
  userAgent?: string | undefined;
}

export interface SignedIn {
  identity: OperatorIdentity;
  /** The session cookie's value (shown to nobody else). */
  token: string;
}

/** One message for every wrong part: nothing tells which one was wrong, or whether the address exists. */
const invalidCredentials = () =>
  new AppError('INVALID_CREDENTIALS', 'The e-mail address, password or code is not right');

const unknownLink = () =>
  new AppError('NOT_FOUND', 'This enrolment link is unknown, used or expired: ask an Owner for a new one');

const identityOf = (row: OperatorRow, sessionId: string): OperatorIdentity => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  sessionId,
});

/**
 * Getting into the console (issue 33 O1): enrolment through a one-time link (password + TOTP +
 * recovery codes), then sign-in with e-mail, password and a TOTP or recovery code. Both write an
 * audit row in the actor `operator:<id>` (the request has no operator yet).
 */
export function createOperatorSignIn(deps: {
  db: Db;
  clock: Clock;
  audit: AuditService;
  passwords: Passwords;
  sessions: OperatorSessions;
  serviceName: string;
}) {
  const { db, clock, audit, passwords, sessions } = deps;

  /** What the enrolment page shows; 404 for an unknown, used or expired link or a disabled operator. */
  async function previewEnrolment(token: string) {
    const found = await repo.openEnrolment(db, sha256Hex(token), clock.now());
    if (!found || found.operator.status === 'DISABLED') throw unknownLink();
    const { operator, enrolment } = found;
    const uri = otpauthUri(enrolment.totpSecret, operator.email, deps.serviceName);
    return {
      email: operator.email,
      name: operator.name,
      role: operator.role,
      expiresAt: enrolment.expiresAt,
      totpSecret: enrolment.totpSecret,
      otpauthUri: uri,
      qrSvg: await qrSvg(uri),
    };
  }

  /**
   * Sets the password and the TOTP secret the link offered (the first code proves the phone has
   * it), replaces the recovery codes, ends the operator's older sessions and signs in.
   */
  async function completeEnrolment(
    token: string,
    input: { password: string; code: string; name?: string | undefined },
    client: ClientInfo,
  ): Promise<SignedIn & { recoveryCodes: string[] }> {
    const found = await repo.openEnrolment(db, sha256Hex(token), clock.now());
    if (!found || found.operator.status === 'DISABLED') throw unknownLink();
    const { enrolment } = found;
    assertPasswordLength(input.password, 'password');
    const name = input.name?.trim() ? normalizeName(input.name, 'name') : undefined;
    const step = totpStep(enrolment.totpSecret, input.code.trim(), clock.now());
    if (step === null)
      throw new AppError(
        'VALIDATION_ERROR',
        'The code does not match: type the 6 digits the app shows now (check the phone’s clock)',
        { issues: [{ field: 'code', message: 'does not match' }] },
      );
    // Slow on purpose (argon2id): before the transaction.
    const passwordHash = await passwords.hash(input.password, client.ip);
    const recoveryCodes = newRecoveryCodes();
    return db.transaction(async (tx) => {
      const now = clock.now();
      if (!(await repo.claimEnrolment(tx, enrolment.id, now))) throw unknownLink();
      const before = (await repo.byId(tx, enrolment.operatorId, true))!;
      const row = await repo.update(tx, before.id, {
        passwordHash,
        totpSecret: enrolment.totpSecret,
        totpLastStep: String(step),
        status: 'ACTIVE',
        enrolledAt: now,
        lastSignInAt: now,
        ...(name !== undefined ? { name } : {}),
      });
      await repo.replaceRecoveryCodes(
        tx,
        row.id,
        recoveryCodes.map((c) => recoveryCodeHash(row.id, c)),
        now,
      );
      const ended = await sessions.endAll(row.id, tx);
      const issued = await sessions.issue(tx, row.id, client);
      await audit.record(tx, {
        action: 'operator.enrol',
        targetType: 'operator',
        targetId: row.id,
        actor: `operator:${row.id}`,
        before: {
          status: before.status,
          name: before.name,
          enrolledAt: before.enrolledAt?.toISOString() ?? null,
        },
        after: {
          status: row.status,
          name: row.name,
          enrolledAt: now.toISOString(),
          recoveryCodes: recoveryCodes.length,
          sessionsEnded: ended,
        },
      });
      return { identity: identityOf(row, issued.sessionId), token: issued.token, recoveryCodes };
    });
  }

  /**
   * E-mail + password + (TOTP code | recovery code). The password is checked (or a dummy hash,
   * for an unknown address) before anything else answers, so timing tells nothing either.
   */
  async function signIn(
    input: { email: string; password: string; code: string },
    client: ClientInfo,
  ): Promise<SignedIn & { method: 'totp' | 'recovery' }> {
    const email = input.email.trim().toLowerCase();
    const code = input.code.trim().toLowerCase();
    const row = await repo.byEmail(db, email);
    const passwordOk = await passwords.verify(row?.passwordHash ?? null, input.password, client.ip);
    if (!row || !passwordOk || row.status !== 'ACTIVE' || !row.totpSecret) throw invalidCredentials();
    const operator = row;
    const totpSecret = row.totpSecret;
    return db.transaction(async (tx) => {
      const now = clock.now();
      let method: 'totp' | 'recovery';
      if (isTotpCode(code)) {
        const step = totpStep(totpSecret, code, now);
        // A code is accepted once: a step at or before the last accepted one is a replay.
        if (step === null || !(await repo.claimTotpStep(tx, operator.id, step))) throw invalidCredentials();
        method = 'totp';
      } else if (isRecoveryCode(code)) {
        if (!(await repo.useRecoveryCode(tx, operator.id, recoveryCodeHash(operator.id, code), now)))
          throw invalidCredentials();
        method = 'recovery';
      } else throw invalidCredentials();
      await repo.update(tx, operator.id, { lastSignInAt: now });
      const issued = await sessions.issue(tx, operator.id, client);
      await audit.record(tx, {
        action: 'operator.sign_in',
        targetType: 'operator',
        targetId: operator.id,
        actor: `operator:${operator.id}`,
        before: { lastSignInAt: operator.lastSignInAt?.toISOString() ?? null },
        after: {
          lastSignInAt: now.toISOString(),
          sessionId: issued.sessionId,
          method,
          ...(method === 'recovery'
            ? { recoveryCodesLeft: await repo.unusedRecoveryCodes(tx, operator.id) }
            : {}),
        },
      });
      return { identity: identityOf(operator, issued.sessionId), token: issued.token, method };
    });
  }

  return { previewEnrolment, completeEnrolment, signIn };
}

export type OperatorSignIn = ReturnType<typeof createOperatorSignIn>;
