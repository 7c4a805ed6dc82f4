import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { escapeMarkdown, renderMarkdown } from '../../lib/markdown.js';
import { AppError } from '../errors.js';

/**
 * The public legal pages (issue 30 T3). Each is a Markdown file `<page>.<lang>.md`: the one in
 * LEGAL_DIR when the operator put one there, else the one shipped in `legal/`; a language without
 * a file falls back to English. `{{companyName}}`, `{{companyAddress}}` and `{{supportEmail}}` are
 * filled in from the configuration, escaped, so a value is always plain text.
 */

export const LEGAL_PAGES = ['terms', 'privacy', 'refund-policy', 'contact'] as const;
export type LegalPage = (typeof LEGAL_PAGES)[number];

const FALLBACK_LANGUAGE = 'en';

export interface Company {
  name: string;
  address: string;
  supportEmail: string;
}

export interface LegalDocument {
  page: LegalPage;
  /** The language of the text served: the one asked for, or English when it has no file. */
  language: string;
  title: string;
  html: string;
}

export interface LegalServiceDeps {
  company: Company;
  shippedDir: string;
  overrideDir: string | undefined;
}

export function isLegalPage(value: string): value is LegalPage {
  return (LEGAL_PAGES as readonly string[]).includes(value);
}

export function createLegalService(deps: LegalServiceDeps) {
  const values: Record<string, string> = {
    companyName: deps.company.name,
    companyAddress: deps.company.address,
    supportEmail: deps.company.supportEmail,
  };
  const dirs = [deps.overrideDir, deps.shippedDir].filter((dir): dir is string => dir !== undefined);
  /**
   * Rendered once per file version: the file is stat'ed on each request (a few microseconds), so
   * an operator's edit in LEGAL_DIR shows without a restart.
   */
  const rendered = new Map<string, { mtimeMs: number; title: string; html: string }>();

  /** The first file of the candidates that exists, with its language. */
  async function locate(
    page: LegalPage,
    language: string,
  ): Promise<{ path: string; mtimeMs: number; language: string }> {
    const languages = language === FALLBACK_LANGUAGE ? [language] : [language, FALLBACK_LANGUAGE];
    for (const lang of languages) {
      for (const dir of dirs) {
        const path = join(dir, `${page}.${lang}.md`);
        try {
          const info = await stat(path);
          if (info.isFile()) return { path, mtimeMs: info.mtimeMs, language: lang };
        } catch {
          // not there: the next candidate
        }
      }
    }
    throw new AppError('NOT_FOUND', `No text for the ${page} page`);
  }

  function fill(template: string): string {
    return template.replace(/\{\{\s*([A-Za-z]+)\s*\}\}/g, (whole, name: string) =>
      name in values ? escapeMarkdown(values[name]!) : whole,
    );
  }

  return {
    company: Object.freeze({ ...deps.company }),

    /** `language`: a two-letter code; anything else is read as English. */
    async render(page: LegalPage, language: string): Promise<LegalDocument> {
      const lang = /^[a-z]{2}$/.test(language) ? language : FALLBACK_LANGUAGE;
      const file = await locate(page, lang);
      let entry = rendered.get(file.path);
      if (!entry || entry.mtimeMs !== file.mtimeMs) {
        const { title, html } = renderMarkdown(fill(await readFile(file.path, 'utf8')));
        entry = { mtimeMs: file.mtimeMs, title: title ?? deps.company.name, html };
        rendered.set(file.path, entry);
      }
      return { page, language: file.language, title: entry.title, html: entry.html };
    },
  };
}

export type LegalService = ReturnType<typeof createLegalService>;
