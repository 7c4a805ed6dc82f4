import { Suspense, lazy } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { AdminShell } from './AdminShell';
import { OperatorContext, useCan, useOperatorQuery } from './operator';
import { ADMIN_SECTIONS } from './sections';
import './admin.css';

const SignIn = lazy(() => import('./pages/SignIn'));
const Enrol = lazy(() => import('./pages/Enrol'));

const loading = <p className="admin-muted admin-loading">Loading…</p>;

/**
 * The operator console at /admin (issue 33 O2): a bundle of its own, loaded only here. Signed out,
 * every console URL shows the sign-in page (then the page asked for); the enrolment link's page
 * works without a session.
 */
export default function AdminApp() {
  const location = useLocation();
  const me = useOperatorQuery();
  if (location.pathname.startsWith('/admin/enrol'))
    return (
      <Suspense fallback={loading}>
        <Enrol />
      </Suspense>
    );
  if (me.isPending) return loading;
  if (me.isError)
    return (
      <main className="admin-auth" role="alert">
        <h1>The console cannot reach the service</h1>
        <p>{me.error.message}</p>
        <button type="button" onClick={() => void me.refetch()}>
          Try again
        </button>
      </main>
    );
  if (!me.data)
    return (
      <Suspense fallback={loading}>
        <SignIn />
      </Suspense>
    );
  return (
    <OperatorContext.Provider value={me.data}>
      <AdminShell>
        <Suspense fallback={loading}>
          <SectionRoutes />
        </Suspense>
      </AdminShell>
    </OperatorContext.Provider>
  );
}

function SectionRoutes() {
  const can = useCan();
  return (
    <Routes>
      {ADMIN_SECTIONS.map(({ path, permission, Page }) => {
        const element = can(permission) ? <Page /> : <Refused />;
        return path === '' ? (
          <Route key="index" index element={element} />
        ) : (
          <Route key={path} path={path} element={element} />
        );
      })}
      <Route path="*" element={<NotFoundInConsole />} />
    </Routes>
  );
}

function Refused() {
  return (
    <p role="alert" className="admin-notice">
      Your role cannot open this page. An Owner can change your role.
    </p>
  );
}

function NotFoundInConsole() {
  return (
    <p role="alert" className="admin-notice">
      There is no such page in the console.
    </p>
  );
}
