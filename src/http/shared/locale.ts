import { isLocale, type Locale } from '../../domain/catalog/countries.js';

/** First Accept-Language tag (by q) whose primary language we have names for. */
export function localeFromHeader(header: string | undefined): Locale | undefined {
  if (!header) return undefined;
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return { language: tag.split('-')[0]!.toLowerCase(), q: q ? Number(q) : 1, index };
    })
    .filter((t) => t.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((t) => t.language)
    .find(isLocale);
}

/**
 * The language of a Mobile API answer that has no `locale` parameter: the account's language,
 * else Accept-Language, else English (the destinations' rule without the query).
 */
export function callerLocale(request: {
  auth?: { account?: { locale?: string | null } } | null;
  headers: { 'accept-language'?: string | undefined };
}): Locale {
  const accountLocale = request.auth?.account?.locale ?? undefined;
  if (isLocale(accountLocale)) return accountLocale;
  return localeFromHeader(request.headers['accept-language']) ?? 'en';
}
