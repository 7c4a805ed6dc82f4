import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router';
import { api, ApiError, unwrap } from '../api/client';
import type { Order } from '../api/types';
import { useI18n } from '../i18n';
import { formatMoney } from '../lib/format';
import { useMoneyMoved } from '../lib/session';
import { FormError, FormSuccess } from './FormError';

/** Refusals that support can still help with: the error is followed by a link to the support page. */
/** A random Idempotency-Key (getRandomValues works on plain http too, unlike randomUUID). */
function newKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}

const ASK_SUPPORT = new Set([
  'ORDER_NOT_CANCELLABLE',
  'ESIM_INSTALLED',
  'ESIM_USED',
  'REFUND_WINDOW_PASSED',
  'SELF_REFUND_LIMIT',
]);

/**
 * "Cancel and refund" on an order the API calls `cancellable` (issue 31 L4): a button opening a
 * modal confirmation that says what happens (the eSIM stops working; the whole amount returns to
 * the wallet, however it was paid). The server asks the eSIM provider on the POST, so a refusal
 * (installed, used, too old, limit) is shown with the way to support. One Idempotency-Key per
 * confirmation: a retried request after a network failure cannot refund twice (it never could:
 * the server refunds an order once), and answers like the first.
 */
export function CancelOrder({ order }: { order: Order }) {
  const { t, language } = useI18n();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const client = useQueryClient();
  const moneyMoved = useMoneyMoved();
  const [key, setKey] = useState('');
  const amount = formatMoney(order.amount, 'USD', language);

  const cancel = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/user/orders/{id}/cancel', {
          params: { path: { id: order.id }, header: { 'idempotency-key': key } },
        }),
      ),
    onSuccess: (data) => {
      // The refunded order at once; `cancellable` is left as it was so this section stays to
      // confirm the refund (the next read of the order says false and hides it).
      client.setQueryData<{ order: Order; cancellable: boolean }>(['order', order.id], (old) =>
        old ? { ...old, order: data.order } : old,
      );
      void moneyMoved();
    },
    onSettled: () => dialog.current?.close(),
  });
  const refusal = cancel.error instanceof ApiError && ASK_SUPPORT.has(cancel.error.code);

  return (
    <section className="card cancel-order" aria-labelledby={`${id}-head`}>
      <h2 id={`${id}-head`}>{t('cancel.button')}</h2>
      {cancel.isSuccess ? (
        <FormSuccess>{t('cancel.done', { amount })}</FormSuccess>
      ) : (
        <>
          <p className="muted">{t('cancel.note')}</p>
          <button
            type="button"
            className="button danger"
            aria-haspopup="dialog"
            disabled={cancel.isPending}
            onClick={() => {
              setKey(newKey());
              cancel.reset();
              dialog.current?.showModal();
            }}
          >
            {t('cancel.button')}
          </button>
        </>
      )}
      <FormError error={cancel.error} />
      {refusal ? (
        <p>
          <Link to="/support">{t('cancel.support')}</Link>
        </p>
      ) : null}
      {createPortal(
        <dialog
          ref={dialog}
          className="compat-dialog cancel-dialog"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-explain`}
        >
          <h2 id={`${id}-title`}>{t('cancel.title')}</h2>
          <p id={`${id}-explain`}>{t('cancel.explain', { amount })}</p>
          <div className="dialog-actions">
            <button type="button" className="button" autoFocus onClick={() => dialog.current?.close()}>
              {t('cancel.keep')}
            </button>
            <button
              type="button"
              className="button danger"
              disabled={cancel.isPending}
              onClick={() => cancel.mutate()}
            >
              {cancel.isPending ? t('cancel.working') : t('cancel.confirm')}
            </button>
          </div>
        </dialog>,
        document.body,
      )}
    </section>
  );
}
