import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AJV_OPTIONS, buildValidator } from '../../../src/http/shared/validators.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { pickPlan } from '../../helpers/catalog.js';
import { createPartner, postOrder } from '../partner/helpers.js';

/**
 * A JSON body is validated as sent; the query string is coerced from text. Before, Ajv's
 * coercion turned `null` into 0 in a nullable number (a cleared setting became 0) and took "5"
 * for 5 in bodies.
 */
describe('the validator', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify({ ajv: AJV_OPTIONS, schemaController: { compilersFactory: { buildValidator } } });
    const Nullable = Type.Union([Type.Integer(), Type.Null()]);
    app.post(
      '/echo',
      {
        schema: {
          body: Type.Object({
            n: Type.Optional(Nullable),
            s: Type.Optional(Type.Union([Type.String(), Type.Null()])),
          }),
          querystring: Type.Object({
            limit: Type.Optional(Type.Integer()),
            on: Type.Optional(Type.Boolean()),
          }),
        },
      },
      async (request) => ({ body: request.body, query: request.query }),
    );
    await app.ready();
  });
  afterAll(() => app.close());
  const post = (body: object, query = '') =>
    app.inject({ method: 'POST', url: `/echo${query}`, payload: body });

  it('keeps null as null in a nullable body field', async () => {
    const res = await post({ n: null, s: null });
    expect(res.statusCode).toBe(200);
    expect(res.json().body).toEqual({ n: null, s: null });
  });

  it('refuses a number sent as text in a body', async () => {
    expect((await post({ n: '5' })).statusCode).toBe(400);
    expect((await post({ s: 5 })).statusCode).toBe(400);
  });

  it('still reads numbers and booleans from the query string', async () => {
    const res = await post({ n: 1 }, '?limit=25&on=true');
    expect(res.statusCode).toBe(200);
    expect(res.json().query).toEqual({ limit: 25, on: true });
  });
});

describe('on the Partner API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('quantity "1" is a 400 in the Partner shape; 1 places the order', async () => {
    const plan = await pickPlan(t.container);
    const partner = await createPartner(t, plan.effectivePriceCents);
    const refused = await postOrder(t, partner.headers, { planId: plan.id, quantity: '1' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    expect(JSON.stringify(refused.json())).toContain('quantity');
    const placed = await postOrder(t, partner.headers, { planId: plan.id, quantity: 1 });
    expect(placed.statusCode).toBe(201);
  });
});
