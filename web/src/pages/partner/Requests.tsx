import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import type { paths } from '../../api/mobile';
import { FormError } from '../../components/FormError';
import { useI18n } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { usePartnerT, type PartnerConsole } from '../../partner/console';
import { PartnerShell } from '../../partner/PartnerShell';
import '../../partner/logs.css';

type Page =
  paths['/api/v1/partners/{partnerId}/requests']['get']['responses'][200]['content']['application/json'];
type StatusClass = '2xx' | '3xx' | '4xx' | '5xx';
interface Filters {
  status?: StatusClass;
  path?: string;
  requestId?: string;
}

/** The request log (issue 32 C3): the Partner API calls of the mode, newest first, with filters. */
export default function Requests() {
  return (
    <PartnerShell title="pc.tab.requests" permission="requests.read">
      {(pc) => <RequestLog pc={pc} />}
    </PartnerShell>
  );
}

function RequestLog({ pc }: { pc: PartnerConsole }) {
  const t = usePartnerT();
  const { language } = useI18n();
  const id = useId();
  const [params] = useSearchParams();
  // A link can open the log on one request (`?requestId=`), as a support reply would.
  const [filters, setFilters] = useState<Filters>(() => {
    const requestId = params.get('requestId')?.trim();
    return requestId ? { requestId } : {};
  });
  const [draft, setDraft] = useState({ status: '', path: '', requestId: filters.requestId ?? '' });
  const log = useInfiniteQuery({
    queryKey: [...pc.key, 'requests', filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/v1/partners/{partnerId}/requests', {
          params: {
            path: pc.scope.path,
            query: { ...pc.scope.query, ...filters, limit: 50, ...(pageParam ? { cursor: pageParam } : {}) },
          },
        }),
      ),
    getNextPageParam: (last: Page) => last.nextCursor ?? undefined,
  });
  const rows = log.data?.pages.flatMap((p) => p.data) ?? [];

  function apply(event: FormEvent) {
    event.preventDefault();
    const next: Filters = {};
    if (draft.status) next.status = draft.status as StatusClass;
    if (draft.path.trim()) next.path = draft.path.trim();
    if (draft.requestId.trim()) next.requestId = draft.requestId.trim();
    setFilters(next);
  }

  return (
    <>
      <p className="hint">{t('pc.requests.intro')}</p>
      <form className="console-filters" onSubmit={apply} aria-label={t('pc.requests.filters')}>
        <label className="field">
          <span>{t('pc.requests.status')}</span>
          <select value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
            <option value="">{t('pc.requests.status.all')}</option>
            {(['2xx', '3xx', '4xx', '5xx'] as const).map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('pc.requests.path')}</span>
          <input
            value={draft.path}
            maxLength={200}
            placeholder="/api/public/v1/orders"
            onChange={(e) => setDraft({ ...draft, path: e.target.value })}
          />
        </label>
        <label className="field">
          <span>{t('pc.requests.requestId')}</span>
          <input
            value={draft.requestId}
            maxLength={128}
            className="mono"
            aria-describedby={`${id}-rid`}
            data-testid="request-id-filter"
            onChange={(e) => setDraft({ ...draft, requestId: e.target.value })}
          />
          <small className="hint" id={`${id}-rid`}>
            {t('pc.requests.requestIdHint')}
          </small>
        </label>
        <div className="filter-actions">
          <button type="submit" className="button">
            {t('pc.requests.apply')}
          </button>
          <button
            type="button"
            className="button secondary"
            onClick={() => {
              setDraft({ status: '', path: '', requestId: '' });
              setFilters({});
            }}
          >
            {t('pc.requests.clear')}
          </button>
          <button type="button" className="button secondary" onClick={() => void log.refetch()}>
            {t('pc.requests.refresh')}
          </button>
        </div>
      </form>
      <FormError error={log.error} />
      {log.isSuccess && rows.length === 0 ? <p className="empty">{t('pc.requests.none')}</p> : null}
      {rows.length > 0 ? (
        <div className="table-wrap" tabIndex={0} role="region" aria-labelledby={`${id}-caption`}>
          <table data-testid="request-log">
            <caption id={`${id}-caption`}>{t('pc.requests.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('pc.requests.time')}</th>
                <th scope="col">{t('pc.requests.method')}</th>
                <th scope="col">{t('pc.requests.pathColumn')}</th>
                <th scope="col">{t('pc.requests.status')}</th>
                <th scope="col">{t('pc.requests.duration')}</th>
                <th scope="col">{t('pc.requests.requestId')}</th>
                <th scope="col">{t('pc.requests.idempotencyKey')}</th>
                <th scope="col">{t('pc.requests.errorCode')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.requestId}-${r.createdAt}`} data-testid="request-row">
                  <td className="nowrap">{formatDateTime(r.createdAt, language)}</td>
                  <td className="mono">{r.method}</td>
                  <td className="mono">{r.path}</td>
                  <td>
                    <span className={`badge status-${Math.floor(r.status / 100)}xx`}>{r.status}</span>
                  </td>
                  <td className="nowrap">{t('pc.requests.ms', { ms: r.durationMs })}</td>
                  <td className="mono">{r.requestId}</td>
                  <td className="mono">{r.idempotencyKey ?? '—'}</td>
                  <td className="mono">{r.errorCode ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {log.hasNextPage ? (
        <button
          type="button"
          className="button secondary"
          disabled={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          {t('pc.requests.more')}
        </button>
      ) : null}
    </>
  );
}
