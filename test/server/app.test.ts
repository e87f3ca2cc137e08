/**
 * Route tests through `app.inject()` on the real app and a real
 * DataDirectory in a scratch directory: everything that needs no socket —
 * problem details for every error path, auth, content type, body limit,
 * `__proto__` bodies, the drain gate, and the log lines.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { runChecked } from "../../src/checked.js";
import { buildApp } from "../../src/server/app.js";
import { DrainGate } from "../../src/server/drain.js";
import { hundredths, serviceLog, type ServiceLog } from "../../src/server/request-log.js";
import { DataDirectory } from "../../src/storage/data-directory.js";
import { problem as expectProblem } from "./support/problem.js";
import { nodeFs, type FileSystem } from "../../src/storage/fs.js";

const KEY = "test-key-0123456789-abcdefghijklmnop";
const LIMIT = 2048;
const auth = { authorization: `Bearer ${KEY}` };
const json = { "content-type": "application/json" };

let dir = "";
let store: DataDirectory;
let app: FastifyInstance;
let open: FastifyInstance;
let log: ServiceLog;
const logLines: Record<string, unknown>[] = [];
/** Set to an errno code to make every new file write fail (after the directory lock is taken). */
let fault: string | undefined;

const injected = (file: string) => Object.assign(new Error(`${fault}: injected at ${file}`), { code: fault });
const faultyFs: FileSystem = {
  ...nodeFs,
  async createExclusive(file, mode, options) {
    if (fault !== undefined && file.includes(".tmp")) throw injected(file);
    return nodeFs.createExclusive(file, mode, options);
  },
  // A journal's appends fail too, so a write fails whether or not its database has a journal yet.
  async openJournal(file, options) {
    if (fault !== undefined && file.includes(".tmp")) throw injected(file);
    const journal = await nodeFs.openJournal(file, options);
    return {
      append: (data, at) => (fault !== undefined ? Promise.reject(injected(file)) : journal.append(data, at)),
      preallocate: (from, length) => (fault !== undefined ? Promise.reject(injected(file)) : journal.preallocate(from, length)),
      truncate: (length) => journal.truncate(length),
      stat: () => journal.stat(),
      close: () => journal.close(),
    };
  },
};

test.before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "storedb-app-"));
  store = await DataDirectory.open(dir, { fs: faultyFs });
  const sink = { write: (line: string) => logLines.push(JSON.parse(line) as Record<string, unknown>) > 0 };
  log = serviceLog("debug", sink);
  app = buildApp({ store, apiKey: KEY, maxBodyBytes: LIMIT, logger: log });
  open = buildApp({ store, maxBodyBytes: LIMIT });
  await app.ready();
  await open.ready();
});

