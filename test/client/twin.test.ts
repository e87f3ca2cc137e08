/**
 * One client test suite, run twice: on an embedded `Database` and through
 * `createClient` against a real server process. Every step and every
 * conformance case must give the same outcome on both — the same result,
 * or an error of the same class with the same code, status, message,
 * position, expected tokens and row problems — and the expected one.
 *
 * Part one walks the client's API on one database (`execute`, `sql`, the
 * fluent builder; reads, writes, plans, schema, validation; an error of
 * every kind). Part two runs every conformance case (`test/conformance`) on
 * a fixture database of each target (a `.store` file opened here, or a
 * database on the server).
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { rmSync } from "node:fs";
import path from "node:path";
import type { Queryable } from "../../src/api/queryable.js";
import { and, col, eq, ge, isNull, or } from "../../src/api/expressions.js";
import { TableQuery } from "../../src/api/table-query.js";
import { createClient, type Client } from "../../src/client/index.js";
import type { Result } from "../../src/commands/results.js";
import { Database } from "../../src/database.js";
import { StoreError } from "../../src/errors.js";
import { FIXTURE } from "../conformance/fixture.js";
import { cases, check, surfaces, type Outcome, type Session } from "../conformance/harness.js";
import { serverEnv, startServer, tempDir, type ServerProcess } from "../server/support/server-process.js";

const KEY = "twin-suite-key-0123456789abcdef0123456789";
const dir = tempDir("client-twin");
let server: ServerProcess | undefined;
let client: Client | undefined;
const embedded: Database[] = [];

test.before(async () => {
  server = await startServer(serverEnv(path.join(dir, "server"), { STORE_API_KEY: KEY }));
  client = createClient({ url: server.url, apiKey: KEY });
});
test.after(async () => {
  await Promise.all(embedded.map((db) => db.close()));
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let databases = 0;

/** A fresh database on each target: a `.store` file opened in this process, and a database on the server. */
const TARGETS: readonly [string, (name: string) => Promise<Queryable>][] = [
  [
    "embedded",
    async (name) => {
      const db = await Database.open(path.join(dir, "embedded", `${name}.store`));
      embedded.push(db);
      return db;
    },
  ],
  ["client", async (name) => (client as Client).database(name)],
];

/**
 * A result without what depends on when the storage last checkpointed: a
 * validation's `journal` (records not yet folded into the `.store` file),
 * which a checkpoint after an idle moment changes on either target.
 */
function timeless(result: Result): Result {
  if (result.kind !== "validation" || result.journal === undefined) return result;
  const { journal: _journal, ...rest } = result;
  return rest;
}

/** What a step gave: its result, or everything its error carries (class included). */
async function outcome(step: () => Promise<Result>): Promise<unknown> {
  try {
    return { result: timeless(await step()) };
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    const { name, code, status, message, position, expected, errors } = error;
    return { name, code, status, message, position, expected, errors };
  }
}

type Step = readonly [name: string, run: (db: Queryable) => Promise<Result>, expect: (got: unknown) => void];

const rows = (got: unknown) => ((got as { result: { rows: unknown } }).result.rows);
const failed = (code: string) => (got: unknown) => assert.is((got as { code?: string }).code, code, JSON.stringify(got));

