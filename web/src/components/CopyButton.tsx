import { useState } from 'react';
import { useI18n } from '../i18n';

/** Copies `text` to the clipboard; says so for two seconds (announced politely). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useI18n();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 2000);
  }
  return (
    <>
      <button type="button" className="button small" onClick={() => void copy()} aria-label={label}>
        {state === 'copied' ? t('common.copied') : t('common.copy')}
      </button>
      <span className="visually-hidden" aria-live="polite">
        {state === 'copied' ? t('common.copied') : state === 'failed' ? t('common.copyFailed') : ''}
      </span>
    </>
  );
}
