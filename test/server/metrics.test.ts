/**
 * `GET /metrics` on a real server process, scraped as Prometheus would and
 * read with the Prometheus project's own text-format parser (its Python
 * client, `test/support/prometheus-text.ts`): the families and their types,
 * the key, and the counters, histogram and gauge moving by exactly the
 * requests sent, labelled by route, kind and status.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { rmSync } from "node:fs";
import { LATENCY_BUCKETS } from "../../src/server/metrics.js";
import { parsePrometheusText, type Family, type Sample } from "../support/prometheus-text.js";
import { serverEnv, startServer, tempDir, type ServerProcess } from "./support/server-process.js";

const KEY = "metrics-test-key-0123456789abcdefghij";
const auth = { authorization: `Bearer ${KEY}` };
const json = { ...auth, "content-type": "application/json" };
const PATH_ROUTE = "/v1/databases/:name/commands";

let dataDir = "";
let server: ServerProcess;

test.before(async () => {
  dataDir = tempDir("metrics");
  server = await startServer(serverEnv(dataDir, { STORE_API_KEY: KEY }));
});

test.after(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function scrape(): Promise<Map<string, Family>> {
  const response = await fetch(`${server.url}/metrics`, { headers: auth });
  assert.is(response.status, 200);
  assert.is(response.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  const families = parsePrometheusText(await response.text());
  const byName = new Map(families.map((family) => [family.name, family]));
  assert.is(byName.size, families.length, "each family once");
  return byName;
}

const matches = (sample: Sample, labels: Record<string, string>) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value);

/** The value of `storedb_http_requests_total` for one label set (0 before its first request). */
function requests(families: Map<string, Family>, labels: Record<string, string>): number {
  // The parser names a counter's family without `_total`; its samples keep it.
  return families.get("storedb_http_requests")!.samples.find((sample) => sample.name === "storedb_http_requests_total" && matches(sample, labels))?.value ?? 0;
}

/** One latency series: its buckets by bound, sum and count. */
function latency(families: Map<string, Family>, route: string, kind: string): { buckets: [string, number][]; sum: number; count: number } {
  const samples = families.get("storedb_http_request_duration_seconds")!.samples.filter((sample) => matches(sample, { route, kind }));
  const value = (suffix: string) => samples.find((sample) => sample.name.endsWith(suffix))?.value ?? 0;
  const buckets = samples.filter((sample) => sample.name.endsWith("_bucket")).map((sample): [string, number] => [sample.labels.le!, sample.value]);
  return { buckets, sum: value("_sum"), count: value("_count") };
}

const gauge = (families: Map<string, Family>, name: string) => families.get(name)!.samples[0]!.value;

const post = (route: string, body: unknown) => fetch(`${server.url}${route}`, { method: "POST", headers: json, body: typeof body === "string" ? body : JSON.stringify(body) });

test("behind the key; the families and their types", async () => {
  assert.is((await fetch(`${server.url}/metrics`)).status, 401);
  const families = await scrape();
  const types: Record<string, string> = {
    storedb_http_requests: "counter",
    storedb_http_request_duration_seconds: "histogram",
    storedb_open_databases: "gauge",
    process_cpu_seconds: "counter",
    process_resident_memory_bytes: "gauge",
    nodejs_heap_size_used_bytes: "gauge",
    nodejs_eventloop_lag_seconds: "gauge",
  };
  for (const [name, type] of Object.entries(types)) assert.is(families.get(name)?.type, type, name);
  // The refused scrape itself was counted.
  assert.is(requests(families, { route: "/metrics", kind: "", status: "401" }), 1);
  assert.is(gauge(families, "storedb_open_databases"), 0);
});

test("the counters, the histogram and the gauge move with requests", async () => {
  const before = await scrape();
  const users = { name: "users", columns: { id: "integer", name: "text" }, primary_key: { columns: ["id"] } };
  assert.is((await post("/v1/databases/alpha/commands", { command: { kind: "create-table", schema: users } })).status, 200);
  assert.is((await post("/v1/commands", { database: "beta", command: { kind: "create-table", schema: users } })).status, 200);
  for (let id = 1; id <= 3; id++) assert.is((await post("/v1/commands", { database: "alpha", command: { kind: "insert", table: "users", rows: [{ id, name: `u${id}` }] } })).status, 200);
  for (let i = 0; i < 7; i++) assert.is((await post("/v1/databases/alpha/commands", { command: { kind: "sql", sql: "SELECT name FROM users WHERE id = ?", params: [1] } })).status, 200);
  assert.is((await post("/v1/databases/alpha/commands", { command: { kind: "select", table: "ghosts", columns: "*" } })).status, 404);
  assert.is((await post("/v1/databases/alpha/commands", "{")).status, 400);
  assert.is((await post("/v1/databases/Alpha/commands", { command: { kind: "describe" } })).status, 400);
  assert.is((await fetch(`${server.url}/nowhere`, { headers: auth })).status, 404);
  assert.is((await fetch(`${server.url}/v1/databases`, { headers: auth })).status, 200);
  assert.is((await fetch(`${server.url}/health`)).status, 200);
  const after = await scrape();

  const moved = (labels: Record<string, string>) => requests(after, labels) - requests(before, labels);
  assert.is(moved({ route: PATH_ROUTE, kind: "create-table", status: "200" }), 1);
  assert.is(moved({ route: "/v1/commands", kind: "create-table", status: "200" }), 1);
  assert.is(moved({ route: "/v1/commands", kind: "insert", status: "200" }), 3);
  assert.is(moved({ route: PATH_ROUTE, kind: "sql", status: "200" }), 7);
  assert.is(moved({ route: PATH_ROUTE, kind: "select", status: "404" }), 1);
  assert.is(moved({ route: PATH_ROUTE, kind: "", status: "400" }), 2, "refused before a command was known");
  assert.is(moved({ route: "unmatched", kind: "", status: "404" }), 1);
  assert.is(moved({ route: "/v1/databases", kind: "", status: "200" }), 1);
  assert.is(moved({ route: "/health", kind: "", status: "200" }), 1);
  assert.is(moved({ route: "/metrics", kind: "", status: "200" }), 1, "the scrape before");

  const selects = latency(after, PATH_ROUTE, "sql");
  assert.is(selects.count - latency(before, PATH_ROUTE, "sql").count, 7);
  assert.ok(selects.sum > 0);
  assert.equal(
    selects.buckets.map(([bound]) => bound),
    [...LATENCY_BUCKETS.map(String), "+Inf"],
  );
  const counts = selects.buckets.map(([, count]) => count);
  for (let i = 1; i < counts.length; i++) assert.ok(counts[i]! >= counts[i - 1]!, "buckets are cumulative");
  assert.is(counts.at(-1), selects.count);

  assert.is(gauge(after, "storedb_open_databases"), 2);
  assert.ok(gauge(after, "process_cpu_seconds") > 0);
});

test.run();
