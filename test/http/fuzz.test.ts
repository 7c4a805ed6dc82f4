import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../helpers/app.js';
import { pickPlan } from '../helpers/catalog.js';
import { createUser, type TestUser } from '../helpers/factories.js';

/**
 * Fuzzing (issue 14): every operation of the three OpenAPI documents, as the app serves them, is
 * called with generated valid and invalid input (fast-check, fixed seed, bounded runs). Whatever
 * the input: no 5xx, every 4xx in its surface's error shape, and no stack trace, SQL or file path
 * in any body.
 *
 * Out of scope here (another change owns them): control characters in input and errors raised
 * before routing (414, 431, 415, unparsable JSON); strings are printable Unicode, bodies are
 * always well-formed JSON and path parameters at most 100 characters (see pathSegment).
 */
const SEED = 1414;
const RUNS_PER_OPERATION = 20;

type Surface = 'mobile' | 'partner' | 'admin';
type Schema = Record<string, unknown>;
interface Operation {
  surface: Surface;
  method: string;
  path: string;
  parameters: Array<{ in: string; name: string; required?: boolean; schema?: Schema }>;
  body?: Schema;
  doc: Schema;
}

const DOCS: Record<Surface, string> = {
  mobile: '/api/v1/openapi.json',
  partner: '/api/public/v1/openapi.json',
  admin: '/api/admin/v1/openapi.json',
};

/** Operations that end the caller's session or key, or suspend an account: run as a throwaway user. */
const DESTRUCTIVE = new Set([
  'POST /api/v1/auth/logout',
  'POST /api/v1/auth/change-password',
  'POST /api/v1/user/api-key/generate',
  'DELETE /api/v1/user/account',
  'PATCH /api/admin/v1/accounts/{id}',
]);

const LEAKS: Array<[string, RegExp]> = [
  ['stack trace', /\n\s+at \S+|at [\w.<>]+ \([^)]*:\d+:\d+\)/],
  ['file path', /node_modules|file:\/\/|\/work\/|\/src\/[\w/-]+\.ts|\.ts:\d+/],
  [
    'SQL',
    /Failed query|select .{0,200} from "|insert into "|update "\w+" set|delete from "|syntax error at or near/i,
  ],
  [
    'database error',
    /violates [\w ]*constraint|duplicate key value|DrizzleQueryError|invalid input syntax for/i,
  ],
];

let t: TestApp;
let main: TestUser & { key: string };
let planId: string;
let ids: string[] = [];
const operations: Operation[] = [];

function resolve(doc: Schema, schema: Schema | undefined, depth = 0): Schema {
  if (!schema) return {};
  const ref = schema.$ref;
  if (typeof ref === 'string' && depth < 10) {
    const target = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], doc);
    return resolve(doc, target as Schema, depth + 1);
  }
  return schema;
}

const printable = (max: number, min = 0) =>
  fc.oneof(
    fc.string({ minLength: min, maxLength: max }),
    fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }),
  );
const nasty = fc.constantFrom(
  "' OR 1=1 --",
  '../../etc/passwd',
  '%',
  '%25',
  '${7*7}',
  '<script>alert(1)</script>',
  '99999999999999999999999999',
  '-1',
  '1e309',
  'null',
  ' ',
  'İstanbul ğüşöç',
  '😀'.repeat(40),
  'a'.repeat(5000),
);

