import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHIPPED_LEGAL_DIR } from '../../../src/config/legal.js';
import { LEGAL_PAGES } from '../../../src/domain/legal/legal.service.js';
import { UI_LANGUAGES } from '../../../src/lib/languages.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';

/** Issue 30 T3: the legal pages, from the shipped templates or LEGAL_DIR, with the company filled in. */
const COMPANY = {
  COMPANY_NAME: 'Roam Travel Data Ltd',
  COMPANY_ADDRESS: '12 Harbour Street, Kadıköy, 34710 İstanbul',
  SUPPORT_EMAIL: 'help@roam.example',
};

describe('legal pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: COMPANY });
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

  it('ships every page in every language of the web app', () => {
    const files = readdirSync(SHIPPED_LEGAL_DIR).sort();
    expect(files).toEqual(LEGAL_PAGES.flatMap((page) => UI_LANGUAGES.map((l) => `${page}.${l}.md`)).sort());
  });

  it('renders each page without a session, with the company filled in', async () => {
    for (const page of LEGAL_PAGES) {
      for (const lang of UI_LANGUAGES) {
        const res = await get(`/api/v1/legal/${page}?lang=${lang}`);
        expect(res.statusCode, `${page} ${lang}`).toBe(200);
        const body = res.json();
        expect(body).toMatchObject({ page, language: lang });
        expect(body.title.length).toBeGreaterThan(3);
        expect(body.html).toMatch(/^<h1>/);
        expect(body.html, `${page}.${lang}.md leaves a placeholder`).not.toMatch(/\{\{/);
        expect(body.html).toContain('href="mailto:help@roam.example"');
        expect(res.headers['cache-control']).toBe('public, max-age=300');
      }
    }
    const terms = (await get('/api/v1/legal/terms?lang=en')).json();
    expect(terms.title).toBe('Terms of service');
    expect(terms.html).toContain('Roam Travel Data Ltd');
    expect(terms.html).toContain('12 Harbour Street, Kadıköy, 34710 İstanbul');
    expect(terms.html).toContain('<a href="/refund-policy">');
    expect((await get('/api/v1/legal/terms?lang=tr')).json().title).toBe('Kullanım koşulları');
  });

  it('answers in German, French and Spanish, links and company included', async () => {
    const titles = {
      de: 'Erstattungsrichtlinie',
      fr: 'Politique de remboursement',
      es: 'Política de reembolso',
    };
    for (const [lang, title] of Object.entries(titles)) {
      const body = (await get(`/api/v1/legal/refund-policy?lang=${lang}`)).json();
      expect(body).toMatchObject({ page: 'refund-policy', language: lang, title });
      expect(body.html).toContain('<table>');
      expect(body.html).toContain('<a href="/terms">');
      expect(body.html).toContain('Roam Travel Data Ltd · 12 Harbour Street');
    }
    const terms = (await get('/api/v1/legal/terms', { 'accept-language': 'fr-CH, de;q=0.8' })).json();
    expect(terms).toMatchObject({ language: 'fr', title: 'Conditions d’utilisation' });
  });

  it('picks the language from lang, else Accept-Language, and falls back to English', async () => {
    expect(
      (await get('/api/v1/legal/privacy', { 'accept-language': 'tr-TR,tr;q=0.9' })).json(),
    ).toMatchObject({ language: 'tr', title: 'Gizlilik politikası' });
    expect((await get('/api/v1/legal/privacy')).json()).toMatchObject({ language: 'en' });
    expect((await get('/api/v1/legal/privacy?lang=it')).json()).toMatchObject({
      language: 'en',
      title: 'Privacy policy',
    });
    expect((await get('/api/v1/legal/privacy', { 'accept-language': 'de-DE' })).json()).toMatchObject({
      language: 'de',
      title: 'Datenschutzerklärung',
    });
    // A language we have no text for, listed first, does not hide one we have.
    expect(
      (await get('/api/v1/legal/privacy', { 'accept-language': 'it-IT, es;q=0.7' })).json().language,
    ).toBe('es');
    expect((await get('/api/v1/legal/privacy', { 'accept-language': 'it-IT' })).json().language).toBe('en');
    expect((await get('/api/v1/legal/privacy?lang=../x')).statusCode).toBe(400);
  });

  it('answers 404 in the Mobile error shape for an unknown page', async () => {
    for (const page of ['imprint', '..', 'terms.en.md', 'TERMS']) {
      const res = await get(`/api/v1/legal/${encodeURIComponent(page)}`, { 'accept-language': 'en' });
      expect(res.statusCode, page).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('tells the company and the pages', async () => {
    const res = await get('/api/v1/legal');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      company: {
        name: 'Roam Travel Data Ltd',
        address: '12 Harbour Street, Kadıköy, 34710 İstanbul',
        supportEmail: 'help@roam.example',
      },
      pages: ['terms', 'privacy', 'refund-policy', 'contact'],
    });
  });
});

describe('LEGAL_DIR', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'legal-'));
    writeFileSync(
      join(dir, 'terms.en.md'),
      [
        '# Our own terms',
        '',
        'Sold by {{companyName}}, {{ companyAddress }}; write to <{{supportEmail}}> or [us](mailto:{{supportEmail}}).',
        '',
        '<script>alert("x")</script>',
        '',
        'Inline <img src=x onerror=alert(1)> and [a trap](javascript:alert(1)) and ![pic](data:image/png;base64,AA).',
        '',
        '{{unknownPlaceholder}} stays as written.',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'refund-policy.tr.md'), '# İade\n\nBizim metnimiz.\n');
    t = await buildTestApp({
      env: {
        LEGAL_DIR: dir,
        // Values with Markdown and HTML in them stay plain text.
        COMPANY_NAME: '*Roam* & <Sons>',
        COMPANY_ADDRESS: '[Main St](javascript:alert(1)) #1',
        SUPPORT_EMAIL: 'help_desk+eu@roam.example',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('replaces the shipped file of the same name, and only that one', async () => {
    const terms = (await t.app.inject({ url: '/api/v1/legal/terms?lang=en' })).json();
    expect(terms.title).toBe('Our own terms');
    // Other pages and languages keep the shipped text.
    expect((await t.app.inject({ url: '/api/v1/legal/terms?lang=tr' })).json().title).toBe(
      'Kullanım koşulları',
    );
    expect((await t.app.inject({ url: '/api/v1/legal/privacy?lang=en' })).json().title).toBe(
      'Privacy policy',
    );
    expect((await t.app.inject({ url: '/api/v1/legal/refund-policy?lang=tr' })).json()).toMatchObject({
      language: 'tr',
      title: 'İade',
      html: '<h1>İade</h1>\n<p>Bizim metnimiz.</p>\n',
    });
  });

  it('fills the placeholders as plain text and renders no raw HTML or unsafe URL', async () => {
    const { html } = (await t.app.inject({ url: '/api/v1/legal/terms?lang=en' })).json();
    expect(html).toContain('Sold by *Roam* &amp; &lt;Sons&gt;, [Main St](javascript:alert(1)) #1;');
    expect(html).toContain('<a href="mailto:help_desk+eu@roam.example">us</a>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('Inline &lt;img src=x onerror=alert(1)&gt; and a trap and pic.');
    expect(html).toContain('{{unknownPlaceholder}} stays as written.');
    expect(html).not.toMatch(/<script|<img|javascript:alert\(1\)"|href="javascript|src="data/);
  });

  it('shows an edit of the file without a restart', async () => {
    const file = join(dir, 'contact.en.md');
    writeFileSync(file, '# First\n');
    expect((await t.app.inject({ url: '/api/v1/legal/contact?lang=en' })).json().title).toBe('First');
    writeFileSync(file, '# Second\n');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect((await t.app.inject({ url: '/api/v1/legal/contact?lang=en' })).json().title).toBe('Second');
  });

  it('must be an existing directory', async () => {
    await expect(buildTestApp({ env: { LEGAL_DIR: join(dir, 'missing') } })).rejects.toThrow(
      /^LEGAL_DIR must be an existing directory/,
    );
  });
});
