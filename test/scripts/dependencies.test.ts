import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPTIONAL_EXTERNALS, SERVER_EXTERNALS } from '../../scripts/server-externals.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/**
 * Bare package names a source file imports: static, dynamic and createRequire()(…) forms, and
 * files it resolves in a package (`require.resolve('pkg/file')`: the receipt font).
 */
function importedPackages(source: string): Set<string> {
  const found = new Set<string>();
  const specifier =
    /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire(?:\.resolve)?\s*\(\s*|createRequire\([^)]*\)\(\s*)['"]([^'"]+)['"]/g;
  for (const match of source.matchAll(specifier)) {
    const name = match[1]!;
    if (name.startsWith('.') || name.startsWith('/') || name.startsWith('node:')) continue;
    const parts = name.split('/');
    const pkg = name.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
    if (builtinModules.includes(pkg)) continue;
    found.add(pkg);
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

function runtimePackages(): Set<string> {
  const all = new Set<string>();
  for (const file of sourceFiles(join(ROOT, 'src'))) {
    for (const pkg of importedPackages(readFileSync(file, 'utf8'))) all.add(pkg);
  }
  return all;
}

describe('package.json: what npm start needs is a dependency, the rest a dev dependency', () => {
  it('reads the package names of every import form', () => {
    const source = [
      "import Fastify from 'fastify';",
      "import type { Stripe } from 'stripe';",
      "import { sql } from 'drizzle-orm/sql';",
      "import { Type } from '@sinclair/typebox/type';",
      "import 'side-effect';",
      "const lazy = await import('@scalar/fastify-api-reference');",
      "const redis = createRequire(import.meta.url)('ioredis');",
      "const font = require.resolve('some-font/ttf/Sans.ttf');",
      "import { join } from 'node:path';",
      "import { readFileSync } from 'fs';",
      "import { local } from './local.js';",
    ].join('\n');
    expect([...importedPackages(source)].sort()).toEqual(
      [
        '@scalar/fastify-api-reference',
        '@sinclair/typebox',
        'drizzle-orm',
        'fastify',
        'ioredis',
        'side-effect',
        'some-font',
        'stripe',
      ].sort(),
    );
  });

  it('lists every package src/ imports in dependencies, and nothing else there', () => {
    const used = [...runtimePackages()].sort();
    expect(used.filter((pkg) => !(pkg in manifest.dependencies))).toEqual([]);
    // Packages only the web build, the scripts, the bench or the tests use (tsx, React, vite, …)
    // are dev dependencies: `npm prune --omit=dev` after the build must not need them.
    expect(Object.keys(manifest.dependencies).filter((pkg) => !used.includes(pkg))).toEqual([]);
  });

  it('lists every package the server bundle leaves outside in dependencies', () => {
    const installed = SERVER_EXTERNALS.filter((pkg) => !OPTIONAL_EXTERNALS.includes(pkg));
    expect(installed.filter((pkg) => !(pkg in manifest.dependencies))).toEqual([]);
  });

  it('pins exact versions', () => {
    const ranges = Object.entries({ ...manifest.dependencies, ...manifest.devDependencies }).filter(
      ([, version]) => !/^\d+\.\d+\.\d+$/.test(version),
    );
    expect(ranges).toEqual([]);
  });
});
