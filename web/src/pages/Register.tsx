import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { Field } from '../components/Field';
import { FormError } from '../components/FormError';
import { useI18n } from '../i18n';
import { safeNext } from '../lib/next';
import { useSetMe, visitorCurrency } from '../lib/session';
import { useTitle } from '../lib/title';

export default function Register() {
  const { t, language } = useI18n();
  useTitle(t('register.title'));
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'), '/');
  const navigate = useNavigate();
  const setMe = useSetMe();
  const [form, setForm] = useState({ firstName: '', lastName: '', email: '', password: '' });
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  const register = useMutation({
    mutationFn: async () => {
      const created = await unwrap(api.POST('/api/v1/auth/register', { body: form }));
      // The new account takes the language and currency the visitor was browsing in.
      const currency = visitorCurrency(language);
      if (created.user.locale !== language || created.user.currency !== currency) {
        try {
          return (
            await unwrap(
              api.PATCH('/api/v1/user/profile', { body: { locale: language, preferredCurrency: currency } }),
            )
          ).user;
        } catch {
          return created.user;
        }
      }
      return created.user;
    },
    onSuccess: (user) => {
      setMe(user);
      void navigate(next, { replace: true });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    register.mutate();
  };
  return (
    <section className="auth-card card">
      <h1>{t('register.title')}</h1>
      <p className="muted">{t('register.sub')}</p>
      <form onSubmit={submit}>
        <div className="row-2">
          <Field
            label={t('field.firstName')}
            autoComplete="given-name"
            required
            maxLength={100}
            value={form.firstName}
            onChange={set('firstName')}
          />
          <Field
            label={t('field.lastName')}
            autoComplete="family-name"
            required
            maxLength={100}
            value={form.lastName}
            onChange={set('lastName')}
          />
        </div>
        <Field
          label={t('field.email')}
          type="email"
          autoComplete="email"
          required
          value={form.email}
          onChange={set('email')}
        />
        <Field
          label={t('field.password')}
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          hint={t('field.passwordHint')}
          value={form.password}
          onChange={set('password')}
        />
        <FormError error={register.error} />
        <button type="submit" className="button primary wide" disabled={register.isPending}>
          {register.isPending ? t('common.working') : t('register.submit')}
        </button>
      </form>
      <p className="auth-links">
        <span>
          {t('register.haveAccount')}{' '}
          <Link to={`/login?next=${encodeURIComponent(next)}`}>{t('nav.login')}</Link>
        </span>
      </p>
    </section>
  );
}
