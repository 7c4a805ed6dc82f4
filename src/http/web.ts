import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { CLIENT_PATHS } from '../lib/client-paths.js';
import { webAppPolicy, withPageHeaders } from './shared/web-security.js';

/**
 * The web app's client routes (src/lib/client-paths.ts, the list the router is built from). Each
 * answers index.html on a direct load or reload; no other path falls back to the app, so an
 * unknown /api path keeps its JSON 404.
 */
export const CLIENT_ROUTES: readonly string[] = CLIENT_PATHS.map((p) => p.path);

/** Hashed file names change with their content, so browsers may keep them for a year. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** The HTML names the current assets: always revalidate. */
export const HTML_CACHE_CONTROL = 'no-cache';

/**
 * Serves the built web app from `dir` (vite build → web/dist): /assets/* with precompressed
 * .br/.gz variants and immutable caching, index.html for the client routes. Returns false (and
 * serves nothing) when the build is missing.
 */
export async function registerWebApp(app: FastifyInstance, dir: string): Promise<boolean> {
  const root = resolve(dir);
  const indexFile = join(root, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ dir: root }, 'web app not built (npm run build:web): serving the API only');
    return false;
  }
  const html = await readFile(indexFile);

  await app.register(fastifyStatic, {
    root: join(root, 'assets'),
    prefix: '/assets/',
    preCompressed: true,
    index: false,
    cacheControl: false,
    etag: true,
    lastModified: false,
    setHeaders: (reply) => void reply.header('cache-control', ASSET_CACHE_CONTROL),
  });

  const policy = webAppPolicy(app.container.config);
  for (const url of CLIENT_ROUTES) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) =>
      withPageHeaders(reply, policy)
        .header('cache-control', HTML_CACHE_CONTROL)
        .type('text/html; charset=utf-8')
        .send(html),
    );
  }
  return true;
}