/** Values that satisfy the schema (mostly), with real ids where a field names one. */
function valid(doc: Schema, raw: Schema | undefined, name = '', depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  const known = (list: string[]) => (list.length ? fc.constantFrom(...list) : fc.constant('x'));
  if (/planId$/i.test(name)) return fc.oneof(fc.constant(planId), printable(20, 1));
  if (/^(id|startingAfter|target)$/.test(name)) return fc.oneof(known(ids), printable(30, 1));
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants?.length) return fc.oneof(...variants.map((v) => valid(doc, v, name, depth + 1)));
  if (Array.isArray(schema.allOf) && schema.allOf.length)
    return valid(doc, schema.allOf[0] as Schema, name, depth + 1);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...(schema.enum as unknown[]));
  const base = ((): fc.Arbitrary<unknown> => {
    switch (schema.type) {
      case 'string': {
        const min = (schema.minLength as number | undefined) ?? 0;
        const max = Math.max(min, Math.min((schema.maxLength as number | undefined) ?? 40, 80));
        if (schema.format === 'email') return fc.emailAddress();
        if (schema.format === 'uri') return fc.webUrl();
        if (schema.format === 'date-time')
          return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
        if (typeof schema.pattern === 'string') {
          try {
            return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= Math.max(max, 64));
          } catch {
            return printable(max, min);
          }
        }
        return printable(max, min);
      }
      case 'integer':
        return fc.integer({
          min: (schema.minimum as number | undefined) ?? -1_000_000,
          max: (schema.maximum as number | undefined) ?? 1_000_000,
        });
      case 'number':
        return fc.double({
          min: (schema.minimum as number | undefined) ?? -1e6,
          max: (schema.maximum as number | undefined) ?? 1e6,
          noNaN: true,
          noDefaultInfinity: true,
        });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return depth > 3
          ? fc.constant([])
          : fc.array(valid(doc, schema.items as Schema, name, depth + 1), {
              minLength: (schema.minItems as number | undefined) ?? 0,
              maxLength: Math.min((schema.maxItems as number | undefined) ?? 3, 3),
            });
      default: {
        const props = (schema.properties ?? {}) as Record<string, Schema>;
        if (schema.type !== 'object' && Object.keys(props).length === 0) return fc.jsonValue({ maxDepth: 2 });
        if (depth > 3) return fc.constant({});
        const required = (schema.required ?? []) as string[];
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [key, value] of Object.entries(props)) model[key] = valid(doc, value, key, depth + 1);
        return fc.record(model, { requiredKeys: required.filter((r) => r in model) });
      }
    }
  })();
  return schema.nullable ? fc.option(base, { nil: null }) : base;
}

/** Anything: wrong types, missing fields, nasty strings, extra fields. */
function invalid(doc: Schema, schema: Schema | undefined, name = ''): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    nasty,
    valid(doc, schema, name).map((v) =>
      v && typeof v === 'object' && !Array.isArray(v) ? { ...v, unexpected: { nested: [1, 'two'] } } : v,
    ),
    valid(doc, schema, name).chain((v) =>
      v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length
        ? fc
            .tuple(fc.constantFrom(...Object.keys(v)), fc.oneof(fc.jsonValue({ maxDepth: 1 }), nasty))
            .map(([k, bad]) => ({ ...v, [k]: bad }))
        : fc.constant(v),
    ),
  );
}

function asParam(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value) ?? '';
}

/**
 * A path parameter, encoded and cut to Fastify's maxParamLength (100): a longer one is refused
 * before routing (414 FST_ERR_MAX_PARAM_LENGTH, not yet in the surface's shape), the pre-routing
 * class handled by the security change, so it is left out here.
 */
function pathSegment(value: string): string {
  let encoded = encodeURIComponent(value || 'x');
  for (let cut = value.length; encoded.length > 100 && cut > 1; cut = Math.floor(cut / 2))
    encoded = encodeURIComponent([...value].slice(0, cut).join(''));
  return encoded.length > 100 ? 'x' : encoded;
}

function requestFor(op: Operation) {
  const pick = (p: Operation['parameters'][number], good: boolean) =>
    good ? valid(op.doc, p.schema, p.name) : fc.oneof(invalid(op.doc, p.schema, p.name), nasty);
  const params = op.parameters.filter((p) => ['path', 'query', 'header'].includes(p.in));
  return fc
    .record({
      good: fc.boolean(),
      auth: fc.constantFrom('ok', 'ok', 'ok', 'ok', 'none', 'bogus'),
      params: fc.tuple(
        ...params.map((p) =>
          fc.record({
            present: p.in === 'path' || p.required ? fc.constant(true) : fc.boolean(),
            good: fc.boolean(),
          }),
        ),
      ),
      values: fc.tuple(...params.map((p) => fc.tuple(pick(p, true), pick(p, false)))),
      body: op.body ? fc.tuple(valid(op.doc, op.body), invalid(op.doc, op.body)) : fc.constant(undefined),
      extraQuery: fc.option(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 12 })),
      ),
    })
    .map((g) => ({ ...g, paramsList: params }));
}

async function credentials(op: Operation, auth: string): Promise<Record<string, string>> {
  if (auth === 'none') return {};
  if (op.surface === 'admin')
    return { authorization: auth === 'ok' ? `Bearer ${ADMIN_TOKEN}` : 'Bearer not-the-admin-token-xxxxxxxx' };
  let who: { token: string; key: string } = main;
  if (DESTRUCTIVE.has(`${op.method} ${op.path}`) && auth === 'ok') {
    const user = await createUser(t.container);
    const { key } = await t.container.apiKeys.generate(user.id);
    who = { token: user.token, key };
    ids.push(user.id);
  }
  if (auth === 'bogus') return { authorization: 'Bearer svc_live_sk_bogus0000000000000000' };
  return { authorization: `Bearer ${op.surface === 'partner' ? who.key : who.token}` };
}

