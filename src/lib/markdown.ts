import { Marked, type Token } from 'marked';

/**
 * Markdown → HTML for texts the operator supplies (the legal pages, LEGAL_DIR), rendered on the
 * server so that the web app and native apps show the same HTML without a Markdown library of
 * their own. The HTML goes into a page as is, so it must not be able to run script, whoever wrote
 * the file: raw HTML in the Markdown is shown as text (not passed through), and links and images
 * keep only web, mail and telephone URLs and paths on this site; any other URL (`javascript:`,
 * `data:`, …) is dropped and its text kept.
 */

const SAFE_URL = /^(?:https?:|mailto:|tel:|\/(?!\/)|#)/i;

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * `value` as literal Markdown text: every ASCII punctuation character backslash-escaped
 * (CommonMark allows that for each of them, in text and in link destinations alike), so a value
 * filled into a template can neither format nor link anything.
 */
export function escapeMarkdown(value: string): string {
  return value.replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/** Text of inline tokens without markup (for a title). */
function plainText(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((token) =>
      'tokens' in token && Array.isArray(token.tokens)
        ? plainText(token.tokens)
        : 'text' in token
          ? String(token.text)
          : '',
    )
    .join('');
}

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
    // `false` hands a safe link or image back to marked's own renderer.
    link({ href, tokens }) {
      return SAFE_URL.test(href) ? false : this.parser.parseInline(tokens);
    },
    image({ href, text }) {
      return SAFE_URL.test(href) ? false : escapeHtml(text);
    },
  },
});

export interface RenderedMarkdown {
  /** The text of the first level-1 heading, without markup; undefined when there is none. */
  title: string | undefined;
  html: string;
}

export function renderMarkdown(source: string): RenderedMarkdown {
  const tokens = marked.lexer(source);
  const heading = tokens.find((token) => token.type === 'heading' && token.depth === 1);
  const title = heading && 'tokens' in heading ? plainText(heading.tokens) : undefined;
  return { title, html: marked.parser(tokens) };
}
