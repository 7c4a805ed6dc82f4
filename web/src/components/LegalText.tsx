import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { useI18n } from '../i18n';
import { useLegalPage, type LegalPage } from '../lib/legal';
import { useTitle } from '../lib/title';
import { FormError } from './FormError';
import './legal.css';

/**
 * The text of a legal page. The HTML comes from the service, which renders the Markdown template
 * with raw HTML shown as text and only safe link URLs (src/lib/markdown.ts), so it is inserted as
 * is. Links to our own pages inside it navigate in the app instead of reloading it.
 */
export function LegalText({ page }: { page: LegalPage }) {
  const { t, language } = useI18n();
  const navigate = useNavigate();
  const text = useLegalPage(page, language);
  useTitle(text.data?.title ?? t('common.loading'));

  function followInternalLink(event: MouseEvent<HTMLDivElement>) {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element).closest('a');
    const href = link?.getAttribute('href');
    if (!link || !href || !href.startsWith('/') || href.startsWith('//') || link.target) return;
    event.preventDefault();
    void navigate(href);
  }

  if (text.isError) return <FormError error={text.error} />;
  if (!text.data) return <p className="muted page-loading">{t('common.loading')}</p>;
  return (
    // The click handler only routes clicks on the links inside (Enter on a link is a click too).
    <div
      className="legal-text"
      lang={text.data.language}
      onClick={followInternalLink}
      dangerouslySetInnerHTML={{ __html: text.data.html }}
    />
  );
}
