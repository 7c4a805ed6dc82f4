import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { paths } from '../../api/admin';
import { RecordTable } from '../../components/RecordTable';
import { useCursorList } from '../../lib/cursor-list';
import { AdminPage } from '../AdminShell';
import { adminApi, call } from '../api';
import { useCan } from '../operator';
import { ErrorBox, When } from '../orders-ui';
import '../orders.css';

type Job =
  paths['/api/admin/v1/jobs/failed']['get']['responses'][200]['content']['application/json']['jobs'][number];

const PAGE = 50;
/** The kinds an operator meets most; any other can be typed. */
const KINDS = ['order.fulfill', 'order.cancel', 'webhook.deliver', 'payment.refund', 'catalog.sync'];

/** Where a job's payload points: its order, else its account. */
function subjectOf(job: Job) {
  const { orderId, accountId } = job.payload as { orderId?: unknown; accountId?: unknown };
  if (typeof orderId === 'string')
    return (
      <Link to={`/admin/orders/${orderId}`} className="admin-mono">
        {orderId}
      </Link>
    );
  if (typeof accountId === 'string')
    return (
      <Link to={`/admin/accounts/${accountId}`} className="admin-mono">
        {accountId}
      </Link>
    );
  // Anything else as its fields, one per line (`pushId psh_…`), not as raw JSON.
  const fields = Object.entries((job.payload ?? {}) as Record<string, unknown>);
  if (fields.length === 0) return '—';
  return (
    <span className="admin-mono">
      {fields.map(([key, value]) => (
        <span key={key} className="admin-job-field">
          <span className="admin-muted">{key}</span>{' '}
          {typeof value === 'string' ? value : JSON.stringify(value)}
        </span>
      ))}
    </span>
  );
}

/** Dead letters: jobs out of attempts that nothing else will settle, and a retry for each. */
export default function Jobs() {
  const can = useCan();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const kind = params.get('kind')?.trim() || undefined;
  const [done, setDone] = useState<string | null>(null);
  const list = useCursorList<Job>(['admin', 'jobs', 'failed', kind ?? ''], async (cursor) => {
    const page = await call(
      adminApi.GET('/api/admin/v1/jobs/failed', {
        params: { query: { limit: PAGE, ...(kind ? { kind } : {}), ...(cursor ? { cursor } : {}) } },
      }),
    );
    return { items: page.jobs, nextCursor: page.nextCursor ?? null };
  });
  const retry = useMutation({
    mutationFn: (id: string) =>
      call(adminApi.POST('/api/admin/v1/jobs/{id}/retry', { params: { path: { id } } })),
    onMutate: () => setDone(null),
    onSuccess: async ({ job }) => {
      setDone(`Job ${job.id} (${job.kind}) is queued again with a fresh set of attempts.`);
      await client.invalidateQueries({ queryKey: ['admin', 'jobs'] });
    },
  });

  return (
    <AdminPage title="Jobs">
      <p className="admin-muted">
        Background jobs that failed every attempt and wait for an operator. Fix the cause (the error says what
        went wrong), then retry. Orders out of attempts are refunded automatically and are not listed here.
      </p>
      <form className="admin-filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter jobs">
        <label>
          Kind
          <input
            list="job-kinds"
            defaultValue={kind ?? ''}
            onChange={(e) => {
              const next = new URLSearchParams(params);
              if (e.target.value.trim()) next.set('kind', e.target.value.trim());
              else next.delete('kind');
              setParams(next, { replace: true });
            }}
            placeholder="Any"
            autoComplete="off"
          />
          <datalist id="job-kinds">
            {KINDS.map((k) => (
              <option key={k} value={k} />
            ))}
          </datalist>
        </label>
      </form>
      {done ? (
        <p role="status" className="admin-success">
          {done}
        </p>
      ) : null}
      <ErrorBox error={retry.error ?? list.query.error} />
      {list.query.isPending ? <p className="admin-muted">Loading…</p> : null}
      {list.query.isSuccess && list.items.length === 0 ? (
        <p className="admin-success" data-testid="jobs-empty">
          No dead letters{kind ? ` of kind ${kind}` : ''}: nothing waits for an operator.
        </p>
      ) : null}
      {list.items.length ? (
        <div className="ops-records">
          <RecordTable<Job>
            caption="Dead-lettered jobs"
            rows={list.items}
            rowKey={(j) => j.id}
            testId="job-row"
            columns={[
              {
                header: 'Job',
                card: 'title',
                cell: (j) => (
                  <>
                    <span className="admin-mono">{j.kind}</span> <span className="admin-muted">#{j.id}</span>
                  </>
                ),
              },
              { header: 'Failed', card: 'aside', cell: (j) => <When iso={j.updatedAt} /> },
              { header: 'Attempts', numeric: true, cell: (j) => `${j.attempts} of ${j.maxAttempts}` },
              { header: 'For', cell: subjectOf },
              {
                header: 'Last error',
                cell: (j) => <span className="orders-error-text">{j.lastError ?? '—'}</span>,
              },
              ...(can('jobs.retry')
                ? [
                    {
                      header: 'Action',
                      cell: (j: Job) => (
                        <button
                          type="button"
                          onClick={() => retry.mutate(j.id)}
                          disabled={retry.isPending}
                          aria-label={`Retry job ${j.id} (${j.kind})`}
                        >
                          Retry
                        </button>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </div>
      ) : null}
      {list.hasMore ? (
        <p>
          <button type="button" onClick={list.loadMore} disabled={list.loadingMore}>
            {list.loadingMore ? 'Loading…' : 'Load more'}
          </button>
        </p>
      ) : null}
    </AdminPage>
  );
}
