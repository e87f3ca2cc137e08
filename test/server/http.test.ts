/**
 * The service as users meet it: `node server.js` (the bundle of
 * `src/server/main.ts`) started as a real process on a free port and a
 * scratch data directory, spoken to over real HTTP. Covers the §7 codes an
 * HTTP client can reach, §8 auth and limits, §9 configuration failures and
 * warnings, persistence across a restart, and the directory lock.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import path from "node:path";
import { command, runToExit, serverEnv, startServer, tempDir, type ServerProcess } from "./support/server-process.js";

const KEY = "http-test-key-0123456789abcdefghijkl";
const LIMIT = 4096;
const auth = { authorization: `Bearer ${KEY}` };

let dataDir = "";
let server: ServerProcess;
const scratch: string[] = [];

test.before(async () => {
  dataDir = tempDir("http");
  scratch.push(dataDir);
  server = await startServer(serverEnv(dataDir, { STORE_API_KEY: KEY, STORE_MAX_BODY_BYTES: String(LIMIT) }));
});

test.after(async () => {
  await server.stop();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

async function raw(
  method: string,
  route: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers; text: string }> {
  const response = await fetch(`${server.url}${route}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  return { status: response.status, text, headers: response.headers, body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

function expectProblem(answer: { status: number; body: Record<string, unknown>; headers: Headers }, status: number, code: string): void {
  assert.is(answer.status, status, JSON.stringify(answer.body));
  assert.match(answer.headers.get("content-type") ?? "", /^application\/problem\+json/);
  assert.is(answer.body.status, status);
  assert.is(answer.body.code, code);
  assert.type(answer.body.title, "string");
  assert.type(answer.body.detail, "string");
  assert.not.match(String(answer.body.detail), dataDir);
}

const ident = (name: string) => ({ type: "identifier", name });
const lit = (value: unknown) => ({ type: "literal", value });

test("setup: tables over HTTP", async () => {
  const users = await command(server.url, "shop", { kind: "create-table", schema: { name: "users", columns: { id: "text", name: "text", age: "integer" }, primary_key: { columns: ["id"] }, required: ["name"] } }, auth);
  assert.is(users.status, 200, JSON.stringify(users.body));
  const orders = await command(
    server.url,
    "shop",
    {
      kind: "create-table",
      schema: {
        name: "orders",
        columns: { id: "integer", user_id: "text", name: "text" },
        primary_key: { columns: ["id"] },
        foreign_keys: [{ columns: ["user_id"], references: { table: "users", columns: ["id"] } }],
      },
    },
    auth,
  );
  assert.is(orders.status, 200, JSON.stringify(orders.body));
  const inserted = await command(server.url, "shop", { kind: "insert", table: "users", rows: [{ id: "1", name: "Ada", age: 36 }] }, auth);
  assert.equal(inserted.body, { kind: "mutation", operation: "insert", table: "users", rowsAffected: 1 });
});

test("GET /health is open and exact", async () => {
  const answer = await raw("GET", "/health");
  assert.is(answer.status, 200);
  assert.is(answer.text, '{"status":"ok"}');
});

test("§8 auth: 401 with WWW-Authenticate before any route is found; scheme case-insensitive", async () => {
  for (const [route, method] of [["/v1/commands", "POST"], ["/secret", "GET"], ["/v1/commands", "GET"]] as const) {
    const answer = await raw(method, route, { "content-type": "application/json" }, method === "POST" ? "{}" : undefined);
    expectProblem(answer, 401, "unauthorized");
    assert.is(answer.headers.get("www-authenticate"), "Bearer");
  }
  expectProblem(await raw("POST", "/v1/commands", { authorization: "Bearer wrong", "content-type": "application/json" }, "{}"), 401, "unauthorized");
  for (const scheme of ["bearer", "BEARER", "Bearer"]) {
    const answer = await command(server.url, "shop", { kind: "describe", table: "users" }, { authorization: `${scheme} ${KEY}` });
    assert.is(answer.status, 200, scheme);
  }
});

test("§7 over HTTP: route, method, media type, size and JSON errors", async () => {
  expectProblem(await raw("GET", "/nope", auth), 404, "not_found");
  const method = await raw("PUT", "/v1/commands", auth);
  expectProblem(method, 405, "method_not_allowed");
  assert.is(method.headers.get("allow"), "POST");
  expectProblem(await raw("POST", "/v1/commands", { ...auth, "content-type": "text/plain" }, "{}"), 415, "unsupported_media_type");
  expectProblem(await raw("POST", "/v1/commands", auth), 415, "unsupported_media_type");
  expectProblem(await raw("POST", "/v1/commands", { ...auth, "content-type": "application/json" }, "{not json"), 400, "invalid_json");

  const envelope = JSON.stringify({ database: "shop", command: { kind: "describe", table: "users" } });
  const atLimit = envelope + " ".repeat(LIMIT - Buffer.byteLength(envelope));
  assert.is((await raw("POST", "/v1/commands", { ...auth, "content-type": "application/json" }, atLimit)).status, 200);
  expectProblem(await raw("POST", "/v1/commands", { ...auth, "content-type": "application/json" }, `${atLimit} `), 413, "payload_too_large");
});

/** Sends `head` on a raw connection, then `body` once the server says 100 Continue; all the server wrote. */
function exchange(head: string, body: string): Promise<string> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    let text = "";
    const socket = connect(Number(url.port), url.hostname, () => socket.write(head));
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
      if (text.startsWith("HTTP/1.1 100") && !socket.destroyed && body !== "") {
        socket.write(body);
        body = "";
      }
      if (/\r\n\r\n[\s\S]*\}$/.test(text.replace(/^HTTP\/1\.1 100[^\r]*\r\n\r\n/, ""))) socket.end();
    });
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

