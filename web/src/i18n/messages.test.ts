import { expect, test } from 'vitest';
import en from './en.json';
import tr from './tr.json';

test('every UI string exists in every UI language, none empty', () => {
  expect(Object.keys(tr).sort()).toEqual(Object.keys(en).sort());
  for (const [key, text] of [...Object.entries(en), ...Object.entries(tr)]) {
    expect(text.trim(), key).not.toBe('');
  }
});

test('a message uses the same {{placeholders}} in every language', () => {
  const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
  for (const [key, text] of Object.entries(en)) {
    expect(placeholders(tr[key as keyof typeof tr]), key).toEqual(placeholders(text));
  }
});
