/**
 * The layering of src/ (docs/architecture.md "Layers") and the check of an import graph against
 * it. `scripts/check-layers.ts` feeds it madge's graph of src/; test/scripts/layers.test.ts feeds
 * it fixture graphs with planted violations.
 *
 *   entry      main.ts, worker.ts, reconcile.ts, lifecycle.ts   processes: build the container, run, stop
 *   container  container.ts                                     the composition root
 *   http       http/**                                          Fastify surfaces on the container
 *   domain     domain/**                                        the rules: services, money, states
 *   providers  providers/**   | jobs  jobs/**                   vendor adapters | job queue and worker loop
 *   db         db/**                                            Drizzle schema, drivers, migrations
 *   lib        lib/**         | config  config/**               plain helpers | configuration
 *
 * The rule: a file imports files of its own layer and of layers below it, never above; layers on
 * one rank (providers | jobs, lib | config) are siblings and do not import each other. Plus:
 * - http reaches providers and the container only through what the container hands it: it may
 *   import their *types* (`import type`, e.g. the Container, a provider's SandboxView), no values;
 * - the worker process (worker.ts) runs no HTTP app, so it imports nothing from http/;
 * - the entry points do not import each other (lifecycle.ts is their shared helper);
 * - the domain imports no eSIM provider's adapter (providers/esim/<vendor>/), only the contract
 *   (providers/esim/types.ts) and the built-in sandbox that test mode runs.
 * jobs/ is queue infrastructure below the domain: the domain registers handlers into it and
 * enqueues through it; jobs/ knows no domain module.
 */

export interface Layer {
  name: string;
  rank: number;
  files: RegExp;
  /** Layers this one may import only with type-only imports, whatever their rank. */
  typeOnly?: string[];
}

export const LAYERS: Layer[] = [
  { name: 'entry', rank: 7, files: /^(main|worker|reconcile|lifecycle)\.ts$/ },
  { name: 'container', rank: 6, files: /^container(\.ts$|\/)/ },
  { name: 'http', rank: 5, files: /^http\//, typeOnly: ['container', 'providers'] },
  { name: 'domain', rank: 4, files: /^domain\// },
  { name: 'providers', rank: 3, files: /^providers\// },
  { name: 'jobs', rank: 3, files: /^jobs\// },
  { name: 'db', rank: 2, files: /^db\// },
  { name: 'lib', rank: 1, files: /^lib\// },
  { name: 'config', rank: 1, files: /^config\// },
  // The web app's message files: data the server-rendered pages read (src/http/storefront).
  { name: 'web-messages', rank: 0, files: /^\.\.\/web\/src\/i18n\/[a-z]{2}\.json$/ },
];

/** Imports forbidden whatever the ranks say. */
export const BANS: Array<{ from: RegExp; to: RegExp; why: string }> = [
  { from: /^worker\.ts$/, to: /^http\//, why: 'the worker process runs no HTTP app' },
  {
    from: /^(main|worker|reconcile)\.ts$/,
    to: /^(main|worker|reconcile)\.ts$/,
    why: 'entry points do not import each other',
  },
  {
    // The built-in sandbox is the exception: test mode runs it itself (domain/testmode).
    from: /^domain\//,
    to: /^providers\/esim\/(?!sandbox\/)[^/]+\//,
    why: 'the domain sees eSIM providers through their contract (providers/esim/types.ts), not an adapter',
  },
];

/** madge's shape: file (relative to src/) → the files it imports. */
export type Graph = Record<string, string[]>;

export interface Violation {
  from: string;
  to: string;
  why: string;
}

export function layerOf(file: string): Layer | undefined {
  return LAYERS.find((layer) => layer.files.test(file));
}

/**
 * Every import of `graph` against the layering. `isTypeOnly(from, to)` tells whether all of
 * `from`'s imports of `to` are type-only (read from the source; see typeOnlyImports).
 */
export function checkLayers(graph: Graph, isTypeOnly: (from: string, to: string) => boolean): Violation[] {
  const violations: Violation[] = [];
  for (const [from, targets] of Object.entries(graph)) {
    const source = layerOf(from);
    if (!source) {
      violations.push({
        from,
        to: '',
        why: 'file belongs to no layer: add it to LAYERS in scripts/layers.ts',
      });
      continue;
    }
    for (const to of targets) {
      const why = importRule(from, source, to, isTypeOnly);
      if (why) violations.push({ from, to, why });
    }
  }
  return violations;
}

/** Why `from` may not import `to`, or undefined when it may. */
function importRule(
  from: string,
  source: Layer,
  to: string,
  isTypeOnly: (from: string, to: string) => boolean,
): string | undefined {
  const ban = BANS.find((b) => b.from.test(from) && b.to.test(to));
  if (ban) return ban.why;
  const target = layerOf(to);
  if (!target) return `${to} belongs to no layer`;
  if (source.typeOnly?.includes(target.name)) {
    return isTypeOnly(from, to) ? undefined : `${source.name} may import only types from ${target.name}`;
  }
  if (target.name === source.name || target.rank < source.rank) return undefined;
  return target.rank === source.rank
    ? `${source.name} and ${target.name} are siblings and do not import each other`
    : `${source.name} may not import ${target.name}, a layer above it`;
}

const IMPORT_STATEMENT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'";()]*?)\s*from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/**
 * The relative module specifiers of `source` (as written, e.g. '../db/client.js'), each with
 * whether every import of it is type-only: `import type …`, `export type …`, or named imports
 * that are all `type X`. A dynamic import() is a value import.
 */
export function typeOnlyImports(source: string): Map<string, boolean> {
  const result = new Map<string, boolean>();
  for (const match of source.matchAll(IMPORT_STATEMENT)) {
    const specifier = match[4] ?? match[5]!;
    if (!specifier.startsWith('.')) continue;
    const clause = (match[3] ?? '').trim();
    const typeOnly =
      match[5] === undefined &&
      (match[2] !== undefined || /^\{\s*(?:type\s+[\w$]+(?:\s+as\s+[\w$]+)?\s*,?\s*)+\}$/.test(clause));
    result.set(specifier, (result.get(specifier) ?? true) && typeOnly);
  }
  return result;
}