const STEPS: readonly Step[] = [
  [
    "create-table with keys, an index and a check",
    (db) =>
      db.execute({
        kind: "create-table",
        schema: {
          name: "users",
          columns: { id: "text", name: "text", age: "integer", city: "text" },
          primary_key: { columns: ["id"] },
          required: ["name"],
          indexes: [{ name: "by_city", columns: ["city"] }],
          checks: [{ name: "adult", expr: { type: "comparison", op: ">=", left: { type: "identifier", name: "age" }, right: { type: "literal", value: 0 } } }],
        },
      }),
    (got) => assert.equal(got, { result: { kind: "mutation", operation: "create-table", table: "users", rowsAffected: 0 } }),
  ],
  ["SQL CREATE TABLE with a foreign key", (db) => db.sql("CREATE TABLE orders (id INT PRIMARY KEY, user_id TEXT REFERENCES users(id), amount REAL)"), (got) => assert.ok("result" in (got as object))],
  [
    "insert through the builder",
    (db) =>
      db
        .table("users")
        .insert([
          { id: "u1", name: "Ada", age: 36, city: "Paris" },
          { id: "u2", name: "Bob", age: 17, city: "Berlin" },
          { id: "u3", name: "Cy", city: "Paris" },
        ])
        .run(),
    (got) => assert.equal(got, { result: { kind: "mutation", operation: "insert", table: "users", rowsAffected: 3 } }),
  ],
  ["insert through SQL with parameters", (db) => db.sql("INSERT INTO orders (id, user_id, amount) VALUES (?, ?, ?), (2, 'u1', 20)", [1, "u1", 250]), (got) => assert.is((got as { result: { rowsAffected: number } }).result.rowsAffected, 2)],
  ["select through SQL", (db) => db.sql("SELECT name FROM users WHERE id = ?", ["u1"]), (got) => assert.equal(rows(got), [{ name: "Ada" }])],
  [
    "select through the builder: where shorthand, order, limit, arrays",
    (db) => db.table("users").select("id", "name").where({ city: "Paris" }).orderBy("name", "desc").limit(10).output("arrays").run(),
    (got) => assert.equal(rows(got), [["u3", "Cy"], ["u1", "Ada"]]),
  ],
  [
    "a join through the builder",
    (db) => db.table("orders").select("orders.id", "u.name").join("users", eq("u.id", col("orders.user_id")), { as: "u" }).where(ge("orders.amount", 100)).run(),
    (got) => assert.equal(rows(got), [{ "orders.id": 1, "u.name": "Ada" }]),
  ],
  ["NULL logic", (db) => db.table("users").select("id").where(or(isNull("age"), and(ge("age", 18), eq("city", "Paris")))).run(), (got) => assert.equal(rows(got), [{ id: "u1" }, { id: "u3" }])],
  ["update through the builder", (db) => db.table("users").update({ age: 18 }).where({ id: "u2" }).run(), (got) => assert.is((got as { result: { rowsAffected: number } }).result.rowsAffected, 1)],
  ["explain through the builder", (db) => db.table("users").select("name").where({ id: "u1" }).explain().run(), (got) => assert.is((got as { result: { kind: string } }).result.kind, "plan")],
  ["explain through SQL", (db) => db.sql("EXPLAIN SELECT name FROM users WHERE city = 'Paris'"), (got) => assert.is((got as { result: { kind: string } }).result.kind, "plan")],
  ["describe one table", (db) => db.execute({ kind: "describe", table: "orders" }), (got) => assert.is((got as { result: { tables: unknown[] } }).result.tables.length, 1)],
  ["validate", (db) => db.execute({ kind: "validate" }), (got) => assert.equal(got, { result: { kind: "validation", valid: true, errors: [] } })],
  ["a SQL syntax error, with its position and expected tokens", (db) => db.sql("SELECT name\nFORM users"), failed("sql_syntax_error")],
  ["a parameter count error", (db) => db.sql("SELECT name FROM users WHERE id = ?"), failed("sql_error")],
  ["a type mismatch", (db) => db.table("users").where(eq("age", "old")).run(), failed("type_mismatch")],
  ["an unknown column", (db) => db.sql("SELECT nope FROM users"), failed("unknown_column")],
  ["a duplicate key, with its row problems", (db) => db.table("users").insert([{ id: "u9", name: "New" }, { id: "u1", name: "Again" }]).run(), failed("constraint_violation")],
  ["a broken check and a missing required column, with their row problems", (db) => db.table("users").insert([{ id: "u8", age: -1 }]).run(), failed("validation_failed")],
  ["a foreign key that points nowhere", (db) => db.sql("INSERT INTO orders (id, user_id) VALUES (3, 'nobody')"), failed("constraint_violation")],
  ["a delete a reference restricts", (db) => db.table("users").delete().where({ id: "u1" }).run(), failed("constraint_violation")],
  ["a table that is not there", (db) => db.table("nope").run(), failed("table_not_found")],
  ["a table that exists", (db) => db.sql("CREATE TABLE users (id TEXT)"), failed("table_exists")],
  ["a dropped table other tables reference", (db) => db.execute({ kind: "drop-table", table: "users" }), failed("constraint_violation")],
  ["a misspelt field never widens a delete", (db) => db.execute({ kind: "delete", table: "users", wehre: { type: "literal", value: true } }), failed("invalid_request")],
  ["a builder that cannot be planned", (db) => db.table("users").delete().run(), failed("invalid_request")],
  ["an invalid name", (db) => db.table("bad name").run(), failed("invalid_name")],
  ["nothing was lost to the errors", (db) => db.table("users").select("id").orderBy("id").run(), (got) => assert.equal(rows(got), [{ id: "u1" }, { id: "u2" }, { id: "u3" }])],
];

