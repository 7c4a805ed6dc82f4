import { Navigate, Outlet, useLocation } from 'react-router';
import { useI18n } from '../i18n';
import { useMe } from '../lib/session';

/** Pages behind login: a visitor goes to /login?next=<this page>. */
export function RequireAuth() {
  const me = useMe();
  const location = useLocation();
  const { t } = useI18n();
  if (me.isPending) return <p className="muted page-loading">{t('common.loading')}</p>;
  if (!me.data) {
    const next = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/login?next=${next}`} replace />;
  }
  return <Outlet />;
}
