import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { AdminApiError, adminApi, call } from '../api';
import { roleName } from '../AdminShell';
import { CopyText } from '../CopyText';
import { OPERATOR_KEY, type Operator } from '../operator';
import '../operators.css';

const MIN_PASSWORD = 8;

/** The token of `/admin/enrol#<token>`: a fragment, so it reaches no server log or Referer. */
function tokenFromHash(): string {
  return typeof window === 'undefined' ? '' : decodeURIComponent(window.location.hash.replace(/^#/, ''));
}

/** `ABCD EFGH …`: easier to type into an app by hand. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * Enrolment through a one-time link (issue 33 O1): the authenticator's QR code (and its secret
 * as text), a password, and the app's first code; then the recovery codes, shown this once.
 */
export default function Enrol() {
  const [token] = useState(tokenFromHash);
  const [done, setDone] = useState<{ operator: Operator; recoveryCodes: string[] } | null>(null);
  useEffect(() => {
    document.title = 'Enrol · Roam Ops';
  }, []);
  const preview = useQuery({
    queryKey: ['admin', 'enrolment', token],
    enabled: token.length > 0 && !done,
    retry: false,
    staleTime: Infinity,
    queryFn: () =>
      call(adminApi.GET('/api/admin/v1/operator/enrolment/{token}', { params: { path: { token } } })),
  });

  if (done) return <RecoveryCodes {...done} />;
  if (!token)
    return (
      <Card title="Enrol in the console">
        <p className="admin-notice" role="alert">
          This page needs the whole link from your invitation (it ends with <code>#</code> and a long code).
          Open the link again, or ask an Owner for a new one.
        </p>
      </Card>
    );
  if (preview.isPending) return <Card title="Enrol in the console">Loading…</Card>;
  if (preview.isError)
    return (
      <Card title="Enrol in the console">
        <p className="admin-error" role="alert">
          {preview.error instanceof AdminApiError && preview.error.status === 404
            ? 'This enrolment link is unknown, already used or expired (links work once, for 24 hours). Ask an Owner for a new one.'
            : preview.error.message}
        </p>
      </Card>
    );
  return <EnrolForm token={token} details={preview.data} onDone={setDone} />;
}

function Card({ title, wide, children }: { title: string; wide?: boolean; children: ReactNode }) {
  return (
    <main className={wide ? 'admin-auth admin-auth-wide' : 'admin-auth'}>
      <h1>{title}</h1>
      {children}
    </main>
  );
}

interface Details {
  email: string;
  name: string;
  role: string;
  expiresAt: string;
  totpSecret: string;
  otpauthUri: string;
  qrSvg: string;
}

function EnrolForm({
  token,
  details,
  onDone,
}: {
  token: string;
  details: Details;
  onDone: (result: { operator: Operator; recoveryCodes: string[] }) => void;
}) {
  const client = useQueryClient();
  const [name, setName] = useState(details.name);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (password.length < MIN_PASSWORD)
      return setError(`The password needs at least ${MIN_PASSWORD} characters.`);
    if (password !== confirm) return setError('The two passwords differ.');
    if (!/^\d{6}$/.test(code.trim()))
      return setError('The code is the 6 digits your authenticator app shows now.');
    setBusy(true);
    try {
      const result = await call(
        adminApi.POST('/api/admin/v1/operator/enrolment/{token}', {
          params: { path: { token } },
          body: { password, code: code.trim(), ...(name.trim() ? { name: name.trim() } : {}) },
        }),
      );
      client.setQueryData(OPERATOR_KEY, result.operator);
      onDone(result);
    } catch (err) {
      setError(
        err instanceof AdminApiError && err.status === 404
          ? 'This link was used or expired meanwhile. Ask an Owner for a new one.'
          : err instanceof Error
            ? err.message
            : 'Enrolment failed. Try again.',
      );
      setCode('');
      setBusy(false);
    }
  }

  const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(details.qrSvg)}`;
  return (
    <Card title="Enrol in the console" wide>
      <p>
        <strong>{details.email}</strong> · {roleName(details.role)}
      </p>
      <h2 className="admin-step">1. Add the console to your authenticator app</h2>
      <div className="admin-enrol-qr">
        <img src={qr} alt="QR code to scan with your authenticator app" data-testid="enrol-qr" />
        <div>
          <p className="admin-hint">Can’t scan it? Enter this key in the app (time-based, 6 digits):</p>
          <p className="admin-enrol-secret" data-testid="enrol-secret">
            {grouped(details.totpSecret)}
          </p>
          <CopyText text={details.totpSecret}>Copy key</CopyText>
        </div>
      </div>
      <h2 className="admin-step">2. Choose a password and confirm the code</h2>
      <form className="admin-form" onSubmit={(e) => void submit(e)} noValidate>
        <label>
          Your name
          <input
            type="text"
            autoComplete="name"
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <input type="email" autoComplete="username" value={details.email} readOnly hidden />
        <label>
          Password
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD}
            aria-describedby="password-hint"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <span className="admin-hint" id="password-hint">
          At least {MIN_PASSWORD} characters; a passphrase of a few words is easy to type and hard to guess.
        </span>
        <label>
          Password again
          <input
            type="password"
            autoComplete="new-password"
            required
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
        </label>
        <label>
          Code from the app
          <input
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Enrolling…' : 'Enrol and sign in'}
        </button>
      </form>
      {error ? (
        <p className="admin-error" role="alert">
          {error}
        </p>
      ) : null}
      <p className="admin-hint">
        This link works once, until{' '}
        {new Date(details.expiresAt).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}.
      </p>
    </Card>
  );
}

function RecoveryCodes({ operator, recoveryCodes }: { operator: Operator; recoveryCodes: string[] }) {
  const navigate = useNavigate();
  return (
    <Card title="Save your recovery codes" wide>
      <p className="admin-success" role="status">
        You are enrolled and signed in as {operator.email}.
      </p>
      <p>
        If you lose your phone, each of these codes signs you in once in place of the app’s code. They are
        shown only now: keep them in your password manager or on paper, not on the phone.
      </p>
      <ol className="admin-recovery-codes" data-testid="recovery-codes">
        {recoveryCodes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <div className="admin-row-actions">
        <CopyText text={recoveryCodes.join('\n')}>Copy codes</CopyText>
        <button type="button" className="primary" onClick={() => void navigate('/admin', { replace: true })}>
          I have saved them
        </button>
      </div>
    </Card>
  );
}
