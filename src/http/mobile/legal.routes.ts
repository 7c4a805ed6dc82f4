import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { isLegalPage, LEGAL_PAGES } from '../../domain/legal/legal.service.js';
import { negotiateLanguage } from '../../lib/languages.js';
import { mobileErrors } from '../shared/schemas.js';

/** Public texts change only with a deploy or an edit in LEGAL_DIR: a few minutes of caching is harmless. */
const LEGAL_CACHE_CONTROL = 'public, max-age=300';

const CompanySchema = Type.Object(
  {
    name: Type.String({ description: 'COMPANY_NAME: the seller, as the footer and the legal pages name it' }),
    address: Type.String({ description: 'COMPANY_ADDRESS' }),
    supportEmail: Type.String({ description: 'SUPPORT_EMAIL' }),
  },
  { title: 'Company' },
);

const PageSchema = Type.Union(
  LEGAL_PAGES.map((page) => Type.Literal(page)),
  { description: 'terms, privacy, refund-policy or contact' },
);

const LegalDocumentSchema = Type.Object(
  {
    page: PageSchema,
    language: Type.String({
      description: 'The language of the text: the one asked for, or `en` when there is no text in it',
    }),
    title: Type.String({ description: 'The text of its first heading, for the page title' }),
    html: Type.String({
      description:
        'The page rendered from Markdown on the server, ready to insert: raw HTML in the source is shown as text and links keep only http(s), mailto, tel and same-site paths',
    }),
  },
  { title: 'LegalDocument' },
);

/**
 * The UI language Accept-Language prefers; else its first language (an operator may have put a
 * text in another language in LEGAL_DIR), else English.
 */
function headerLanguage(header: string | undefined): string {
  const supported = negotiateLanguage(header, undefined);
  if (supported) return supported;
  const first = header?.split(',')[0]?.trim().slice(0, 2).toLowerCase();
  return first && /^[a-z]{2}$/.test(first) ? first : 'en';
}

/** `/legal`: the public legal pages and who the seller is (issue 30 T3); no session needed. */
export async function legalRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { legal } = app.container;

  r.get(
    '/legal',
    {
      config: { auth: 'none' },
      schema: {
        operationId: 'getCompany',
        tags: ['Legal'],
        summary: 'Seller and legal pages',
        description:
          'The company the service sells as (COMPANY_NAME, COMPANY_ADDRESS, SUPPORT_EMAIL), for a footer or an imprint, and the legal pages there are.',
        response: {
          200: Type.Object({ company: CompanySchema, pages: Type.Array(PageSchema) }),
          ...mobileErrors(),
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', LEGAL_CACHE_CONTROL);
      return { company: legal.company, pages: [...LEGAL_PAGES] };
    },
  );

  r.get(
    '/legal/:page',
    {
      config: { auth: 'none' },
      schema: {
        operationId: 'getLegalPage',
        tags: ['Legal'],
        summary: 'A legal page',
        description:
          'Terms of service, privacy policy, refund policy or contact page, as HTML rendered from the Markdown template (the operator’s file in LEGAL_DIR, else the shipped one), with the company’s name, address and support address filled in. `lang` (else the language Accept-Language prefers among en, tr, de, fr and es, else its first one) picks the text; a language without one gets English. An unknown page answers 404 NOT_FOUND.',
        params: Type.Object({ page: Type.String({ maxLength: 50 }) }),
        querystring: Type.Object({
          lang: Type.Optional(
            Type.String({ pattern: '^[a-z]{2}$', description: 'Two-letter language code' }),
          ),
        }),
        response: { 200: LegalDocumentSchema, ...mobileErrors(404) },
      },
    },
    async (request, reply) => {
      const { page } = request.params;
      if (!isLegalPage(page)) throw new AppError('NOT_FOUND', 'Unknown legal page');
      const language = request.query.lang ?? headerLanguage(request.headers['accept-language']);
      const document = await legal.render(page, language);
      reply.header('cache-control', LEGAL_CACHE_CONTROL).header('vary', 'Accept-Language');
      return document;
    },
  );
}