test.after(async () => {
  await app.close();
  await open.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function send(command: unknown, database = "shop", target = app): Promise<LightMyRequestResponse> {
  return target.inject({ method: "POST", url: "/v1/commands", headers: { ...auth, ...json }, payload: JSON.stringify({ database, command }) });
}

/** A problem answer (see `support/problem.ts`) whose detail never names the data directory. */
function problem(response: LightMyRequestResponse, status: number, code: string): Record<string, unknown> {
  return expectProblem(response, status, code, dir);
}

const usersSchema = { name: "users", columns: { id: "text", name: "text", age: "integer" }, primary_key: { columns: ["id"] }, required: ["name"] };

test("GET /health is exactly {\"status\":\"ok\"}, without auth", async () => {
  const response = await app.inject({ method: "GET", url: "/health" });
  assert.is(response.statusCode, 200);
  assert.is(response.body, '{"status":"ok"}');
  assert.match(String(response.headers["content-type"]), /^application\/json/);
  assert.is((await app.inject({ method: "HEAD", url: "/health" })).statusCode, 200);
});

test("a command runs end to end", async () => {
  assert.is((await send({ kind: "create-table", schema: usersSchema })).statusCode, 200);
  const inserted = await send({ kind: "insert", table: "users", rows: [{ id: "1", name: "Ada", age: 36 }] });
  assert.equal(inserted.json(), { kind: "mutation", operation: "insert", table: "users", rowsAffected: 1 });
  const selected = await send({ kind: "sql", sql: "SELECT name FROM users WHERE id = ?", params: ["1"] });
  assert.equal(selected.json(), { kind: "rows", columns: ["name"], rows: [{ name: "Ada" }], rowCount: 1 });
});

const unauthorized: [string, Record<string, string>][] = [
  ["no header", {}],
  ["wrong key", { authorization: "Bearer not-the-key" }],
  ["the key with a suffix", { authorization: `Bearer ${KEY}x` }],
  ["another scheme", { authorization: `Basic ${KEY}` }],
  ["scheme only", { authorization: "Bearer" }],
  ["two tokens", { authorization: `Bearer ${KEY} ${KEY}` }],
];
for (const [name, headers] of unauthorized) {
  test(`401 with WWW-Authenticate: Bearer — ${name}`, async () => {
    const response = await app.inject({ method: "POST", url: "/v1/commands", headers: { ...headers, ...json }, payload: "{}" });
    problem(response, 401, "unauthorized");
    assert.is(response.headers["www-authenticate"], "Bearer");
  });
}

test("the scheme is case-insensitive", async () => {
  for (const scheme of ["bearer", "BEARER", "bEaReR"]) {
    const response = await app.inject({ method: "POST", url: "/v1/commands", headers: { authorization: `${scheme} ${KEY}`, ...json }, payload: JSON.stringify({ database: "shop", command: { kind: "describe" } }) });
    assert.is(response.statusCode, 200, scheme);
  }
});

test("401 comes before everything else: unknown route, wrong method, wrong content type, too large", async () => {
  problem(await app.inject({ method: "GET", url: "/admin" }), 401, "unauthorized");
  problem(await app.inject({ method: "GET", url: "/v1/commands" }), 401, "unauthorized");
  problem(await app.inject({ method: "POST", url: "/v1/commands", headers: { "content-type": "text/plain" }, payload: "x" }), 401, "unauthorized");
  problem(await app.inject({ method: "POST", url: "/v1/commands", headers: json, payload: "x".repeat(LIMIT * 2) }), 401, "unauthorized");
});

test("404 not_found for an unknown route", async () => {
  const body = problem(await app.inject({ method: "GET", url: "/v2/commands?x=1", headers: auth }), 404, "not_found");
  assert.match(String(body.detail), "/v2/commands");
});

test("405 method_not_allowed with Allow on a known route", async () => {
  const get = await app.inject({ method: "GET", url: "/v1/commands", headers: auth });
  problem(get, 405, "method_not_allowed");
  assert.is(get.headers.allow, "POST");
  const post = await app.inject({ method: "POST", url: "/health", headers: { ...auth, ...json }, payload: "{}" });
  problem(post, 405, "method_not_allowed");
  assert.is(post.headers.allow, "GET, HEAD");
  assert.is((await app.inject({ method: "DELETE", url: "/v1/commands?a=b", headers: auth })).headers.allow, "POST");
});

test("415 when the content type is missing or not application/json", async () => {
  const envelope = JSON.stringify({ database: "shop", command: { kind: "describe" } });
  problem(await app.inject({ method: "POST", url: "/v1/commands", headers: auth }), 415, "unsupported_media_type");
  problem(await app.inject({ method: "POST", url: "/v1/commands", headers: auth, payload: envelope }), 415, "unsupported_media_type");
  for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/jsonp", "application/problem+json", "multipart/form-data; boundary=x"]) {
    problem(await app.inject({ method: "POST", url: "/v1/commands", headers: { ...auth, "content-type": type }, payload: envelope }), 415, "unsupported_media_type");
  }
  for (const type of ["application/json; charset=utf-8", "Application/JSON", "application/json;charset=UTF-8"]) {
    const response = await app.inject({ method: "POST", url: "/v1/commands", headers: { ...auth, "content-type": type }, payload: envelope });
    assert.is(response.statusCode, 200, type);
  }
});

test("413 over STORE_MAX_BODY_BYTES, accepted at exactly the limit", async () => {
  const envelope = JSON.stringify({ database: "shop", command: { kind: "describe" } });
  const atLimit = envelope + " ".repeat(LIMIT - envelope.length);
  assert.is(Buffer.byteLength(atLimit), LIMIT);
  assert.is((await app.inject({ method: "POST", url: "/v1/commands", headers: { ...auth, ...json }, payload: atLimit })).statusCode, 200);
  const body = problem(await app.inject({ method: "POST", url: "/v1/commands", headers: { ...auth, ...json }, payload: `${atLimit} ` }), 413, "payload_too_large");
  assert.match(String(body.detail), String(LIMIT));
});

test("400 invalid_json for a body that does not parse, or none", async () => {
  for (const payload of ["{", "{'a':1}", "nul", '{"database":"shop",}', ""]) {
    problem(await app.inject({ method: "POST", url: "/v1/commands", headers: { ...auth, ...json }, payload }), 400, "invalid_json");
  }
});

test("400 invalid_request naming the field, for shapes the envelope schema refuses", async () => {
  const cases: [unknown, string][] = [
    [null, ""],
    [[], ""],
    [{ database: "shop" }, "command"],
    [{ database: "shop", command: { kind: "delete", table: "users", wehre: { type: "literal", value: true } } }, "wehre"],
    [{ database: "shop", command: { kind: "select", table: "users", columns: "*", limit: -1 } }, "limit"],
    [{ database: "shop", command: { kind: "teleport" } }, "kind"],
    [{ database: "shop", command: { kind: "describe" }, extra: 1 }, "extra"],
  ];
  for (const [body, field] of cases) {
    const response = await app.inject({ method: "POST", url: "/v1/commands", headers: { ...auth, ...json }, payload: JSON.stringify(body) });
    const answer = problem(response, 400, "invalid_request");
    assert.match(String(answer.detail), field);
  }
});

test("deeply nested bodies are refused with 400, not a crash", async () => {
  const roomy = buildApp({ store, maxBodyBytes: 1 << 20 });
  const arrays = `{"database":"shop","command":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
  problem(await roomy.inject({ method: "POST", url: "/v1/commands", headers: json, payload: arrays }), 400, "invalid_request");
  const depth = 10_000;
  const nots = `{"database":"shop","command":{"kind":"select","table":"users","columns":"*","where":${'{"type":"not","expr":'.repeat(depth)}{"type":"literal","value":true}${"}".repeat(depth)}}}`;
  const answer = problem(await roomy.inject({ method: "POST", url: "/v1/commands", headers: json, payload: nots }), 400, "invalid_request");
  assert.match(String(answer.detail), "where");
  await roomy.close();
});

test("400 invalid_name for a bad database name", async () => {
  for (const name of ["Shop", "../etc", "con", "a/b", "", "x".repeat(65)]) problem(await send({ kind: "describe" }, name), 400, "invalid_name");
});

test("__proto__ in a body reaches validation and is refused there; nothing is polluted", async () => {
  const envelope = '{"__proto__":{"polluted":true},"database":"shop","command":{"kind":"describe"}}';
  const top = problem(await app.inject({ method: "POST", url: "/v1/commands", headers: { ...auth, ...json }, payload: envelope }), 400, "invalid_request");
  assert.match(String(top.detail), "__proto__");
  const inCommand = '{"database":"shop","command":{"kind":"describe","__proto__":{"table":"users"}}}';
  problem(await app.inject({ method: "POST", url: "/v1/commands", headers: { ...auth, ...json }, payload: inCommand }), 400, "invalid_request");
  const asTable = '{"database":"shop","command":{"kind":"drop-table","table":"__proto__"}}';
  problem(await app.inject({ method: "POST", url: "/v1/commands", headers: { ...auth, ...json }, payload: asTable }), 400, "invalid_name");
  const inRow = '{"database":"shop","command":{"kind":"insert","table":"users","rows":[{"__proto__":{"id":"9"},"id":"2","name":"Bo"}]}}';
  const row = problem(await app.inject({ method: "POST", url: "/v1/commands", headers: { ...auth, ...json }, payload: inRow }), 422, "validation_failed");
  assert.ok(Array.isArray(row.errors));
  const constructor = '{"database":"shop","command":{"kind":"insert","table":"users","rows":[{"id":"3","name":"Cy","constructor":{"prototype":{"polluted":true}}}]}}';
  problem(await app.inject({ method: "POST", url: "/v1/commands", headers: { ...auth, ...json }, payload: constructor }), 422, "validation_failed");
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  const count = await send({ kind: "select", table: "users", columns: ["id"], orderBy: [{ column: "id" }] });
  assert.equal((count.json() as { rows: unknown[] }).rows, [{ id: "1" }]);
});

test("engine and storage errors keep their §7 code, status and extras", async () => {
  problem(await send({ kind: "describe" }, "nowhere"), 404, "database_not_found");
  problem(await send({ kind: "select", table: "ghosts", columns: "*" }), 404, "table_not_found");
  problem(await send({ kind: "create-table", schema: usersSchema }), 409, "table_exists");
  const duplicate = problem(await send({ kind: "insert", table: "users", rows: [{ id: "1", name: "again" }] }), 409, "constraint_violation");
  assert.ok(Array.isArray(duplicate.errors));
  problem(await send({ kind: "insert", table: "users", rows: [{ id: "5" }] }), 422, "validation_failed");
  const syntax = problem(await send({ kind: "sql", sql: "SELEC name FROM users" }), 400, "sql_syntax_error");
  assert.equal(syntax.position, { line: 1, column: 1, offset: 0 });
  assert.ok(Array.isArray(syntax.expected));
  problem(await send({ kind: "sql", sql: "SELECT name FROM users WHERE id = ?", params: [] }), 400, "sql_error");
  problem(await send({ kind: "select", table: "users", columns: ["nope"] }), 400, "unknown_column");
  const mismatch = problem(await send({ kind: "sql", sql: "SELECT name FROM users WHERE age = 'old'" }), 400, "type_mismatch");
  assert.equal(mismatch.position, { line: 1, column: 30, offset: 29 });
  const unknown = problem(await send({ kind: "sql", sql: "SELECT nmae FROM users" }), 400, "unknown_column");
  assert.equal(unknown.position, { line: 1, column: 8, offset: 7 });
});

test("a full disk answers 507 insufficient_storage and an I/O failure 500 storage_error; nothing changes", async () => {
  fault = "ENOSPC";
  try {
    problem(await send({ kind: "insert", table: "users", rows: [{ id: "7", name: "Full" }] }), 507, "insufficient_storage");
    fault = "EIO";
    problem(await send({ kind: "insert", table: "users", rows: [{ id: "7", name: "Broken" }] }), 500, "storage_error");
  } finally {
    fault = undefined;
  }
  const rows = await send({ kind: "select", table: "users", columns: ["id"], where: { type: "comparison", op: "=", left: { type: "identifier", name: "id" }, right: { type: "literal", value: "7" } } });
  assert.is((rows.json() as { rowCount: number }).rowCount, 0);
});

test("an unexpected error is 500 internal_error with a fixed detail, logged with the request id", async () => {
  const failures: string[] = [];
  const failing = buildApp({
    store: {
      [runChecked]: () => Promise.reject(new Error(`EACCES: open '${dir}/shop.store' at Object.openSync (node:fs:1)`)),
      list: () => Promise.resolve([]),
      gauges: () => ({ openDatabases: 0, journalBytes: 0, storedBytes: 0 }),
      hold: () => () => {},
    },
    maxBodyBytes: LIMIT,
    logger: serviceLog("info", { write: (line: string) => failures.push(line) > 0 }),
  });
  const response = await failing.inject({ method: "POST", url: "/v1/commands", headers: json, payload: JSON.stringify({ database: "shop", command: { kind: "describe" } }) });
  const body = problem(response, 500, "internal_error");
  assert.not.match(String(body.detail), "EACCES");
  assert.match(String(body.detail), String(response.headers["x-request-id"]));
  assert.not.match(response.body, "node:fs");
  const logged = failures.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.msg === "unexpected error");
  assert.ok(logged, "the error is logged");
  assert.is(logged!.reqId, response.headers["x-request-id"]);
  assert.match(JSON.stringify(logged!.err), "EACCES");
  await failing.close();
});

test("while draining: 503 shutting_down with Retry-After, before auth", async () => {
  const gate = new DrainGate();
  const draining = buildApp({ store, apiKey: KEY, maxBodyBytes: LIMIT, gate });
  assert.is((await draining.inject({ method: "GET", url: "/health" })).statusCode, 200);
  gate.begin();
  const response = await draining.inject({ method: "POST", url: "/v1/commands", headers: json, payload: "{}" });
  problem(response, 503, "shutting_down");
  assert.is(response.headers["retry-after"], "5");
  await draining.close();
});

test("timeouts against slow clients are set on the listening server", async () => {
  const listening = buildApp({ store, maxBodyBytes: LIMIT });
  await listening.listen({ host: "127.0.0.1", port: 0 });
  try {
    assert.is(listening.server.headersTimeout, 10_000);
    assert.is(listening.server.requestTimeout, 30_000);
    assert.is(listening.server.keepAliveTimeout, 5_000);
    assert.is(listening.server.timeout, 60_000);
  } finally {
    await listening.close();
  }
});

test("without a key every route is open", async () => {
  assert.is((await send({ kind: "describe" }, "shop", open)).statusCode, 200);
  problem(await open.inject({ method: "GET", url: "/nope" }), 404, "not_found");
});

test("one log line per request: request id, database, command, status, duration; never the Authorization header", async () => {
  await send({ kind: "describe" });
  const line = logLines.filter((entry) => entry.msg === "request completed").at(-1)!;
  assert.type(line.reqId, "string");
  assert.is(line.database, "shop");
  assert.is(line.command, "describe");
  assert.is(line.status, 200);
  assert.type(line.durationMs, "number");
  const refused = logLines.find((entry) => entry.msg === "request completed" && entry.status === 401);
  assert.is(refused?.code, "unauthorized");
  log.logger.info({ req: { headers: { authorization: `Bearer ${KEY}` } } }, "a careless line");
  log.logger.info({ headers: { authorization: `Bearer ${KEY}` } }, "another careless line");
  assert.ok(logLines.length > 10);
  assert.not.match(JSON.stringify(logLines), KEY);
  assert.match(JSON.stringify(logLines), "[redacted]");
});

test("X-Request-Id: an acceptable incoming id is kept (answer header and log line), anything else replaced", async () => {
  const ours = /^[0-9a-f]{12}-[0-9a-z]+$/;
  const describe = JSON.stringify({ database: "shop", command: { kind: "describe" } });
  const kept = ["3f2a9c1e0b7d4e5fa1b2c3d4e5f60718", "123e4567-e89b-12d3-a456-426614174000", "Root=1-abc/def+g:h_i.j@k", "x".repeat(128)];
  for (const id of kept) {
    const response = await app.inject({ method: "POST", url: "/v1/commands", headers: { ...auth, ...json, "x-request-id": id }, payload: describe });
    assert.is(response.headers["x-request-id"], id);
    assert.is(logLines.filter((entry) => entry.msg === "request completed").at(-1)!.reqId, id);
  }
  const replaced = ["", "x".repeat(129), 'a"b', "a b", "a\\b", "été", "a,b", "<script>"];
  for (const id of replaced) {
    const response = await app.inject({ method: "POST", url: "/v1/commands", headers: { ...auth, ...json, "x-request-id": id }, payload: describe });
    assert.match(String(response.headers["x-request-id"]), ours, JSON.stringify(id));
  }
  // Two headers arrive joined ("a, b"): not one id.
  const twice = await app.inject({ method: "GET", url: "/health", headers: { "x-request-id": ["first", "second"] } });
  assert.match(String(twice.headers["x-request-id"]), ours);
  const absent = await app.inject({ method: "GET", url: "/health" });
  assert.match(String(absent.headers["x-request-id"]), ours);
});

test("each request line has its own path, without the query", async () => {
  for (const url of ["/nope?key=secret", "/a%22b", "/nope", "/v1/commands?x=1"]) await app.inject({ method: "GET", url });
  const paths = logLines.filter((entry) => entry.msg === "request completed").slice(-4).map((entry) => entry.path);
  assert.equal(paths, ["/nope", "/a%22b", "/nope", "/v1/commands"]);
});

test("durations are JSON numbers in hundredths of a millisecond", () => {
  const cases: [number, string][] = [[0, "0.00"], [0.004, "0.00"], [0.006, "0.01"], [1.5, "1.50"], [12.05, "12.05"], [99.999, "100.00"], [1234.5678, "1234.57"]];
  for (const [ms, text] of cases) {
    assert.is(hundredths(ms), text);
    assert.is(JSON.parse(text), Math.round(ms * 100) / 100);
  }
  for (const odd of [Number.NaN, -1, Number.POSITIVE_INFINITY]) assert.is(hundredths(odd), "0");
});

test.run();
