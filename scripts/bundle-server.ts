/**
 * `npm run build:server`: bundles the service's entry points (src/main.ts, src/worker.ts,
 * src/reconcile.ts, and the operator command scripts/operator.ts) with the pure-JavaScript
 * packages they import into dist/bundle/*.mjs, which `npm start`, `npm run worker`,
 * `npm run reconcile` and `npm run operator` run. esbuild strips the types (the
 * sources are written for it: `isolatedModules`, `verbatimModuleSyntax`); `npm run typecheck`
 * checks them.
 *
 * Why one file: Node 20 loads about 1 200 modules to start the service (TypeBox alone ~500 files,
 * drizzle ~230, yaml ~155), each resolved, read, compiled and linked on its own, and that was
 * about half of the start-up (docs/performance.md, "Start-up"). Nothing is minified, so function
 * names in CPU profiles and logs stay readable. esbuild only strips types, so the build stays a
 * small step of `npm install` and `npm test`.
 *
 * Left outside (scripts/server-externals.ts), loaded from node_modules, so runtime dependencies:
 * - native or WebAssembly code, found next to its package: @node-rs/argon2, @electric-sql/pglite;
 * - pg-native (optional, never installed);
 * - what the service loads only when used, through createRequire or import(): the API reference
 *   page (@scalar/fastify-api-reference), stripe, ioredis, nodemailer, and the push services'
 *   google-auth-library (FCM) and web-push (esbuild follows neither call);
 * - pino: its transports start worker threads from files next to the package;
 * - pdfkit (receipts as PDF, loaded on first use with import()): it reads its font metrics and
 *   colour profiles from files next to the package. The receipt font (dejavu-fonts-ttf) is found
 *   with require.resolve from the bundle, so it too stays in node_modules.
 *
 * Paths: dist/bundle/ is two levels below the repository, as src/db/ is, so the migrations folder
 * the code finds relative to its own file (src/db/database.ts, `../../drizzle`) is the same from
 * the bundle.
 */
import { rmSync } from 'node:fs';
import { build } from 'esbuild';
import { SERVER_EXTERNALS } from './server-externals.js';

// Chunk names change with their content: nothing from an earlier build (or tsc's former output) lingers.
rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: {
    main: 'src/main.ts',
    worker: 'src/worker.ts',
    reconcile: 'src/reconcile.ts',
    operator: 'scripts/operator.ts',
  },
  tsconfig: 'tsconfig.json',
  outdir: 'dist/bundle',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: [...SERVER_EXTERNALS],
  // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