const walked = new Map<string, unknown[]>();
for (const [target, open] of TARGETS) {
  test(`${target}: the client's API, step by step`, async () => {
    const db = await open("walk");
    const outcomes: unknown[] = [];
    for (const [name, run, expect] of STEPS) {
      const got = await outcome(() => run(db));
      try {
        expect(got);
      } catch (error) {
        throw new Error(`step "${name}": ${error instanceof Error ? error.message : String(error)}`);
      }
      outcomes.push([name, got]);
    }
    walked.set(target, outcomes);
  });
}

test("both targets gave every step the same outcome, errors included", () => {
  const [a, b] = TARGETS.map(([target]) => walked.get(target));
  assert.ok(a && b, "both walks ran");
  for (const [i, step] of (a as unknown[]).entries()) assert.equal((b as unknown[])[i], step, JSON.stringify(step));
});

test("a database that does not exist answers the same on both", async () => {
  const outcomes = [];
  for (const [, open] of TARGETS) outcomes.push(await outcome(async () => (await open("never-created")).sql("SELECT a FROM t")));
  assert.is((outcomes[0] as { code: string }).code, "database_not_found");
  assert.equal(outcomes[1], outcomes[0]);
});

/** A fresh fixture database on `target`, as a conformance session. */
async function fixtureSession(target: (name: string) => Promise<Queryable>): Promise<Session> {
  const db = await target(`fixture-${++databases}`);
  for (const command of FIXTURE) await db.execute(command);
  return {
    fluent: (table) => new TableQuery(table, async (command) => timeless(await db.execute(command))),
    json: async (wire) => timeless(await db.execute(wire)),
    sql: async (text, params) => timeless(await db.sql(text, params)),
  };
}

type Case = (typeof cases)[number];

/** Whether a case may change its database. */
function changes(entry: Case): boolean {
  return entry.steps !== undefined || entry.after !== undefined || (entry.expect as { kind?: string }).kind === "mutation";
}

/**
 * A fixture costs a dozen durable writes, so a case that only reads runs on
 * every surface on one shared fixture per target, and a case that writes
 * gets a fresh fixture on one surface — its builder form where it has one,
 * the surface furthest from the wire (the conformance suite already holds
 * the surfaces to each other).
 */
function narrowed(entry: Case): Case {
  if (!changes(entry)) return entry;
  if (entry.fluent) return { ...entry, json: null, sql: null };
  if (entry.json !== null) return { ...entry, sql: null };
  return entry;
}

test("every conformance case gives the same outcome on both, on every surface, and the expected one", async () => {
  let compared = 0;
  const shared = await Promise.all(TARGETS.map(([, open]) => fixtureSession(open)));
  for (const entry of cases) {
    const runs: [string, Outcome][][] = [];
    for (const [index, [target, open]] of TARGETS.entries()) {
      const fresh = changes(entry) ? () => fixtureSession(open) : async () => shared[index] as Session;
      const outcomes = await surfaces(narrowed(entry), fresh);
      for (const [surface, got] of outcomes) check(`${surface} (${target}: ${entry.name})`, got, entry.expect);
      runs.push(outcomes.map(([surface, got]) => [surface, got]));
    }
    assert.equal(runs[1], runs[0], entry.name);
    compared += runs[0]?.length ?? 0;
  }
  assert.ok(compared >= 250, `${compared} outcomes compared`);
});

test.run();
