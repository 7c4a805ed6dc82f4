import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes .br and .gz next to the JavaScript, CSS and HTML so Fastify serves them without compressing
 * per request (flags and other SVGs are compressed on the fly by @fastify/compress).
 */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    // After the files are written: earlier hooks still see placeholders other plugins replace.
    writeBundle(options, bundle) {
      const dir = options.dir!;
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html|json)$/.test(fileName)) continue;
        const path = join(dir, fileName);
        const bytes = readFileSync(path);
        if (bytes.length < 1024) continue;
        writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

/**
 * The build runs the app on Preact's compat layer instead of react-dom: issue 30 T8 allows 100 KB
 * gzip of JavaScript for `/`, and react-dom alone is 64.5 KB of it (with React, `/` loaded
 * 134.6 KB; with preact/compat about 4 KB instead, docs/web.md "Budget"). The code, its types and
 * the component tests stay React's; the dev server keeps React too (fast refresh, React's
 * development warnings). Exact matches, so react-router and @tanstack/react-query are untouched.
 */
const preactCompat = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
];

export default defineConfig(({ command }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), precompress()],
  resolve: { alias: command === 'build' ? preactCompat : [] },
  // Everything but index.html is a hashed file under /assets/ (the favicon too).
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    // Flags stay separate files (loaded lazily per card) instead of data URIs in the bundle; the
    // service worker too (a worker cannot be registered from a data: URL).
    assetsInlineLimit: (file: string) =>
      file.includes('flag-icons') || file.endsWith('/src/sw.js') ? false : undefined,
    // Libraries in one long-lived chunk (they change less often than the app).
    rolldownOptions: {
      // React Router probes React 19's `use` and `useOptimistic` and falls back without them
      // (Preact's compat layer has neither): expected, not worth a warning per build.
      onwarn(warning, warn) {
        if (warning.code === 'IMPORT_IS_UNDEFINED' && warning.message.includes('preact/compat')) return;
        warn(warning);
      },
      output: { advancedChunks: { groups: [{ name: 'vendor', test: /node_modules[\\/](?!flag-icons)/ }] } },
    },
  },
  server: { port: 3201, proxy: { '/api': 'http://127.0.0.1:3200', '/sandbox': 'http://127.0.0.1:3200' } },
}));
