import { useDeferredValue, useId, useMemo, useState } from 'react';
import { useI18n, type MessageKey, type Translate } from '../i18n';
import {
  BRAND_NOTES,
  guessDevice,
  noteKey,
  PHONES_UPDATED,
  searchPhones,
  type DeviceGuess,
} from '../lib/compat';
import { formatDate } from '../lib/format';

function hintOf(guess: DeviceGuess, t: Translate): string {
  if (guess.kind === 'listed') return t('compat.hint.listed', { model: guess.model });
  return t(`compat.hint.${guess.kind}` as MessageKey);
}

/**
 * The searchable list of eSIM phones (web/src/lib/esim-phones.json) with a hint from this
 * browser's user agent: on the /compatibility page and in the checkout's dialog.
 */
export function CompatibilityChecker({ autoFocus = false }: { autoFocus?: boolean }) {
  const { t, language } = useI18n();
  const id = useId();
  const [query, setQuery] = useState('');
  // Typing stays responsive while ~200 rows re-filter.
  const deferred = useDeferredValue(query);
  const results = useMemo(() => searchPhones(deferred), [deferred]);
  const guess = useMemo(() => guessDevice(navigator.userAgent), []);
  const brandNotes = [...new Set(results.map((p) => p.brand))].flatMap((brand) => {
    const note = BRAND_NOTES.get(brand);
    return note ? [{ brand, note }] : [];
  });

  return (
    <div className="compat-checker">
      <p className="compat-hint" data-testid="compat-hint">
        {hintOf(guess, t)}
      </p>
      <div className="field">
        <label htmlFor={`${id}-q`}>{t('compat.searchLabel')}</label>
        <input
          id={`${id}-q`}
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder={t('compat.searchPlaceholder')}
          autoComplete="off"
          aria-describedby={`${id}-count`}
          // The dialog opens to type into; a page does not steal focus from its heading.
          autoFocus={autoFocus}
        />
      </div>
      <p id={`${id}-count`} className="hint" role="status">
        {results.length > 0
          ? t('compat.count', { n: results.length })
          : t('compat.none', { q: deferred.trim() })}
      </p>
      {results.length > 0 ? (
        <ul className="phone-list" aria-label={t('compat.results')} data-testid="phone-list">
          {results.map((phone) => (
            <li key={`${phone.brand} ${phone.model}`}>
              <span className="phone-name">
                <span className="phone-brand">{phone.brand}</span> {phone.model}
              </span>
              {phone.note ? <small className="hint">{t(noteKey(phone.note))}</small> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {brandNotes.length > 0 ? (
        <ul className="brand-notes">
          {brandNotes.map(({ brand, note }) => (
            <li key={brand}>
              <strong>{brand}:</strong> {t(noteKey(note))}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="hint">
        {t('compat.settingsTip')} {t('compat.updated', { date: formatDate(PHONES_UPDATED, language) })}
      </p>
    </div>
  );
}
