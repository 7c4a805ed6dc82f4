/**
 * `npm run check:layers` (CI, after lint): no import cycles in src/ and no import against the
 * layering of scripts/layers.ts (docs/architecture.md "Layers"). Exit 1 with one line per problem.
 *
 *   tsx scripts/check-layers.ts            # src/
 *   tsx scripts/check-layers.ts <dir>      # another tree laid out like src/ (test fixtures)
 */
import { readFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { checkLayers, typeOnlyImports } from './layers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = resolve(process.argv[2] ?? join(root, 'src'));

const tree = await madge(dir, {
  fileExtensions: ['ts'],
  tsConfig: join(root, 'tsconfig.json'),
  // Type-only imports are dependencies too: a layer may not even name a type from above it.
  detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
});
const graph = tree.obj();
const problems: string[] = [];

for (const cycle of tree.circular()) problems.push(`cycle: ${[...cycle, cycle[0]].join(' > ')}`);
for (const skipped of tree.warnings().skipped) problems.push(`unresolved import: ${skipped}`);

const typeOnlyCache = new Map<string, Map<string, boolean>>();
function isTypeOnly(from: string, to: string): boolean {
  let imports = typeOnlyCache.get(from);
  if (!imports) {
    imports = new Map();
    for (const [specifier, typeOnly] of typeOnlyImports(readFileSync(join(dir, from), 'utf8'))) {
      const target = posix.normalize(posix.join(posix.dirname(from), specifier)).replace(/\.js$/, '.ts');
      imports.set(target, (imports.get(target) ?? true) && typeOnly);
    }
    typeOnlyCache.set(from, imports);
  }
  return imports.get(to) ?? false;
}

for (const v of checkLayers(graph, isTypeOnly)) problems.push(`layer: ${v.from} -> ${v.to}: ${v.why}`);

const files = Object.keys(graph).length;
if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.stderr.write(`check:layers FAILED: ${problems.length} problem(s) in ${files} files\n`);
  process.exit(1);
}
process.stdout.write(`check:layers OK: ${files} files, no cycles, no import against the layers\n`);
