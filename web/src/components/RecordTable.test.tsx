import { render, screen, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { RecordTable } from './RecordTable';

describe('RecordTable', () => {
  const rows = [
    { id: 'a', number: 'SVC-1', amount: '$4.99', status: 'Completed' },
    { id: 'b', number: 'SVC-2', amount: '$9.99', status: 'Refunded' },
  ];
  type Row = (typeof rows)[number];
  const columns = [
    { header: 'Order', card: 'title' as const, cell: (r: Row) => r.number },
    { header: 'Amount', numeric: true, cell: (r: Row) => r.amount },
    { header: 'State', card: 'aside' as const, cell: (r: Row) => r.status },
  ];

  test('renders a table and one card per row with labelled fields (CSS shows one of them)', () => {
    render(<RecordTable rows={rows} columns={columns} caption="Orders" rowKey={(r) => r.id} testId="row" />);
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Order', 'Amount', 'State']);
    expect(screen.getAllByTestId('row')).toHaveLength(2);
    const cards = screen.getAllByTestId('row-card');
    expect(cards).toHaveLength(2);
    expect(cards[0]!.querySelector('.record-card-title')?.textContent).toBe('SVC-1');
    expect(cards[0]!.querySelector('.record-card-aside')?.textContent).toBe('Completed');
    // Only the fields that are neither title nor aside are listed, each under its header.
    expect([...cards[1]!.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual(['Amount']);
    expect(cards[1]!.querySelector('dd')?.textContent).toBe('$9.99');
    expect(screen.getByRole('list', { name: 'Orders' })).toBeTruthy();
  });
});
