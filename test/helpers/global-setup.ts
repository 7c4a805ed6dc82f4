import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.js';
import { wrapPglite } from '../../src/db/pglite.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite run: a tarball of a migrated data directory every test database starts from. */
    pgliteTemplatePath?: string;
    /** PostgreSQL run: a migrated database every test database is created from (`TEMPLATE`). */
    postgresTemplateDatabase?: string;
  }
}

/**
 * Runs the real migrations once per `vitest run` and hands the workers a template, so a test
 * database costs a copy instead of an initdb plus every migration (see test/helpers/database.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const tlsDir = project.config.env.TEST_TLS_DIR;
  if (tlsDir) writeTestCertificate(tlsDir);
  const cleanup = await setupDatabase(project);
  return async () => {
    await cleanup();
    if (tlsDir) rmSync(tlsDir, { recursive: true, force: true });
  };
}

/**
 * A self-signed certificate for localhost and 127.0.0.1 (cert.pem, key.pem) the push service
 * fakes serve with and the workers trust (NODE_EXTRA_CA_CERTS, see vitest.config.ts).
 */
function writeTestCertificate(dir: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
}

async function setupDatabase(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `esim_test_template_${randomBytes(6).toString('hex')}`;
    await adminQuery(url, `create database ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    const database = await openDatabase({ url: target.toString(), dataDir: '' });
    await database.migrate();
    await database.close();
    project.provide('postgresTemplateDatabase', name);
    return () => adminQuery(url, `drop database if exists ${name} with (force)`);
  }
  const database = wrapPglite(new PGlite());
  await database.migrate();
  const tarball = await database.client.dumpDataDir('none');
  await database.close();
  const dir = mkdtempSync(join(tmpdir(), 'esim-test-template-'));
  const path = join(dir, 'migrated.tar');
  writeFileSync(path, Buffer.from(await tarball.arrayBuffer()));
  project.provide('pgliteTemplatePath', path);
  return async () => rmSync(dir, { recursive: true, force: true });
}

async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
