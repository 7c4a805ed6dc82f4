import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../../src/db/schema/index.js';
import {
  OPERATOR_PERMISSIONS,
  OPERATOR_ROLES,
  operatorCan,
  type OperatorPermission,
} from '../../../src/domain/operators/roles.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../../helpers/app.js';
import { signedInOperator, type SignedInOperator } from '../../helpers/operators.js';
import { eq } from 'drizzle-orm';

type Operation = { method: string; url: string; permission: OperatorPermission | 'public' | 'signed-in' };

/** Every operator route with the permission its description names (the surface writes it). */
function operationsOf(t: TestApp): Operation[] {
  const doc = t.app.swagger() as { paths: Record<string, Record<string, { description?: string }>> };
  const found: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/admin/v1/')) continue;
    for (const [method, op] of Object.entries(item)) {
      const named = /Permission: `([a-z.-]+)`/.exec(op.description ?? '');
      const url = path.replace(/\{[^}]+\}/g, 'x_unknown');
      found.push({
        method: method.toUpperCase(),
        url,
        permission: (named?.[1] ?? 'public') as Operation['permission'],
      });
    }
  }
  return found;
}

describe('operator roles (issue 33 O4)', () => {
  let t: TestApp;
  const signedIn = new Map<string, SignedInOperator>();
  beforeAll(async () => {
    t = await buildTestApp();
    for (const role of OPERATOR_ROLES) signedIn.set(role, await signedInOperator(t, role));
  });
  afterAll(() => t.close());

  it('documents a known permission on every route that needs one', () => {
    const operations = operationsOf(t);
    expect(operations.length).toBeGreaterThan(25);
    for (const op of operations.filter((o) => o.permission !== 'public'))
      expect(OPERATOR_PERMISSIONS as readonly string[], `${op.method} ${op.url}`).toContain(op.permission);
  });

  it('refuses each role every route its permissions lack (403 ROLE_FORBIDDEN) and lets the rest through', async () => {
    const operations = operationsOf(t).filter(
      (o) => o.permission !== 'public' && o.permission !== 'signed-in',
    );
    for (const role of OPERATOR_ROLES) {
      const operator = signedIn.get(role)!;
      for (const op of operations) {
        const res = await t.app.inject({
          method: op.method as 'GET',
          url: op.url,
          headers: {
            ...operator.headers,
            'content-type': 'application/json',
            'idempotency-key': `k-${role}-${op.url}`,
          },
          payload: op.method === 'GET' || op.method === 'DELETE' ? undefined : '{}',
        });
        const label = `${role} ${op.method} ${op.url}`;
        if (operatorCan(role, op.permission as OperatorPermission)) {
          // Allowed: whatever the route answers next (404 unknown id, 400 empty body), never the refusal.
          expect(res.statusCode, label).not.toBe(401);
          expect(res.json()?.error?.code, label).not.toBe('ROLE_FORBIDDEN');
        } else {
          expect(res.statusCode, label).toBe(403);
          expect(res.json().error.code, label).toBe('ROLE_FORBIDDEN');
        }
      }
    }
  });

  it('refuses a console request without a session (401) and a cookie request from another origin', async () => {
    const none = await t.app.inject({ url: '/api/admin/v1/orders' });
    expect(none.statusCode).toBe(401);
    const owner = signedIn.get('owner')!;
    const foreign = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/v1/accounts/acc_x',
      headers: { ...owner.headers, origin: 'https://evil.example' },
      payload: { status: 'SUSPENDED' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error.code).toBe('CSRF_REJECTED');
  });

  it('names the operator in the audit log of what they change, and the token for the token', async () => {
    const finance = signedIn.get('finance')!;
    const rate = async (headers: Record<string, string>, usd: number) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/admin/v1/exchange-rates',
        headers,
        payload: { EUR: usd, GBP: 0.8, TRY: 34 },
      });
    const owner = signedIn.get('owner')!;
    expect((await rate(finance.headers, 0.9)).statusCode).toBe(403);
    const byOwner = await rate(owner.headers, 0.91);
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    const byToken = await rate({ authorization: `Bearer ${ADMIN_TOKEN}` }, 0.92);
    expect(byToken.statusCode).toBe(200);
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.targetType, 'exchange_rates'));
    expect(rows.map((r) => r.actor).sort()).toEqual([`operator:${owner.id}`, 'token'].sort());
  });
});
