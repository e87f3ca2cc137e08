/**
 * The service's metrics (`GET /metrics`, Prometheus text format, prom-client):
 * - `storedb_http_requests_total{route,kind,status}`: answered requests by
 *   route (its path as registered, `unmatched` when none matched), command
 *   kind (empty for routes that run none) and HTTP status;
 * - `storedb_http_request_duration_seconds{route,kind}`: a histogram of the
 *   time from a request's first hook until its answer goes to the socket
 *   (the log line's `durationMs`);
 * - `storedb_open_databases`: databases the service holds open;
 * - the process: prom-client's default Node.js metrics (CPU, memory, heap,
 *   event-loop lag, GC), kept in one registry per process.
 *
 * Why requests are tallied here and not through prom-client's `inc` and
 * `observe`: those build a label hash per call (~0.3 and ~0.5 µs measured
 * here, ~4% of a point select's server CPU). `record` adds to a plain
 * series found through two map lookups on the route and kind strings
 * (~30 ns); when scraped, the series become metric values that
 * prom-client's registry formats. Every label value is bounded:
 * routes are the registered paths, kinds the validated command kinds,
 * statuses the service's own.
 */

import { Gauge, Registry, collectDefaultMetrics, type Metric } from "prom-client";

/** Histogram bounds in seconds: a point select answers in tens of microseconds, a large write or scan in seconds. */
export const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** The requests of one route and command kind. */
class Series {
  count = 0;
  sum = 0;
  /** Requests per latency bucket (not cumulative; `+Inf` is `count`). */
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length);
  readonly statuses = new Map<number, number>();
  constructor(
    readonly route: string,
    readonly kind: string,
  ) {}
}

/** The request series, by route then kind. */
class RequestTally {
  private readonly routes = new Map<string, Map<string, Series>>();

  record(route: string, kind: string, status: number, seconds: number): void {
    let kinds = this.routes.get(route);
    if (kinds === undefined) this.routes.set(route, (kinds = new Map()));
    let series = kinds.get(kind);
    if (series === undefined) kinds.set(kind, (series = new Series(route, kind)));
    series.count++;
    series.sum += seconds;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    if (bucket < LATENCY_BUCKETS.length) series.buckets[bucket]!++;
    series.statuses.set(status, (series.statuses.get(status) ?? 0) + 1);
  }

  *series(): Iterable<Series> {
    for (const kinds of this.routes.values()) yield* kinds.values();
  }
}

type Values = { value: number; labels: Record<string, string | number>; metricName?: string }[];

/**
 * A metric whose values are computed when scraped, in the form prom-client's
 * registry formats: the wrapper its own cluster aggregation registers
 * (`{ get: () => metric, ...metric }`, `lib/cluster.js`). prom-client's
 * typings know only its four classes, hence the cast.
 */
function computedMetric(name: string, help: string, type: "counter" | "histogram", values: () => Values): Metric {
  const metric = { name, help, type, aggregator: "sum" };
  return { ...metric, get: async () => ({ ...metric, values: values() }) } as unknown as Metric;
}

/** `storedb_http_requests_total` from the tally. */
function requestCounter(tally: RequestTally): Metric {
  return computedMetric("storedb_http_requests_total", "Answered HTTP requests by route, command kind and status.", "counter", () => {
    const values: Values = [];
    for (const { route, kind, statuses } of tally.series()) {
      for (const [status, value] of statuses) values.push({ value, labels: { route, kind, status } });
    }
    return values;
  });
}

/** `storedb_http_request_duration_seconds` from the tally: cumulative buckets, `+Inf`, sum and count per series. */
function latencyHistogram(tally: RequestTally): Metric {
  const name = "storedb_http_request_duration_seconds";
  return computedMetric(name, "Time from a request's arrival until its answer is handed to the socket.", "histogram", () => {
    const values: Values = [];
    for (const series of tally.series()) {
      const labels = { route: series.route, kind: series.kind };
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((le, i) => {
        cumulative += series.buckets[i]!;
        values.push({ value: cumulative, labels: { le, ...labels }, metricName: `${name}_bucket` });
      });
      values.push({ value: series.count, labels: { le: "+Inf", ...labels }, metricName: `${name}_bucket` });
      values.push({ value: series.sum, labels, metricName: `${name}_sum` });
      values.push({ value: series.count, labels, metricName: `${name}_count` });
    }
    return values;
  });
}

let processRegistry: Registry | undefined;

/** Node.js process metrics, collected once per process however many apps it builds (tests build many). */
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export interface MetricsSources {
  /** How many databases the service holds open. */
  readonly openDatabases: () => number;
}

export class ServiceMetrics {
  private readonly tally = new RequestTally();
  private readonly registry = new Registry();

  constructor(sources: MetricsSources) {
    this.registry.registerMetric(requestCounter(this.tally));
    this.registry.registerMetric(latencyHistogram(this.tally));
    this.registry.registerMetric(
      new Gauge({
        name: "storedb_open_databases",
        help: "Databases the service holds open.",
        registers: [],
        collect() {
          this.set(sources.openDatabases());
        },
      }),
    );
  }

  /** Counts one answered request (the hot path). `kind` is empty for a route that runs no command. */
  record(route: string, kind: string, status: number, seconds: number): void {
    this.tally.record(route, kind, status, seconds);
  }

  /** The exposition's content type (Prometheus text format 0.0.4). */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition: the service's metrics, then the process's. */
  async text(): Promise<string> {
    const [own, process] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return own + process;
  }
}
