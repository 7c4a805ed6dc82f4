import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * H20: every number a client can send (path, query and header parameters, request bodies) has
 * both a lower and an upper bound, on every surface. Walks the generated OpenAPI documents
 * (openapi/*.json, kept current by `npm run openapi:check`), following $refs into components.
 */
type Schema = Record<string, unknown>;
type Doc = {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema>; parameters?: Record<string, Schema> };
};
type Operation = {
  parameters?: Schema[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace']);
const SURFACES = ['mobile', 'partner', 'admin'] as const;

function load(surface: string): Doc {
  return JSON.parse(
    readFileSync(new URL(`../../../openapi/${surface}.json`, import.meta.url), 'utf8'),
  ) as Doc;
}

function resolve(doc: Doc, node: Schema): Schema {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const [, , kind, name] = ref.split('/'); // #/components/<kind>/<name>
  const target = (doc.components as Record<string, Record<string, Schema>> | undefined)?.[kind!]?.[name!];
  if (!target) throw new Error(`unresolved ${ref}`);
  return resolve(doc, target);
}

function isNumeric(schema: Schema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('number') || types.includes('integer');
}

const bounded = (schema: Schema, low: string, high: string) =>
  (typeof schema[low] === 'number' ||
    typeof schema[`exclusive${low[0]!.toUpperCase()}${low.slice(1)}`] === 'number') &&
  (typeof schema[high] === 'number' ||
    typeof schema[`exclusive${high[0]!.toUpperCase()}${high.slice(1)}`] === 'number');

/** Every numeric schema under `node`, with where it sits; unbounded ones go to `into`. */
function walk(doc: Doc, node: unknown, where: string, into: string[], seen = new Set<Schema>()): void {
  if (!node || typeof node !== 'object') return;
  const schema = resolve(doc, node as Schema);
  if (seen.has(schema)) return;
  seen.add(schema);
  if (isNumeric(schema) && !bounded(schema, 'minimum', 'maximum')) into.push(where);
  const properties = schema.properties as Record<string, unknown> | undefined;
  for (const [name, child] of Object.entries(properties ?? {}))
    walk(doc, child, `${where}.${name}`, into, seen);
  for (const key of ['items', 'additionalProperties', 'not', 'contains'] as const)
    walk(doc, schema[key], `${where}[${key}]`, into, seen);
  for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const) {
    const list = schema[key];
    if (Array.isArray(list))
      list.forEach((child, i) => walk(doc, child, `${where}.${key}[${i}]`, into, seen));
  }
}

function unboundedRequestNumbers(doc: Doc): string[] {
  const found: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const operation = op as Operation;
      const at = `${method.toUpperCase()} ${path}`;
      for (const raw of operation.parameters ?? []) {
        const parameter = resolve(doc, raw);
        walk(doc, parameter.schema, `${at} ${String(parameter.in)} ${String(parameter.name)}`, found);
      }
      for (const [media, content] of Object.entries(operation.requestBody?.content ?? {}))
        walk(doc, content.schema, `${at} body (${media})`, found);
    }
  }
  return found;
}

describe('numeric request fields are bounded on every surface (H20)', () => {
  it.each(SURFACES)('%s: every number a client sends has a minimum and a maximum', (surface) => {
    expect(unboundedRequestNumbers(load(surface))).toEqual([]);
  });

  it('the walk sees numbers in parameters and bodies (it would notice a missing bound)', () => {
    const doc: Doc = {
      paths: {
        '/x/{n}': {
          post: {
            parameters: [{ in: 'path', name: 'n', schema: { type: 'integer', minimum: 0 } }],
            requestBody: {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Body' } } },
            },
          },
        },
      },
      components: {
        schemas: {
          Body: {
            type: 'object',
            properties: {
              ok: { type: 'number', minimum: 0, exclusiveMaximum: 10 },
              list: {
                type: 'array',
                items: { anyOf: [{ type: 'integer', maximum: 3 }, { type: 'string' }] },
              },
            },
          },
        },
      },
    };
    expect(unboundedRequestNumbers(doc)).toEqual([
      'POST /x/{n} path n',
      'POST /x/{n} body (application/json).list[items].anyOf[0]',
    ]);
  });
});
