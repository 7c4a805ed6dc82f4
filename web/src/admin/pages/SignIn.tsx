import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { AdminApiError, adminApi, call } from '../api';
import { OPERATOR_KEY } from '../operator';
import '../operators.css';

/**
 * The console's sign-in (issue 33 O1): e-mail, password and the authenticator's code (or a
 * recovery code). Shown in place of any console URL while signed out; once signed in, the
 * operator query is refreshed and the page that was asked for opens.
 */
export default function SignIn() {
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    document.title = 'Sign in · Roam Ops';
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { operator } = await call(
        adminApi.POST('/api/admin/v1/operator/session', {
          body: { email: email.trim(), password, code: code.trim() },
        }),
      );
      client.setQueryData(OPERATOR_KEY, operator);
      await client.invalidateQueries({ queryKey: OPERATOR_KEY });
    } catch (err) {
      setError(messageOf(err));
      // A code works once, and a wrong one is worth retyping anyway.
      setCode('');
      codeInput.current?.focus();
      setBusy(false);
    }
  }

  return (
    <main className="admin-auth">
      <h1>Sign in to the console</h1>
      <p className="admin-muted">For the people who run the service. Customers sign in on the main site.</p>
      <form
        className="admin-form"
        onSubmit={(e) => void submit(e)}
        aria-describedby={error ? 'sign-in-error' : undefined}
      >
        <label>
          E-mail
          <input
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label>
          Password
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <label>
          Code
          <input
            ref={codeInput}
            type="text"
            name="code"
            autoComplete="one-time-code"
            autoCapitalize="off"
            spellCheck={false}
            required
            minLength={6}
            maxLength={20}
            aria-describedby="code-hint"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </label>
        <span className="admin-hint" id="code-hint">
          The 6 digits your authenticator app shows, or one of your recovery codes (xxxx-xxxx).
        </span>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {error ? (
        <p className="admin-error" role="alert" id="sign-in-error">
          {error}
        </p>
      ) : null}
      <p className="admin-muted admin-hint">
        Lost your phone and your recovery codes? An Owner sends you a new enrolment link (Operators page), or
        runs <code>npm run operator -- reset --email …</code> on the server.
      </p>
    </main>
  );
}

function messageOf(err: unknown): string {
  if (err instanceof AdminApiError) {
    if (err.code === 'INVALID_CREDENTIALS')
      return 'The e-mail address, password or code is not right. Codes change every 30 seconds and work once.';
    if (err.status === 429) return `Too many attempts. ${err.message}`;
    return err.message;
  }
  return 'Sign-in failed. Try again.';
}
