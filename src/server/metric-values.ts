/**
 * The pieces the service's metrics are built from: a histogram tally kept
 * with plain arithmetic on the hot path, and metrics whose values are
 * computed from such tallies only when `/metrics` is scraped, in the form
 * prom-client's registry formats. See `metrics.ts` for why.
 */

import type { Metric } from "prom-client";

/** Histogram bounds in seconds: a point select answers in tens of microseconds, a large write, load or scan in seconds. */
export const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** A histogram's tally: count, sum, and counts per bucket (not cumulative; `+Inf` is `count`). */
export class Tally {
  count = 0;
  sum = 0;
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length);

  observe(seconds: number): void {
    this.count++;
    this.sum += seconds;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    if (bucket < LATENCY_BUCKETS.length) this.buckets[bucket]!++;
  }
}

export type Values = { value: number; labels: Record<string, string | number>; metricName?: string }[];

/**
 * A metric whose values are computed when scraped, in the form prom-client's
 * registry formats: the wrapper its own cluster aggregation registers
 * (`{ get: () => metric, ...metric }`, `lib/cluster.js`). prom-client's
 * typings know only its four classes, hence the cast.
 */
export function computedMetric(name: string, help: string, type: "counter" | "gauge" | "histogram", values: () => Values): Metric {
  const metric = { name, help, type, aggregator: "sum" };
  return { ...metric, get: async () => ({ ...metric, values: values() }) } as unknown as Metric;
}

/** One histogram series' samples into `values`: cumulative buckets, `+Inf`, sum and count. */
export function histogramValues(values: Values, name: string, tally: Tally, labels: Record<string, string> = {}): void {
  let cumulative = 0;
  LATENCY_BUCKETS.forEach((le, i) => {
    cumulative += tally.buckets[i]!;
    values.push({ value: cumulative, labels: { le, ...labels }, metricName: `${name}_bucket` });
  });
  values.push({ value: tally.count, labels: { le: "+Inf", ...labels }, metricName: `${name}_bucket` });
  values.push({ value: tally.sum, labels, metricName: `${name}_sum` });
  values.push({ value: tally.count, labels, metricName: `${name}_count` });
}

/** A histogram of one tally, unlabelled. */
export function histogramMetric(name: string, help: string, tally: Tally): Metric {
  return computedMetric(name, help, "histogram", () => {
    const values: Values = [];
    histogramValues(values, name, tally);
    return values;
  });
}

/** A counter or gauge of one value, unlabelled. */
export function singleMetric(name: string, help: string, type: "counter" | "gauge", value: () => number): Metric {
  return computedMetric(name, help, type, () => [{ value: value(), labels: {} }]);
}
