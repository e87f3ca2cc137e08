/**
 * `GET /metrics` on a real server process, scraped as Prometheus would and
 * read with the Prometheus project's own text-format parser (its Python
 * client, `test/support/prometheus-text.ts`): the families and their types,
 * the key, the request counters, histogram and gauge moving by exactly the
 * requests sent, labelled by route, kind and status, and storage's metrics
 * moving with the work done: durable commits, journal bytes, checkpoints,
 * evictions under a budget of two open databases, loads and their bytes.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { LATENCY_BUCKETS } from "../../src/server/metrics.js";
import { scanJournal } from "../../src/storage/journal-format.js";
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
  server = await startServer(serverEnv(dataDir, { STORE_API_KEY: KEY, STORE_MAX_OPEN_DATABASES: "2" }));
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
    storedb_open_database_stored_bytes: "gauge",
    storedb_journal_bytes: "gauge",
    storedb_database_load_duration_seconds: "histogram",
    storedb_database_loaded_bytes: "counter",
    storedb_persist_duration_seconds: "histogram",
    storedb_checkpoint_duration_seconds: "histogram",
    storedb_checkpoint_failures: "counter",
    storedb_database_evictions: "counter",
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

const bytesOf = (name: string) => (existsSync(path.join(dataDir, name)) ? readFileSync(path.join(dataDir, name)).length : 0);

/** A family's single sample (a gauge or counter), or a histogram's `_count` or `_sum`. */
function sample(families: Map<string, Family>, family: string, name = family): number {
  return families.get(family)!.samples.find((s) => s.name === name)!.value;
}

/**
 * A scrape with the open databases' journal and document bytes around it,
 * taken when the files stood still across it: an idle checkpoint (a second
 * after a database's last write) may reset a journal at any time.
 */
async function steadyScrape(): Promise<[Map<string, Family>, number, number]> {
  const files = () => [bytesOf("gamma.store-journal") + bytesOf("alpha.store-journal"), bytesOf("gamma.store") + bytesOf("alpha.store")];
  for (let tries = 0; ; tries++) {
    const [journal, documents] = files();
    const scraped = await scrape();
    const [journalAfter, documentsAfter] = files();
    if ((journalAfter === journal && documentsAfter === documents) || tries === 50) return [scraped, journal!, documents!];
  }
}

test("storage's metrics move with the work: commits, journal bytes, checkpoints, evictions, loads", async () => {
  const before = await scrape();
  const moved = (after: Map<string, Family>, family: string, name = family) => sample(after, family, name) - sample(before, family, name);
  const users = { name: "users", columns: { id: "integer", name: "text" }, primary_key: { columns: ["id"] } };
  // alpha and beta are open (the test before); gamma is a third: beta, the least recently used, is evicted.
  assert.is((await post("/v1/databases/gamma/commands", { command: { kind: "create-table", schema: users } })).status, 200);
  for (let id = 1; id <= 4; id++) assert.is((await post("/v1/databases/gamma/commands", { command: { kind: "insert", table: "users", rows: [{ id, name: `g${id}` }] } })).status, 200);
  // beta's close (its journal folded) has finished once its lock is gone.
  for (const end = Date.now() + 10_000; existsSync(path.join(dataDir, "beta.store-lock")) && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 10));
  const [written, journal, documents] = await steadyScrape();
  assert.is(moved(written, "storedb_persist_duration_seconds", "storedb_persist_duration_seconds_count"), 5, "one durable commit per write");
  assert.ok(moved(written, "storedb_persist_duration_seconds", "storedb_persist_duration_seconds_sum") > 0);
  assert.is(moved(written, "storedb_database_evictions", "storedb_database_evictions_total"), 1);
  assert.is(gauge(written, "storedb_open_databases"), 2);
  assert.is(gauge(written, "storedb_journal_bytes"), journal, "the open databases' journals, byte for byte");
  assert.is(gauge(written, "storedb_open_database_stored_bytes"), journal + documents);

  assert.is((await post("/v1/databases/gamma/commands", { command: { kind: "checkpoint" } })).status, 200);
  const [folded, journalFolded] = await steadyScrape();
  // gamma's fold, by the command or by the idle checkpoint a slow machine lets come first; alpha's idle one may land here too.
  const checkpoints = moved(folded, "storedb_checkpoint_duration_seconds", "storedb_checkpoint_duration_seconds_count");
  assert.ok(checkpoints >= 1 && checkpoints <= 2, `${checkpoints} checkpoints`);
  assert.is(gauge(folded, "storedb_journal_bytes"), journalFolded);
  const changes = scanJournal(readFileSync(path.join(dataDir, "gamma.store-journal"))).entries.filter((entry) => entry.kind === "changes");
  assert.is(changes.length, 0, "gamma's journal holds no changes once checkpointed");
  assert.is(moved(folded, "storedb_checkpoint_failures", "storedb_checkpoint_failures_total"), 0);

  // beta opens again from its files: a load of exactly their bytes (its eviction folded the journal).
  const betaBytes = bytesOf("beta.store") + bytesOf("beta.store-journal");
  assert.is((await post("/v1/databases/beta/commands", { command: { kind: "select", table: "users", columns: "*" } })).status, 200);
  const reopened = await scrape();
  assert.is(moved(reopened, "storedb_database_load_duration_seconds", "storedb_database_load_duration_seconds_count"), 1);
  assert.is(moved(reopened, "storedb_database_loaded_bytes", "storedb_database_loaded_bytes_total"), betaBytes);
  assert.is(moved(reopened, "storedb_database_evictions", "storedb_database_evictions_total"), 2, "alpha made room for beta");
  assert.is(gauge(reopened, "storedb_open_databases"), 2);
});

test.run();
