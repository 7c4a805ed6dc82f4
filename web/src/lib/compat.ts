import list from './esim-phones.json';
import type { MessageKey } from '../i18n';
import { foldForSearch } from './text';

/**
 * "Does my phone support eSIM?" (issue 30 T6): the list of eSIM phones kept as data in
 * web/src/lib/esim-phones.json (its source and date are in the file), searched on the device, and
 * a first guess from the browser's user agent.
 */

/** A note's text is the message `compat.note.<code>` (so it exists in every UI language). */
export type NoteCode =
  | 'appleChina'
  | 'usEsimOnly'
  | 'esimOnly'
  | 'pixel3'
  | 'pixel3a'
  | 'samsungS20'
  | 'region'
  | 'japan'
  | 'huaweiP40';

export interface Phone {
  brand: string;
  model: string;
  /** A note about this model (a regional exception); its brand's note is `BRAND_NOTES`. */
  note?: NoteCode;
}

interface PhoneList {
  updated: string;
  source: string;
  brandNotes: Record<string, string>;
  phones: { brand: string; model: string; note?: string }[];
}

const data = list as PhoneList;

export const PHONES_UPDATED: string = data.updated;

export const PHONES: readonly Phone[] = data.phones.map((p) => ({
  ...p,
  note: p.note as NoteCode | undefined,
}));

/** Notes that hold for every model of a brand, shown once beside the results rather than on each. */
export const BRAND_NOTES: ReadonlyMap<string, NoteCode> = new Map(
  Object.entries(data.brandNotes).map(([brand, note]) => [brand, note as NoteCode] as const),
);

export const noteKey = (code: NoteCode): MessageKey => `compat.note.${code}` as MessageKey;

const normalize = foldForSearch;

const haystack = (phone: Phone) => normalize(`${phone.brand} ${phone.model}`);

/**
 * The phones whose brand and model contain every word of `query` ("pixel 8" → Pixel 8, 8 Pro,
 * 8a; "galaxy s24" → the S24 family), exact names first, then names that start with the query,
 * then list order. An empty query is the whole list.
 */
export function searchPhones(query: string, phones: readonly Phone[] = PHONES): Phone[] {
  const q = normalize(query);
  if (q === '') return [...phones];
  const words = q.split(' ');
  const rank = (phone: Phone) => {
    const model = normalize(phone.model);
    if (model === q || haystack(phone) === q) return 0;
    if (model.startsWith(q) || haystack(phone).startsWith(q)) return 1;
    return 2;
  };
  return phones
    .map((phone, index) => ({ phone, index, rank: rank(phone) }))
    .filter(({ phone }) => words.every((w) => haystack(phone).includes(w)))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ phone }) => phone);
}

export type DeviceGuess =
  | { kind: 'iphone' }
  /** An Android phone whose user agent still names its model, and that model is in the list. */
  | { kind: 'listed'; model: string }
  | { kind: 'android' }
  | { kind: 'other' };

/**
 * A first guess from the user agent, only ever a hint: iPhones say so; Android phones named their
 * model until Chrome's reduced user agent ("Android 10; K"), so a model found there that is in the
 * list is named, anything else Android gets the general hint.
 */
export function guessDevice(userAgent: string, phones: readonly Phone[] = PHONES): DeviceGuess {
  if (/\biPhone\b/.test(userAgent)) return { kind: 'iphone' };
  if (!/\bAndroid\b/.test(userAgent)) return { kind: 'other' };
  const model = /Android [\d.]+; (?:[a-z]{2}[-_][a-z]{2}; )?([^;)]+?)(?: Build\/[^;)]*)?\)/i.exec(
    userAgent,
  )?.[1];
  if (model) {
    const name = normalize(model);
    const found = phones.find((p) => normalize(p.model) === name || haystack(p) === name);
    if (found) return { kind: 'listed', model: `${found.brand} ${found.model}` };
  }
  return { kind: 'android' };
}
