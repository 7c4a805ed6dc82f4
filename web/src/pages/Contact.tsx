import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import { Field } from '../components/Field';
import { FormError } from '../components/FormError';
import { LegalText } from '../components/LegalText';
import { useI18n } from '../i18n';
import { useCompany } from '../lib/legal';
import { useMe } from '../lib/session';

/**
 * /contact: the contact page's text (contact.<lang>.md) and a form that works logged out. It opens
 * a guest ticket; the answer comes by e-mail with a link to the thread (/support/guest/<token>).
 */
export default function Contact() {
  return (
    <div className="container legal-page contact-page">
      <article className="card legal-card">
        <LegalText page="contact" />
      </article>
      <section className="card contact-card">
        <ContactForm />
      </section>
    </div>
  );
}

function ContactForm() {
  const { t } = useI18n();
  const id = useId();
  const user = useMe().data ?? null;
  const company = useCompany();
  // A logged-in visitor's own address and name, which they may change.
  const [email, setEmail] = useState(user?.email ?? '');
  const [name, setName] = useState(user ? `${user.firstName} ${user.lastName}`.trim() : '');
  // The session may arrive after the first render: fill what the visitor has not typed yet.
  useEffect(() => {
    if (!user) return;
    setEmail((typed) => typed || user.email);
    setName((typed) => typed || `${user.firstName} ${user.lastName}`.trim());
  }, [user?.id]);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const send = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/v1/support/contact', { body: { email, name, subject, message } })),
    onSuccess: () => {
      setSubject('');
      setMessage('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate();
  };
  const limited = send.error instanceof ApiError && send.error.code === 'RATE_LIMITED';

  if (send.isSuccess) {
    return (
      <div>
        <h2>{t('contact.formTitle')}</h2>
        <p className="form-success" role="status">
          {t('contact.sent', { name, email: email.trim().toLowerCase() })}
        </p>
        <button type="button" className="button" onClick={() => send.reset()}>
          {t('contact.another')}
        </button>
      </div>
    );
  }
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('contact.formTitle')}</h2>
      <p className="muted">{t('contact.formSub')}</p>
      <Field
        label={t('field.email')}
        type="email"
        autoComplete="email"
        required
        maxLength={254}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Field
        label={t('contact.name')}
        autoComplete="name"
        required
        maxLength={100}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <Field
        label={t('support.subject')}
        required
        maxLength={200}
        value={subject}
        onChange={(e) => setSubject(e.target.value)}
      />
      <div className="field">
        <label htmlFor={`${id}-message`}>{t('support.message')}</label>
        <textarea
          id={`${id}-message`}
          required
          maxLength={5000}
          rows={6}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
      </div>
      {limited ? (
        <p className="form-error" role="alert" data-testid="form-error">
          {t('contact.rateLimited', { email: company.data?.company.supportEmail ?? '' })}
        </p>
      ) : (
        <FormError error={send.error} />
      )}
      <button type="submit" className="button primary wide" disabled={send.isPending}>
        {send.isPending ? t('common.working') : t('contact.send')}
      </button>
    </form>
  );
}
