import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { lazySchemaCompilers } from '../../../src/http/shared/lazy-schemas.js';
import { AJV_OPTIONS, buildValidator } from '../../../src/http/shared/validators.js';
import { buildTestApp } from '../../helpers/app.js';

/** Route schemas compile on first use or in `compileSchemas`, never before listening. */
describe('lazy route schemas', () => {
  let app: FastifyInstance | undefined;
  afterEach(() => app?.close());

  function appWith(routes: (app: FastifyInstance) => void) {
    const schemas = lazySchemaCompilers(buildValidator);
    app = Fastify({ ajv: AJV_OPTIONS, schemaController: { compilersFactory: schemas.compilersFactory } });
    routes(app);
    return schemas;
  }

  const echo = (app: FastifyInstance) =>
    app.post(
      '/echo',
      {
        schema: {
          body: Type.Object({ n: Type.Integer(), tag: Type.String({ default: 'none' }) }),
          querystring: Type.Object({ limit: Type.Optional(Type.Integer()) }),
          response: {
            200: Type.Object({ n: Type.Integer(), tag: Type.String(), limit: Type.Optional(Type.Integer()) }),
          },
        },
      },
      async (request) => {
        const body = request.body as { n: number; tag: string };
        const query = request.query as { limit?: number };
        // `secret` is not in the response schema: the serializer leaves it out.
        return { ...body, ...query, secret: 'x' };
      },
    );

  it('validates, fills defaults, coerces the query and serializes as eager schemas did', async () => {
    appWith(echo);
    await app!.ready();
    const ok = await app!.inject({ method: 'POST', url: '/echo?limit=5', payload: { n: 1 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ n: 1, tag: 'none', limit: 5 });
    const bad = await app!.inject({ method: 'POST', url: '/echo', payload: { n: 'one' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('body/n must be integer');
  });

  it('compiles only what a request used; compileSchemas does the rest once', async () => {
    const schemas = appWith(echo);
    await app!.ready();
    await app!.inject({ method: 'POST', url: '/echo', payload: { n: 1 } });
    // body, query string and the 200 response were used; nothing else is declared.
    expect(await schemas.compileAll()).toBe(0);

    const fresh = appWith(echo);
    await app!.ready();
    expect(await fresh.compileAll()).toBe(3);
    expect(await fresh.compileAll()).toBe(0);
  });

  it('a schema that does not compile fails compileSchemas, and its route answers 500', async () => {
    const schemas = appWith((a) =>
      a.post(
        '/broken',
        { schema: { body: { type: 'object', properties: { n: { type: 'nonsense' } } } } },
        () => ({}),
      ),
    );
    await app!.ready();
    await expect(schemas.compileAll()).rejects.toThrow(/nonsense|type/);
    expect((await app!.inject({ method: 'POST', url: '/broken', payload: {} })).statusCode).toBe(500);
  });

  it("every one of the service's route schemas compiles", async () => {
    const t = await buildTestApp();
    try {
      expect(await t.app.compileSchemas()).toBeGreaterThan(300);
    } finally {
      await t.close();
    }
  });
});
