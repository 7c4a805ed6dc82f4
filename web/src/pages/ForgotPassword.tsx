import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import { Field } from '../components/Field';
import { FormError } from '../components/FormError';
import { useI18n } from '../i18n';
import { useTitle } from '../lib/title';

export default function ForgotPassword() {
  const { t, language } = useI18n();
  useTitle(t('forgot.title'));
  const [email, setEmail] = useState('');
  const forgot = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/auth/forgot-password', { body: { email, locale: language } })),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    forgot.mutate();
  };
  return (
    <section className="auth-card card">
      <h1>{t('forgot.title')}</h1>
      {forgot.isSuccess ? (
        <p className="form-success" role="status">
          {t('forgot.sent', { email })}
        </p>
      ) : (
        <>
          <p className="muted">{t('forgot.sub')}</p>
          <form onSubmit={submit}>
            <Field
              label={t('field.email')}
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            <FormError error={forgot.error} />
            <button type="submit" className="button primary wide" disabled={forgot.isPending}>
              {t('forgot.submit')}
            </button>
          </form>
        </>
      )}
      <p className="auth-links">
        <Link to="/login">{t('forgot.back')}</Link>
      </p>
    </section>
  );
}
