import { expect, test } from 'vitest';
import { LANGUAGES, translate } from '.';
import de from './de.json';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import tr from './tr.json';

const ALL: Record<(typeof LANGUAGES)[number], Record<string, string>> = { en, tr, de, fr, es };

test('the message files are exactly the UI languages', () => {
  expect(Object.keys(ALL).sort()).toEqual([...LANGUAGES].sort());
});

test.each(Object.entries(ALL))('every UI string exists in %s, none empty', (_lang, messages) => {
  expect(Object.keys(messages).sort()).toEqual(Object.keys(en).sort());
  for (const [key, text] of Object.entries(messages)) expect(text.trim(), key).not.toBe('');
});

test.each(Object.entries(ALL))('%s uses the same {{placeholders}} as English', (_lang, messages) => {
  const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
  for (const [key, text] of Object.entries(en)) {
    expect(placeholders(messages[key] ?? ''), key).toEqual(placeholders(text));
  }
});

test.each(['de', 'fr', 'es'] as const)('%s is a translation, not a copy of English', (lang) => {
  // Single words may read the same ("Total", "Support"); a sentence left in English may not.
  const copied = Object.entries(en)
    .filter(([key, text]) => ALL[lang][key] === text && text.includes(' '))
    .map(([key]) => key);
  expect(copied).toEqual(['footer.copyright']);
});

test('the language switcher reads each language in itself', () => {
  expect(translate('de', 'nav.login')).toBe('Anmelden');
  expect(translate('fr', 'nav.login')).toBe('Connexion');
  expect(translate('es', 'dest.days', { n: 7 })).toBe('7 días');
});
