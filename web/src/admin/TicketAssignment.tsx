import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../api/admin';
import { adminApi, call } from './api';
import { useCan, useOperator } from './operator';
import { operatorLabel, type AdminTicket, type OperatorRef } from './tickets-ui';

type Detail = components['schemas']['TicketDetail'];
type Pickable = OperatorRef & { status: string };

/**
 * The operators an Owner may give a ticket to (GET /operators needs operators.manage). Anyone who
 * may still sign in: ACTIVE, or INVITED and not enrolled yet; a failure leaves only "Assign to me".
 */
async function fetchOperators(): Promise<Pickable[]> {
  const { operators } = await call(adminApi.GET('/api/admin/v1/operators'));
  return operators.filter((o) => o.status !== 'DISABLED');
}

/** Who owns the ticket: assign to me, unassign, or (Owners) pick any operator. */
export function TicketAssignment({ ticket, queryKey }: { ticket: AdminTicket; queryKey: string[] }) {
  const me = useOperator();
  const can = useCan();
  const client = useQueryClient();
  const [picked, setPicked] = useState('');
  const operators = useQuery({
    queryKey: ['admin', 'operators', 'pickable'],
    queryFn: fetchOperators,
    enabled: can('operators.manage'),
    staleTime: 60_000,
  });
  const assign = useMutation({
    mutationFn: (operatorId: string | null) =>
      call(
        adminApi.PUT('/api/admin/v1/tickets/{id}/assignee', {
          params: { path: { id: ticket.id } },
          body: { operatorId },
        }),
      ),
    onSuccess: (data) => {
      setPicked('');
      client.setQueryData<Detail>(queryKey, (old) => (old ? { ...old, ticket: data.ticket } : old));
      void client.invalidateQueries({ queryKey: ['admin', 'tickets'] });
    },
  });

  const assignee = ticket.assignee;
  const writable = can('tickets.write');
  const others = (operators.data ?? []).filter((o) => o.id !== assignee?.id);
  return (
    <div className="ticket-control ticket-assign">
      <p>
        <span className="admin-muted">Assignee: </span>
        <strong data-testid="ticket-assignee">
          {assignee
            ? assignee.id === me.id
              ? `${operatorLabel(assignee)} (you)`
              : operatorLabel(assignee)
            : 'Unassigned'}
        </strong>
      </p>
      {writable ? (
        <div className="ticket-assign-actions">
          {assignee?.id !== me.id ? (
            <button type="button" disabled={assign.isPending} onClick={() => assign.mutate(me.id)}>
              Assign to me
            </button>
          ) : null}
          {assignee ? (
            <button type="button" disabled={assign.isPending} onClick={() => assign.mutate(null)}>
              Unassign
            </button>
          ) : null}
        </div>
      ) : null}
      {writable && others.length > 0 ? (
        <form
          className="ticket-assign-pick"
          onSubmit={(e) => {
            e.preventDefault();
            if (picked) assign.mutate(picked);
          }}
        >
          <label>
            Give to
            <select value={picked} onChange={(e) => setPicked(e.target.value)}>
              <option value="">Choose an operator…</option>
              {others.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name ? `${o.name} (${o.email})` : o.email}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={!picked || assign.isPending}>
            Assign
          </button>
        </form>
      ) : null}
      {assign.isError ? (
        <p className="admin-error" role="alert">
          {assign.error.message}
        </p>
      ) : null}
    </div>
  );
}
