import type { Language } from '../i18n';

/**
 * The partner console's texts live beside the console, one file per area (messages/<area>.ts),
 * each holding all five languages. They ship in the console's chunk, never in the storefront's,
 * and the type makes every language name every English key.
 */
export type AreaMessages<K extends string> = Record<Language, Record<K, string>>;

export function defineMessages<K extends string>(
  en: Record<K, string>,
  others: Record<Exclude<Language, 'en'>, Record<K, string>>,
): AreaMessages<K> {
  return { en, ...others };
}

export function interpolate(text: string, params?: Record<string, string | number>): string {
  return params ? text.replace(/\{\{(\w+)\}\}/g, (m, name: string) => String(params[name] ?? m)) : text;
}
