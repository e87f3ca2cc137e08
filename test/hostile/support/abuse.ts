/**
 * Abuse cases against a running server, sized by the caller: `npm test` runs
 * them small, `scripts/soak.ts` large. Each case asserts its own outcome —
 * a clear §7 error or a correct answer, in time — and that the process is
 * still alive; memory is read from /proc so "bounded" is a measured number.
 */
import { writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import * as assert from "uvu/assert";
import { codeOf, problemViolations } from "./problem.js";
import { sleep, type Reply, type ServerProcess } from "./server.js";

export const BIG_SCHEMA = { name: "t", columns: { id: "integer", n: "integer", r: "real", s: "text" }, primary_key: { columns: ["id"] }, required: ["id"] };

export function expectProblem(reply: Reply, status: number, codes: readonly string[], what: string, dataDir?: string): void {
  const v = problemViolations(reply, { status, codes, ...(dataDir ? { dataDir } : {}) });
  assert.equal(v, [], `${what}: ${v.join("; ")}\n${reply.text.slice(0, 300)}`);
}

export function expectOk(reply: Reply, what: string): void {
  assert.is(reply.status, 200, `${what}: ${reply.status} ${reply.text.slice(0, 300)}`);
}

async function ids(server: ServerProcess, database: string): Promise<number[]> {
  const reply = await server.command({ database, command: { kind: "select", table: "t", columns: ["id"], output: "arrays" } });
  expectOk(reply, "select ids");
  return (reply.json as { rows: [number][] }).rows.map(([id]) => id);
}

/** A body of exactly `limit` bytes is served; one byte more is 413, with or without a content-length. */
export async function bodyLimit(server: ServerProcess, limit: number): Promise<void> {
  const database = "limits";
  expectOk(await server.command({ database, command: { kind: "create-table", schema: BIG_SCHEMA } }), "create");
  const tail = `"}]}}`;
  const head = (id: number): string => `{"database":"${database}","command":{"kind":"insert","table":"t","rows":[{"id":${id},"s":"`;
  const make = (id: number, size: number): string => head(id) + "x".repeat(size - head(id).length - tail.length) + tail;
  const atLimit = make(1, limit);
  assert.is(Buffer.byteLength(atLimit), limit);
  expectOk(await server.command(atLimit), "a body of exactly the limit");
  // Refusing a body the client is still sending may reset the connection before the 413 can be read
  // (TCP discards it on the RST); that is a refusal too — what matters is that nothing is stored.
  const isReset = (error: unknown): boolean => /socket hang up|ECONNRESET|EPIPE/.test(String(error));
  // With a content-length the 413 must be read at least once in three tries (a loaded machine lost the race once).
  let read = false;
  for (const id of [2, 5, 6]) {
    try {
      expectProblem(await server.command(make(id, limit + 1)), 413, ["payload_too_large"], "one byte over the limit", server.dataDir);
      read = true;
      break;
    } catch (error) {
      if (!isReset(error)) throw error;
    }
  }
  assert.ok(read, "a 413 for one byte over the limit, with a content-length");
  for (const [id, size, what] of [[3, limit + 1, "one byte over, chunked"], [4, limit * 4, "four times the limit, chunked"]] as const) {
    try {
      expectProblem(await server.command(make(id, size), { chunked: true }), 413, ["payload_too_large"], what, server.dataDir);
    } catch (error) {
      if (!isReset(error)) throw error;
    }
  }
  assert.equal(await ids(server, database), [1], "only the body within the limit was stored");
  const row = await server.command({ database, command: { kind: "select", table: "t", columns: ["s"], where: { type: "comparison", op: "=", left: { type: "identifier", name: "id" }, right: { type: "literal", value: 1 } } } });
  const stored = (row.json as { rows: { s: string }[] }).rows[0]?.s ?? "";
  assert.is(stored.length, limit - head(1).length - tail.length, "the padded value is stored whole");
}

/** Numbers no column can hold exactly: rejected with 400/422, never stored rounded or as null. */
export async function hugeNumbers(server: ServerProcess): Promise<number> {
  const database = "numbers";
  expectOk(await server.command({ database, command: { kind: "create-table", schema: BIG_SCHEMA } }), "create");
  const raw = (id: number, member: string): string => `{"database":"${database}","command":{"kind":"insert","table":"t","rows":[{"id":${id},${member}}]}}`;
  const cases: [string, string][] = [
    ["1e400 in a real column", raw(10, `"r":1e400`)],
    ["-1e400 in a real column", raw(11, `"r":-1e400`)],
    ["1e400 in an integer column", raw(12, `"n":1e400`)],
    ["2^53+1 in an integer column", raw(13, `"n":9007199254740993`)],
    ["-(2^53+1) in an integer column", raw(14, `"n":-9007199254740993`)],
    ["2^53 in an integer column", raw(15, `"n":9007199254740992`)],
    ["1.5 in an integer column", raw(16, `"n":1.5`)],
    ["2^53+1 as the primary key", raw(9007199254740993, `"n":1`)],
    ["1e400 as the primary key", raw(0, `"n":1`).replace('"id":0', '"id":1e400')],
    ["update set 1e400", `{"database":"${database}","command":{"kind":"update","table":"t","set":{"r":1e400},"where":{"type":"literal","value":true}}}`],
    ["SQL literal 1e400", JSON.stringify({ database, command: { kind: "sql", sql: "INSERT INTO t (id, r) VALUES (20, 1e400)" } })],
    ["SQL literal 2^53+1", JSON.stringify({ database, command: { kind: "sql", sql: "INSERT INTO t (id, n) VALUES (21, 9007199254740993)" } })],
    ["SQL literal 1e400 digits", JSON.stringify({ database, command: { kind: "sql", sql: `INSERT INTO t (id, r) VALUES (22, 1${"0".repeat(400)})` } })],
    ["SQL param 1e400", `{"database":"${database}","command":{"kind":"sql","sql":"INSERT INTO t (id, r) VALUES (?, ?)","params":[23,1e400]}}`],
    ["SQL param 2^53+1", `{"database":"${database}","command":{"kind":"sql","sql":"INSERT INTO t (id, n) VALUES (?, ?)","params":[24,9007199254740993]}}`],
    ["SQL set 2^53+1", JSON.stringify({ database, command: { kind: "sql", sql: "UPDATE t SET n = 9007199254740993" } })],
  ];
  expectOk(await server.command({ database, command: { kind: "insert", table: "t", rows: [{ id: 1, n: 1, r: 1.5 }] } }), "a normal row");
  for (const [what, body] of cases) {
    const reply = await server.command(body);
    assert.ok(reply.status === 400 || reply.status === 422, `${what}: expected 400/422, got ${reply.status} ${reply.text.slice(0, 300)}`);
    assert.equal(problemViolations(reply, { dataDir: server.dataDir }), [], what);
  }
  const rows = await server.command({ database, command: { kind: "select", table: "t", columns: "*" } });
  assert.equal((rows.json as { rows: unknown[] }).rows, [{ id: 1, n: 1, r: 1.5, s: null }], "nothing rounded, nulled or half-stored");
  return cases.length;
}

function deepNot(depth: number): string {
  return `${'{"type":"not","expr":'.repeat(depth)}{"type":"literal","value":true}${"}".repeat(depth)}`;
}

/**
 * Arrays and objects where a row or `set` needs a scalar: rejected (400 or
 * 422 type), never stored as NULL — also in a primary-key column, and also
 * nested `depth` levels deep.
 */
export async function nonScalarValues(server: ServerProcess, depth: number): Promise<number> {
  const database = "scalars";
  expectOk(await server.command({ database, command: { kind: "create-table", schema: BIG_SCHEMA } }), "create");
  expectOk(await server.command({ database, command: { kind: "insert", table: "t", rows: [{ id: 1, n: 1, r: 1.5, s: "a" }] } }), "a normal row");
  const insert = (row: string): string => `{"database":"${database}","command":{"kind":"insert","table":"t","rows":[${row}]}}`;
  const cases: [string, string][] = [
    ["[] in a text column", insert(`{"id":2,"s":[]}`)],
    ["an object in a text column", insert(`{"id":3,"s":{"a":1}}`)],
    ["[5] in an integer column", insert(`{"id":4,"n":[5]}`)],
    ["[3] as the primary key", insert(`{"id":[3]}`)],
    ["a param-shaped object from JSON", insert(`{"id":5,"s":{"type":"param","index":0}}`)],
    [`an array ${depth} levels deep`, insert(`{"id":6,"s":${"[".repeat(depth)}${"]".repeat(depth)}}`)],
    ["update set [\"x\"]", `{"database":"${database}","command":{"kind":"update","table":"t","set":{"s":["x"]},"where":{"type":"literal","value":true}}}`],
  ];
  for (const [what, body] of cases) {
    const reply = await server.command(body, { timeoutMs: 30_000 });
    assert.ok(reply.status === 400 || reply.status === 422, `${what}: expected 400/422, got ${reply.status} ${reply.text.slice(0, 200)}`);
    assert.equal(problemViolations(reply, { dataDir: server.dataDir }), [], what);
  }
  const rows = await server.command({ database, command: { kind: "select", table: "t", columns: "*" } });
  assert.equal((rows.json as { rows: unknown[] }).rows, [{ id: 1, n: 1, r: 1.5, s: "a" }], "nothing stored as NULL");
  return cases.length;
}

/** An update `set` value outside its column's type is rejected even when no row matches (the value is known up front). */
export async function updateWrongValueNoMatch(server: ServerProcess): Promise<number> {
  const database = "scalars";
  const none = { type: "literal", value: false };
  const cases: [string, unknown][] = [
    ["set n = 'ten' where false", { kind: "update", table: "t", set: { n: "ten" }, where: none }],
    ["set n = 1.5 where false", { kind: "update", table: "t", set: { n: 1.5 }, where: none }],
    ["set id = null where false", { kind: "update", table: "t", set: { id: null }, where: none }],
    ["SQL SET n = 'ten' WHERE FALSE", { kind: "sql", sql: "UPDATE t SET n = 'ten' WHERE FALSE" }],
  ];
  await server.command({ database, command: { kind: "create-table", schema: BIG_SCHEMA, ifNotExists: true } });
  for (const [what, command] of cases) {
    const reply = await server.command({ database, command });
    assert.ok(reply.status === 422 || reply.status === 400, `${what}: expected 422/400, got ${reply.status} ${reply.text.slice(0, 200)}`);
  }
  return cases.length;
}

/** Nesting far past the 256-level limit, in JSON and SQL: a 400, not a stack overflow. */
export async function deepNesting(server: ServerProcess, depth: number): Promise<number> {
  const database = "deep";
  expectOk(await server.command({ database, command: { kind: "create-table", schema: BIG_SCHEMA } }), "create");
  const json = (command: string) => `{"database":"${database}","command":${command}}`;
  const cases: [string, string, readonly string[]][] = [
    [`a where ${depth} levels deep`, json(`{"kind":"select","table":"t","columns":"*","where":${deepNot(depth)}}`), ["invalid_request"]],
    ["257 levels", json(`{"kind":"select","table":"t","columns":"*","where":${deepNot(257)}}`), ["invalid_request"]],
    [`an and ${depth} levels deep`, json(`{"kind":"delete","table":"t","where":${'{"type":"and","operands":['.repeat(depth)}{"type":"literal","value":true}${"]}".repeat(depth)}}`), ["invalid_request"]],
    [`an object ${depth} levels deep in an unknown field`, json(`{"kind":"validate","x":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`), ["invalid_request"]],
    [`SQL NOT x${depth}`, JSON.stringify({ database, command: { kind: "sql", sql: `SELECT * FROM t WHERE ${"NOT ".repeat(depth)}TRUE` } }), ["sql_error"]],
    [`SQL ${depth} parentheses`, JSON.stringify({ database, command: { kind: "sql", sql: `SELECT * FROM t WHERE ${"(".repeat(depth)}n = 1${")".repeat(depth)}` } }), ["sql_error"]],
    ["SQL 257 parentheses", JSON.stringify({ database, command: { kind: "sql", sql: `SELECT * FROM t WHERE ${"(".repeat(257)}n = 1${")".repeat(257)}` } }), ["sql_error"]],
  ];
  for (const [what, body, codes] of cases) {
    expectProblem(await server.command(body, { timeoutMs: 30_000 }), 400, codes, what, server.dataDir);
  }
  // 256 levels is within the limit and must work.
  const ok = await server.command(json(`{"kind":"select","table":"t","columns":"*","where":${deepNot(255)}}`));
  expectOk(ok, "255 nested nots under the root");
  return cases.length + 1;
}

/** Megabyte-sized SQL texts: parentheses, an unterminated string and comment; a 400 in time. */
export async function bigSql(server: ServerProcess, bytes: number): Promise<number> {
  const database = "deep";
  const half = Math.floor(bytes / 2);
  const cases: [string, string, readonly string[]][] = [
    [`${bytes} bytes of balanced parentheses`, `SELECT * FROM t WHERE ${"(".repeat(half)}1 = 1${")".repeat(half)}`, ["sql_error"]],
    [`${bytes} bytes of open parentheses`, `SELECT ${"(".repeat(bytes)}`, ["sql_error", "sql_syntax_error"]],
    [`an unterminated string of ${bytes} bytes`, `SELECT * FROM t WHERE s = '${"a''".repeat(bytes / 3)}`, ["sql_syntax_error"]],
    [`an unterminated comment of ${bytes} bytes`, `SELECT * FROM t /*${"*".repeat(bytes)}`, ["sql_syntax_error"]],
    [`${bytes} bytes of semicolons`, `SELECT * FROM t${";".repeat(bytes)}`, ["sql_syntax_error", "sql_error"]],
    [`${bytes / 10} statements`, "SELECT * FROM t;".repeat(bytes / 160), ["sql_syntax_error", "sql_error"]],
  ];
  for (const [what, sql, codes] of cases) {
    const started = performance.now();
    const reply = await server.command({ database, command: { kind: "sql", sql } }, { timeoutMs: 30_000 });
    expectProblem(reply, 400, codes, what, server.dataDir);
    assert.ok(performance.now() - started < 20_000, `${what} took ${Math.round(performance.now() - started)} ms`);
  }
  return cases.length;
}

/** Wide but shallow: `terms` parameters and OR terms are served, with the right rows. */
export async function wideQueries(server: ServerProcess, terms: number): Promise<number> {
  const database = "wide";
  expectOk(await server.command({ database, command: { kind: "create-table", schema: BIG_SCHEMA } }), "create");
  const rows = Array.from({ length: 50 }, (_, i) => ({ id: i, n: i * 1000 }));
  expectOk(await server.command({ database, command: { kind: "insert", table: "t", rows } }), "insert");
  // Every 1000th value hits a row, so the answer is known: ids 0..min(49, terms/1000).
  const values = Array.from({ length: terms }, (_, i) => i);
  const expected = rows.filter((r) => r.n < terms).map((r) => ({ id: r.id }));
  const check = (reply: Reply, what: string): void => {
    expectOk(reply, what);
    assert.equal((reply.json as { rows: unknown[] }).rows, expected, what);
  };
  const params = await server.command({ database, command: { kind: "sql", sql: `SELECT id FROM t WHERE ${values.map(() => "n = ?").join(" OR ")}`, params: values } }, { timeoutMs: 30_000 });
  check(params, `${terms} ? parameters in an OR chain`);
  const literals = await server.command({ database, command: { kind: "sql", sql: `SELECT id FROM t WHERE ${values.map((v) => `n = ${v}`).join(" OR ")}` } }, { timeoutMs: 30_000 });
  check(literals, `an OR chain of ${terms} literal terms`);
  const and = await server.command({ database, command: { kind: "sql", sql: `SELECT id FROM t WHERE ${values.map((v) => `n != ${v + 1_000_000}`).join(" AND ")} AND n < ${terms}` } }, { timeoutMs: 30_000 });
  check(and, `an AND chain of ${terms} terms`);
  const json = await server.command({ database, command: { kind: "select", table: "t", columns: ["id"], where: { type: "or", operands: values.map((v) => ({ type: "comparison", op: "=", left: { type: "identifier", name: "n" }, right: { type: "literal", value: v } })) } } }, { timeoutMs: 30_000 });
  check(json, `a JSON or of ${terms} operands`);
  const mismatch = await server.command({ database, command: { kind: "sql", sql: `SELECT id FROM t WHERE ${values.map(() => "n = ?").join(" OR ")}`, params: values.slice(1) } });
  expectProblem(mismatch, 400, ["sql_error"], `${terms} placeholders with ${terms - 1} params`, server.dataDir);
  const manyRows = await server.command({ database, command: { kind: "insert", table: "t", rows: Array.from({ length: terms }, (_, i) => ({ id: 1000 + i, n: -i })) } }, { timeoutMs: 30_000 });
  expectOk(manyRows, `an insert of ${terms} rows`);
  return 6;
}

/**
 * Wide objects: a row with 50,000 unknown keys, a `set` of 50,000 columns, a
 * table of 2,000 columns, a select listing 20,000 names — each a clear
 * answer in time, never a hang on a quadratic path.
 */
export async function wideObjects(server: ServerProcess): Promise<number> {
  const database = "wideobj";
  expectOk(await server.command({ database, command: { kind: "create-table", schema: BIG_SCHEMA } }), "create");
  const keys = (n: number, prefix: string) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i]));
  const timed = async (what: string, command: unknown): Promise<Reply> => {
    const started = performance.now();
    const reply = await server.command({ database, command }, { timeoutMs: 30_000 });
    assert.ok(performance.now() - started < 10_000, `${what} took ${Math.round(performance.now() - started)} ms`);
    assert.ok(reply.status < 500, `${what}: ${reply.status} ${reply.text.slice(0, 200)}`);
    if (reply.status >= 400) assert.equal(problemViolations(reply, { dataDir: server.dataDir }), [], what);
    return reply;
  };
  const row = await timed("a row with 50,000 unknown keys", { kind: "insert", table: "t", rows: [{ id: 1, ...keys(50_000, "k") }] });
  assert.is(row.status, 422, "unknown columns in a row are 422");
  const set = await timed("a set of 50,000 columns", { kind: "update", table: "t", set: keys(50_000, "c"), where: { type: "literal", value: true } });
  assert.ok(set.status === 422 || set.status === 400, `unknown set columns: ${set.status}`);
  const columns = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`c${i}`, "integer"]));
  const wide = await timed("a table of 2,000 columns", { kind: "create-table", schema: { name: "w", columns } });
  if (wide.status === 200) {
    expectOk(await timed("a 2,000-column row", { kind: "insert", table: "w", rows: [keys(2_000, "c")] }), "a 2,000-column row");
    const back = await timed("select it", { kind: "select", table: "w", columns: "*" });
    assert.is((back.json as { rows: Record<string, number>[] }).rows[0]?.c1999, 1999);
  }
  const many = await timed("a select listing 20,000 names", { kind: "select", table: "t", columns: Array.from({ length: 20_000 }, (_, i) => `x${i}`) });
  assert.is(many.status, 400, "unknown listed columns are a 400");
  assert.ok(server.alive);
  return 5;
}

