import { useI18n } from '../i18n';
import { errorText } from '../lib/errors';

/** The error of a form's last request, announced to screen readers, shown beside the form. */
export function FormError({ error, id }: { error: unknown; id?: string }) {
  const { t } = useI18n();
  if (!error) return null;
  return (
    <p className="form-error" role="alert" id={id} data-testid="form-error">
      {errorText(error, t)}
    </p>
  );
}

export function FormSuccess({ children }: { children: React.ReactNode }) {
  return (
    <p className="form-success" role="status">
      {children}
    </p>
  );
}
