import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { yieldingToEventLoop } from '../../src/db/pglite.js';

/**
 * PGlite resolves its queries without returning to the event loop, so a chain of them starves
 * sockets and timers (docs/performance.md, "PGlite and the event loop"). These tests run a chain
 * of queries and look at when a callback queued on the event loop at its start gets to run.
 */
let client: PGlite;

beforeAll(async () => {
  client = new PGlite();
  await client.waitReady;
});
afterAll(() => client.close());

/** Runs `count` queries one after the other; returns after how many the setImmediate callback ran. */
async function queriesBeforeTheLoopTurns(count: number, run: () => Promise<unknown>): Promise<number> {
  let done = 0;
  let seenAt = -1;
  setImmediate(() => (seenAt = done));
  for (; done < count; done++) await run();
  await new Promise((resolve) => setImmediate(resolve));
  return seenAt;
}

describe('PGlite and the event loop', () => {
  test('without turns, a chain of queries keeps the event loop waiting until it ends', async () => {
    expect(await queriesBeforeTheLoopTurns(50, () => client.query('select 1'))).toBe(50);
  });

  test('with turns, the event loop runs between queries once the budget is spent', async () => {
    // The entry points are put back afterwards, so that the tests do not depend on their order.
    const original = { query: client.query, exec: client.exec, transaction: client.transaction };
    yieldingToEventLoop(client, 0);
    try {
      expect(await queriesBeforeTheLoopTurns(50, () => client.query('select 1'))).toBe(0);
      expect(await queriesBeforeTheLoopTurns(50, () => client.exec('select 1'))).toBe(0);
      expect(
        await queriesBeforeTheLoopTurns(50, () => client.transaction((tx) => tx.query('select 1'))),
      ).toBe(0);
      // Results and errors pass through unchanged.
      expect((await client.query<{ n: number }>('select 2 as n')).rows).toEqual([{ n: 2 }]);
      await expect(client.query('select nope')).rejects.toThrow(/nope/);
    } finally {
      Object.assign(client, original);
    }
  });
});
