import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { useI18n, type MessageKey } from '../i18n';
import { centsToDecimal, parseAmountToCents } from '../lib/format';
import { FormError } from './FormError';

const PRESETS = [10, 25, 50];

/**
 * Wallet top-up in USD by card (hosted card page) or crypto (hosted invoice); both send the
 * browser to the provider and back to `returnPath`. The minimum is 2 USD, as the API enforces.
 */
export function TopUpForm({ returnPath }: { returnPath: string }) {
  const { t } = useI18n();
  const id = useId();
  const [amount, setAmount] = useState('25');
  const [method, setMethod] = useState<'card' | 'crypto'>('card');
  const [invalid, setInvalid] = useState(false);
  const topUp = useMutation({
    mutationFn: async (cents: number) => {
      const back = (outcome: string) => `${window.location.origin}${returnPath}?topup=${outcome}`;
      if (method === 'card') {
        return unwrap(
          api.POST('/api/v1/payments/card/create-session', {
            body: { amount: cents, currency: 'USD', successUrl: back('paid'), cancelUrl: back('cancelled') },
          }),
        );
      }
      return unwrap(
        api.POST('/api/v1/payments/crypto/create-invoice', {
          body: { amount: centsToDecimal(cents), currency: 'USD', url_return: back('returned') },
        }),
      );
    },
    onSuccess: (result) => window.location.assign(result.url),
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    const cents = parseAmountToCents(amount);
    setInvalid(cents === null);
    if (cents !== null) topUp.mutate(cents);
  }
  return (
    <form className="topup" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('wallet.topUpTitle')}</h2>
      <div className="presets" role="group" aria-label={t('wallet.presets')}>
        {PRESETS.map((p) => (
          <button
            key={p}
            type="button"
            className="tab"
            aria-pressed={amount === String(p)}
            onClick={() => setAmount(String(p))}
          >
            ${p}
          </button>
        ))}
      </div>
      <div className="field">
        <label htmlFor={`${id}-amount`}>{t('wallet.amount')}</label>
        <div className="input-prefix">
          <span aria-hidden="true">$</span>
          <input
            id={`${id}-amount`}
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-describedby={`${id}-amount-hint`}
            aria-invalid={invalid}
            required
          />
        </div>
        <small className="hint" id={`${id}-amount-hint`}>
          {t('wallet.amountHint')}
        </small>
      </div>
      <fieldset>
        <legend>{t('dest.payWith')}</legend>
        <div className="methods">
          {(['card', 'crypto'] as const).map((m) => (
            <label key={m} className={method === m ? 'method selected' : 'method'}>
              <input
                type="radio"
                name={`${id}-method`}
                checked={method === m}
                onChange={() => setMethod(m)}
              />
              <span>{t(`dest.method.${m}` as MessageKey)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {invalid ? (
        <p className="form-error" role="alert">
          {t('wallet.amountInvalid')}
        </p>
      ) : null}
      <FormError error={topUp.error} />
      <button type="submit" className="button primary wide" disabled={topUp.isPending}>
        {topUp.isPending ? t('common.working') : t('wallet.topUpSubmit')}
      </button>
    </form>
  );
}
