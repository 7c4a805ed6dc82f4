import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { I18nProvider } from '../i18n';
import { useCursorList, type CursorPage } from '../lib/cursor-list';
import { LoadMore } from './Pager';

/** A fake API list of 5 rows paged 2 at a time by cursor. */
const ROWS = ['a', 'b', 'c', 'd', 'e'];
function fetchPage(cursor: string | undefined): Promise<CursorPage<string>> {
  const start = cursor ? Number(cursor) : 0;
  const next = start + 2 < ROWS.length ? String(start + 2) : null;
  return Promise.resolve({ items: ROWS.slice(start, start + 2), nextCursor: next });
}

function List() {
  const { items, hasMore, loadingMore, loadMore } = useCursorList(['test'], fetchPage);
  return (
    <>
      <ul>
        {items.map((x) => (
          <li key={x}>{x}</li>
        ))}
      </ul>
      <LoadMore hasMore={hasMore} loading={loadingMore} onMore={loadMore} />
    </>
  );
}

const wrap = (lang: 'en' | 'tr' = 'en') =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider initial={lang}>
        <List />
      </I18nProvider>
    </QueryClientProvider>,
  );

describe('cursor-paged lists', () => {
  test('"Load more" appends the next page until the API has no nextCursor', async () => {
    wrap();
    await waitFor(() =>
      expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['a', 'b']),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(4));
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() =>
      expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['a', 'b', 'c', 'd', 'e']),
    );
    expect(screen.queryByRole('button')).toBeNull();
  });

  test('the button speaks Turkish too', async () => {
    wrap('tr');
    expect(await screen.findByRole('button', { name: 'Daha fazla göster' })).toBeTruthy();
  });
});
