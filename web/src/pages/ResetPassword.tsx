import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { Field } from '../components/Field';
import { FormError } from '../components/FormError';
import { useI18n } from '../i18n';
import { useSetMe } from '../lib/session';
import { useTitle } from '../lib/title';

export default function ResetPassword() {
  const { t } = useI18n();
  useTitle(t('reset.title'));
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const setMe = useSetMe();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const check = useQuery({
    queryKey: ['reset-token', token],
    queryFn: () => unwrap(api.GET('/api/v1/auth/reset-password', { params: { query: { token } } })),
    enabled: token !== '',
    staleTime: Infinity,
  });
  const reset = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/v1/auth/reset-password', { body: { token, newPassword: password } })),
    onSuccess: () => {
      // Every session of the account ended: log in again with the new password.
      setMe(null);
      void navigate('/login?reset=done', { replace: true });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setMismatch(password !== confirm);
    if (password === confirm) reset.mutate();
  };
  const invalid = token === '' || check.data?.valid === false;
  return (
    <section className="auth-card card">
      <h1>{t('reset.title')}</h1>
      {invalid ? (
        <>
          <p className="form-error" role="alert">
            {t('reset.invalid')}
          </p>
          <Link className="button" to="/forgot-password">
            {t('reset.again')}
          </Link>
        </>
      ) : (
        <form onSubmit={submit}>
          <Field
            label={t('field.newPassword')}
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            hint={t('field.passwordHint')}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <Field
            label={t('field.confirmPassword')}
            type="password"
            autoComplete="new-password"
            required
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
          {mismatch ? (
            <p className="form-error" role="alert">
              {t('field.passwordMismatch')}
            </p>
          ) : null}
          <FormError error={reset.error ?? check.error} />
          <button type="submit" className="button primary wide" disabled={reset.isPending}>
            {t('reset.submit')}
          </button>
        </form>
      )}
    </section>
  );
}
