import { Link } from 'react-router';
import { useI18n } from '../i18n';
import { useTitle } from '../lib/title';

export function NotFound() {
  const { t } = useI18n();
  useTitle(t('notFound.title'));
  return (
    <section className="narrow center">
      <h1>{t('notFound.title')}</h1>
      <p className="muted">{t('notFound.body')}</p>
      <Link className="button" to="/">
        {t('notFound.home')}
      </Link>
    </section>
  );
}
