import type { Db, DbOrTx } from '../../db/client.js';
import { HOUR, type Clock } from '../../lib/clock.js';
import { currentActor } from '../../lib/actor-context.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';
import { normalizeEmail, normalizeName } from '../accounts/normalize.js';
import type { AuditService } from '../audit/audit.service.js';
import { AppError } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import { operatorInvitationMail } from '../mail/operator-invitation.js';
import type { OperatorSessions } from './operator-sessions.js';
import { operatorsRepository as repo, type OperatorPatch, type OperatorRow } from './operators.repository.js';
import { OPERATOR_ROLE_NAMES, type OperatorRole } from './roles.js';
import { newTotpSecret } from './second-factor.js';

/** How long an enrolment link works (issue 33 O1). */
export const ENROLMENT_LIFETIME_MS = 24 * HOUR;

/** An operator as the console lists them: never the password hash or the TOTP secret. */
export interface OperatorView {
  id: string;
  email: string;
  name: string;
  role: OperatorRole;
  status: OperatorRow['status'];
  createdBy: string;
  createdAt: Date;
  enrolledAt: Date | null;
  lastSignInAt: Date | null;
  /** When the operator's open enrolment link expires; null when none is open. */
  enrolmentExpiresAt: Date | null;
}

export interface IssuedEnrolment {
  token: string;
  url: string;
  expiresAt: Date;
}

export function viewOf(row: OperatorRow, enrolmentExpiresAt: Date | null = null): OperatorView {
  const { id, email, name, role, status, createdBy, createdAt, enrolledAt, lastSignInAt } = row;
  return {
    id,
    email,
    name,
    role,
    status,
    createdBy,
    createdAt,
    enrolledAt,
    lastSignInAt,
    enrolmentExpiresAt,
  };
}

/** The before/after of an audit row: what the console shows, never credentials. */
const summary = (row: OperatorRow) => ({
  email: row.email,
  name: row.name,
  role: row.role,
  status: row.status,
});

/**
 * Operator management (issue 33 O1; docs/operations.md "Operators and roles"): invitations with
 * one-time enrolment links, roles, disabling, console sessions. Every change writes an audit row
 * with before/after in the change's transaction; the actor is the request's operator (or `cli`).
 * The rule beyond the permission `operators.manage`: the service always keeps an ACTIVE Owner.
 */
