import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { NavLink, useNavigate, useSearchParams } from 'react-router';
import { adminApi, call } from './api';
import { OPERATOR_KEY, useCan, useOperator } from './operator';
import { ADMIN_SECTIONS } from './sections';

const ROLE_NAMES: Record<string, string> = {
  owner: 'Owner',
  support: 'Support',
  finance: 'Finance',
  catalog: 'Catalog',
  readonly: 'Read-only',
};

export function roleName(role: string): string {
  return ROLE_NAMES[role] ?? role;
}

/** The console's frame: navigation (what the role may open), one search box, who is signed in. */
export function AdminShell({ children }: { children: ReactNode }) {
  const operator = useOperator();
  const can = useCan();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [params] = useSearchParams();
  const [query, setQuery] = useState(params.get('q') ?? '');

  function search(event: FormEvent) {
    event.preventDefault();
    const q = query.trim();
    if (q) void navigate(`/admin/search?q=${encodeURIComponent(q)}`);
  }

  async function signOut() {
    await call(adminApi.DELETE('/api/admin/v1/operator/session')).catch(() => undefined);
    client.setQueryData(OPERATOR_KEY, null);
    client.removeQueries({ predicate: (q) => q.queryKey[0] === 'admin' && q.queryKey[1] !== 'me' });
  }

  return (
    <div className="admin">
      <a className="skip-link" href="#admin-main">
        Skip to content
      </a>
      <header className="admin-top">
        <NavLink to="/admin" end className="admin-brand">
          Roam <span>Ops</span>
        </NavLink>
        <form role="search" className="admin-search" onSubmit={search}>
          <label htmlFor="admin-search" className="visually-hidden">
            Search accounts, orders, eSIMs and payments
          </label>
          <input
            id="admin-search"
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="E-mail, name, order, ICCID, payment id…"
            autoComplete="off"
            spellCheck={false}
          />
          <button type="submit">Search</button>
        </form>
        <div className="admin-who">
          <span data-testid="operator-who">
            {operator.name || operator.email} · {roleName(operator.role)}
          </span>
          <button type="button" className="admin-link" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <nav className="admin-nav" aria-label="Console">
        <ul>
          {ADMIN_SECTIONS.filter((s) => s.nav && can(s.permission)).map((s) => (
            <li key={s.path}>
              <NavLink to={`/admin${s.path ? `/${s.path}` : ''}`} end={s.path === ''}>
                {s.nav}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="admin-main" className="admin-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

/** A console page: its title (also the document title) and its content. */
export function AdminPage({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  useEffect(() => {
    document.title = `${title} · Roam Ops`;
  }, [title]);
  return (
    <>
      <div className="admin-page-head">
        <h1>{title}</h1>
        {actions ? <div className="admin-page-actions">{actions}</div> : null}
      </div>
      {children}
    </>
  );
}
