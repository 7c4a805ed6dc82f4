import type { Db } from '../../db/client.js';
import type { KeysetPage } from '../../db/keyset.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditService } from '../audit/audit.service.js';
import { AppError } from '../errors.js';
import {
  createStaffTicketsRepository,
  type StaffTicketFilter,
  type StaffTicketsRepository,
} from './staff-tickets.repository.js';
import type { AdminTicketView } from './ticket-views.js';

export type { AssigneeFilter, StaffTicketFilter } from './staff-tickets.repository.js';

/** Who acts in the console: `operatorId` null for the admin token (it is nobody in particular). */
export interface ConsoleActor {
  operatorId: string | null;
  requestId?: string | undefined;
}

/** Whose orders sit beside a ticket: its account's, or for a guest the account with their address. */
export interface TicketCustomer {
  accountId: string | null;
  email: string;
  /** A guest ticket whose address belongs to an account (the guest may have written signed out). */
  matchedByEmail: boolean;
}

const notFound = () => new AppError('TICKET_NOT_FOUND', 'Support ticket not found');

/**
 * The ticket inbox of the operator console (issue 33 O2/O3): the staff view of a thread, internal
 * notes, assignment. Replies and status changes stay in ./support.service.ts, which mails and
 * pushes the customer; nothing here reaches the customer.
 */
export function createTicketConsole(deps: { db: Db; clock: Clock; audit: AuditService }) {
  const { db, clock, audit } = deps;
  const repo: StaffTicketsRepository = createStaffTicketsRepository(db);

  async function view(ticketId: string): Promise<AdminTicketView> {
    const ticket = await repo.find(ticketId);
    if (!ticket) throw notFound();
    return ticket;
  }

  return {
    view,

    list(filter: StaffTicketFilter, page: KeysetPage): Promise<AdminTicketView[]> {
      return repo.list(filter, page);
    },

    async customerOf(ticket: AdminTicketView): Promise<TicketCustomer> {
      if (ticket.accountId)
        return { accountId: ticket.accountId, email: ticket.email, matchedByEmail: false };
      const accountId = ticket.guest ? await repo.accountIdByEmail(ticket.guest.email) : null;
      return { accountId, email: ticket.email, matchedByEmail: accountId !== null };
    },

    /**
     * An internal note: never shown, mailed or pushed to the customer; the ticket's status and
     * last activity stay. Audited without its text (the audit log keeps summaries).
     */
    async addNote(ticketId: string, message: string, actor: ConsoleActor): Promise<AdminTicketView> {
      return db.transaction(async (tx) => {
        if (!(await repo.lock(tx, ticketId))) throw notFound();
        const note = await repo.insertNote(tx, {
          ticketId,
          message,
          operatorId: actor.operatorId,
          now: clock.now(),
        });
        await audit.record(tx, {
          action: 'ticket.note',
          targetType: 'ticket',
          targetId: ticketId,
          before: null,
          after: { noteId: note.id },
          requestId: actor.requestId,
        });
        return (await repo.find(ticketId, tx))!;
      });
    },

    /**
     * Gives the ticket to an operator (null: nobody). An unknown operator is 404, a disabled one
     * 409; the same assignee again changes nothing and writes no audit row.
     */
    async assign(ticketId: string, operatorId: string | null, actor: ConsoleActor): Promise<AdminTicketView> {
      return db.transaction(async (tx) => {
        const row = await repo.lock(tx, ticketId);
        if (!row) throw notFound();
        const next = operatorId === null ? null : await repo.findOperator(operatorId, tx);
        if (operatorId !== null && !next) throw new AppError('NOT_FOUND', 'Operator not found');
        if (next?.status === 'DISABLED')
          throw new AppError('INVALID_STATE', 'This operator is disabled and cannot take tickets');
        if (row.assignedOperatorId === operatorId) return (await repo.find(ticketId, tx))!;
        const previous = row.assignedOperatorId ? await repo.findOperator(row.assignedOperatorId, tx) : null;
        await repo.setAssignee(tx, ticketId, operatorId);
        await audit.record(tx, {
          action: 'ticket.assign',
          targetType: 'ticket',
          targetId: ticketId,
          before: { assigneeId: previous?.id ?? null, assigneeEmail: previous?.email ?? null },
          after: { assigneeId: next?.id ?? null, assigneeEmail: next?.email ?? null },
          requestId: actor.requestId,
        });
        return (await repo.find(ticketId, tx))!;
      });
    },
  };
}

export type TicketConsole = ReturnType<typeof createTicketConsole>;
