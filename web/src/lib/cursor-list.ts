import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';

/** One page of a cursor-paged list: its rows and the API's `nextCursor` (null on the last page). */
export interface CursorPage<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * A list the API pages with cursors (`limit` + `cursor`, issue 12): the pages loaded so far, in
 * order, and `loadMore` for the next one. The cursor is the API's own (keyset), so rows created
 * meanwhile never shift or repeat a page.
 */
export function useCursorList<T>(
  queryKey: QueryKey,
  fetchPage: (cursor: string | undefined) => Promise<CursorPage<T>>,
  options: { refetchInterval?: number | false } = {},
) {
  const query = useInfiniteQuery({
    queryKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: options.refetchInterval ?? false,
  });
  return {
    query,
    items: query.data?.pages.flatMap((p) => p.items) ?? [],
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}
