import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import type { Esim } from '../api/types';
import { useI18n } from '../i18n';
import { useDisplayCurrency } from '../lib/currency';
import { formatData } from '../lib/format';
import { destinationFromPlanId } from '../lib/plans';
import { FormError } from './FormError';

const THRESHOLDS = [50, 60, 70, 80, 90, 95, 100];
const MONTHLY = [1, 2, 3, 4, 5, 10];
const DEFAULTS = { enabled: false, planId: null, whenPercentUsed: 80, maxPerMonth: 2 };

/**
 * Auto top-up from the wallet (issue 31 L5): a switch, the top-up plan (the eSIM's destination's
 * top-up plans), the threshold and the monthly maximum, saved with PATCH /user/esims/{iccid}.
 */
export function AutoTopUp({ esim }: { esim: Esim }) {
  const { t, language } = useI18n();
  const currency = useDisplayCurrency();
  const id = useId();
  const client = useQueryClient();
  const current = esim.autoTopUp ?? DEFAULTS;
  const [enabled, setEnabled] = useState(current.enabled);
  const [planId, setPlanId] = useState(current.planId ?? '');
  const [percent, setPercent] = useState(current.whenPercentUsed);
  const [monthly, setMonthly] = useState(current.maxPerMonth);
  const [saved, setSaved] = useState(false);
  const code = destinationFromPlanId(esim.planId);
  const destination = useQuery({
    queryKey: ['destination', code, language, currency],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/destinations/{code}', {
          params: { path: { code: code! }, query: { locale: language, currency } },
        }),
      ),
    enabled: code !== null,
    staleTime: 60_000,
  });
  const plans = (destination.data?.destination.plans ?? []).filter((p) => p.isTopUp);
  // The first plan is the natural choice when none was picked yet.
  useEffect(() => {
    if (!planId && plans[0]) setPlanId(plans[0].id);
  }, [planId, plans]);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/api/v1/user/esims/{iccid}', {
          params: { path: { iccid: esim.iccid } },
          body: {
            autoTopUp: {
              enabled,
              ...(planId ? { planId } : {}),
              whenPercentUsed: percent,
              maxPerMonth: monthly,
            },
          },
        }),
      ),
    onSuccess: (data) => {
      client.setQueryData(['esim', esim.iccid], data);
      setSaved(true);
    },
  });
  // Nothing to offer: no destination to read top-up plans from, none sold, or an eSIM that is over.
  if (code === null || (destination.isSuccess && plans.length === 0)) return null;
  if (esim.status === 'EXPIRED' || esim.status === 'CANCELLED') return null;
  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    save.mutate();
  }
  return (
    <section className="card auto-topup" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('autoTopUp.title')}</h2>
      <p className="muted">{t('autoTopUp.body')}</p>
      <form onSubmit={submit}>
        <div className="checkbox">
          <input
            id={`${id}-on`}
            type="checkbox"
            role="switch"
            checked={enabled}
            onChange={(e) => setEnabled(e.target.checked)}
          />
          <label htmlFor={`${id}-on`}>{t('autoTopUp.enable')}</label>
        </div>
        <div className="field">
          <label htmlFor={`${id}-plan`}>{t('autoTopUp.plan')}</label>
          <select
            id={`${id}-plan`}
            value={planId}
            onChange={(e) => setPlanId(e.target.value)}
            required={enabled}
            disabled={plans.length === 0}
          >
            {plans.length === 0 ? <option value="">{t('common.loading')}</option> : null}
            {plans.map((p) => (
              <option key={p.id} value={p.id}>
                {t('autoTopUp.planOption', {
                  data: formatData(p.dataAmountMb, language),
                  price: p.price.formatted,
                })}
              </option>
            ))}
          </select>
        </div>
        <div className="row-2">
          <div className="field">
            <label htmlFor={`${id}-percent`}>{t('autoTopUp.threshold')}</label>
            <select id={`${id}-percent`} value={percent} onChange={(e) => setPercent(Number(e.target.value))}>
              {THRESHOLDS.map((n) => (
                <option key={n} value={n}>
                  {n === 100 ? t('autoTopUp.whenUsedUp') : t('autoTopUp.percent', { n })}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-monthly`}>{t('autoTopUp.monthly')}</label>
            <select id={`${id}-monthly`} value={monthly} onChange={(e) => setMonthly(Number(e.target.value))}>
              {MONTHLY.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
        </div>
        <p className="hint">{t('autoTopUp.hint')}</p>
        <button type="submit" className="button small" disabled={save.isPending}>
          {save.isPending ? t('common.working') : t('autoTopUp.save')}
        </button>
        <div aria-live="polite">
          {saved && !save.isPending ? (
            <p className="form-success" role="status">
              {t('autoTopUp.saved')}
            </p>
          ) : null}
        </div>
        <FormError error={save.error} />
      </form>
    </section>
  );
}
