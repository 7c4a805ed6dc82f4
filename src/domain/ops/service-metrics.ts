import { sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import { jobs, orders, webhookDeliveries } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import type { Metrics } from '../../lib/metrics.js';

/**
 * Service-wide gauges read from the database at scrape time, and the pool of this process.
 * Other areas add theirs with `metrics.gauge(...)` / their own counters next to these.
 */
export function registerServiceMetrics(metrics: Metrics, deps: { database: Database; clock: Clock }): void {
  if (!metrics.enabled) return;
  const { db } = deps.database;

  // Every gauge here is read at every scrape of every instance, so each reads only what is still
  // open, through a partial index (drizzle/0005_open_state_indexes.sql): its cost follows the work
  // in flight, never the history (a final state's count grows forever; use the request metrics
  // and counters for rates).

  /**
   * Rows of `table` per state among `states` (0 for a state with none). The states are written
   * into the statement as constants: the planner uses a partial index on them only if it sees the
   * values, which a bound parameter would hide once the plan is generic.
   */
  function stateGauge(
    name: string,
    help: string,
    table: PgTable,
    column: PgColumn,
    states: readonly string[],
  ) {
    const listed = sql.join(
      states.map((state) => sql.raw(`'${state}'`)),
      sql`, `,
    );
    metrics.gauge(name, help, ['state'], async () => {
      const rows = await db
        .select({ state: column, count: sql<number>`count(*)::int` })
        .from(table)
        .where(sql`${column} in (${listed})`)
        .groupBy(column);
      return states.map((state) => ({
        labels: { state },
        value: Number(rows.find((r) => r.state === state)?.count ?? 0),
      }));
    });
  }

  stateGauge(
    'esim_orders',
    'Open orders by state: AWAITING_PAYMENT, PROCESSING (service-wide)',
    orders,
    orders.status,
    ['AWAITING_PAYMENT', 'PROCESSING'],
  );

  async function readJobs() {
    const now = deps.clock.now();
    const [row] = await db
      .select({
        due: sql<number>`count(*) filter (where ${jobs.status} = 'pending' and ${jobs.runAt} <= ${now})`,
        scheduled: sql<number>`count(*) filter (where ${jobs.status} = 'pending' and ${jobs.runAt} > ${now})`,
        running: sql<number>`count(*) filter (where ${jobs.status} = 'running')`,
        failed: sql<number>`count(*) filter (where ${jobs.status} = 'failed')`,
        oldestDue: sql<
          Date | string | null
        >`min(${jobs.runAt}) filter (where ${jobs.status} = 'pending' and ${jobs.runAt} <= ${now})`,
      })
      .from(jobs)
      // Not `<> 'done'`, which no index serves: a week of finished jobs read per scrape.
      .where(sql`${jobs.status} in ('pending', 'running', 'failed')`);
    const oldest = row?.oldestDue ? new Date(row.oldestDue).getTime() : undefined;
    return {
      rows: (['due', 'scheduled', 'running', 'failed'] as const).map((state) => ({
        state,
        count: Number(row?.[state] ?? 0),
      })),
      oldestDue: oldest === undefined ? 0 : Math.max(0, (now.getTime() - oldest) / 1000),
    };
  }

  metrics.gauge(
    'esim_jobs',
    'Background jobs by state: due (waiting for a worker), scheduled (future), running, failed (dead letter)',
    ['state'],
    async () => (await readJobs()).rows.map((r) => ({ labels: { state: r.state }, value: r.count })),
  );
  metrics.gauge(
    'esim_jobs_oldest_due_age_seconds',
    'How long the oldest due job has been waiting for a worker (0 when none)',
    [],
    async () => [{ value: (await readJobs()).oldestDue }],
  );

  stateGauge(
    'esim_webhook_deliveries',
    'Partner webhook deliveries not succeeded: pending (retries running), failed (gave up; kept 30 days)',
    webhookDeliveries,
    webhookDeliveries.status,
    ['pending', 'failed'],
  );
  metrics.gauge(
    'esim_webhook_oldest_pending_age_seconds',
    'Age of the oldest partner webhook delivery still pending (0 when none)',
    [],
    async () => {
      const [row] = await db
        .select({ oldest: sql<Date | string | null>`min(${webhookDeliveries.createdAt})` })
        .from(webhookDeliveries)
        .where(sql`${webhookDeliveries.status} = 'pending'`);
      const oldest = row?.oldest ? new Date(row.oldest).getTime() : undefined;
      return [
        { value: oldest === undefined ? 0 : Math.max(0, (deps.clock.now().getTime() - oldest) / 1000) },
      ];
    },
  );

  const pool = deps.database.poolStats;
  if (pool) {
    metrics.gauge(
      'esim_db_pool_connections',
      'PostgreSQL pool connections of this process',
      ['state'],
      async () => {
        const s = pool();
        return [
          { labels: { state: 'total' }, value: s.total },
          { labels: { state: 'idle' }, value: s.idle },
          { labels: { state: 'in_use' }, value: s.total - s.idle },
          { labels: { state: 'max' }, value: s.max },
        ];
      },
    );
    metrics.gauge(
      'esim_db_pool_waiting_requests',
      'Queries of this process waiting for a free pool connection',
      [],
      async () => [{ value: pool().waiting }],
    );
  }
}