/** Writes a hand-made `.store` file (no checksum, as a person may) holding `count` rows. */
export function writeBigStore(dataDir: string, database: string, count: number): void {
  const lines = [`{"format":"storedb/1","tables":{`, `"t":{"schema":${JSON.stringify(BIG_SCHEMA)},`, `"rows":[`];
  for (let i = 0; i < count; i++) lines.push(`{"id":${i},"n":${i % 1000},"r":${i / 4},"s":"row-${i}"}${i === count - 1 ? "" : ","}`);
  lines.push("]}}}");
  writeFileSync(path.join(dataDir, `${database}.store`), `${lines.join("\n")}\n`);
}

export interface BigSelectFigures {
  readonly status: number;
  readonly rows: number;
  /** RSS before the database was opened, in MiB. */
  readonly freshMiB: number;
  /** RSS once the database is open and before the select: what the answer's growth is measured from. */
  readonly baselineMiB: number;
  readonly peakMiB: number;
  readonly ms: number;
}

/**
 * Selects every row of a big database, sampling the server's RSS meanwhile.
 * The database is opened first (a one-row select), so the peak over the
 * baseline is what the answer itself costs, not the loaded table.
 */
export async function bigSelect(server: ServerProcess, database: string, expectedRows: number): Promise<BigSelectFigures> {
  const freshMiB = server.rssMiB();
  const warm = await server.command({ database, command: { kind: "select", table: "t", columns: ["id"], limit: 1 } }, { timeoutMs: 120_000 });
  assert.is(warm.status, 200, warm.text);
  const baselineMiB = server.rssMiB();
  const started = performance.now();
  // On its own connection: reading a million rows here outlasts the server's keep-alive, so a reused socket would be gone.
  const { result: reply, peakMiB } = await server.peakRss(() =>
    server.command({ database, command: { kind: "select", table: "t", columns: "*" } }, { timeoutMs: 120_000, headers: { connection: "close" } }),
  );
  const ms = performance.now() - started;
  let rows = 0;
  if (reply.status === 200) {
    const body = reply.json as { rows: { id: number }[]; rowCount: number };
    rows = body.rowCount;
    assert.is(body.rows.length, expectedRows, "every row served");
    assert.is(body.rows[expectedRows - 1]?.id, expectedRows - 1, "the last row is the last inserted");
  } else {
    // A clear refusal is allowed: a §7 problem, never a bare 500.
    assert.equal(problemViolations(reply, { dataDir: server.dataDir }), [], "a refused big select is a problem");
    assert.not.ok(codeOf(reply) === "internal_error", `big select answered internal_error: ${reply.text}`);
  }
  assert.ok(server.alive, "alive after the big select");
  return { status: reply.status, rows, freshMiB, baselineMiB, peakMiB, ms };
}

