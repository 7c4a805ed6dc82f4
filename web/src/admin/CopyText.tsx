import { useEffect, useState } from 'react';

/**
 * Copies `text` to the clipboard and says so for two seconds (announced politely). The visible
 * text is the button's name: no aria-label that could differ from it.
 */
export function CopyText({ text, children = 'Copy' }: { text: string; children?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  }
  return (
    <>
      <button type="button" onClick={() => void copy()}>
        {state === 'copied' ? 'Copied' : children}
      </button>
      <span className="visually-hidden" aria-live="polite">
        {state === 'copied'
          ? 'Copied to the clipboard'
          : state === 'failed'
            ? 'Could not copy: select the text instead'
            : ''}
      </span>
    </>
  );
}
