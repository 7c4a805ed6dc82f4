import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { components } from '../api/admin';
import { parseAmountToCents } from '../lib/format';
import { adminApi, call, idempotencyKey } from './api';
import { money, signedMoney } from './display';

type Detail = components['schemas']['AccountDetail'];

export const accountKey = (id: string) => ['admin', 'account', id] as const;

/**
 * A button that asks before it acts: the question and the confirming button appear in place
 * (no modal to lose on a phone), and focus moves to the confirming button.
 */
export function ConfirmAction({
  label,
  question,
  confirmLabel,
  danger,
  pending,
  onConfirm,
}: {
  label: string;
  question: string;
  confirmLabel: string;
  danger?: boolean;
  pending: boolean;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  if (!asking)
    return (
      <button
        type="button"
        className={danger ? 'danger' : undefined}
        disabled={pending}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  return (
    <div className="account-confirm" role="group" aria-label={label}>
      <p>{question}</p>
      <div className="account-confirm-buttons">
        <button
          ref={confirmRef}
          type="button"
          className={danger ? 'danger' : 'primary'}
          onClick={() => {
            setAsking(false);
            onConfirm();
          }}
        >
          {confirmLabel}
        </button>
        <button type="button" onClick={() => setAsking(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/** Suspend (every session stops at once, sign-in refused) or lift it; PATCH /accounts/{id}. */
export function StatusAction({ account }: { account: Detail['account'] }) {
  const client = useQueryClient();
  const change = useMutation({
    mutationFn: (status: 'ACTIVE' | 'SUSPENDED') =>
      call(
        adminApi.PATCH('/api/admin/v1/accounts/{id}', {
          params: { path: { id: account.id } },
          body: { status },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKey(account.id) }),
  });
  if (account.status === 'DELETED')
    return <p className="admin-muted">A deleted account cannot be changed.</p>;
  const suspended = account.status !== 'ACTIVE';
  return (
    <div className="account-action">
      {suspended ? (
        <ConfirmAction
          label={account.status === 'BANNED' ? 'Lift the ban' : 'Unsuspend'}
          question={`Let ${account.email} sign in and use the app and the Partner API again?`}
          confirmLabel="Yes, reactivate"
          pending={change.isPending}
          onConfirm={() => change.mutate('ACTIVE')}
        />
      ) : (
        <ConfirmAction
          label="Suspend"
          question={`Suspend ${account.email}? Every session and API key stops working at once and sign-in is refused until you unsuspend.`}
          confirmLabel="Yes, suspend"
          danger
          pending={change.isPending}
          onConfirm={() => change.mutate('SUSPENDED')}
        />
      )}
      {change.isError ? (
        <p role="alert" className="admin-error">
          {change.error.message}
        </p>
      ) : change.isSuccess ? (
        <p role="status" className="admin-success">
          The account is now {change.data.account.status}.
        </p>
      ) : null}
    </div>
  );
}

/** Signs the customer out on every device: DELETE /accounts/{id}/sessions. */
export function EndSessionsAction({ account, live }: { account: Detail['account']; live: number }) {
  const client = useQueryClient();
  const end = useMutation({
    mutationFn: () =>
      call(adminApi.DELETE('/api/admin/v1/accounts/{id}/sessions', { params: { path: { id: account.id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKey(account.id) }),
  });
  // Kept mounted at zero sessions: the answer stays on screen after the list refreshes.
  return (
    <div className="account-action">
      {live > 0 ? (
        <ConfirmAction
          label="End all sessions"
          question={`Sign ${account.email} out of ${live === 1 ? 'their 1 session' : `all ${live} sessions`}? They sign in again with their password; API keys keep working.`}
          confirmLabel="Yes, end sessions"
          danger
          pending={end.isPending}
          onConfirm={() => end.mutate()}
        />
      ) : null}
      {end.isError ? (
        <p role="alert" className="admin-error">
          {end.error.message}
        </p>
      ) : end.isSuccess ? (
        <p role="status" className="admin-success">
          Ended {end.data.ended} {end.data.ended === 1 ? 'session' : 'sessions'}.
        </p>
      ) : null}
    </div>
  );
}

/**
 * A credit or debit of the wallet with a reason (wallet.adjust): POST /accounts/{id}/wallet/
 * adjustments. One Idempotency-Key per adjustment: a retry after a lost answer credits once; a
 * changed amount, direction or reason is a new adjustment with a new key.
 */
export function WalletAdjustment({ accountId }: { accountId: string }) {
  const id = useId();
  const client = useQueryClient();
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const key = useRef<string | null>(null);
  const adjust = useMutation({
    mutationFn: (input: { amountUsd: number; reason: string; key: string }) =>
      call(
        adminApi.POST('/api/admin/v1/accounts/{id}/wallet/adjustments', {
          params: { path: { id: accountId }, header: { 'idempotency-key': input.key } },
          body: { amountUsd: input.amountUsd, reason: input.reason },
        }),
      ),
    onSuccess: () => {
      key.current = null;
      setAmount('');
      setReason('');
      void client.invalidateQueries({ queryKey: accountKey(accountId) });
    },
  });
  const edited =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      key.current = null;
      adjust.reset();
      set(v);
    };

  function submit(event: FormEvent) {
    event.preventDefault();
    const cents = parseAmountToCents(amount);
    if (cents === null)
      return setProblem('Enter an amount above zero with at most two decimals, e.g. 12.50.');
    if (!reason.trim())
      return setProblem('Say why: the reason is the transaction’s description and goes to the audit log.');
    setProblem(null);
    key.current ??= idempotencyKey();
    adjust.mutate({
      amountUsd: (direction === 'credit' ? cents : -cents) / 100,
      reason: reason.trim(),
      key: key.current,
    });
  }

  return (
    <form className="admin-form account-adjust" onSubmit={submit} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>Adjust the wallet</h3>
      <div className="account-adjust-row">
        <label>
          Direction
          <select
            value={direction}
            onChange={(e) => edited(setDirection)(e.target.value as 'credit' | 'debit')}
          >
            <option value="credit">Credit (add)</option>
            <option value="debit">Debit (take)</option>
          </select>
        </label>
        <label>
          Amount (USD)
          <input
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            aria-invalid={problem !== null && parseAmountToCents(amount) === null ? true : undefined}
            onChange={(e) => edited(setAmount)(e.target.value)}
          />
        </label>
      </div>
      <label>
        Reason (required; the customer sees it in their wallet)
        <textarea
          rows={2}
          maxLength={500}
          required
          value={reason}
          onChange={(e) => edited(setReason)(e.target.value)}
        />
      </label>
      {problem ? (
        <p role="alert" className="admin-error">
          {problem}
        </p>
      ) : null}
      {adjust.isError ? (
        <p role="alert" className="admin-error">
          {adjust.error.message}
        </p>
      ) : null}
      {adjust.isSuccess ? (
        <p role="status" className="admin-success">
          {signedMoney(adjust.data.transaction.amount)} posted; the balance is now{' '}
          {money(adjust.data.walletBalance)}.
        </p>
      ) : null}
      <div>
        <button type="submit" className="primary" disabled={adjust.isPending}>
          {direction === 'credit' ? 'Credit the wallet' : 'Debit the wallet'}
        </button>
      </div>
    </form>
  );
}