export interface SlowlorisFigures {
  readonly sockets: number;
  readonly closedByServer: number;
  readonly servedMeanwhile: number;
  readonly worstMs: number;
  readonly secondsToDrop: number;
}

/**
 * Opens `count` sockets that send a request one byte at a time and never
 * finish — in the headers, or (`body`) in a body whose length was announced —
 * then keeps making real requests: those must stay fast, and the server must
 * drop the slow sockets by its own header or request timeout.
 */
export async function slowloris(server: ServerProcess, count: number, maxSeconds: number, where: "headers" | "body" = "headers"): Promise<SlowlorisFigures> {
  let closed = 0;
  const sockets: net.Socket[] = [];
  const started = Date.now();
  let lastClose = 0;
  for (let i = 0; i < count; i++) {
    const socket = net.connect(server.port, "127.0.0.1");
    socket.on("error", () => undefined);
    socket.on("close", () => {
      closed += 1;
      lastClose = Date.now();
    });
    socket.write("POST /v1/commands HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n");
    if (where === "body") socket.write('Content-Length: 100000\r\n\r\n{"database":"slow","command":{"kind":"validate"},"x":"');
    sockets.push(socket);
  }
  const trickle = setInterval(() => {
    for (const s of sockets) if (!s.destroyed) s.write("X");
  }, 300);
  let served = 0;
  let worstMs = 0;
  let closedByServer = 0;
  try {
    while (Date.now() - started < maxSeconds * 1000 && closed < count) {
      const reply = await server.request(undefined, { method: "GET", path: "/health", timeoutMs: 5_000 });
      assert.is(reply.status, 200, "health while under slowloris");
      const select = await server.command({ database: "wide", command: { kind: "describe" } }, { timeoutMs: 5_000 });
      assert.ok(select.status === 200 || select.status === 404, `a command under slowloris: ${select.status}`);
      served += 2;
      worstMs = Math.max(worstMs, reply.ms, select.ms);
      await sleep(200);
    }
  } finally {
    clearInterval(trickle);
    closedByServer = closed;
    for (const s of sockets) s.destroy();
  }
  return { sockets: count, closedByServer, servedMeanwhile: served, worstMs, secondsToDrop: (lastClose - started) / 1000 };
}

