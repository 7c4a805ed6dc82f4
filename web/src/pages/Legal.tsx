import { useId } from 'react';
import { Link } from 'react-router';
import { LegalText } from '../components/LegalText';
import { useI18n, type MessageKey } from '../i18n';
import type { LegalPage } from '../lib/legal';

/** The other legal pages, linked under each one (the footer lists them too, further down). */
const PAGES: ReadonlyArray<[LegalPage, string, MessageKey]> = [
  ['terms', '/terms', 'legal.terms'],
  ['privacy', '/privacy', 'legal.privacy'],
  ['refund-policy', '/refund-policy', 'legal.refunds'],
  ['contact', '/contact', 'legal.contact'],
];

function LegalDocument({ page }: { page: LegalPage }) {
  const { t } = useI18n();
  const navId = useId();
  return (
    <div className="container legal-page">
      <article className="card legal-card">
        <LegalText page={page} />
      </article>
      <nav className="legal-nav" aria-labelledby={navId}>
        <h2 id={navId}>{t('legal.other')}</h2>
        <ul>
          {PAGES.filter(([other]) => other !== page).map(([other, to, label]) => (
            <li key={other}>
              <Link to={to}>{t(label)}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

export function Terms() {
  return <LegalDocument page="terms" />;
}

export function Privacy() {
  return <LegalDocument page="privacy" />;
}

export function RefundPolicy() {
  return <LegalDocument page="refund-policy" />;
}