function errorShapeOk(surface: Surface, body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  if (surface === 'mobile') {
    const b = body as { error?: unknown; code?: unknown };
    return typeof b.error === 'string' && typeof b.code === 'string';
  }
  const e = (body as { error?: { code?: unknown; message?: unknown } }).error;
  return !!e && typeof e === 'object' && typeof e.code === 'string' && typeof e.message === 'string';
}

beforeAll(async () => {
  t = await buildTestApp();
  const user = await createUser(t.container, { balanceCents: 1_000_000 });
  const { key } = await t.container.apiKeys.generate(user.id);
  main = { ...user, key };
  planId = (await pickPlan(t.container)).id;
  // Something to find: an order with an eSIM, a ticket.
  const order = await t.app.inject({
    method: 'POST',
    url: '/api/public/v1/orders',
    headers: { authorization: `Bearer ${key}` },
    payload: { planId, quantity: 1 },
  });
  expect(order.statusCode, order.body).toBe(201);
  ids = [user.id, order.json().id as string, planId];
  for (const surface of Object.keys(DOCS) as Surface[]) {
    const res = await t.app.inject({
      url: DOCS[surface],
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.statusCode, `${surface} document`).toBe(200);
    const doc = res.json<Schema & { paths: Record<string, Record<string, Schema>> }>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const content = (op.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)
          ?.content;
        operations.push({
          surface,
          method: method.toUpperCase(),
          path,
          parameters: ((op.parameters ?? []) as Operation['parameters']).map(
            (p) => resolve(doc, p as Schema) as never,
          ),
          body: content?.['application/json']?.schema ?? (content ? {} : undefined),
          doc,
        });
      }
    }
  }
}, 120_000);
afterAll(async () => t?.close());

describe('fuzzing the three OpenAPI documents', () => {
  it('finds the operations of every surface', () => {
    const count = (s: Surface) => operations.filter((o) => o.surface === s).length;
    expect(count('mobile')).toBeGreaterThan(20);
    expect(count('partner')).toBeGreaterThan(4);
    expect(count('admin')).toBeGreaterThan(10);
  });

  it('no 5xx, the surface error shape on every 4xx, no stack, SQL or path in any body', async () => {
    const failures: string[] = [];
    const tally = { requests: 0, ok2xx: 0, client4xx: 0, operations: operations.length };
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(requestFor(op), async (g) => {
          let path = op.path;
          const query: Record<string, string> = { ...(g.extraQuery ?? {}) };
          const headers: Record<string, string> = await credentials(op, g.auth);
          g.paramsList.forEach((p, i) => {
            const { present, good } = g.params[i]!;
            if (!present) return;
            const value = asParam(g.values[i]![good ? 0 : 1]);
            if (p.in === 'path') path = path.replace(`{${p.name}}`, pathSegment(value));
            else if (p.in === 'query') query[p.name] = value;
            else if (/^[\x20-\x7e]*$/.test(value)) headers[p.name] = value;
          });
          const options: InjectOptions = {
            method: op.method,
            url: path,
            query,
            headers,
          };
          if (g.body) options.payload = JSON.stringify(g.body[g.good ? 0 : 1] ?? null);
          if (options.payload !== undefined) headers['content-type'] = 'application/json';
          const res = await t.app.inject(options);
          tally.requests++;
          const label = `${op.method} ${path} → ${res.statusCode}`;
          if (res.statusCode >= 500) failures.push(`${label} ${res.body.slice(0, 300)}`);
          if (res.statusCode >= 400 && res.statusCode < 500) {
            tally.client4xx++;
            let body: unknown = null;
            try {
              body = res.json();
            } catch {
              // not JSON
            }
            if (!errorShapeOk(op.surface, body))
              failures.push(`${label} not in the ${op.surface} error shape: ${res.body.slice(0, 200)}`);
          } else if (res.statusCode < 300) tally.ok2xx++;
          const text = res.rawPayload.toString('latin1');
          for (const [what, pattern] of LEAKS) {
            if (pattern.test(text)) failures.push(`${label} leaks ${what}: ${text.slice(0, 300)}`);
          }
          if (op.path === '/api/admin/v1/sandbox/esim-provider/faults') {
            // Injected provider faults would make later orders fail on purpose: clear them.
            await t.app.inject({
              method: 'POST',
              url: op.path,
              headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
              payload: { failNext: 0 },
            });
          }
        }),
        { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
      );
    }
    process.stdout.write(
      `\n[faults] fuzz: ${JSON.stringify({ seed: SEED, runsPerOperation: RUNS_PER_OPERATION, ...tally, failures: failures.length })}\n`,
    );
    expect([...new Set(failures)]).toEqual([]);
  }, 300_000);
});
