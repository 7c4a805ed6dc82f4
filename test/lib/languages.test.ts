import { describe, expect, it } from 'vitest';
import { firstUiLanguage, negotiateLanguage, UI_LANGUAGES } from '../../src/lib/languages.js';

describe('UI languages', () => {
  it('are English, Turkish, German, French and Spanish', () => {
    expect(UI_LANGUAGES).toEqual(['en', 'tr', 'de', 'fr', 'es']);
  });

  it('negotiates Accept-Language by q, ignoring regions and languages we do not speak', () => {
    expect(negotiateLanguage('de-CH,de;q=0.9', 'tr')).toBe('de');
    expect(negotiateLanguage('it-IT,fr;q=0.3,es;q=0.6', 'tr')).toBe('es');
    expect(negotiateLanguage('fr;q=0.5, en;q=0.5', 'tr')).toBe('fr');
    expect(negotiateLanguage('de;q=0, ja', 'tr')).toBe('tr');
    expect(negotiateLanguage(undefined, undefined)).toBeUndefined();
    expect(negotiateLanguage('*', 'en')).toBe('en');
  });

  it('takes the first supported candidate', () => {
    expect(firstUiLanguage(['pt-BR', null, 'ES'], 'en')).toBe('es');
    expect(firstUiLanguage([undefined], 'tr')).toBe('tr');
  });
});
