import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/index.js';
import { CLIENT_PATHS, indexable } from '../lib/client-paths.js';
import type { NotFoundPage } from './shared/errors.js';
import { readFlagUrls, registerStorefront } from './storefront/pages.js';
import { webAppPolicy, withPageHeaders } from './shared/web-security.js';

/**
 * The web app's client routes (src/lib/client-paths.ts, the list the router is built from). Each
 * answers index.html on a direct load or reload with 200; any other page path a browser asks for
 * gets index.html with 404 (the app then shows its not-found page), see `webNotFoundPage`.
 */
export const CLIENT_ROUTES: readonly string[] = CLIENT_PATHS.map((p) => p.path);

/** Account pages and capability links (src/lib/client-paths.ts, `indexable`). */
export const NOINDEX = 'noindex, nofollow';

/** Hashed file names change with their content, so browsers may keep them for a year. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** The HTML names the current assets: always revalidate. */
export const HTML_CACHE_CONTROL = 'no-cache';

/**
 * First path segments that belong to the server, not to the web app: a miss under them is the
 * API's JSON 404 whatever the client accepts (a missing script is not a page either).
 */
const SERVER_SEGMENTS = new Set([
  'api',
  'assets',
  'webhooks',
  'sandbox',
  'docs',
  'metrics',
  'health',
  'ready',
]);

/** The built web app (vite build → web/dist): its folder and its index.html. */
export interface WebBuild {
  root: string;
  html: Buffer;
}

/** Rendered on the server from the catalog (src/http/storefront), not the bare index.html. */
const SERVER_RENDERED = new Set(['/', '/destinations/:code']);

/** The build in `dir`, or null when it has none (then only the API is served). */
export async function readWebBuild(dir: string): Promise<WebBuild | null> {
  const root = resolve(dir);
  const indexFile = join(root, 'index.html');
  if (!existsSync(indexFile)) return null;
  return { root, html: await readFile(indexFile) };
}

/**
 * Whether the client would rather have HTML than JSON: text/html (or XHTML) named with a weight
 * above zero and not below application/json's. A browser's navigation names it; `*∕*` alone
 * (curl, fetch, the generated clients) does not, so those keep the JSON 404.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  let html = 0;
  let json = 0;
  for (const part of accept.toLowerCase().split(',')) {
    const [type = '', ...params] = part.split(';').map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (!Number.isFinite(weight)) continue;
    if (type === 'text/html' || type === 'application/xhtml+xml') html = Math.max(html, weight);
    else if (type === 'application/json') json = Math.max(json, weight);
  }
  return html > 0 && html >= json;
}

function sendIndex(reply: FastifyReply, build: WebBuild, policy: string): FastifyReply {
  return withPageHeaders(reply, policy)
    .header('cache-control', HTML_CACHE_CONTROL)
    .type('text/html; charset=utf-8')
    .send(build.html);
}

/**
 * The root not-found answer for browsers (issue 30 T7): a GET of an unknown page path (/xyz,
 * /orders/abc) that accepts HTML gets index.html with status 404, and the app's router renders its
 * not-found page. Returns false for everything else, which keeps the JSON 404.
 */
export function webNotFoundPage(build: WebBuild, config: Readonly<Config>): NotFoundPage {
  const policy = webAppPolicy(config);
  return (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const segment = request.url.split('?')[0]!.split('/')[1] ?? '';
    if (SERVER_SEGMENTS.has(segment.toLowerCase())) return false;
    if (!prefersHtml(request.headers.accept)) return false;
    return sendIndex(reply.code(404), build, policy);
  };
}

/**
 * Serves the build: /assets/* with precompressed .br/.gz variants and immutable caching,
 * index.html for the client routes.
 */
export async function registerWebApp(app: FastifyInstance, build: WebBuild): Promise<void> {
  await app.register(fastifyStatic, {
    root: join(build.root, 'assets'),
    prefix: '/assets/',
    preCompressed: true,
    index: false,
    cacheControl: false,
    etag: true,
    lastModified: false,
    setHeaders: (reply) => void reply.header('cache-control', ASSET_CACHE_CONTROL),
  });

  const policy = webAppPolicy(app.container.config);
  registerStorefront(app, {
    template: build.html.toString('utf8'),
    flags: readFlagUrls(build.root),
    baseUrl: app.container.config.publicBaseUrl,
    send: (reply, status, html) =>
      withPageHeaders(reply.code(status), policy)
        .header('cache-control', HTML_CACHE_CONTROL)
        .type('text/html; charset=utf-8')
        .send(html),
    notFound: (reply) => sendIndex(reply.code(404), build, policy),
  });
  for (const page of CLIENT_PATHS) {
    if (SERVER_RENDERED.has(page.path)) continue;
    const robots = indexable(page) ? undefined : NOINDEX;
    app.get(page.path, { schema: { hide: true } }, async (_request, reply) =>
      sendIndex(robots ? reply.header('x-robots-tag', robots) : reply, build, policy),
    );
  }
}
