import { sql } from 'drizzle-orm';
import type { Container } from '../../src/container.js';
import { events } from '../../src/db/schema/index.js';

/**
 * GET /events lists only events of transactions older than every writing transaction still open
 * in the cluster. On a PostgreSQL server shared by parallel test files another file's short
 * transaction can hold an event back for a moment; tests that expect an exact list wait for that
 * moment to pass (a no-op on PGlite, which has one connection).
 */
export async function eventsSettled(container: Container, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pending = await container.db
      .select({ id: events.id })
      .from(events)
      .where(sql`${events.txid} >= pg_snapshot_xmin(pg_current_snapshot())`)
      .limit(1);
    if (pending.length === 0 || Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}
