import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { FormError } from '../components/FormError';
import { useI18n } from '../i18n';
import { formatMoney, parseAmountToCents } from '../lib/format';
import { usePartnerT, type PartnerConsole } from './console';

/**
 * The partner's wallet actions (issue 32 C4): a top-up of the PARTNER's wallet in live mode for
 * a role with `wallet.topup`, and the test wallet reset in test mode for `testmode.write`.
 * Renders nothing when the role and mode allow neither. Mounted by the overview page.
 */
export function WalletActions({
  pc,
}: {
  pc: Pick<PartnerConsole, 'can' | 'mode' | 'scope' | 'key' | 'link'>;
}) {
  const t = usePartnerT();
  const { language } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const [amount, setAmount] = useState('50');
  const [method, setMethod] = useState<'card' | 'crypto'>('card');
  const [invalid, setInvalid] = useState(false);
  const topUp = useMutation({
    mutationFn: (cents: number) => {
      const back = (outcome: string) =>
        `${window.location.origin}${pc.link('/partner')}${pc.link('/partner').includes('?') ? '&' : '?'}topup=${outcome}`;
      return unwrap(
        api.POST('/api/v1/partners/{partnerId}/wallet/top-ups', {
          params: pc.scope,
          body: {
            method,
            amount: cents,
            currency: 'USD',
            successUrl: back('paid'),
            cancelUrl: back('cancelled'),
          },
        }),
      );
    },
    onSuccess: (started) => window.location.assign(started.url),
  });
  const reset = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/v1/partners/{partnerId}/test-wallet/reset', { params: pc.scope })),
    onSuccess: () => void client.invalidateQueries({ queryKey: pc.key }),
  });
  const showTopUp = pc.mode === 'live' && pc.can('wallet.topup');
  const showReset = pc.mode === 'test' && pc.can('testmode.write');
  if (!showTopUp && !showReset) return null;

  function submit(event: FormEvent) {
    event.preventDefault();
    const cents = parseAmountToCents(amount);
    const ok = cents !== null && cents >= 200;
    setInvalid(!ok);
    if (ok) topUp.mutate(cents);
  }

  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="wallet-actions">
      <h2 id={`${id}-title`}>{t('pc.wallet.title')}</h2>
      {showTopUp ? (
        <form onSubmit={submit} aria-label={t('pc.wallet.topUp')} data-testid="partner-topup">
          <h3>{t('pc.wallet.topUp')}</h3>
          <div className="field">
            <label htmlFor={`${id}-amount`}>{t('pc.wallet.amount')}</label>
            <input
              id={`${id}-amount`}
              inputMode="decimal"
              value={amount}
              aria-invalid={invalid || undefined}
              aria-describedby={invalid ? `${id}-invalid` : undefined}
              onChange={(e) => setAmount(e.target.value)}
            />
            {invalid ? (
              <p className="form-error" id={`${id}-invalid`} role="alert">
                {t('pc.wallet.invalid')}
              </p>
            ) : null}
          </div>
          <fieldset className="field">
            <legend>{t('pc.wallet.method')}</legend>
            {(['card', 'crypto'] as const).map((m) => (
              <label key={m} className="radio">
                <input
                  type="radio"
                  name={`${id}-method`}
                  value={m}
                  checked={method === m}
                  onChange={() => setMethod(m)}
                />{' '}
                {t(`pc.wallet.${m}`)}
              </label>
            ))}
          </fieldset>
          <p className="hint">{t('pc.wallet.topUpHint')}</p>
          <FormError error={topUp.error} />
          <button type="submit" className="button primary" disabled={topUp.isPending}>
            {t('pc.wallet.pay')}
          </button>
        </form>
      ) : null}
      {showReset ? (
        <div>
          <p className="hint">{t('pc.wallet.resetHint')}</p>
          <FormError error={reset.error} />
          {reset.data ? (
            <p className="form-success" role="status">
              {t('pc.wallet.resetDone', { amount: formatMoney(reset.data.testBalanceUsd, 'USD', language) })}
            </p>
          ) : null}
          <button
            type="button"
            className="button"
            onClick={() => reset.mutate()}
            disabled={reset.isPending}
            data-testid="reset-test-wallet"
          >
            {t('pc.wallet.reset')}
          </button>
        </div>
      ) : null}
    </section>
  );
}
