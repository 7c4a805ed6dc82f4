import { useI18n } from '../i18n';

export const PAGE_SIZE = 10;

export function usePage<T>(items: T[], page: number, size = PAGE_SIZE): T[] {
  return items.slice(page * size, page * size + size);
}

/** Previous/next paging with "x–y of n". */
export function Pager({
  page,
  total,
  onPage,
  size = PAGE_SIZE,
}: {
  page: number;
  total: number;
  onPage: (page: number) => void;
  size?: number;
}) {
  const { t } = useI18n();
  if (total <= size) return null;
  const last = Math.ceil(total / size) - 1;
  return (
    <nav className="pager" aria-label={t('pager.label')}>
      <button type="button" className="button small" disabled={page === 0} onClick={() => onPage(page - 1)}>
        {t('pager.previous')}
      </button>
      <span>
        {t('pager.range', { from: page * size + 1, to: Math.min(total, (page + 1) * size), total })}
      </span>
      <button type="button" className="button small" disabled={page >= last} onClick={() => onPage(page + 1)}>
        {t('pager.next')}
      </button>
    </nav>
  );
}

/**
 * "Load more" for lists the API pages with cursors (the next page comes from its `nextCursor`):
 * shown while another page exists, in the pager's place and look.
 */
export function LoadMore({
  hasMore,
  loading,
  onMore,
}: {
  hasMore: boolean;
  loading: boolean;
  onMore: () => void;
}) {
  const { t } = useI18n();
  if (!hasMore) return null;
  return (
    <nav className="pager" aria-label={t('pager.label')}>
      <button type="button" className="button small" disabled={loading} onClick={onMore}>
        {loading ? t('common.loading') : t('pager.more')}
      </button>
    </nav>
  );
}
