import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esims } from '../../../src/db/schema/index.js';
import { installUrl, newInstallToken } from '../../../src/domain/orders/esim-links.js';
import { buildTestContainer, type TestContainer } from '../../helpers/container.js';
import { pickPlan } from '../../helpers/catalog.js';
import { createUser } from '../../helpers/factories.js';

/** Issue 30 T2: the install page token, as the service makes it and as migration 0007 gave it. */

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
let t: TestContainer;

beforeAll(async () => {
  t = await buildTestContainer();
});
afterAll(() => t.close());

describe('install tokens', () => {
  it('are 32 random bytes as base64url, a new one each time', () => {
    const tokens = new Set(Array.from({ length: 1000 }, newInstallToken));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) expect(token).toMatch(TOKEN);
    expect(installUrl('https://shop.example.com', 'abc')).toBe('https://shop.example.com/install/abc');
  });

  it('migration 0007 gives every existing eSIM a token of its own, in the same format', async () => {
    const plan = await pickPlan(t.container);
    const user = await createUser(t.container, { balanceCents: plan.effectivePriceCents * 3 });
    const placed = await t.container.orders.placeOrder({
      accountId: user.id,
      channel: 'mobile',
      planId: plan.id,
      quantity: 3,
      paymentMethod: 'wallet',
    });
    expect(placed.esims).toHaveLength(3);
    const { db } = t.container;
    // Back to the schema before 0007, with these eSIMs in it; then 0007 exactly as checked in.
    await db.execute(sql`alter table esims drop column install_token`);
    const migration = readFileSync(
      new URL('../../../drizzle/0007_esim_install_token.sql', import.meta.url),
      'utf8',
    );
    for (const statement of migration.split('--> statement-breakpoint')) {
      await db.execute(sql.raw(statement));
    }
    const rows = await db.select({ token: esims.installToken }).from(esims);
    expect(rows).toHaveLength(3);
    for (const { token } of rows) expect(token).toMatch(TOKEN);
    expect(new Set(rows.map((r) => r.token)).size).toBe(3);
    // The service's own tokens were replaced by the default's: none survived the drop.
    expect(rows.map((r) => r.token)).not.toContain(placed.esims[0]!.installToken);
  });
});