test("Expect: 100-continue: a body over the limit is refused before it is sent; one within it is read", async () => {
  const headers = (length: number) =>
    `POST /v1/databases/shop/commands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`;
  const refused = await exchange(headers(LIMIT + 1), "");
  assert.match(refused, /^HTTP\/1\.1 413 /);
  assert.match(refused, /"code":"payload_too_large"/);
  const body = JSON.stringify({ command: { kind: "describe", table: "users" } });
  const read = await exchange(headers(Buffer.byteLength(body)), body);
  assert.match(read, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
  assert.match(read, /"kind":"schema"/);
});

test("§7 over HTTP: every command-level code", async () => {
  const cases: [string, Record<string, unknown>, number, string][] = [
    ["shop", { kind: "select", table: "users", columns: "*", wehre: lit(true) }, 400, "invalid_request"],
    ["Shop", { kind: "describe" }, 400, "invalid_name"],
    ["shop", { kind: "sql", sql: "SELECT FROM users" }, 400, "sql_syntax_error"],
    ["shop", { kind: "sql", sql: "SELECT id FROM users WHERE id = ?", params: [] }, 400, "sql_error"],
    ["shop", { kind: "select", table: "users", columns: ["nope"] }, 400, "unknown_column"],
    ["shop", { kind: "select", table: "users", columns: ["name"], joins: [{ type: "inner", table: "orders", on: { type: "comparison", op: "=", left: ident("users.id"), right: ident("orders.user_id") } }] }, 400, "ambiguous_column"],
    ["shop", { kind: "select", table: "users", columns: "*", where: { type: "comparison", op: "=", left: ident("age"), right: lit("old") } }, 400, "type_mismatch"],
    ["nowhere", { kind: "select", table: "users", columns: "*" }, 404, "database_not_found"],
    ["shop", { kind: "select", table: "ghosts", columns: "*" }, 404, "table_not_found"],
    ["shop", { kind: "create-table", schema: { name: "users", columns: { id: "text" } } }, 409, "table_exists"],
    ["shop", { kind: "insert", table: "users", rows: [{ id: "1", name: "Again" }] }, 409, "constraint_violation"],
    ["shop", { kind: "insert", table: "orders", rows: [{ id: 1, user_id: "nobody" }] }, 409, "constraint_violation"],
    ["shop", { kind: "insert", table: "users", rows: [{ id: "2" }] }, 422, "validation_failed"],
    ["shop", { kind: "insert", table: "users", rows: [{ id: "2", name: "Bo", age: 1.5 }] }, 422, "validation_failed"],
  ];
  for (const [database, cmd, status, code] of cases) {
    const answer = await command(server.url, database, cmd, auth);
    expectProblem(answer, status, code);
    if (code === "sql_syntax_error") {
      assert.ok(typeof answer.body.position === "object", "position");
      assert.ok(Array.isArray(answer.body.expected), "expected");
    }
    if (code === "constraint_violation" || code === "validation_failed") assert.ok(Array.isArray(answer.body.errors), "errors");
  }
});

test("§7 over HTTP: a corrupt file is 500 database_corrupt (file untouched), validate still answers 200", async () => {
  const file = path.join(dataDir, "broken.store");
  writeFileSync(file, '{"format":"storedb/1","tables":{');
  expectProblem(await command(server.url, "broken", { kind: "select", table: "users", columns: "*" }, auth), 500, "database_corrupt");
  expectProblem(await command(server.url, "broken", { kind: "insert", table: "users", rows: [{ id: "1" }] }, auth), 500, "database_corrupt");
  assert.is(readFileSync(file, "utf8"), '{"format":"storedb/1","tables":{');
  const validated = await command(server.url, "broken", { kind: "validate" }, auth);
  assert.is(validated.status, 200);
  assert.is(validated.body.valid, false);
});

test("§2 over HTTP: a file replaced or edited on disk is seen by the very next request", async () => {
  const file = path.join(dataDir, "edited.store");
  const store = (rows: string) => `{"format":"storedb/1","tables":{"t":{"schema":{"columns":{"v":"integer"},"name":"t"},"rows":[${rows}]}}}`;
  const values = async () => {
    const answer = await command(server.url, "edited", { kind: "select", table: "t", columns: ["v"], output: "arrays" }, auth);
    assert.is(answer.status, 200, JSON.stringify(answer.body));
    return (answer.body.rows as number[][]).map((row) => row[0]);
  };
  writeFileSync(file, store('{"v":0}'));
  assert.equal(await values(), [0]);
  // Warm: repeated reads of an unchanged file are answered from memory; each edit lands between two requests.
  for (let round = 1; round <= 20; round++) {
    if (round % 2 === 0) {
      writeFileSync(file, store(`{"v":${round}}`)); // in place: same inode, new size and mtime
    } else {
      writeFileSync(`${file}.incoming`, store(`{"v":${round}},{"v":${round}}`));
      renameSync(`${file}.incoming`, file); // restore from backup: a new inode
    }
    assert.equal(await values(), round % 2 === 0 ? [round] : [round, round], `round ${round}`);
    assert.equal(await values(), round % 2 === 0 ? [round] : [round, round], `round ${round}, again`);
  }
  unlinkSync(file);
  expectProblem(await command(server.url, "edited", { kind: "select", table: "t", columns: "*" }, auth), 404, "database_not_found");
});

test("logs: one JSON line per request with reqId, database, command, status; never the key", async () => {
  const lines = server.logs().filter((line) => line.msg === "request completed");
  const described = lines.find((line) => line.command === "describe" && line.status === 200);
  assert.ok(described, "a describe line");
  assert.type(described!.reqId, "string");
  assert.is(described!.database, "shop");
  assert.type(described!.durationMs, "number");
  assert.not.match(server.stdout() + server.stderr(), KEY);
});

test("§2 the lock: a second server on the same data directory exits 1 at once, the first keeps serving", async () => {
  const started = Date.now();
  const second = await runToExit(serverEnv(dataDir, { STORE_API_KEY: KEY }));
  assert.is(second.code, 1);
  assert.ok(Date.now() - started < 5000, "exits at once");
  assert.match(second.stderr, /^storedb: cannot open the data directory .*STORE_DATA_PATH/);
  assert.is(second.stderr.trim().split("\n").length, 1, second.stderr);
  assert.is((await raw("GET", "/health")).status, 200);
});

test("persistence across a restart: SIGTERM exits 0, a new process sees the rows", async () => {
  const inserted = await command(server.url, "shop", { kind: "sql", sql: "INSERT INTO users (id, name) VALUES (?, ?)", params: ["restart", "Persisted"] }, auth);
  assert.is(inserted.status, 200);
  const exit = await server.stop();
  assert.equal(exit, { code: 0, signal: null });
  assert.ok(server.logs().some((line) => line.msg === "stopped"));
  server = await startServer(serverEnv(dataDir, { STORE_API_KEY: KEY, STORE_MAX_BODY_BYTES: String(LIMIT) }));
  const selected = await command(server.url, "shop", { kind: "sql", sql: "SELECT name FROM users WHERE id = ?", params: ["restart"] }, auth);
  assert.equal(selected.body, { kind: "rows", columns: ["name"], rows: [{ name: "Persisted" }], rowCount: 1 });
});

const badConfig: [string, string][] = [
  ["STORE_PORT", "abc"],
  ["STORE_MAX_BODY_BYTES", "-1"],
  ["STORE_LOG_LEVEL", "loud"],
];
for (const [variable, value] of badConfig) {
  test(`§9 ${variable}=${value}: one line naming the variable, exit 1`, async () => {
    const dir = tempDir("config");
    scratch.push(dir);
    const result = await runToExit(serverEnv(dir, { [variable]: value }));
    assert.is(result.code, 1);
    const lines = result.stderr.trim().split("\n");
    assert.is(lines.length, 1, result.stderr);
    assert.match(lines[0]!, `storedb: invalid configuration: ${variable} `);
    assert.not.match(result.stdout, "storedb ready");
  });
}

test("§9 a data path that cannot be a directory: exit 1 naming STORE_DATA_PATH", async () => {
  const dir = tempDir("datapath");
  scratch.push(dir);
  const file = path.join(dir, "not-a-directory");
  writeFileSync(file, "");
  const result = await runToExit(serverEnv(file));
  assert.is(result.code, 1);
  assert.match(result.stderr, /^storedb: .*STORE_DATA_PATH/);
  assert.is(result.stderr.trim().split("\n").length, 1, result.stderr);
});

test("§9 a port already in use: exit 1 naming the variables", async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const address = blocker.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const dir = tempDir("port");
  scratch.push(dir);
  try {
    const result = await runToExit(serverEnv(dir, { STORE_PORT: String(port) }));
    assert.is(result.code, 1);
    assert.match(result.stderr, "STORE_PORT");
    assert.match(result.stderr, "EADDRINUSE");
  } finally {
    blocker.close();
  }
});

test("§9 warnings: beyond loopback without a key; a short key", async () => {
  const dir = tempDir("warn");
  scratch.push(dir);
  const exposed = await startServer(serverEnv(dir, { STORE_BIND_ADDRESS: "0.0.0.0" }));
  const warnings = exposed.logs().filter((line) => line.level === 40).map((line) => String(line.msg));
  assert.ok(warnings.some((msg) => msg.includes("STORE_API_KEY is not set")), warnings.join("\n"));
  assert.equal(await exposed.stop(), { code: 0, signal: null });

  const short = await startServer(serverEnv(dir, { STORE_API_KEY: "short" }));
  const shortWarnings = short.logs().filter((line) => line.level === 40).map((line) => String(line.msg));
  assert.ok(shortWarnings.some((msg) => msg.includes("shorter than 32")), shortWarnings.join("\n"));
  assert.not.match(short.stdout(), '"short"');
  assert.equal(await short.stop("SIGINT"), { code: 0, signal: null });
});

test.run();
