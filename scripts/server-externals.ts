/**
 * The packages `npm run build:server` leaves outside the bundle (scripts/bundle-server.ts says
 * why each one). `npm start` loads them from node_modules, so each one that is installed at all
 * is a runtime dependency in package.json; test/scripts/dependencies.test.ts checks that.
 */
export const SERVER_EXTERNALS: readonly string[] = [
  '@node-rs/argon2',
  '@electric-sql/pglite',
  'pg-native',
  '@scalar/fastify-api-reference',
  'stripe',
  'ioredis',
  'nodemailer',
  'google-auth-library',
  'web-push',
  'pino',
  'pdfkit',
];

/** Externals that are optional and never installed: a require of them is expected to fail. */
export const OPTIONAL_EXTERNALS: readonly string[] = ['pg-native'];