export function createOperatorsService(deps: {
  db: Db;
  clock: Clock;
  audit: AuditService;
  mailer: Mailer;
  sessions: OperatorSessions;
  publicBaseUrl: string;
  /** The name the invitation mail and the authenticator app show (COMPANY_NAME). */
  serviceName: string;
}) {
  const { db, clock, audit, sessions } = deps;

  async function byId(tx: DbOrTx, id: string, lock = false): Promise<OperatorRow> {
    const row = await repo.byId(tx, id, lock);
    if (!row) throw new AppError('NOT_FOUND', 'No operator with this id');
    return row;
  }

  /** A new link for the operator; their older unused links stop working. */
  async function issueEnrolment(tx: DbOrTx, operatorId: string): Promise<IssuedEnrolment> {
    const token = randomToken(32);
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + ENROLMENT_LIFETIME_MS);
    await repo.dropOpenEnrolments(tx, operatorId);
    await repo.insertEnrolment(tx, {
      id: newId('oen'),
      operatorId,
      tokenHash: sha256Hex(token),
      totpSecret: newTotpSecret(),
      expiresAt,
      usedAt: null,
      createdAt: now,
    });
    // A fragment: the browser never sends it, so the token is in no access log or Referer.
    return { token, url: `${deps.publicBaseUrl}/admin/enrol#${token}`, expiresAt };
  }

  /** After the commit: a mail never announces a link that does not exist. */
  async function mailLink(row: OperatorRow, link: IssuedEnrolment, reset: boolean): Promise<void> {
    await deps.mailer.send(
      operatorInvitationMail(row.email, {
        serviceName: deps.serviceName,
        role: OPERATOR_ROLE_NAMES[row.role],
        link: link.url,
        expiresAt: link.expiresAt,
        reset,
      }),
    );
  }

  async function list(): Promise<OperatorView[]> {
    const rows = await repo.list(db);
    const expiries = await repo.openEnrolmentExpiries(
      db,
      rows.map((r) => r.id),
      clock.now(),
    );
    return rows.map((r) => viewOf(r, expiries.get(r.id) ?? null));
  }

  async function get(id: string): Promise<OperatorView> {
    const row = await byId(db, id);
    const expiries = await repo.openEnrolmentExpiries(db, [id], clock.now());
    return viewOf(row, expiries.get(id) ?? null);
  }

  /** Invites an operator: INVITED until they use the link (mailed, and returned to show the Owner). */
  async function create(input: { email: string; role: OperatorRole; name?: string | undefined }) {
    const email = normalizeEmail(input.email);
    const name = input.name?.trim() ? normalizeName(input.name, 'name') : '';
    const { row, link } = await db.transaction(async (tx) => {
      const inserted = await repo.tryInsert(tx, {
        id: newId('opr'),
        email,
        name,
        role: input.role,
        status: 'INVITED',
        createdBy: currentActor() ?? 'system',
        createdAt: clock.now(),
      });
      if (!inserted)
        throw new AppError('CONFLICT', 'An operator with this e-mail address exists', {
          reason: 'email_taken',
        });
      const issued = await issueEnrolment(tx, inserted.id);
      await audit.record(tx, {
        action: 'operator.create',
        targetType: 'operator',
        targetId: inserted.id,
        before: null,
        after: { ...summary(inserted), enrolmentExpiresAt: issued.expiresAt.toISOString() },
      });
      return { row: inserted, link: issued };
    });
    await mailLink(row, link, false);
    return { operator: viewOf(row, link.expiresAt), enrolment: link };
  }

  /**
   * A new enrolment link (lost phone, forgotten password): using it sets a new password, TOTP
   * secret and recovery codes. Until then the operator's current credentials keep working.
   */
  async function newEnrolment(id: string) {
    const { row, link } = await db.transaction(async (tx) => {
      const found = await byId(tx, id, true);
      if (found.status === 'DISABLED')
        throw new AppError('INVALID_STATE', 'This operator is disabled; enable them first', {
          reason: 'disabled',
        });
      const issued = await issueEnrolment(tx, id);
      await audit.record(tx, {
        action: 'operator.enrolment.create',
        targetType: 'operator',
        targetId: id,
        before: summary(found),
        after: { ...summary(found), enrolmentExpiresAt: issued.expiresAt.toISOString() },
      });
      return { row: found, link: issued };
    });
    await mailLink(row, link, row.enrolledAt !== null);
    return { operator: viewOf(row, link.expiresAt), enrolment: link };
  }

  async function byEmail(email: string): Promise<OperatorView | null> {
    const row = await repo.byEmail(db, normalizeEmail(email));
    return row ? viewOf(row) : null;
  }

  /** Role, name, ACTIVE/DISABLED. Disabling ends the operator's sessions and open links. */
  async function update(
    id: string,
    input: {
      role?: OperatorRole | undefined;
      status?: 'ACTIVE' | 'DISABLED' | undefined;
      name?: string | undefined;
    },
  ): Promise<OperatorView> {
    const patch: OperatorPatch = {};
    if (input.name !== undefined) patch.name = input.name.trim() ? normalizeName(input.name, 'name') : '';
    const row = await db.transaction(async (tx) => {
      const owners = await repo.lockActiveOwners(tx);
      const before = await byId(tx, id, true);
      if (input.role !== undefined && input.role !== before.role) patch.role = input.role;
      if (input.status === 'DISABLED' && before.status !== 'DISABLED') patch.status = 'DISABLED';
      if (input.status === 'ACTIVE' && before.status === 'INVITED')
        throw new AppError('INVALID_STATE', 'This operator has not enrolled yet: send a new enrolment link', {
          reason: 'not_enrolled',
        });
      // Enabling restores what the operator was: ACTIVE once enrolled, else still invited.
      if (input.status === 'ACTIVE' && before.status === 'DISABLED')
        patch.status = before.enrolledAt ? 'ACTIVE' : 'INVITED';
      if (patch.name === before.name) delete patch.name;
      if (Object.keys(patch).length === 0) return before;
      const after = { ...before, ...patch };
      const wasOwner = before.role === 'owner' && before.status === 'ACTIVE';
      const staysOwner = after.role === 'owner' && after.status === 'ACTIVE';
      if (wasOwner && !staysOwner && owners.filter((o) => o !== id).length === 0)
        throw new AppError(
          'CONFLICT',
          'This is the last active Owner: make another operator an Owner first',
          {
            reason: 'last_owner',
          },
        );
      const updated = await repo.update(tx, id, patch);
      let sessionsEnded = 0;
      if (patch.status === 'DISABLED') {
        sessionsEnded = await sessions.endAll(id, tx);
        await repo.dropOpenEnrolments(tx, id);
      }
      await audit.record(tx, {
        action: 'operator.update',
        targetType: 'operator',
        targetId: id,
        before: summary(before),
        after: { ...summary(updated), ...(patch.status === 'DISABLED' ? { sessionsEnded } : {}) },
      });
      return updated;
    });
    const expiries = await repo.openEnrolmentExpiries(db, [id], clock.now());
    return viewOf(row, expiries.get(id) ?? null);
  }

  async function listSessions(operatorId: string) {
    await byId(db, operatorId);
    return sessions.listLive(operatorId);
  }

  /** Ends one console session (any operator's); 404 when unknown or already ended. */
  async function endSession(sessionId: string): Promise<void> {
    await db.transaction(async (tx) => {
      const ended = await sessions.end(sessionId, tx);
      if (!ended) throw new AppError('NOT_FOUND', 'No live console session with this id');
      await audit.record(tx, {
        action: 'operator.session.end',
        targetType: 'operator',
        targetId: ended.operatorId,
        before: { sessionId, ip: ended.ip, createdAt: ended.createdAt.toISOString() },
        after: { sessionId, endedAt: ended.endedAt?.toISOString() ?? null },
      });
    });
  }

  return { list, get, byEmail, create, newEnrolment, update, listSessions, endSession };
}

export type OperatorsService = ReturnType<typeof createOperatorsService>;
