import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CatalogService, CatalogSnapshot } from '../../domain/catalog/catalog.service.js';

interface Entry {
  body: Buffer;
  etag: string;
  /** Compressed once on first use: @fastify/compress would gzip the same bytes on every request. */
  gzip?: Buffer;
}

/** Same threshold as the global compress plugin: tiny bodies are not worth compressing. */
const GZIP_MIN_BYTES = 1024;

function acceptsGzip(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  return value.split(',').some((part) => {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    return coding.trim() === 'gzip' && (q === undefined || Number(q) > 0);
  });
}

/** Search text is user input: the cache holds at most this many variants (least recently used go). */
export const MAX_CACHED_VARIANTS = 1000;

/**
 * Serialized catalog responses, one per variant, valid for one catalog version. The version is
 * the one the catalog service learns from change notifications (no database read per request);
 * a plan or rate change on any instance bumps it, so every instance rebuilds within a second
 * instead of serving a stale price.
 */
export function createCatalogResponseCache(catalog: CatalogService, maxEntries = MAX_CACHED_VARIANTS) {
  let version = -1;
  const entries = new Map<string, Entry>();

  /** Serializes through the route's response schema, so the cached bytes are the allow-listed ones. */
  async function buildEntry(
    reply: FastifyReply,
    atVersion: number,
    build: (snapshot: CatalogSnapshot) => unknown,
    notFound: () => Error,
  ): Promise<Entry> {
    const view = build(await catalog.snapshot(atVersion));
    if (view === null) throw notFound();
    // Kept as bytes: re-encoding a ~190 KB UTF-8 string on every request was a third of its cost.
    const body = Buffer.from(reply.serialize(view) as string);
    const hash = createHash('sha1').update(body).digest('base64url').slice(0, 22);
    return { body, etag: `W/"${atVersion}-${hash}"` };
  }

  return {
    get size() {
      return entries.size;
    },

    /**
     * Sends the variant `key` built by `build` (null → `notFound()` is thrown), with an ETag and
     * 304 when the client's If-None-Match already names it.
     */
    async send(
      request: FastifyRequest,
      reply: FastifyReply,
      key: string,
      build: (snapshot: CatalogSnapshot) => unknown,
      notFound: () => Error,
    ): Promise<FastifyReply> {
      // Known from change notifications: no database read once this instance has started.
      const known = catalog.version();
      const current = typeof known === 'number' ? known : await known;
      if (current !== version) {
        entries.clear();
        version = current;
      }
      const entry = entries.get(key) ?? (await buildEntry(reply, current, build, notFound));
      // Re-inserting moves the key to the end: Map order is the LRU order.
      entries.delete(key);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      if (version === current) entries.set(key, entry);
      // Clients may keep a copy but must revalidate: a 304 costs no body and no database read.
      reply.header('etag', entry.etag).header('cache-control', 'no-cache');
      if (etagMatches(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
      reply.type('application/json; charset=utf-8');
      // Sent as is unless gzip is accepted (the compress plugin may still apply another coding).
      if (entry.body.length < GZIP_MIN_BYTES || !acceptsGzip(request.headers['accept-encoding'])) {
        return reply.send(entry.body);
      }
      entry.gzip ??= gzipSync(entry.body);
      return reply
        .header('content-encoding', 'gzip')
        .header('vary', varyWithEncoding(reply))
        .send(entry.gzip);
    },
  };
}

export type CatalogResponseCache = ReturnType<typeof createCatalogResponseCache>;

function varyWithEncoding(reply: FastifyReply): string {
  const current = reply.getHeader('vary');
  return current ? `${String(current)}, Accept-Encoding` : 'Accept-Encoding';
}

/** Weak comparison (RFC 9110 §13.1.2): compression may change the bytes, not the meaning. */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}
