/**
 * The web app's UI languages, the one list of them: the web app's language switcher and message
 * files (web/src/i18n), the server-rendered pages' `hreflang` alternates and the sitemap
 * (src/http/storefront) all read it. Plain data with no imports, like client-paths.ts, so the
 * server bundle and the web build can both read it. The first is the default (no `?lang=`).
 */
export const UI_LANGUAGES = ['en', 'tr'] as const;

export type UiLanguage = (typeof UI_LANGUAGES)[number];

export const DEFAULT_UI_LANGUAGE: UiLanguage = UI_LANGUAGES[0];

export function isUiLanguage(value: unknown): value is UiLanguage {
  return (UI_LANGUAGES as readonly unknown[]).includes(value);
}
