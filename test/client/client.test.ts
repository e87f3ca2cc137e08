/**
 * The client's connection behaviour, against a real server behind a real
 * TCP proxy (`support/proxy.ts`) that can drop, cut, hold or answer for
 * the server: keep-alive reuse, which failures are retried (a read after a
 * broken connection, any command whose connection was never made) and
 * which never are (a write whose connection broke: it may have been
 * applied), timeouts, and answers that are not storedb's.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { ConnectionError, createClient, type RemoteDatabase } from "../../src/client/index.js";
import { onlyReads } from "../../src/client/safe-retry.js";
import { StoreError } from "../../src/errors.js";
import { serverEnv, startServer, tempDir, type ServerProcess } from "../server/support/server-process.js";
import { Proxy } from "./support/proxy.js";

const dir = tempDir("client");
let server: ServerProcess;
const proxies: Proxy[] = [];

test.before(async () => {
  server = await startServer(serverEnv(path.join(dir, "data")));
  const db = createClient({ url: server.url }).database("shop");
  await db.sql("CREATE TABLE t (id INT PRIMARY KEY, note TEXT)");
});
test.after(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function proxied(options: { timeoutMs?: number; retries?: number } = {}): Promise<{ proxy: Proxy; db: RemoteDatabase }> {
  const proxy = await Proxy.start(server.port);
  proxies.push(proxy);
  return { proxy, db: createClient({ url: proxy.url, ...options }).database("shop") };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

async function count(id: number): Promise<number> {
  const result = await createClient({ url: server.url }).database("shop").sql("SELECT id FROM t WHERE id = ?", [id]);
  return result.kind === "rows" ? result.rowCount : -1;
}

test("sequential commands share one kept-alive connection", async () => {
  const { proxy, db } = await proxied();
  for (let i = 0; i < 20; i++) await db.table("t").select("id").where({ id: i }).run();
  // undici may open a second socket while the first is handed back to its pool; never one per command.
  assert.ok(proxy.connections <= 2, `${proxy.connections} connections for 20 commands`);
});

test("a read whose connection broke before the server saw it is sent again and answers", async () => {
  const { proxy, db } = await proxied();
  proxy.plan.push("drop-request");
  const result = await db.sql("SELECT id FROM t");
  assert.is(result.kind, "rows");
  assert.is(proxy.connections, 2);
});

test("a write whose answer was lost is never sent again: it was applied once", async () => {
  const { proxy, db } = await proxied();
  proxy.plan.push("cut-answer");
  const error = await rejection(db.table("t").insert({ id: 1, note: "once" }).run());
  assert.instance(error, ConnectionError);
  assert.is((error as ConnectionError).code, "connection_failed");
  assert.is(proxy.connections, 1, "no second attempt");
  assert.is(await count(1), 1, "the server applied it, once");
});

test("a write whose connection broke before the server saw it is not resent either (the client cannot know)", async () => {
  const { proxy, db } = await proxied();
  proxy.plan.push("drop-request");
  const error = await rejection(db.sql("INSERT INTO t (id) VALUES (2)"));
  assert.is((error as ConnectionError).code, "connection_failed");
  assert.is(proxy.connections, 1);
  assert.is(await count(2), 0);
});

/** A loopback port nothing listens on (one the OS just handed out and took back). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

test("a write whose connection was never made is retried: nothing was sent", async () => {
  // A port nothing listens on yet; the proxy starts there while the client waits to retry.
  const port = await freePort();
  const db = createClient({ url: `http://127.0.0.1:${port}`, retries: 3 }).database("shop");
  const sent = db.table("t").insert({ id: 3 }).run();
  await new Promise((resolve) => setTimeout(resolve, 30));
  proxies.push(await Proxy.start(server.port, port));
  assert.equal(await sent, { kind: "mutation", operation: "insert", table: "t", rowsAffected: 1 });
  assert.is(await count(3), 1);
});

test("with nothing listening, the client gives up after its retries with connection_failed", async () => {
  const db = createClient({ url: `http://127.0.0.1:${await freePort()}`, retries: 1 }).database("shop");
  const error = await rejection(db.sql("SELECT id FROM t"));
  assert.instance(error, ConnectionError);
  assert.is((error as ConnectionError).code, "connection_failed");
  assert.match(error.message, /could not connect \(ECONNREFUSED\)/);
});

test("no answer within the timeout is a timeout, not retried", async () => {
  const { proxy, db } = await proxied({ timeoutMs: 300 });
  proxy.plan.push("hold");
  const started = Date.now();
  const error = await rejection(db.sql("SELECT id FROM t"));
  assert.is((error as ConnectionError).code, "timeout");
  assert.ok(Date.now() - started >= 290, "waited for the timeout");
  assert.is(proxy.connections, 1);
});

test("an answer that is not storedb's is unexpected_response, with its status", async () => {
  const { proxy, db } = await proxied();
  proxy.plan.push("html-502");
  const error = await rejection(db.sql("SELECT id FROM t"));
  assert.instance(error, ConnectionError);
  assert.is((error as ConnectionError).code, "unexpected_response");
  assert.is((error as ConnectionError).status, 502);
});

test("the API key: missing or wrong is the library's unauthorized error", async () => {
  const keyed = await startServer(serverEnv(path.join(dir, "keyed"), { STORE_API_KEY: "client-test-key-0123456789abcdef01234" }));
  try {
    for (const apiKey of [undefined, "wrong"]) {
      const error = await rejection(createClient({ url: keyed.url, ...(apiKey ? { apiKey } : {}) }).database("shop").sql("SELECT a FROM t"));
      assert.instance(error, StoreError);
      assert.is((error as StoreError).code, "unauthorized");
      assert.is((error as StoreError).status, 401);
    }
    const ok = await rejection(createClient({ url: keyed.url, apiKey: "client-test-key-0123456789abcdef01234" }).database("shop").sql("SELECT a FROM t"));
    assert.is((ok as StoreError).code, "database_not_found", "past the key, the database answers");
  } finally {
    await keyed.stop();
  }
});

test("createClient refuses what cannot be a server address or a setting", () => {
  assert.throws(() => createClient({ url: "not a url" }), TypeError);
  assert.throws(() => createClient({ url: "ftp://host" }), /http: or https:/);
  assert.throws(() => createClient({ url: "http://host", timeoutMs: 0 }), /timeoutMs/);
  assert.throws(() => createClient({ url: "http://host", retries: -1 }), /retries/);
});

test("what counts as a read for retrying", () => {
  for (const command of [
    { kind: "select", table: "t", columns: "*" },
    { kind: "describe" },
    { kind: "validate" },
    { kind: "explain", command: { kind: "delete", table: "t", where: { type: "literal", value: true } } },
    { kind: "sql", sql: "SELECT a FROM t" },
    { kind: "sql", sql: "  -- note\n/* c */ select a FROM t" },
    { kind: "sql", sql: "EXPLAIN DELETE FROM t" },
    { kind: "sql", sql: "WITH c AS (SELECT a FROM t) SELECT a FROM c" },
  ]) {
    assert.ok(onlyReads(command), JSON.stringify(command));
  }
  for (const command of [
    { kind: "insert", table: "t", rows: [{}] },
    { kind: "sql", sql: "DELETE FROM t" },
    { kind: "sql", sql: "/* SELECT */ DELETE FROM t" },
    { kind: "sql", sql: "-- SELECT\nUPDATE t SET a = 1" },
    { kind: "checkpoint" },
    { kind: "create-table", schema: { name: "x", columns: {} } },
    null,
    "select",
  ]) {
    assert.not.ok(onlyReads(command), JSON.stringify(command));
  }
});

test.run();
