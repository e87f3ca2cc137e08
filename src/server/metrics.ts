/**
 * The service's metrics (`GET /metrics`, Prometheus text format, prom-client):
 * - `storedb_http_requests_total{route,kind,status}`: answered requests by
 *   route (its path as registered, `unmatched` when none matched), command
 *   kind (empty for routes that run none) and HTTP status;
 * - `storedb_http_request_duration_seconds{route,kind}`: a histogram of the
 *   time from a request's first hook until its answer goes to the socket
 *   (the log line's `durationMs`);
 * - storage (`storage-metrics.ts`): open databases, their stored and
 *   journal bytes, loads, durable commits, checkpoints and evictions, as
 *   storage reports them through its observer;
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

import { Registry, collectDefaultMetrics, type Metric } from "prom-client";
import type { StorageGauges } from "../storage/data-directory.js";
import { computedMetric, histogramValues, Tally, type Values } from "./metric-values.js";
import { StorageTally, storageMetrics } from "./storage-metrics.js";

export { LATENCY_BUCKETS } from "./metric-values.js";

/** The requests of one route and command kind. */
class Series extends Tally {
  readonly statuses = new Map<number, number>();
  constructor(
    readonly route: string,
    readonly kind: string,
  ) {
    super();
  }
}

/** The request series, by route then kind. */
class RequestTally {
  private readonly routes = new Map<string, Map<string, Series>>();

  record(route: string, kind: string, status: number, seconds: number): void {
    let kinds = this.routes.get(route);
    if (kinds === undefined) this.routes.set(route, (kinds = new Map()));
    let series = kinds.get(kind);
    if (series === undefined) kinds.set(kind, (series = new Series(route, kind)));
    series.observe(seconds);
    series.statuses.set(status, (series.statuses.get(status) ?? 0) + 1);
  }

  *series(): Iterable<Series> {
    for (const kinds of this.routes.values()) yield* kinds.values();
  }
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
    for (const series of tally.series()) histogramValues(values, name, series, { route: series.route, kind: series.kind });
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

export class ServiceMetrics {
  private readonly tally = new RequestTally();
  private readonly registry = new Registry();
  /** The observer to hand storage (`DataDirectoryOptions.observer`). */
  readonly storage = new StorageTally();

  /** `gauges`: the open databases, read at each scrape. */
  constructor(gauges: () => StorageGauges) {
    const metrics: Metric[] = [requestCounter(this.tally), latencyHistogram(this.tally), ...storageMetrics(this.storage, gauges)];
    for (const metric of metrics) this.registry.registerMetric(metric);
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
