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

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), precompress()],
  // Everything but index.html is a hashed file under /assets/ (the favicon too).
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    // Flags stay separate files (loaded lazily per card) instead of data URIs in the bundle.
    assetsInlineLimit: (file: string) => (file.includes('flag-icons') ? false : undefined),
    // Libraries in one long-lived chunk (they change less often than the app).
    rolldownOptions: {
      output: { advancedChunks: { groups: [{ name: 'vendor', test: /node_modules[\\/](?!flag-icons)/ }] } },
    },
  },
  server: { port: 3201, proxy: { '/api': 'http://127.0.0.1:3200', '/sandbox': 'http://127.0.0.1:3200' } },
});
