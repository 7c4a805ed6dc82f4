import { useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useId, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client';
import type { Plan } from '../api/types';
import { ChargeNote } from '../components/ChargeNote';
import { CompatibilityDialog } from '../components/CompatibilityDialog';
import { Flag } from '../components/Flag';
import { FormError } from '../components/FormError';
import { useI18n, type MessageKey } from '../i18n';
import { useDisplayCurrency } from '../lib/currency';
import { destinationSeed } from '../lib/ssr';
import { newReturnReference, rememberOrder, returnUrls } from '../lib/checkout';
import { formatData, formatMoney } from '../lib/format';
import { useMe, useMoneyMoved } from '../lib/session';
import { useTitle } from '../lib/title';
import { PlanFacts } from '../components/PlanFacts';

type Method = 'wallet' | 'card' | 'crypto';
const METHODS: readonly Method[] = ['wallet', 'card', 'crypto'];

export default function Destination() {
  const { code = '' } = useParams();
  const { t, language } = useI18n();
  const currency = useDisplayCurrency();
  const me = useMe();
  const user = me.data ?? null;
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const groupId = useId();

  const detail = useQuery({
    queryKey: ['destination', code.toUpperCase(), language, currency],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/destinations/{code}', {
          params: { path: { code }, query: { locale: language, currency } },
        }),
      ),
    // The plans the server rendered (USD) until the visitor's currency is in.
    placeholderData: () => destinationSeed(code, language),
    staleTime: 60_000,
  });
  const destination = detail.data?.destination;
  useTitle(destination ? t('dest.title', { name: destination.name }) : t('common.loading'));

  const plans = destination?.plans ?? [];
  const basePlans = plans.filter((p) => !p.isTopUp);
  const topUpPlans = plans.filter((p) => p.isTopUp);
  const [planId, setPlanId] = useState<string | null>(null);
  const [quantity, setQuantity] = useState(1);
  const [method, setMethod] = useState<Method>('wallet');
  const [iccid, setIccid] = useState(params.get('iccid') ?? '');
  const selected: Plan | undefined =
    plans.find((p) => p.id === planId) ?? (params.get('iccid') ? topUpPlans[0] : basePlans[0]);
  // A new eSIM needs a phone that takes one (issue 30 T6); a top-up goes to an eSIM already installed.
  const needsPhoneCheck = !selected?.isTopUp;
  const [phoneOk, setPhoneOk] = useState(false);
  const [phoneOkMissing, setPhoneOkMissing] = useState(false);
  // The browser's own "required" bubble says it in the UI language. A callback ref: the box
  // mounts only once the destination has loaded, and is set again whenever the tick changes.
  const phoneOkInput = useCallback(
    (input: HTMLInputElement | null) => input?.setCustomValidity(phoneOk ? '' : t('compat.confirmRequired')),
    [phoneOk, t],
  );
  const moneyMoved = useMoneyMoved();

  const esims = useQuery({
    // Top-up targets are the user's own eSIMs, not those the Partner API sold to the partner's customers.
    queryKey: ['esims', 'web'],
    queryFn: () => unwrap(api.GET('/api/v1/user/esims', { params: { query: { channel: 'web' } } })),
    enabled: !!user && !!selected?.isTopUp,
  });
  const topUpTargets = (esims.data?.esims ?? []).filter(
    (e) => e.status !== 'EXPIRED' && e.status !== 'CANCELLED',
  );

  const checkout = useMutation({
    mutationFn: async () => {
      if (!selected) throw new Error('no plan');
      const reference = newReturnReference();
      const body = {
        planId: selected.id,
        quantity: selected.isTopUp ? 1 : quantity,
        paymentMethod: method,
        ...(selected.isTopUp ? { iccid: iccid.trim() } : {}),
        ...(method === 'wallet' ? {} : returnUrls(reference)),
      };
      const result = await unwrap(api.POST('/api/v1/checkout', { body }));
      return { result, reference };
    },
    onSuccess: ({ result, reference }) => {
      // A wallet purchase has charged the balance the header shows.
      void moneyMoved();
      if (result.url) {
        rememberOrder(reference, result.orderId);
        window.location.assign(result.url);
        return;
      }
      void navigate(`/orders?order=${encodeURIComponent(result.orderId)}`);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    // Also checked here, not only by `required`: no order without the tick, whatever the browser.
    if (needsPhoneCheck && !phoneOk) {
      setPhoneOkMissing(true);
      return;
    }
    checkout.mutate();
  }

  if (detail.isError) {
    return (
      <section className="narrow center">
        <h1>{t('dest.notFound')}</h1>
        <FormError error={detail.error} />
        <Link to="/" className="button">
          {t('dest.back')}
        </Link>
      </section>
    );
  }
  if (!destination) return <p className="muted page-loading">{t('common.loading')}</p>;

  const total = selected ? selected.price.amount * (selected.isTopUp ? 1 : quantity) : 0;
  const insufficient =
    checkout.error && (checkout.error as { code?: string }).code === 'INSUFFICIENT_BALANCE';

  const planOption = (p: Plan) => (
    <label key={p.id} className={selected?.id === p.id ? 'plan selected' : 'plan'}>
      <input
        type="radio"
        name={`${groupId}-plan`}
        value={p.id}
        checked={selected?.id === p.id}
        onChange={() => setPlanId(p.id)}
      />
      <span className="plan-data">{formatData(p.dataAmountMb, language)}</span>
      <span className="plan-days">{t('dest.days', { n: p.durationDays })}</span>
      <span className="plan-price">{p.price.formatted}</span>
    </label>
  );

  return (
    <div className="container destination-page">
      <nav aria-label={t('common.breadcrumb')} className="breadcrumb">
        <Link to="/">{t('nav.destinations')}</Link> <span aria-hidden="true">›</span>{' '}
        <span>{destination.name}</span>
      </nav>
      <header className="destination-head">
        <Flag code={destination.code} size="lg" />
        <div>
          <h1>{destination.name}</h1>
          <p className="muted">{destination.description}</p>
        </div>
      </header>

      <form className="checkout card" onSubmit={submit} aria-labelledby={`${groupId}-plans`}>
        <fieldset>
          <legend id={`${groupId}-plans`}>{t('dest.choosePlan')}</legend>
          <div className="plan-list">{basePlans.map(planOption)}</div>
        </fieldset>
        {topUpPlans.length > 0 ? (
          <fieldset>
            <legend>{t('dest.topUps')}</legend>
            <p className="hint">{t('dest.topUpsHint')}</p>
            <div className="plan-list">{topUpPlans.map(planOption)}</div>
          </fieldset>
        ) : null}
        {selected ? <PlanFacts plan={selected} /> : null}

        {selected?.isTopUp ? (
          <div className="field">
            <label htmlFor={`${groupId}-iccid`}>{t('dest.iccid')}</label>
            <input
              id={`${groupId}-iccid`}
              list={`${groupId}-iccids`}
              value={iccid}
              onChange={(e) => setIccid(e.target.value)}
              inputMode="numeric"
              required
              pattern="[0-9]{18,22}F?"
              aria-describedby={`${groupId}-iccid-hint`}
            />
            <datalist id={`${groupId}-iccids`}>
              {topUpTargets.map((e) => (
                <option key={e.id} value={e.iccid} />
              ))}
            </datalist>
            <small className="hint" id={`${groupId}-iccid-hint`}>
              {t('dest.iccidHint')}
            </small>
          </div>
        ) : (
          <div className="field narrow-field">
            <label htmlFor={`${groupId}-qty`}>{t('dest.quantity')}</label>
            <select
              id={`${groupId}-qty`}
              value={quantity}
              onChange={(e) => setQuantity(Number(e.target.value))}
            >
              {Array.from({ length: 10 }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
        )}

        <fieldset>
          <legend>{t('dest.payWith')}</legend>
          <div className="methods">
            {METHODS.map((m) => (
              <label key={m} className={method === m ? 'method selected' : 'method'}>
                <input
                  type="radio"
                  name={`${groupId}-method`}
                  value={m}
                  checked={method === m}
                  onChange={() => setMethod(m)}
                />
                <span>{t(`dest.method.${m}` as MessageKey)}</span>
                {m === 'wallet' && user ? (
                  <small className="muted">{formatMoney(user.walletBalance, 'USD', language)}</small>
                ) : null}
              </label>
            ))}
          </div>
        </fieldset>

        {needsPhoneCheck ? (
          <div className="phone-check">
            <label className="checkbox">
              <input
                ref={phoneOkInput}
                type="checkbox"
                required
                checked={phoneOk}
                onChange={(e) => {
                  setPhoneOk(e.target.checked);
                  if (e.target.checked) setPhoneOkMissing(false);
                }}
                onInvalid={() => setPhoneOkMissing(true)}
              />
              <span>{t('compat.confirm')}</span>
            </label>
            <CompatibilityDialog />
            {phoneOkMissing ? (
              <p className="form-error" role="alert">
                {t('compat.confirmRequired')}
              </p>
            ) : null}
          </div>
        ) : null}

        <div className="checkout-foot">
          <p className="total">
            {t('dest.total')}{' '}
            <strong data-testid="checkout-total">
              {selected ? formatMoney(total, selected.price.currency, language) : '—'}
            </strong>
          </p>
          {currency !== 'USD' ? <p className="hint">{t('dest.chargedInUsd')}</p> : null}
          {selected ? (
            <ChargeNote
              totalUsd={Math.round(selected.priceUsd.amount * (selected.isTopUp ? 1 : quantity) * 100) / 100}
              rate={detail.data?.exchangeRate ?? null}
            />
          ) : null}
          <FormError error={checkout.error} />
          {insufficient ? (
            <p>
              <Link to="/wallet">{t('dest.topUpWallet')}</Link>
            </p>
          ) : null}
          {user ? (
            <button type="submit" className="button primary wide" disabled={!selected || checkout.isPending}>
              {checkout.isPending ? t('common.working') : t(`dest.buy.${method}` as MessageKey)}
            </button>
          ) : (
            <Link
              className="button primary wide"
              to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`}
            >
              {t('dest.loginToBuy')}
            </Link>
          )}
          {/* Beside the pay button, in a new tab so that the chosen plan and method stay as they are. */}
          <p className="checkout-legal" data-testid="checkout-legal">
            {t('dest.agreeBefore')}
            <Link to="/terms" target="_blank" rel="noopener">
              {t('legal.terms')}
              <span className="visually-hidden"> {t('common.newTab')}</span>
            </Link>
            {t('dest.agreeBetween')}
            <Link to="/refund-policy" target="_blank" rel="noopener">
              {t('legal.refunds')}
              <span className="visually-hidden"> {t('common.newTab')}</span>
            </Link>
            {t('dest.agreeAfter')}
          </p>
        </div>
      </form>

      <section className="card compat">
        <h2>{t('dest.compatTitle')}</h2>
        <p className="muted">{t('dest.compatBody')}</p>
        <p>
          <Link to="/compatibility">{t('compat.title')}</Link>
        </p>
      </section>
    </div>
  );
}
