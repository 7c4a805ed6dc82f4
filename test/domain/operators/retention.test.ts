import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorEnrolments, operatorSessions } from '../../../src/db/schema/index.js';
import { HOUR } from '../../../src/lib/clock.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { signedInOperator } from '../../helpers/operators.js';

describe('retention of console sessions and enrolment links', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('deletes sessions idle a day past the timeout and links expired a day ago', async () => {
    const op = await signedInOperator(t, 'support');
    const { operator } = await t.container.operators.create({ email: 'late@ops.example', role: 'readonly' });
    const { db } = t.database;
    // Idle 12 h + 24 h and the link expired 24 h ago: not yet.
    t.clock.advance(36 * HOUR - 1000);
    let result = await t.container.maintenance.runRetention();
    expect(result).toMatchObject({ operatorSessions: 0, operatorEnrolments: 0 });
    t.clock.advance(24 * HOUR);
    result = await t.container.maintenance.runRetention();
    expect(result.operatorSessions).toBeGreaterThanOrEqual(1);
    expect(result.operatorEnrolments).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(operatorSessions).where(eq(operatorSessions.operatorId, op.id))).toEqual(
      [],
    );
    expect(
      await db.select().from(operatorEnrolments).where(eq(operatorEnrolments.operatorId, operator.id)),
    ).toEqual([]);
  });
});
