import type { ReactNode } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { FormError } from '../components/FormError';
import { useTitle } from '../lib/title';
import { usePartnerConsole, usePartnerT, type PartnerConsole, type PartnerPermission } from './console';
import type { PartnerMessageKey } from './messages/index';
import './partner.css';

/** The console's sections, in tab order, with what a role needs to see each. */
const TABS: Array<{ path: string; label: PartnerMessageKey; permission: PartnerPermission }> = [
  { path: '/partner', label: 'pc.tab.overview', permission: 'partner.read' },
  { path: '/partner/keys', label: 'pc.tab.keys', permission: 'keys.read' },
  { path: '/partner/webhooks', label: 'pc.tab.webhooks', permission: 'webhooks.read' },
  { path: '/partner/events', label: 'pc.tab.events', permission: 'events.read' },
  { path: '/partner/requests', label: 'pc.tab.requests', permission: 'requests.read' },
  { path: '/partner/billing', label: 'pc.tab.billing', permission: 'statements.read' },
  { path: '/partner/team', label: 'pc.tab.team', permission: 'members.read' },
  { path: '/partner/audit', label: 'pc.tab.audit', permission: 'audit.read' },
];

/**
 * The frame of every partner console page: which partner (when you belong to several), your
 * role, the live/test switch with a banner and a distinct colour in test mode, and the tabs your
 * role can open. A page renders its content through `children(console)` once the partner is
 * known, or a refusal when the role lacks `permission` (the server refuses it anyway).
 */
export function PartnerShell({
  title,
  permission,
  children,
}: {
  title: PartnerMessageKey;
  permission: PartnerPermission;
  children: (pc: PartnerConsole) => ReactNode;
}) {
  const t = usePartnerT();
  const pc = usePartnerConsole();
  const location = useLocation();
  const navigate = useNavigate();
  useTitle(`${t(title)} · ${t('pc.title')}`);
  const test = pc.mode === 'test';
  return (
    <div
      className={`container partner-page partner-console${test ? ' partner-test' : ''}`}
      data-mode={pc.mode}
    >
      {test ? (
        <p className="test-banner" role="status" data-testid="test-banner">
          {t('pc.testBanner')}
        </p>
      ) : null}
      <div className="console-head">
        <h1>{t(title)}</h1>
        <div className="console-controls">
          {pc.partners.length > 1 ? (
            <label className="partner-picker">
              <span>{t('pc.partner')}</span>
              <select
                value={pc.partnerId}
                onChange={(e) => void navigate(pc.link(location.pathname, { partner: e.target.value }))}
              >
                {pc.partners.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name} ({t(`pc.role.${p.role}`)})
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <div className="mode-switch" role="group" aria-label={t('pc.mode')}>
            {(['live', 'test'] as const).map((m) => (
              <Link
                key={m}
                to={pc.link(location.pathname, { mode: m })}
                aria-current={pc.mode === m ? 'true' : undefined}
                className={`mode-${m}`}
                data-testid={`mode-${m}`}
              >
                {t(`pc.mode.${m}`)}
              </Link>
            ))}
          </div>
        </div>
      </div>
      {pc.membership ? (
        <p className="hint console-role">
          {t('pc.role', { role: t(`pc.role.${pc.membership.role}`) })}
          {pc.membership.self ? null : ` · ${pc.membership.name}`}
        </p>
      ) : null}
      <nav className="subnav" aria-label={t('pc.nav')}>
        {TABS.filter((tab) => pc.can(tab.permission)).map((tab) => (
          <NavLink key={tab.path} to={pc.link(tab.path)} end>
            {t(tab.label)}
          </NavLink>
        ))}
        <a href="/docs">{t('pc.tab.reference')}</a>
      </nav>
      <FormError error={pc.error} />
      {!pc.ready ? (
        pc.error ? null : (
          <p className="muted">{t('pc.loading')}</p>
        )
      ) : pc.can(permission) ? (
        children(pc)
      ) : (
        <p className="empty" data-testid="role-forbidden">
          {t('pc.forbidden')}
        </p>
      )}
    </div>
  );
}
