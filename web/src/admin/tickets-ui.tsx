import type { components } from '../api/admin';
import { dateTime } from './display';

export type AdminTicket = components['schemas']['Ticket'];
export type TicketStatus = AdminTicket['status'];
export type OperatorRef = components['schemas']['OperatorRef'];

/** What each status means to the person on call. */
export const STATUS_LABEL: Record<TicketStatus, string> = {
  OPEN: 'Open',
  ANSWERED: 'Waiting for customer',
  RESOLVED: 'Resolved',
  CLOSED: 'Closed',
};

const STATUS_TONE: Record<TicketStatus, string> = {
  OPEN: 'warn',
  ANSWERED: '',
  RESOLVED: 'ok',
  CLOSED: 'ok',
};

export function TicketStatusBadge({ status }: { status: TicketStatus }) {
  return <span className={`admin-badge ${STATUS_TONE[status]}`}>{STATUS_LABEL[status]}</span>;
}

/** Date and time in the operator's own locale and time zone (display.ts, as on every console page). */
export const formatWhen = dateTime;

/** An operator as people say it: the name, else the e-mail. */
export function operatorLabel(operator: OperatorRef | null | undefined): string {
  if (!operator) return 'Unassigned';
  return operator.name || operator.email;
}

/** The latest moment anything happened on a ticket, internal notes included. */
export function lastActivity(ticket: AdminTicket): string {
  const last = ticket.messages.at(-1)?.createdAt;
  return last && last > ticket.updatedAt ? last : ticket.updatedAt;
}
