import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { paths } from '../../api/admin';
import { RecordTable } from '../../components/RecordTable';
import { useCursorList } from '../../lib/cursor-list';
import { AdminPage } from '../AdminShell';
import { adminApi, call } from '../api';
import { ErrorBox, When } from '../orders-ui';
import { StatusBadge } from '../status-badge';
import '../orders.css';

type Mail =
  paths['/api/admin/v1/mail']['get']['responses'][200]['content']['application/json']['messages'][number];
type Push =
  paths['/api/admin/v1/push']['get']['responses'][200]['content']['application/json']['pushes'][number];

const PAGE = 50;

/** Every mail and push the service sent (or recorded), newest first, with how each send went. */
export default function Outboxes() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'push' ? 'push' : 'mail';
  const recipient = params.get('to')?.trim() ?? '';
  const [draft, setDraft] = useState(recipient);

  function apply(event: FormEvent) {
    event.preventDefault();
    const next = new URLSearchParams(params);
    if (draft.trim()) next.set('to', draft.trim());
    else next.delete('to');
    setParams(next, { replace: true });
  }

  function tabLink(name: 'mail' | 'push', label: string) {
    return (
      <Link
        to={name === 'mail' ? '/admin/outboxes' : '/admin/outboxes?tab=push'}
        aria-current={tab === name ? 'page' : undefined}
        onClick={() => setDraft('')}
      >
        {label}
      </Link>
    );
  }

  return (
    <AdminPage title="Mail & push">
      <nav className="ops-tabs" aria-label="Outbox">
        {tabLink('mail', 'Mail')}
        {tabLink('push', 'Push')}
      </nav>
      <form className="admin-filters" onSubmit={apply} aria-label={`Filter ${tab}`}>
        <label>
          {tab === 'mail' ? 'Recipient e-mail' : 'Recipient account id'}
          <input
            type={tab === 'mail' ? 'email' : 'text'}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            placeholder={tab === 'mail' ? 'someone@example.com' : 'acc_…'}
            autoComplete="off"
            spellCheck={false}
          />
        </label>
        <button type="submit">Filter</button>
      </form>
      {tab === 'mail' ? <MailList to={recipient} /> : <PushList accountId={recipient} />}
    </AdminPage>
  );
}

function MailList({ to }: { to: string }) {
  const list = useCursorList<Mail>(['admin', 'outbox', 'mail', to], async (cursor) => {
    const page = await call(
      adminApi.GET('/api/admin/v1/mail', {
        params: { query: { limit: PAGE, ...(to ? { to } : {}), ...(cursor ? { cursor } : {}) } },
      }),
    );
    return { items: page.messages, nextCursor: page.nextCursor ?? null };
  });
  return (
    <Listing list={list} empty="No mail recorded for this recipient.">
      {list.items.length ? (
        <div className="ops-records">
          <RecordTable<Mail>
            caption="Mail"
            rows={list.items}
            rowKey={(m) => m.id}
            testId="mail-row"
            columns={[
              {
                header: 'Message',
                card: 'title',
                cell: (m) => (
                  <details className="ops-mail">
                    <summary>{m.subject}</summary>
                    <p className="ops-body">{m.text}</p>
                    {m.redacted ? (
                      <p className="admin-muted">
                        Links and codes that sign someone in are hidden: only an Owner sees them.
                      </p>
                    ) : null}
                    {m.error ? <p className="orders-error-text">{m.error}</p> : null}
                  </details>
                ),
              },
              { header: 'Send', card: 'aside', cell: (m) => <StatusBadge status={m.status} /> },
              { header: 'To', cell: (m) => m.to },
              { header: 'Recorded', cell: (m) => <When iso={m.createdAt} /> },
            ]}
          />
        </div>
      ) : null}
    </Listing>
  );
}

function PushList({ accountId }: { accountId: string }) {
  const list = useCursorList<Push>(['admin', 'outbox', 'push', accountId], async (cursor) => {
    const page = await call(
      adminApi.GET('/api/admin/v1/push', {
        params: {
          query: { limit: PAGE, ...(accountId ? { accountId } : {}), ...(cursor ? { cursor } : {}) },
        },
      }),
    );
    return { items: page.pushes, nextCursor: page.nextCursor ?? null };
  });
  return (
    <Listing list={list} empty="No push recorded for this account.">
      {list.items.length ? (
        <div className="ops-records">
          <RecordTable<Push>
            caption="Push messages"
            rows={list.items}
            rowKey={(p) => p.id}
            testId="push-row"
            columns={[
              { header: 'Title', card: 'title', cell: (p) => p.title },
              { header: 'Send', card: 'aside', cell: (p) => <StatusBadge status={p.result} /> },
              {
                header: 'To',
                cell: (p) => (
                  <>
                    <Link to={`/admin/accounts/${p.accountId}`} className="admin-mono">
                      {p.accountId}
                    </Link>{' '}
                    <span className="admin-muted">{p.platform}</span>
                  </>
                ),
              },
              { header: 'Recorded', cell: (p) => <When iso={p.createdAt} /> },
              {
                header: 'Body',
                cell: (p) => (
                  <>
                    <p className="ops-body">{p.body}</p>
                    {p.error ? (
                      <p className="orders-error-text">
                        {p.error} (attempt {p.attempts})
                      </p>
                    ) : null}
                  </>
                ),
              },
            ]}
          />
        </div>
      ) : null}
    </Listing>
  );
}

/** What Listing reads of a cursor list. */
interface ListState {
  query: { error: unknown; isPending: boolean; isSuccess: boolean };
  items: readonly unknown[];
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

function Listing({ list, empty, children }: { list: ListState; empty: string; children: ReactNode }) {
  return (
    <>
      <ErrorBox error={list.query.error} />
      {list.query.isPending ? <p className="admin-muted">Loading…</p> : null}
      {list.query.isSuccess && list.items.length === 0 ? <p className="admin-muted">{empty}</p> : null}
      {children}
      {list.hasMore ? (
        <p>
          <button type="button" onClick={list.loadMore} disabled={list.loadingMore}>
            {list.loadingMore ? 'Loading…' : 'Load more'}
          </button>
        </p>
      ) : null}
    </>
  );
}