/**
 * With an API key set, every hostile request without the key is a 401
 * before anything else (no 404/405/413/415/400 that would reveal routes or
 * parsing), and only the exact key passes.
 */
export async function authWall(server: ServerProcess, key: string, limit: number): Promise<number> {
  const envelope = JSON.stringify({ database: "authdb", command: { kind: "create-table", schema: BIG_SCHEMA } });
  const unauthorized: [string, Promise<Reply>][] = [
    ["no header", server.command(envelope)],
    ["unknown route", server.request(undefined, { method: "GET", path: "/nope" })],
    ["wrong method", server.request(undefined, { method: "DELETE", path: "/v1/commands" })],
    ["a body over the limit", server.command(`{"x":"${"a".repeat(limit + 10)}"}`)],
    ["broken JSON", server.command("{not json")],
    ["wrong content type", server.request(envelope, { headers: { "content-type": "text/plain" }, noContentType: true })],
    ["Basic scheme", server.command(envelope, { headers: { authorization: `Basic ${key}` } })],
    ["key with one more character", server.command(envelope, { headers: { authorization: `Bearer ${key}x` } })],
    ["key missing its last character", server.command(envelope, { headers: { authorization: `Bearer ${key.slice(0, -1)}` } })],
    ["empty bearer", server.command(envelope, { headers: { authorization: "Bearer " } })],
    ["key alone", server.command(envelope, { headers: { authorization: key } })],
    ["key with a non-ASCII look-alike", server.command(envelope, { headers: { authorization: `Bearer ${key.slice(0, -1)}\u0430`.replace(/[^\x00-\xff]/g, "?") } })],
  ];
  for (const [what, pending] of unauthorized) {
    const reply = await pending;
    expectProblem(reply, 401, ["unauthorized"], what, server.dataDir);
  }
  const huge = await server.command(envelope, { headers: { authorization: `Bearer ${"k".repeat(20_000)}` } });
  // Past Node's 16 kB header limit the request never reaches auth: a 400/431 is as good as a 401.
  assert.ok([400, 401, 431].includes(huge.status), `a 20 kB Authorization header: ${huge.status}`);
  if (huge.status !== 431) assert.equal(problemViolations(huge, { dataDir: server.dataDir }), [], "a 20 kB Authorization header");
  expectOk(await server.request(undefined, { method: "GET", path: "/health" }), "health needs no key");
  expectOk(await server.command(envelope, { headers: { authorization: `Bearer ${key}` } }), "the key");
  expectOk(await server.command({ database: "authdb", command: { kind: "validate" } }, { headers: { authorization: `bEaReR ${key}` } }), "scheme in any case");
  assert.ok(server.alive);
  return unauthorized.length + 4;
}
