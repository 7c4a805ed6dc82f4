import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of one process (GET /metrics, only when METRICS_TOKEN is set). Everything
 * here is cheap when disabled: the recorders are no-ops and nothing is registered.
 *
 * Two kinds of series:
 * - per process (request durations, fulfillment failures, DB pool, process metrics): sum or
 *   compare them across instances;
 * - read from the database at scrape time (orders by state, job queue): every instance reports
 *   the same service-wide value, so aggregate them with max(), not sum().
 */
export interface Metrics {
  enabled: boolean;
  registry: Registry;
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void;
  fulfillmentFailed(source: string, retryable: boolean): void;
  /**
   * Adds a gauge whose value(s) are read at scrape time. A failing read leaves the gauge
   * without samples for that scrape (and counts in esim_metrics_collect_errors_total), so the
   * process metrics still answer while the database is away.
   */
  gauge(
    name: string,
    help: string,
    labelNames: string[],
    read: () => Promise<Array<{ labels?: Record<string, string>; value: number }>>,
  ): void;
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createMetrics(options: { enabled: boolean }): Metrics {
  const registry = new Registry();
  if (!options.enabled) {
    return {
      enabled: false,
      registry,
      observeRequest: () => undefined,
      fulfillmentFailed: () => undefined,
      gauge: () => undefined,
    };
  }
  collectDefaultMetrics({ register: registry });
  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const fulfillmentFailures = new Counter({
    name: 'esim_fulfillment_failures_total',
    help: 'Failed eSIM fulfillment attempts in this process, by source (request, job, admin) and whether they are retried',
    labelNames: ['source', 'retryable'],
    registers: [registry],
  });
  const collectErrors = new Counter({
    name: 'esim_metrics_collect_errors_total',
    help: 'Scrape-time reads (database gauges) that failed',
    labelNames: ['metric'],
    registers: [registry],
  });

  return {
    enabled: true,
    registry,
    observeRequest(method, route, statusCode, seconds) {
      requestDuration.observe({ method, route, status_code: String(statusCode) }, seconds);
    },
    fulfillmentFailed(source, retryable) {
      fulfillmentFailures.inc({ source, retryable: String(retryable) });
    },
    gauge(name, help, labelNames, read) {
      new Gauge({
        name,
        help,
        labelNames,
        registers: [registry],
        async collect() {
          this.reset();
          try {
            for (const sample of await read()) {
              if (sample.labels) this.set(sample.labels, sample.value);
              else this.set(sample.value);
            }
          } catch {
            collectErrors.inc({ metric: name });
          }
        },
      });
    },
  };
}
