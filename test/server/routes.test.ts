/**
 * The §12 routes through `app.inject()` on the real app and a real
 * DataDirectory. `POST /v1/databases/{name}/commands`: the same answers and
 * errors as the envelope route, the §1 name rule on the path segment, the
 * rule for a body that names a database too, and everything the routes share
 * (auth, content type, 405, the log line). `GET /v1/databases`: the listing.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { buildApp } from "../../src/server/app.js";
import { serviceLog } from "../../src/server/request-log.js";
import { DataDirectory } from "../../src/storage/data-directory.js";
import { problem } from "./support/problem.js";

const KEY = "test-key-0123456789-abcdefghijklmnop";
const auth = { authorization: `Bearer ${KEY}` };
const json = { "content-type": "application/json" };

let dir = "";
let store: DataDirectory;
let app: FastifyInstance;
const logLines: Record<string, unknown>[] = [];

test.before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "storedb-path-route-"));
  store = await DataDirectory.open(dir);
  const sink = { write: (line: string) => logLines.push(JSON.parse(line) as Record<string, unknown>) > 0 };
  app = buildApp({ store, apiKey: KEY, maxBodyBytes: 1 << 20, logger: serviceLog("info", sink) });
  await app.ready();
});

test.after(async () => {
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function viaPath(name: string, body: unknown, headers: Record<string, string> = { ...auth, ...json }): Promise<LightMyRequestResponse> {
  return app.inject({ method: "POST", url: `/v1/databases/${name}/commands`, headers, payload: JSON.stringify(body) });
}

function viaEnvelope(database: string, command: unknown): Promise<LightMyRequestResponse> {
  return app.inject({ method: "POST", url: "/v1/commands", headers: { ...auth, ...json }, payload: JSON.stringify({ database, command }) });
}

const users = { name: "users", columns: { id: "text", name: "text" }, primary_key: { columns: ["id"] } };
const byId = (id: string) => ({ type: "comparison", op: "=", left: { type: "identifier", name: "id" }, right: { type: "literal", value: id } });

test("the path route runs every kind of command on the named database, as the envelope route does", async () => {
  assert.equal((await viaPath("shop", { command: { kind: "create-table", schema: users } })).json(), {
    kind: "mutation",
    operation: "create-table",
    table: "users",
    rowsAffected: 0,
  });
  assert.is((await viaPath("shop", { command: { kind: "insert", table: "users", rows: [{ id: "1", name: "Ada" }] } })).statusCode, 200);
  // Written through one route, read through the other: one database, one store.
  const commands: unknown[] = [
    { kind: "select", table: "users", columns: "*", where: byId("1") },
    { kind: "sql", sql: "SELECT name FROM users WHERE id = ?", params: ["1"] },
    { kind: "describe" },
    { kind: "validate" },
    { kind: "explain", command: { kind: "select", table: "users", columns: ["name"], where: byId("1") } },
  ];
  for (const command of commands) {
    const [byPath, byEnvelope] = [await viaPath("shop", { command }), await viaEnvelope("shop", command)];
    assert.is(byPath.statusCode, 200, byPath.body);
    assert.is(byPath.body, byEnvelope.body);
  }
});

test("errors are the envelope route's, status, code and detail", async () => {
  const cases: unknown[] = [
    { kind: "select", table: "ghosts", columns: "*" },
    { kind: "insert", table: "users", rows: [{ id: "1", name: "again" }] },
    { kind: "sql", sql: "SELEC 1" },
    { kind: "delete", table: "users", wehre: byId("1") },
    { kind: "teleport" },
  ];
  for (const command of cases) {
    const [byPath, byEnvelope] = [await viaPath("shop", { command }), await viaEnvelope("shop", command)];
    assert.ok(byPath.statusCode >= 400, byPath.body);
    assert.is(byPath.body, byEnvelope.body);
  }
  problem(await viaPath("nowhere", { command: { kind: "describe" } }), 404, "database_not_found");
});

test("a body may name the database too, but only the path's", async () => {
  assert.is((await viaPath("shop", { database: "shop", command: { kind: "describe" } })).statusCode, 200);
  const other = problem(await viaPath("shop", { database: "other", command: { kind: "describe" } }), 400, "invalid_request");
  assert.match(String(other.detail), '"other"');
  assert.match(String(other.detail), '"shop"');
  problem(await viaPath("shop", { database: "Other", command: { kind: "describe" } }), 400, "invalid_name");
});

test("400 invalid_name for a path segment that breaks §1, whatever the body", async () => {
  for (const name of ["Shop", "con", "lpt1", "x".repeat(65), "-lead", "a.b", "a%2Fb", "..%2F..%2Fetc", "sh%20op", "%C3%A9t%C3%A9"]) {
    const body = problem(await viaPath(name, { command: { kind: "describe" } }), 400, "invalid_name");
    assert.match(String(body.detail), "database");
    problem(await viaPath(name, { nonsense: true }), 400, "invalid_name");
  }
  assert.is((await viaPath("sh%6Fp", { command: { kind: "describe" } })).statusCode, 200, "a percent-encoded valid name is that name");
  problem(await viaPath("", { command: { kind: "describe" } }), 400, "invalid_name");
});

test("body shapes: unknown fields, a missing command, bad JSON, too deep", async () => {
  assert.match(String(problem(await viaPath("shop", { command: { kind: "describe" }, extra: 1 }), 400, "invalid_request").detail), "extra");
  assert.match(String(problem(await viaPath("shop", {}), 400, "invalid_request").detail), "command");
  problem(await viaPath("shop", null), 400, "invalid_request");
  problem(await app.inject({ method: "POST", url: "/v1/databases/shop/commands", headers: { ...auth, ...json }, payload: "{" }), 400, "invalid_json");
  const nots = `{"command":{"kind":"select","table":"users","columns":"*","where":${'{"type":"not","expr":'.repeat(5000)}{"type":"literal","value":true}${"}".repeat(5000)}}}`;
  problem(await app.inject({ method: "POST", url: "/v1/databases/shop/commands", headers: { ...auth, ...json }, payload: nots }), 400, "invalid_request");
  problem(await viaPath("shop", { command: { kind: "insert", table: "users", rows: [{ id: "2", name: { type: "param", index: 0 } }] } }), 422, "validation_failed");
});

test("shared with every route: 401 first, 415, 405 with Allow, 413", async () => {
  problem(await viaPath("shop", { command: { kind: "describe" } }, json), 401, "unauthorized");
  problem(await viaPath("Shop", { command: { kind: "describe" } }, json), 401, "unauthorized");
  problem(await viaPath("shop", { command: { kind: "describe" } }, { ...auth, "content-type": "text/plain" }), 415, "unsupported_media_type");
  const get = await app.inject({ method: "GET", url: "/v1/databases/shop/commands", headers: auth });
  problem(get, 405, "method_not_allowed");
  assert.is(get.headers.allow, "POST");
  problem(await app.inject({ method: "POST", url: "/v1/databases/shop/commands/x", headers: { ...auth, ...json }, payload: "{}" }), 404, "not_found");
  problem(await viaPath("shop", { command: { kind: "sql", sql: "x".repeat(1 << 20) } }), 413, "payload_too_large");
});

test("the log line names the path's database and the command", async () => {
  const response = await viaPath("shop", { command: { kind: "describe" } });
  const line = logLines.filter((entry) => entry.msg === "request completed").at(-1)!;
  assert.is(line.reqId, response.headers["x-request-id"]);
  assert.is(line.database, "shop");
  assert.is(line.command, "describe");
  assert.is(line.path, "/v1/databases/shop/commands");
  assert.is(line.status, 200);
});

test("GET /v1/databases lists every database with bytes and tables, sorted, behind the key", async () => {
  await viaPath("alpha", { command: { kind: "create-table", schema: { ...users, name: "people" } } });
  const response = await app.inject({ method: "GET", url: "/v1/databases", headers: auth });
  assert.is(response.statusCode, 200);
  assert.match(String(response.headers["content-type"]), /^application\/json/);
  const { databases } = response.json() as { databases: { name: string; bytes: number; tables: string[] }[] };
  assert.equal(databases.map((entry) => entry.name), ["alpha", "shop"]);
  assert.equal(databases.map((entry) => entry.tables), [["people"], ["users"]]);
  // A database's bytes are its document's and, once it has one, its journal's.
  const footprint = (name: string) => [".store", ".store-journal"].map((suffix) => path.join(dir, name + suffix)).filter((file) => existsSync(file)).reduce((sum, file) => sum + statSync(file).size, 0);
  for (const entry of databases) assert.is(entry.bytes, footprint(entry.name));
  problem(await app.inject({ method: "GET", url: "/v1/databases" }), 401, "unauthorized");
  const post = await app.inject({ method: "POST", url: "/v1/databases", headers: { ...auth, ...json }, payload: "{}" });
  problem(post, 405, "method_not_allowed");
  assert.is(post.headers.allow, "GET, HEAD");
});

test.run();
