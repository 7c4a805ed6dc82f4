import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, ApiError, unwrap } from '../api/client';
import { CURRENCIES, type Currency, type User } from '../api/types';
import { Field } from '../components/Field';
import { FormError, FormSuccess } from '../components/FormError';
import { LANGUAGE_NAMES, LANGUAGES, useI18n, type Language } from '../i18n';
import { checkAvatarFile, readAsDataUri } from '../lib/avatar';
import { formatDate, formatMoney } from '../lib/format';
import { rememberCurrency, useMe, useSetMe } from '../lib/session';
import { useTitle } from '../lib/title';
import { Notifications } from './AccountNotifications';

export default function Account() {
  const { t } = useI18n();
  useTitle(t('account.title'));
  const me = useMe();
  const user = me.data;
  if (!user) return null;
  return (
    <div className="container account-page">
      <h1>{t('account.title')}</h1>
      <div className="account-grid">
        <Profile user={user} />
        <Notifications user={user} />
        <Avatar user={user} />
        <ChangePassword />
        <YourData />
        <DeleteAccount user={user} />
      </div>
    </div>
  );
}

function Profile({ user }: { user: User }) {
  const { t, language, setLanguage } = useI18n();
  const setMe = useSetMe();
  const id = useId();
  const [firstName, setFirstName] = useState(user.firstName);
  const [lastName, setLastName] = useState(user.lastName);
  const [currency, setCurrency] = useState(user.currency as Currency);
  const [locale, setLocale] = useState<Language>(
    (LANGUAGES as readonly string[]).includes(user.locale) ? (user.locale as Language) : language,
  );
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/api/v1/user/profile', {
          body: { firstName, lastName, preferredCurrency: currency, locale },
        }),
      ),
    onSuccess: ({ user: updated }) => {
      setMe(updated);
      rememberCurrency(currency);
      void setLanguage(locale);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('account.profile')}</h2>
      <p className="hint">
        {user.email} · {t('account.since', { date: formatDate(user.createdAt, language) })}
      </p>
      <form onSubmit={submit}>
        <div className="row-2">
          <Field
            label={t('field.firstName')}
            required
            maxLength={100}
            value={firstName}
            onChange={(e) => setFirstName(e.target.value)}
          />
          <Field
            label={t('field.lastName')}
            required
            maxLength={100}
            value={lastName}
            onChange={(e) => setLastName(e.target.value)}
          />
        </div>
        <div className="row-2">
          <div className="field">
            <label htmlFor={`${id}-currency`}>{t('account.currency')}</label>
            <select
              id={`${id}-currency`}
              value={currency}
              onChange={(e) => setCurrency(e.target.value as Currency)}
            >
              {CURRENCIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-locale`}>{t('account.language')}</label>
            <select
              id={`${id}-locale`}
              value={locale}
              onChange={(e) => setLocale(e.target.value as Language)}
            >
              {LANGUAGES.map((l) => (
                <option key={l} value={l} lang={l}>
                  {LANGUAGE_NAMES[l]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <FormError error={save.error} />
        {save.isSuccess ? <FormSuccess>{t('account.saved')}</FormSuccess> : null}
        <button type="submit" className="button primary" disabled={save.isPending}>
          {t('common.save')}
        </button>
      </form>
    </section>
  );
}

function Avatar({ user }: { user: User }) {
  const { t } = useI18n();
  const setMe = useSetMe();
  const id = useId();
  const [preview, setPreview] = useState<string | null>(null);
  const [fileProblem, setFileProblem] = useState<'type' | 'size' | null>(null);
  const upload = useMutation({
    mutationFn: (dataUri: string) =>
      unwrap(api.POST('/api/v1/user/avatar', { body: { avatarUrl: dataUri } })),
    onSuccess: ({ user: updated }) => {
      setMe(updated);
      setPreview(null);
    },
  });
  async function choose(event: React.ChangeEvent<HTMLInputElement>) {
    upload.reset();
    const file = event.target.files?.[0];
    if (!file) return;
    const check = checkAvatarFile(file);
    setFileProblem(check.ok ? null : check.reason);
    setPreview(check.ok ? await readAsDataUri(file) : null);
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (preview) upload.mutate(preview);
  };
  const shown = preview ?? user.avatarUrl;
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('account.avatar')}</h2>
      <form onSubmit={submit} className="avatar-form">
        <div className="avatar-preview">
          {shown ? (
            <img
              src={shown}
              alt={preview ? t('account.avatarPreview') : t('account.avatarCurrent')}
              width="96"
              height="96"
              data-testid="avatar-preview"
            />
          ) : (
            <span className="avatar-placeholder" aria-hidden="true">
              {user.firstName.slice(0, 1)}
              {user.lastName.slice(0, 1)}
            </span>
          )}
        </div>
        <div>
          <div className="field">
            <label htmlFor={`${id}-file`}>{t('account.avatarChoose')}</label>
            <input
              id={`${id}-file`}
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif"
              onChange={(e) => void choose(e)}
              aria-describedby={`${id}-hint`}
            />
            <small className="hint" id={`${id}-hint`}>
              {t('account.avatarHint')}
            </small>
          </div>
          {fileProblem ? (
            <p className="form-error" role="alert">
              {t(fileProblem === 'type' ? 'account.avatarType' : 'account.avatarSize')}
            </p>
          ) : null}
          <FormError error={upload.error} />
          {upload.isSuccess ? <FormSuccess>{t('account.avatarSaved')}</FormSuccess> : null}
          <button type="submit" className="button primary" disabled={!preview || upload.isPending}>
            {t('account.avatarUpload')}
          </button>
        </div>
      </form>
    </section>
  );
}

function ChangePassword() {
  const { t } = useI18n();
  const id = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const change = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/auth/change-password', { body: { currentPassword: current, newPassword: next } }),
      ),
    onSuccess: () => {
      setCurrent('');
      setNext('');
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.mutate();
  };
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('account.password')}</h2>
      <form onSubmit={submit}>
        <Field
          label={t('field.currentPassword')}
          type="password"
          autoComplete="current-password"
          required
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <Field
          label={t('field.newPassword')}
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          hint={t('field.passwordHint')}
          value={next}
          onChange={(e) => setNext(e.target.value)}
        />
        <FormError error={change.error} />
        {change.isSuccess ? <FormSuccess>{t('account.passwordChanged')}</FormSuccess> : null}
        <button type="submit" className="button primary" disabled={change.isPending}>
          {t('account.passwordSubmit')}
        </button>
      </form>
    </section>
  );
}

/**
 * "Download my data" (issue 30 T10): a plain link to GET /user/export, which answers with
 * Content-Disposition: attachment, so the browser saves the file with the session cookie sent
 * (a safe method: the API's Origin check does not apply) and no script holds the data.
 */
function YourData() {
  const { t } = useI18n();
  const id = useId();
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('account.data')}</h2>
      <p className="muted">{t('account.dataBody')}</p>
      <a className="button" href="/api/v1/user/export" download>
        {t('account.dataDownload')}
      </a>
    </section>
  );
}

function DeleteAccount({ user }: { user: User }) {
  const { t, language } = useI18n();
  const id = useId();
  const [confirmed, setConfirmed] = useState(false);
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/user/account')),
    // A full page load, not a client-side navigation: nothing of the deleted account stays in
    // memory, and there is no moment where this page, behind login, sees no user and sends the
    // visitor to /login instead (a race that showed on slow machines).
    onSuccess: () => window.location.replace('/?deleted=1'),
  });
  const blocked = remove.error instanceof ApiError && remove.error.code === 'WALLET_NOT_EMPTY';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    remove.mutate();
  };
  return (
    <section className="card danger-zone" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('account.delete')}</h2>
      <p className="muted">{t('account.deleteBody')}</p>
      <p className="hint">{t('account.deleteBalanceRule')}</p>
      <form onSubmit={submit}>
        <label className="checkbox">
          <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} />
          <span>{t('account.deleteConfirm')}</span>
        </label>
        <FormError error={remove.error} />
        {blocked ? (
          <p className="hint" data-testid="delete-blocked">
            {t('account.deleteBlocked', { balance: formatMoney(user.walletBalance, 'USD', language) })}{' '}
            <Link to="/support">{t('account.deleteContact')}</Link>
          </p>
        ) : null}
        <button type="submit" className="button danger" disabled={!confirmed || remove.isPending}>
          {t('account.deleteSubmit')}
        </button>
      </form>
    </section>
  );
}
