import { NavLink } from 'react-router';
import { useI18n } from '../i18n';

/** The partner dashboard's two pages. */
export function PartnerTabs() {
  const { t } = useI18n();
  return (
    <nav className="subnav" aria-label={t('partner.nav')}>
      <NavLink to="/api-keys">{t('partner.keysTab')}</NavLink>
      <NavLink to="/partner">{t('partner.ordersTab')}</NavLink>
      <a href="/docs">{t('partner.reference')}</a>
    </nav>
  );
}
