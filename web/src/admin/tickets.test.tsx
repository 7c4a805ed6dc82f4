import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, test, vi } from 'vitest';
import { OperatorContext, type Operator } from './operator';
import { Diff } from './pages/Audit';
import Ticket from './pages/Ticket';

/**
 * The console's API client keeps the fetch it was created with (at import), so the stub is put in
 * place before any import and answers with whatever the test sets.
 */
const api = vi.hoisted(() => {
  const state = { body: {} as unknown };
  globalThis.fetch = () =>
    Promise.resolve(
      new Response(JSON.stringify(state.body), { headers: { 'content-type': 'application/json' } }),
    );
  return state;
});

const support = { id: 'opr_s', email: 'sam@ops.example', name: 'Sam', role: 'support' } as const;

const detail = {
  ticket: {
    id: 'tkt_1',
    accountId: 'acc_1',
    email: 'ayse@example.com',
    guest: null,
    subject: 'No data',
    category: 'esim',
    status: 'ANSWERED',
    systemCreated: false,
    orderId: null,
    assignee: null,
    createdAt: '2026-11-27T10:00:00.000Z',
    updatedAt: '2026-11-27T10:05:00.000Z',
    messages: [
      {
        id: 'm1',
        author: 'customer',
        message: 'Help',
        internal: false,
        operator: null,
        createdAt: '2026-11-27T10:00:00.000Z',
      },
      {
        id: 'm2',
        author: 'staff',
        message: 'Turn on roaming',
        internal: false,
        operator: support,
        createdAt: '2026-11-27T10:05:00.000Z',
      },
      {
        id: 'm3',
        author: 'staff',
        message: 'Provider is fine',
        internal: true,
        operator: support,
        createdAt: '2026-11-27T10:06:00.000Z',
      },
    ],
  },
  customer: { accountId: 'acc_1', email: 'ayse@example.com', matchedByEmail: false },
  orders: [],
};

function renderTicket(permissions: string[]) {
  api.body = detail;
  const operator = { ...support, permissions } as unknown as Operator;
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <OperatorContext.Provider value={operator}>
        <MemoryRouter initialEntries={['/admin/tickets/tkt_1']}>
          <Routes>
            <Route path="/admin/tickets/:id" element={<Ticket />} />
          </Routes>
        </MemoryRouter>
      </OperatorContext.Provider>
    </QueryClientProvider>,
  );
}

describe('the ticket page', () => {
  test('marks the internal note in words and names each staff author', async () => {
    renderTicket(['read', 'tickets.write']);
    const note = (await screen.findByText('Provider is fine')).closest('li')!;
    expect(note.className).toContain('ticket-note');
    expect(within(note).getByText(/the customer never sees this/)).toBeTruthy();
    const reply = screen.getByText('Turn on roaming').closest('li')!;
    expect(reply.className).not.toContain('ticket-note');
    expect(within(reply).getByText('Sam')).toBeTruthy();
  });

  test('switches the box between a reply and an internal note', async () => {
    renderTicket(['read', 'tickets.write']);
    expect(await screen.findByRole('button', { name: 'Send reply' })).toBeTruthy();
    await userEvent.click(screen.getByLabelText('Internal note'));
    expect(screen.getByRole('button', { name: 'Add internal note' })).toBeTruthy();
    expect(screen.getByText(/only operators see it/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Assign to me' })).toBeTruthy();
  });

  test('offers no reply, note, status or assignment to a read-only role', async () => {
    renderTicket(['read']);
    await screen.findByText('Provider is fine');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Assign to me' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Set status' })).toBeNull();
  });
});

describe('the audit diff', () => {
  test('shows only what changed, before → after', () => {
    render(<Diff before={{ status: 'OPEN', count: 1 }} after={{ status: 'ANSWERED', count: 1 }} />);
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(1);
    expect(items[0]!.textContent).toBe('status: "OPEN" → "ANSWERED"');
  });

  test('shows a new value without a before, and says when nothing changed', () => {
    const { unmount } = render(<Diff before={null} after={{ noteId: 'msg_1' }} />);
    expect(screen.getByRole('listitem').textContent).toBe('noteId: "msg_1"');
    unmount();
    render(<Diff before={{ a: 1 }} after={{ a: 1 }} />);
    expect(screen.getByText('no change')).toBeTruthy();
  });
});
