import { DEFAULT_UI_LANGUAGE, LANGUAGE_PARAM, UI_LANGUAGES, type UiLanguage } from '../../lib/languages.js';
import en from '../../../web/src/i18n/en.json' with { type: 'json' };
import tr from '../../../web/src/i18n/tr.json' with { type: 'json' };
import de from '../../../web/src/i18n/de.json' with { type: 'json' };
import fr from '../../../web/src/i18n/fr.json' with { type: 'json' };
import es from '../../../web/src/i18n/es.json' with { type: 'json' };

/**
 * Plain helpers of the server-rendered pages: escaping, the web app's own messages, language
 * URLs and the head tags. Every value that reaches the HTML goes through `esc` (text and
 * attributes) or `jsonForScript` (JSON inside a <script>).
 */

export type MessageKey = keyof typeof en;

/**
 * The web app's message files, so a server-rendered page reads exactly what the app then shows.
 * A language added to UI_LANGUAGES fails the typecheck here until its file is imported.
 */
const MESSAGES: Record<UiLanguage, Partial<Record<MessageKey, string>>> = { en, tr, de, fr, es };

/** The app's `t`: `{{name}}` placeholders, English when a language lacks the key. */
export function message(
  language: UiLanguage,
  key: MessageKey,
  params: Record<string, string | number> = {},
): string {
  const text = MESSAGES[language][key] ?? en[key];
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (all, name: string) =>
    name in params ? String(params[name]) : all,
  );
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text or attribute value → HTML. */
export function esc(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** JSON safe inside <script>: no `</script>`, `<!--` or line separators can end or bend it. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The URL of `path` in `language`: the default language has no parameter, the others `?lang=`
 * (after the page's own query, if any).
 */
export function languageUrl(base: string, path: string, language: UiLanguage, query = ''): string {
  const params = new URLSearchParams(query);
  if (language !== DEFAULT_UI_LANGUAGE) params.set(LANGUAGE_PARAM, language);
  const search = params.toString();
  return `${base}${path}${search ? `?${search}` : ''}`;
}

/** Open Graph's `ll_TT` for a language ("tr" → "tr_TR"), from Intl's likely region. */
export function ogLocale(language: UiLanguage): string {
  const region = new Intl.Locale(language).maximize().region;
  return region ? `${language}_${region}` : language;
}

export interface PageHead {
  language: UiLanguage;
  title: string;
  description: string;
  /** Absolute base URL (PUBLIC_BASE_URL) and the page's path and query without `lang`. */
  base: string;
  path: string;
  query?: string;
  ogType: 'website' | 'product';
  jsonLd?: unknown;
}

/** Description, canonical, one `hreflang` alternate per UI language (and x-default), Open Graph, JSON-LD. */
export function headTags(head: PageHead): string {
  const { base, path, query = '', language } = head;
  const canonical = languageUrl(base, path, language, query);
  const tags = [
    `<meta name="description" content="${esc(head.description)}" />`,
    `<link rel="canonical" href="${esc(canonical)}" />`,
    ...UI_LANGUAGES.map(
      (l) => `<link rel="alternate" hreflang="${l}" href="${esc(languageUrl(base, path, l, query))}" />`,
    ),
    `<link rel="alternate" hreflang="x-default" href="${esc(languageUrl(base, path, DEFAULT_UI_LANGUAGE, query))}" />`,
    `<meta property="og:type" content="${head.ogType}" />`,
    `<meta property="og:site_name" content="Roam eSIM" />`,
    `<meta property="og:title" content="${esc(head.title)}" />`,
    `<meta property="og:description" content="${esc(head.description)}" />`,
    `<meta property="og:url" content="${esc(canonical)}" />`,
    `<meta property="og:locale" content="${ogLocale(language)}" />`,
    ...UI_LANGUAGES.filter((l) => l !== language).map(
      (l) => `<meta property="og:locale:alternate" content="${ogLocale(l)}" />`,
    ),
    `<meta name="twitter:card" content="summary" />`,
  ];
  if (head.jsonLd !== undefined)
    tags.push(`<script type="application/ld+json">${jsonForScript(head.jsonLd)}</script>`);
  return tags.join('\n    ');
}

/**
 * index.html of the build with the page's language, title, head tags, body (inside #root, where
 * the app renders) and the data the app starts from (`#ssr-data`, docs/web.md).
 */
export function fillTemplate(
  template: string,
  page: { language: UiLanguage; title: string; head: string; body: string; data: unknown },
): string {
  // Function replacers: a `$&` in a plan name must stay text, not a replacement pattern.
  return template
    .replace(/<html(\s+lang="[^"]*")?/, () => `<html lang="${page.language}"`)
    .replace(/\s*<title>[\s\S]*?<\/title>/, '')
    .replace(/\s*<meta\s+name="description"[\s\S]*?\/>/, '')
    .replace('</head>', () => `  <title>${esc(page.title)}</title>\n    ${page.head}\n  </head>`)
    .replace(/<noscript>[\s\S]*?<\/noscript>/, '')
    .replace(
      '<div id="root"></div>',
      () =>
        `<div id="root">${page.body}</div>\n    <script type="application/json" id="ssr-data">${jsonForScript(page.data)}</script>`,
    );
}
