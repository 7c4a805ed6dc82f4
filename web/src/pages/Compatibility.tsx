import { Link } from 'react-router';
import { CompatibilityChecker } from '../components/CompatibilityChecker';
import { useI18n } from '../i18n';
import { useTitle } from '../lib/title';

/** /compatibility: the eSIM phone list on a page of its own (linked from the footer). */
export default function Compatibility() {
  const { t } = useI18n();
  useTitle(t('compat.title'));
  return (
    <div className="container compat-page">
      <h1>{t('compat.title')}</h1>
      <p className="muted">{t('compat.intro')}</p>
      <div className="card">
        <CompatibilityChecker />
      </div>
      <p>
        <Link to="/">{t('notFound.home')}</Link>
      </p>
    </div>
  );
}
