import { useEffect, useState } from 'react';
import { Link, NavLink, Outlet, ScrollRestoration, useLocation, useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import { CURRENCIES, type Currency } from '../api/types';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, useI18n, type Language } from '../i18n';
import { formatMoney } from '../lib/format';
import { useCompany } from '../lib/legal';
import { rememberCurrency, useLogout, useMe, useSetMe, userCurrency } from '../lib/session';
import { useCurrencyState } from '../lib/currency';

export function Layout() {
  const { t, language, setLanguage } = useI18n();
  const me = useMe();
  const setMe = useSetMe();
  const user = me.data ?? null;
  const logout = useLogout();
  const navigate = useNavigate();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [currency, setCurrency] = useCurrencyState();
  const company = useCompany().data?.company;

  // The account's language wins over the browser's once we know who is logged in.
  useEffect(() => {
    if (user && isLanguage(user.locale) && user.locale !== language) void setLanguage(user.locale, false);
  }, [user?.locale]);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  useEffect(() => setMenuOpen(false), [location.pathname]);

  async function changeLanguage(next: Language) {
    await setLanguage(next);
    if (user) {
      try {
        setMe((await unwrap(api.PATCH('/api/v1/user/profile', { body: { locale: next } }))).user);
      } catch {
        // the header switch still applies locally
      }
    }
  }

  async function changeCurrency(next: Currency) {
    rememberCurrency(next);
    setCurrency(next);
    if (user) {
      try {
        setMe((await unwrap(api.PATCH('/api/v1/user/profile', { body: { preferredCurrency: next } }))).user);
      } catch {
        // ignore: the visitor's choice is still remembered locally
      }
    }
  }

  const shownCurrency = user ? userCurrency(user, language) : currency;
  const navItems = user
    ? ([
        ['/', t('nav.destinations')],
        ['/esims', t('nav.esims')],
        ['/orders', t('nav.orders')],
        ['/wallet', t('nav.wallet')],
        ['/support', t('nav.support')],
        ['/partner', t('nav.partner')],
      ] as const)
    : ([['/', t('nav.destinations')]] as const);

  return (
    <>
      <a className="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <header className="site-header">
        <div className="header-inner">
          <Link to="/" className="brand" aria-label={t('brand.home')}>
            <svg aria-hidden="true" width="28" height="28" viewBox="0 0 64 64">
              <rect width="64" height="64" rx="14" fill="currentColor" />
              <path d="M20 14h18l8 8v28H20z" fill="#fff" />
              <rect x="26" y="30" width="14" height="12" rx="2" fill="#5eead4" />
            </svg>
            <span>Roam eSIM</span>
          </Link>
          <button
            type="button"
            className="menu-button"
            aria-expanded={menuOpen}
            aria-controls="site-nav"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {t('nav.menu')}
          </button>
          <nav id="site-nav" aria-label={t('nav.main')} className={menuOpen ? 'site-nav open' : 'site-nav'}>
            <ul>
              {navItems.map(([to, label]) => (
                <li key={to}>
                  <NavLink to={to} end={to === '/'}>
                    {label}
                  </NavLink>
                </li>
              ))}
            </ul>
            <div className="prefs">
              <label className="visually-hidden" htmlFor="pref-lang">
                {t('nav.language')}
              </label>
              <select
                id="pref-lang"
                value={language}
                onChange={(e) => void changeLanguage(e.target.value as Language)}
              >
                {LANGUAGES.map((l) => (
                  <option key={l} value={l} lang={l}>
                    {LANGUAGE_NAMES[l]}
                  </option>
                ))}
              </select>
              <label className="visually-hidden" htmlFor="pref-currency">
                {t('nav.currency')}
              </label>
              <select
                id="pref-currency"
                value={shownCurrency}
                onChange={(e) => void changeCurrency(e.target.value as Currency)}
              >
                {CURRENCIES.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </div>
            <div className="account-links">
              {user ? (
                <>
                  <Link to="/wallet" className="balance-chip">
                    <span className="visually-hidden">{t('nav.balance')}: </span>
                    {formatMoney(user.walletBalance, 'USD', language)}
                  </Link>
                  <Link to="/account" className="avatar-link">
                    {user.avatarUrl ? <img src={user.avatarUrl} alt="" width="28" height="28" /> : null}
                    <span>{user.firstName}</span>
                  </Link>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => logout.mutate(undefined, { onSettled: () => void navigate('/') })}
                  >
                    {t('nav.logout')}
                  </button>
                </>
              ) : (
                <>
                  <Link to="/login">{t('nav.login')}</Link>
                  <Link to="/register" className="button small">
                    {t('nav.register')}
                  </Link>
                </>
              )}
            </div>
          </nav>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <footer className="site-footer">
        <div className="footer-inner">
          <div className="footer-brand">
            <p>{t('footer.tagline')}</p>
            {/* COMPANY_NAME: the seller the legal pages name, once the service has told it. */}
            {company ? (
              <p className="footer-company" data-testid="footer-company">
                {t('footer.copyright', { year: new Date().getFullYear(), company: company.name })}
              </p>
            ) : null}
          </div>
          <nav aria-label={t('footer.legal')} className="footer-links">
            <ul>
              <li>
                <Link to="/terms">{t('legal.terms')}</Link>
              </li>
              <li>
                <Link to="/privacy">{t('legal.privacy')}</Link>
              </li>
              <li>
                <Link to="/refund-policy">{t('legal.refunds')}</Link>
              </li>
              <li>
                <Link to="/contact">{t('legal.contact')}</Link>
              </li>
            </ul>
            <ul>
              <li>
                <Link to="/compatibility">{t('compat.footer')}</Link>
              </li>
              <li>
                <Link to="/support">{t('nav.support')}</Link>
              </li>
              <li>
                <Link to="/partner">{t('footer.partners')}</Link>
              </li>
              <li>
                <a href="/docs">{t('footer.apiReference')}</a>
              </li>
            </ul>
          </nav>
        </div>
      </footer>
      <ScrollRestoration />
    </>
  );
}
