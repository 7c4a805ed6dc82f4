import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../api/admin';
import { adminApi, call } from '../api';
import { AdminPage, roleName } from '../AdminShell';
import { CopyText } from '../CopyText';
import { useOperator } from '../operator';
import '../operators.css';

type OperatorRow = components['schemas']['Operator'];
type Role = components['schemas']['OperatorRole'];
const ROLES: Role[] = ['owner', 'support', 'finance', 'catalog', 'readonly'];
const LIST_KEY = ['admin', 'operators'] as const;

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '—';

/** A link just issued: shown to the Owner to pass on (it was mailed as well). */
interface IssuedLink {
  email: string;
  url: string;
  expiresAt: string;
}

/**
 * Operators (issue 33 O1, Owners only): invite with an enrolment link, change roles, disable and
 * enable, send a new link (lost phone or password), and see and end console sessions.
 */
export default function Operators() {
  const me = useOperator();
  const client = useQueryClient();
  const list = useQuery({
    queryKey: LIST_KEY,
    queryFn: async () => (await call(adminApi.GET('/api/admin/v1/operators'))).operators,
  });
  const [link, setLink] = useState<IssuedLink | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [sessionsOf, setSessionsOf] = useState<OperatorRow | null>(null);

  /** Runs one change; its error (e.g. the last Owner) is shown above the table. */
  async function change(work: () => Promise<unknown>, done?: string) {
    setError(null);
    setNotice(null);
    try {
      await work();
      if (done) setNotice(done);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'The change failed');
    } finally {
      await client.invalidateQueries({ queryKey: LIST_KEY });
    }
  }

  const patch = (o: OperatorRow, body: { role?: Role; status?: 'ACTIVE' | 'DISABLED' }, done: string) =>
    change(
      () => call(adminApi.PATCH('/api/admin/v1/operators/{id}', { params: { path: { id: o.id } }, body })),
      done,
    );

  const newLink = (o: OperatorRow) =>
    change(async () => {
      const res = await call(
        adminApi.POST('/api/admin/v1/operators/{id}/enrolment', { params: { path: { id: o.id } } }),
      );
      setLink({ email: o.email, url: res.enrolmentUrl, expiresAt: res.expiresAt });
    });

  return (
    <AdminPage title="Operators">
      <InviteForm onInvited={setLink} />
      {link ? <LinkBox link={link} onClose={() => setLink(null)} /> : null}
      {error ? (
        <p className="admin-error" role="alert">
          {error}
        </p>
      ) : null}
      {notice ? (
        <p className="admin-success" role="status">
          {notice}
        </p>
      ) : null}
      <section className="admin-card" aria-labelledby="operators-heading">
        <h2 id="operators-heading">Everyone with console access</h2>
        {list.isPending ? <p className="admin-muted">Loading…</p> : null}
        {list.isError ? <p className="admin-error">{list.error.message}</p> : null}
        {list.data ? (
          <div className="admin-table-wrap">
            <table className="admin-table admin-operators-table" data-testid="operators-table">
              <thead>
                <tr>
                  <th scope="col">Operator</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last sign-in</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((o) => (
                  <tr key={o.id} data-testid={`operator-${o.email}`}>
                    <td>
                      <strong>{o.name || o.email}</strong>
                      {o.id === me.id ? <span className="admin-muted"> (you)</span> : null}
                      {o.name ? <div className="admin-muted">{o.email}</div> : null}
                    </td>
                    <td>
                      <select
                        id={`role-${o.id}`}
                        aria-label={`Role of ${o.email}`}
                        value={o.role}
                        onChange={(e) =>
                          void patch(
                            o,
                            { role: e.target.value as Role },
                            `${o.email} is now ${roleName(e.target.value)}.`,
                          )
                        }
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {roleName(r)}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td>
                      <StatusBadge operator={o} />
                    </td>
                    <td>{when(o.lastSignInAt)}</td>
                    <td>
                      <div className="admin-row-actions">
                        {o.status === 'DISABLED' ? (
                          <button
                            type="button"
                            onClick={() => void patch(o, { status: 'ACTIVE' }, `${o.email} is enabled.`)}
                          >
                            Enable
                          </button>
                        ) : (
                          <button
                            type="button"
                            onClick={() =>
                              void patch(
                                o,
                                { status: 'DISABLED' },
                                `${o.email} is disabled; their sessions ended.`,
                              )
                            }
                          >
                            Disable
                          </button>
                        )}
                        {o.status !== 'DISABLED' ? (
                          <button type="button" onClick={() => void newLink(o)}>
                            New link
                          </button>
                        ) : null}
                        {o.status === 'ACTIVE' ? (
                          <button
                            type="button"
                            onClick={() => setSessionsOf(o)}
                            aria-label={`Sessions of ${o.email}`}
                          >
                            Sessions
                          </button>
                        ) : null}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      {sessionsOf ? <Sessions operator={sessionsOf} onClose={() => setSessionsOf(null)} /> : null}
    </AdminPage>
  );
}

function StatusBadge({ operator }: { operator: OperatorRow }) {
  if (operator.status === 'ACTIVE') return <span className="admin-badge ok">Active</span>;
  if (operator.status === 'DISABLED') return <span className="admin-badge bad">Disabled</span>;
  return (
    <>
      <span className="admin-badge warn">Invited</span>
      <div className="admin-muted">
        {operator.enrolmentExpiresAt ? `link until ${when(operator.enrolmentExpiresAt)}` : 'link expired'}
      </div>
    </>
  );
}

function InviteForm({ onInvited }: { onInvited: (link: IssuedLink) => void }) {
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('support');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await call(
        adminApi.POST('/api/admin/v1/operators', {
          body: { email: email.trim(), role, ...(name.trim() ? { name: name.trim() } : {}) },
        }),
      );
      onInvited({ email: res.operator.email, url: res.enrolmentUrl, expiresAt: res.expiresAt });
      setEmail('');
      setName('');
      await client.invalidateQueries({ queryKey: LIST_KEY });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'The invitation failed');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="admin-card" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite an operator</h2>
      <form className="admin-invite" onSubmit={(e) => void submit(e)}>
        <label>
          E-mail
          <input
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoComplete="off"
          />
        </label>
        <label>
          Name (optional)
          <input
            type="text"
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="off"
          />
        </label>
        <label>
          Role
          <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {roleName(r)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Inviting…' : 'Invite'}
        </button>
      </form>
      {error ? (
        <p className="admin-error" role="alert">
          {error}
        </p>
      ) : null}
      <p className="admin-muted">
        Support: tickets, retries, suspensions. Finance: refunds, wallets, reconcile. Catalog: plans and
        prices. Read-only: reads. Owner: everything, and this page.
      </p>
    </section>
  );
}

function LinkBox({ link, onClose }: { link: IssuedLink; onClose: () => void }) {
  return (
    <section
      className="admin-success"
      role="status"
      aria-labelledby="link-heading"
      data-testid="enrolment-link"
    >
      <strong id="link-heading">Enrolment link for {link.email}</strong>
      <div>
        Mailed to them as well. It works once, until {when(link.expiresAt)}; pass it on by a channel you
        trust.
      </div>
      <div className="admin-link-box">
        <label className="visually-hidden" htmlFor="enrolment-link-url">
          Enrolment link
        </label>
        <input id="enrolment-link-url" readOnly value={link.url} onFocus={(e) => e.target.select()} />
        <CopyText text={link.url}>Copy link</CopyText>
        <button type="button" onClick={onClose}>
          Done
        </button>
      </div>
    </section>
  );
}

function Sessions({ operator, onClose }: { operator: OperatorRow; onClose: () => void }) {
  const client = useQueryClient();
  const key = ['admin', 'operators', operator.id, 'sessions'];
  const sessions = useQuery({
    queryKey: key,
    queryFn: async () =>
      (
        await call(
          adminApi.GET('/api/admin/v1/operators/{id}/sessions', { params: { path: { id: operator.id } } }),
        )
      ).sessions,
  });
  const [error, setError] = useState<string | null>(null);

  async function end(id: string) {
    setError(null);
    try {
      await call(adminApi.DELETE('/api/admin/v1/operator-sessions/{id}', { params: { path: { id } } }));
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Could not end the session');
    }
    await client.invalidateQueries({ queryKey: key });
  }

  return (
    <section className="admin-card" aria-labelledby="sessions-heading" data-testid="operator-sessions">
      <div className="admin-page-head">
        <h2 id="sessions-heading">Console sessions of {operator.name || operator.email}</h2>
        <div className="admin-page-actions">
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      {error ? (
        <p className="admin-error" role="alert">
          {error}
        </p>
      ) : null}
      {sessions.data?.length === 0 ? <p className="admin-muted">No live sessions.</p> : null}
      {sessions.data?.length ? (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Signed in</th>
                <th scope="col">Last used</th>
                <th scope="col">Address</th>
                <th scope="col">Browser</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.map((s) => (
                <tr key={s.id}>
                  <td>{when(s.createdAt)}</td>
                  <td>{when(s.lastSeenAt)}</td>
                  <td className="admin-mono admin-nowrap">{s.ip ?? '—'}</td>
                  <td className="admin-muted">{s.userAgent?.slice(0, 80) ?? '—'}</td>
                  <td>
                    <button type="button" onClick={() => void end(s.id)}>
                      End
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
