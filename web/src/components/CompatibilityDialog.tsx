import { useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useI18n } from '../i18n';
import { CompatibilityChecker } from './CompatibilityChecker';

/**
 * "Does my phone support eSIM?" from the checkout: a button opening the phone list in a modal
 * <dialog> (focus kept inside, Escape closes, focus returns to the button), so the buyer keeps
 * the plan they chose. The dialog is portalled to <body>: inside the checkout <form>, Enter in
 * its search field would submit the order.
 */
export function CompatibilityDialog() {
  const { t } = useI18n();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  // The list mounts on opening, so its search field takes the focus then.
  const [open, setOpen] = useState(false);

  return (
    <>
      <button
        type="button"
        className="link-button"
        aria-haspopup="dialog"
        onClick={() => {
          setOpen(true);
          dialog.current?.showModal();
        }}
      >
        {t('compat.title')}
      </button>
      {createPortal(
        <dialog
          ref={dialog}
          className="compat-dialog"
          aria-labelledby={`${id}-title`}
          onClose={() => setOpen(false)}
        >
          <div className="dialog-head">
            <h2 id={`${id}-title`}>{t('compat.title')}</h2>
            <button type="button" className="button small" onClick={() => dialog.current?.close()}>
              {t('compat.close')}
            </button>
          </div>
          <p className="muted">{t('compat.intro')}</p>
          {open ? <CompatibilityChecker autoFocus /> : null}
        </dialog>,
        document.body,
      )}
    </>
  );
}
