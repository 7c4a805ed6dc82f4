import { useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useI18n, type MessageKey, type Translate } from '../i18n';
import {
  BRAND_NOTES,
  guessDevice,
  noteKey,
  PHONES,
  PHONES_UPDATED,
  searchPhones,
  type DeviceGuess,
  type Phone,
} from '../lib/compat';
import { formatDate } from '../lib/format';

function hintOf(guess: DeviceGuess, t: Translate): string {
  if (guess.kind === 'listed') return t('compat.hint.listed', { model: guess.model });
  return t(`compat.hint.${guess.kind}` as MessageKey);
}

/** The brands in list order, each with its phones: the browsing view before anything is typed. */
const BY_BRAND: [string, Phone[]][] = [
  ...PHONES.reduce(
    (map, phone) => map.set(phone.brand, [...(map.get(phone.brand) ?? []), phone]),
    new Map<string, Phone[]>(),
  ),
];

function PhoneItem({ phone, withBrand }: { phone: Phone; withBrand: boolean }) {
  const { t } = useI18n();
  return (
    <li>
      <span className="phone-name">
        {withBrand ? <span className="phone-brand">{phone.brand} </span> : null}
        {phone.model}
      </span>
      {phone.note ? <small className="hint">{t(noteKey(phone.note))}</small> : null}
    </li>
  );
}

/** What holds for every model of these brands (regional rules), once rather than on each row. */
function BrandNotes({ brands }: { brands: string[] }) {
  const { t } = useI18n();
  const notes = brands.flatMap((brand) => {
    const note = BRAND_NOTES.get(brand);
    return note ? [{ brand, note }] : [];
  });
  if (notes.length === 0) return null;
  return (
    <ul className="brand-notes">
      {notes.map(({ brand, note }) => (
        <li key={brand}>
          <strong>{brand}:</strong> {t(noteKey(note))}
        </li>
      ))}
    </ul>
  );
}

/**
 * The searchable list of eSIM phones (web/src/lib/esim-phones.json) with a hint from this
 * browser's user agent: on the /compatibility page and in the checkout's dialog. Before a search,
 * the brands fold open one at a time (200 rows would be a very long page on a phone); a search
 * lists the matching models.
 */
export function CompatibilityChecker({ autoFocus = false }: { autoFocus?: boolean }) {
  const { t, language } = useI18n();
  const id = useId();
  const [query, setQuery] = useState('');
  // Typing stays responsive while ~200 rows re-filter.
  const deferred = useDeferredValue(query);
  const searching = deferred.trim() !== '';
  const results = useMemo(() => searchPhones(deferred), [deferred]);
  const guess = useMemo(() => guessDevice(navigator.userAgent), []);
  const brands = [...new Set(results.map((p) => p.brand))];
  const search = useRef<HTMLInputElement>(null);
  // The dialog opens to type into; a page does not steal focus from its heading. Focused here,
  // not with `autoFocus`: Preact (the build's runtime) only sets the attribute, which a field
  // added to an already open <dialog> ignores.
  useEffect(() => {
    if (autoFocus) search.current?.focus();
  }, [autoFocus]);

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
          ref={search}
        />
      </div>
      <p id={`${id}-count`} className="hint" role="status">
        {!searching
          ? t('compat.all', { n: PHONES.length, brands: BY_BRAND.length })
          : results.length > 0
            ? t('compat.count', { n: results.length })
            : t('compat.none', { q: deferred.trim() })}
      </p>
      {!searching ? (
        <div className="brand-groups" data-testid="brand-groups">
          {BY_BRAND.map(([brand, phones]) => (
            <details key={brand}>
              <summary>
                {brand} <span className="muted">({phones.length})</span>
              </summary>
              <ul className="phone-list" aria-label={brand}>
                {phones.map((phone) => (
                  <PhoneItem key={phone.model} phone={phone} withBrand={false} />
                ))}
              </ul>
              <BrandNotes brands={[brand]} />
            </details>
          ))}
        </div>
      ) : results.length > 0 ? (
        <>
          <ul className="phone-list" aria-label={t('compat.results')} data-testid="phone-list">
            {results.map((phone) => (
              <PhoneItem key={`${phone.brand} ${phone.model}`} phone={phone} withBrand />
            ))}
          </ul>
          <BrandNotes brands={brands} />
        </>
      ) : null}
      <p className="hint">
        {t('compat.settingsTip')} {t('compat.updated', { date: formatDate(PHONES_UPDATED, language) })}
      </p>
    </div>
  );
}
