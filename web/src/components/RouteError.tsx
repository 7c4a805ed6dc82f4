import { Link } from 'react-router';
import { useI18n } from '../i18n';

/** Shown when a page fails to load (for example a chunk missing after a deploy): reload helps. */
export function RouteError() {
  const { t } = useI18n();
  return (
    <section className="narrow center" role="alert">
      <h1>{t('error.generic')}</h1>
      <p>
        <button type="button" className="button primary" onClick={() => window.location.reload()}>
          {t('common.reload')}
        </button>{' '}
        <Link className="button" to="/">
          {t('notFound.home')}
        </Link>
      </p>
    </section>
  );
}
