import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { Field } from '../components/Field';
import { FormError } from '../components/FormError';
import { useI18n } from '../i18n';
import { safeNext } from '../lib/next';
import { useSetMe } from '../lib/session';
import { useTitle } from '../lib/title';

export default function Login() {
  const { t } = useI18n();
  useTitle(t('login.title'));
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'), '/esims');
  const navigate = useNavigate();
  const setMe = useSetMe();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/auth/login', { body: { email, password } })),
    onSuccess: (data) => {
      setMe(data.user);
      void navigate(next, { replace: true });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate();
  };
  return (
    <section className="auth-card card">
      <h1>{t('login.title')}</h1>
      {params.get('reset') === 'done' ? (
        <p className="form-success" role="status">
          {t('reset.done')}
        </p>
      ) : null}
      <form onSubmit={submit} noValidate={false}>
        <Field
          label={t('field.email')}
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Field
          label={t('field.password')}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <FormError error={login.error} />
        <button type="submit" className="button primary wide" disabled={login.isPending}>
          {login.isPending ? t('common.working') : t('login.submit')}
        </button>
      </form>
      <p className="auth-links">
        <Link to="/forgot-password">{t('login.forgot')}</Link>
        <span>
          {t('login.noAccount')}{' '}
          <Link to={`/register?next=${encodeURIComponent(next)}`}>{t('nav.register')}</Link>
        </span>
      </p>
    </section>
  );
}
