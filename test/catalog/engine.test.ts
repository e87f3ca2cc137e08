/**
 * The engine's schema rules, mutations, changes and undo: each rule breaks
 * once with its §7 code and `errors` entry, a failed mutation changes
 * nothing, and undo restores rows and every key exactly.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import { snapshotValues } from "../../src/catalog/snapshot.js";
import type { TableSnapshot } from "../../src/catalog/types.js";
import type { MutationResult, RowsResult, SchemaResult } from "../../src/commands/results.js";
import type { Command, Value } from "../../src/commands/types.js";
import { StoreError } from "../../src/errors.js";

function sql(e: Engine, text: string, params: Value[] = []) {
  return e.execute({ kind: "sql", sql: text, params });
}

function select(e: Engine, text: string, params: Value[] = []): Value[][] {
  const r = e.execute({ kind: "sql", sql: text, params }).result as RowsResult;
  return r.rows.map((row) => r.columns.map((c) => (row as Record<string, Value>)[c] as Value));
}

/** A snapshot as data: schemas, columns and each row's values (ids aside, which an undo does not keep). */
function state(snapshot: readonly TableSnapshot[]): string {
  return JSON.stringify(snapshot.map((t) => ({ schema: t.schema, columns: t.columns, rows: snapshotValues(t) })));
}

function fails(e: Engine, command: Command, code: string, entry?: { code: string; row?: number; column?: string; table?: string }): void {
  const before = state(e.snapshot());
  try {
    e.execute(command);
  } catch (err) {
    assert.instance(err, StoreError);
    const se = err as StoreError;
    assert.is(se.code, code, `${JSON.stringify(command)}: ${se.message}`);
    if (entry) {
      const found = (se.errors ?? []).find((x) => x.code === entry.code);
      assert.ok(found, `no ${entry.code} entry in ${JSON.stringify(se.errors)}`);
      for (const k of ["row", "column", "table"] as const) if (entry[k] !== undefined) assert.is(found?.[k], entry[k], k);
    }
    assert.is(state(e.snapshot()), before, "a failed command changed nothing");
    return;
  }
  assert.unreachable(`${JSON.stringify(command)} should fail with ${code}`);
}

function shop(): Engine {
  const e = Engine.empty();
  e.execute({
    kind: "create-table",
    schema: {
      name: "users",
      columns: { id: "text", email: "text", age: "integer", vip: "boolean" },
      primary_key: { columns: ["id"] },
      unique: [{ columns: ["email"] }],
      required: ["email"],
      checks: [{ name: "adult", expr: { type: "comparison", op: ">=", left: { type: "identifier", name: "age" }, right: { type: "literal", value: 18 } } }],
      defaults: { vip: false },
      indexes: [{ name: "by_age", columns: ["age"] }],
      computed: { senior: { type: "comparison", op: ">=", left: { type: "identifier", name: "age" }, right: { type: "literal", value: 65 } } },
      comment: "people",
      comments: { age: "years" },
    },
  });
  e.execute({
    kind: "create-table",
    schema: {
      name: "orders",
      columns: { id: "integer", user_id: "text", amount: "real" },
      primary_key: { columns: ["id"] },
      required: ["amount"],
      foreign_keys: [{ columns: ["user_id"], references: { table: "users", columns: ["id"] }, on_delete: "cascade" }],
      indexes: [{ name: "by_user", columns: ["user_id"] }],
    },
  });
  sql(e, "CREATE TABLE lines (order_id INTEGER, n INTEGER, PRIMARY KEY (order_id, n), FOREIGN KEY (order_id) REFERENCES orders(id) ON DELETE CASCADE)");
  sql(e, "CREATE TABLE notes (id INTEGER PRIMARY KEY, line_order INTEGER, line_n INTEGER, FOREIGN KEY (line_order, line_n) REFERENCES lines(order_id, n))");
  sql(e, "INSERT INTO users (id, email, age) VALUES ('u1', 'a@x', 30), ('u2', 'b@x', NULL), ('u3', 'c@x', 70)");
  sql(e, "INSERT INTO orders (id, user_id, amount) VALUES (1, 'u1', 10), (2, 'u2', 20), (3, 'u1', 5), (4, NULL, 1)");
  sql(e, "INSERT INTO lines (order_id, n) VALUES (1, 1), (1, 2), (3, 1)");
  return e;
}

test("a text value past the longest string V8 holds is invalid_request, and nothing changes", () => {
  const e = Engine.empty();
  sql(e, "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)");
  e.execute({ kind: "insert", table: "t", rows: Array.from({ length: 600 }, (_, id) => ({ id, name: "a" })) });
  // 600 values joined by a 1 MB separator, and a 1 MB replacement of each of 600 characters: ~600 MB of text each.
  const mega = "x".repeat(1 << 20);
  for (const distinct of ["", "DISTINCT "]) {
    fails(e, { kind: "sql", sql: `SELECT group_concat(${distinct}id, '${mega}') AS g FROM t` }, "invalid_request");
  }
  const long = "a".repeat(600);
  sql(e, "UPDATE t SET name = ? WHERE id = 0", [long]);
  fails(e, { kind: "sql", sql: `UPDATE t SET name = replace(name, 'a', '${mega}') WHERE id = 0` }, "invalid_request");
  assert.equal(select(e, "SELECT length(name) FROM t WHERE id = 0"), [[600]]);
});

test("insert: defaults, nulls, rowsAffected, changes", () => {
  const e = shop();
  const out = sql(e, "INSERT INTO users (id, email, age) VALUES (?, ?, ?), ('u5', 'e@x', 40)", ["u4", "d@x", 20]);
  assert.equal(out.result, { kind: "mutation", operation: "insert", table: "users", rowsAffected: 2 });
  assert.equal(out.changes, [
    { kind: "insert", table: "users", row: ["u4", "d@x", 20, false], position: 3 },
    { kind: "insert", table: "users", row: ["u5", "e@x", 40, false], position: 4 },
  ]);
  assert.equal(select(e, "SELECT id, vip, senior FROM users WHERE id = 'u2'"), [["u2", false, null]]);
});

test("schema rules: each with its code, row and column; nothing changes", () => {
  const e = shop();
  const ins = (table: string, rows: Record<string, Value>[]): Command => ({ kind: "insert", table, rows });
  fails(e, ins("users", [{ id: "u9", email: "z@x", age: 1.5 }]), "validation_failed", { code: "type", row: 0, column: "age" });
  fails(e, ins("users", [{ id: "u9", email: "z@x", age: 2 ** 53 }]), "validation_failed", { code: "type", column: "age" });
  fails(e, ins("users", [{ id: "u9", email: "z@x", age: "40" }]), "validation_failed", { code: "type", column: "age" });
  fails(e, ins("orders", [{ id: 9, user_id: "u1", amount: true }]), "validation_failed", { code: "type", column: "amount" });
  fails(e, ins("users", [{ id: "u9", email: "z@x" }, { id: "u8" }]), "validation_failed", { code: "required", row: 1, column: "email" });
  fails(e, ins("users", [{ email: "z@x" }]), "validation_failed", { code: "required", column: "id" });
  fails(e, ins("users", [{ id: "u9", email: { x: 1 } as never }]), "validation_failed", { code: "type", column: "email" });
  fails(e, ins("users", [{ id: "u9", email: { type: "param", index: 0 } as never }]), "validation_failed", { code: "type", column: "email" });
  fails(e, { kind: "update", table: "users", set: { email: ["a"] as never }, where: { type: "literal", value: true } }, "validation_failed", { code: "type", column: "email" });
  fails(e, { kind: "select", table: "users", columns: "*", where: { type: "comparison", op: "=", left: { type: "identifier", name: "id" }, right: { type: "param", index: 0 } } }, "invalid_request");
  fails(e, ins("users", [{ id: "u9", email: "z@x", nope: 1 }]), "validation_failed", { code: "unknown_column", column: "nope" });
  fails(e, ins("users", [{ id: "u9", email: "z@x", senior: true }]), "validation_failed", { code: "computed_write", column: "senior" });
  fails(e, ins("users", [{ id: "u9", email: "z@x", age: 17 }]), "validation_failed", { code: "check", row: 0 });
  fails(e, ins("users", [{ id: "u9", email: "z@x" }, { id: "u9", email: "y@x" }]), "constraint_violation", { code: "duplicate_key", row: 1, column: "id" });
  fails(e, ins("users", [{ id: "u1", email: "q@x" }]), "constraint_violation", { code: "duplicate_key", row: 0 });
  fails(e, ins("users", [{ id: "u9", email: "a@x" }]), "constraint_violation", { code: "unique", column: "email" });
  fails(e, ins("lines", [{ order_id: 1, n: 1 }]), "constraint_violation", { code: "duplicate_key", column: "order_id,n" });
  fails(e, ins("orders", [{ id: 9, user_id: "nobody", amount: 1 }]), "constraint_violation", { code: "foreign_key", column: "user_id" });
  fails(e, ins("notes", [{ id: 1, line_order: 3, line_n: 2 }]), "constraint_violation", { code: "foreign_key" });
  fails(e, { kind: "update", table: "users", set: { email: "b@x" }, where: { type: "literal", value: true } }, "constraint_violation", { code: "unique" });
  fails(e, { kind: "update", table: "users", set: { age: 10 }, where: { type: "literal", value: true } }, "validation_failed", { code: "check" });
  fails(e, { kind: "update", table: "users", set: { senior: true }, where: { type: "literal", value: true } }, "validation_failed", { code: "computed_write" });
  fails(e, { kind: "update", table: "users", set: { id: "zz" }, where: { type: "comparison", op: "=", left: { type: "identifier", name: "id" }, right: { type: "literal", value: "u1" } } }, "constraint_violation", { code: "foreign_key" });
  fails(e, { kind: "update", table: "orders", set: { user_id: "ghost" }, where: { type: "literal", value: true } }, "constraint_violation", { code: "foreign_key" });
  sql(e, "INSERT INTO notes (id, line_order, line_n) VALUES (1, 3, 1)");
  fails(e, { kind: "sql", sql: "DELETE FROM lines WHERE order_id = 3", params: [] }, "constraint_violation", { code: "foreign_key", table: "notes" });
  fails(e, { kind: "sql", sql: "DELETE FROM users WHERE id = 'u1'", params: [] }, "constraint_violation", { code: "foreign_key", table: "notes" });
  fails(e, { kind: "drop-table", table: "orders" }, "constraint_violation");
  fails(e, { kind: "create-table", schema: { name: "users", columns: { id: "text" } } }, "table_exists");
  fails(e, { kind: "drop-table", table: "ghost" }, "table_not_found");
  fails(e, { kind: "drop-table", table: "bad name" }, "invalid_name");
  fails(e, { kind: "select", table: "bad name", columns: "*" }, "invalid_name");
  fails(e, { kind: "select", table: "users", columns: ["__proto__"] }, "invalid_name");
  fails(e, { kind: "select", table: "users", columns: ["id"], joins: [{ type: "inner", table: "orders", as: "1o", on: { type: "literal", value: true } }] }, "invalid_name");
  fails(e, { kind: "select", table: "users", columns: ["id"], orderBy: [{ column: "users.a-b" }] }, "invalid_name");
  assert.equal(sql(e, "DROP TABLE IF EXISTS ghost").result, { kind: "mutation", operation: "drop-table", table: "ghost", rowsAffected: 0 });
  assert.equal(sql(e, "CREATE TABLE IF NOT EXISTS users (id TEXT)").changes, []);
});

test("checks and unique keys follow SQL NULL rules; FK with a NULL column is not checked", () => {
  const e = shop();
  sql(e, "INSERT INTO users (id, email, age) VALUES ('n1', 'n1@x', NULL)");
  sql(e, "CREATE TABLE tags (a TEXT UNIQUE, b INTEGER)");
  sql(e, "INSERT INTO tags (a, b) VALUES (NULL, 1), (NULL, 2)");
  sql(e, "INSERT INTO orders (id, user_id, amount) VALUES (50, NULL, 3)");
  assert.equal(select(e, "SELECT b FROM tags WHERE a IS NULL"), [[1], [2]]);
});

test("update: rowsAffected counts matches, keys swap, indexes stay exact", () => {
  const e = shop();
  const out = sql(e, "UPDATE users SET age = ? WHERE age >= 30", [66]);
  assert.is((out.result as MutationResult).rowsAffected, 2);
  assert.equal(select(e, "SELECT id FROM users WHERE age = 66"), [["u1"], ["u3"]]);
  assert.equal(select(e, "SELECT id FROM users WHERE senior"), [["u1"], ["u3"]]);
  sql(e, "UPDATE users SET age = 40 WHERE id = 'u3'");
  assert.equal(select(e, "SELECT id FROM users WHERE age = 66"), [["u1"]]);
  assert.equal(select(e, "SELECT id FROM users WHERE age = 40"), [["u3"]]);
  // u2 moves into the age-66 bucket and must come before u3's old position order: table order
  sql(e, "UPDATE users SET age = 66 WHERE id = 'u3'");
  sql(e, "UPDATE users SET age = 66 WHERE id = 'u2'");
  assert.equal(select(e, "SELECT id FROM users WHERE age = 66"), [["u1"], ["u2"], ["u3"]]);
  sql(e, "CREATE TABLE sw (k INTEGER PRIMARY KEY, v TEXT)");
  sql(e, "INSERT INTO sw (k, v) VALUES (1, 'a'), (2, 'b')");
  const swap = { kind: "update", table: "sw", set: { k: 3 }, where: { type: "comparison", op: "=", left: { type: "identifier", name: "k" }, right: { type: "literal", value: 1 } } } as const;
  e.execute(swap);
  assert.equal(select(e, "SELECT v FROM sw WHERE k = 3"), [["a"]]);
  assert.equal(select(e, "SELECT v FROM sw WHERE k = 1"), []);
});

test("delete: cascade chains, rowsAffected counts only the named table, undo restores all", () => {
  const e = shop();
  const before = state(e.snapshot());
  const out = sql(e, "DELETE FROM users WHERE id = ?", ["u1"]);
  assert.is((out.result as MutationResult).rowsAffected, 1);
  assert.equal(select(e, "SELECT id FROM orders"), [[2], [4]]);
  assert.equal(select(e, "SELECT order_id, n FROM lines"), []);
  assert.equal(out.changes.map((c) => c.kind + ":" + ("table" in c ? c.table : "")), ["delete:users", "delete:orders", "delete:orders", "delete:lines", "delete:lines", "delete:lines"]);
  e.undo(out.changes);
  assert.is(state(e.snapshot()), before);
  assert.equal(select(e, "SELECT id FROM users WHERE id = 'u1'"), [["u1"]]);
  assert.equal(select(e, "SELECT id FROM orders WHERE user_id = 'u1'"), [[1], [3]]);
  assert.equal(e.execute({ kind: "validate" }).result, { kind: "validation", valid: true, errors: [] });
});

test("undo of a random series of mutations restores rows and keys exactly; a snapshot held meanwhile never changes", () => {
  const e = shop();
  const start = state(e.snapshot());
  // Rows are values: a snapshot taken at any point still reads as it did, whatever ran or was undone since.
  const held: [ReturnType<Engine["snapshot"]>, string][] = [];
  let seed = 7;
  const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  const all: import("../../src/catalog/types.js").Change[] = [];
  for (let i = 0; i < 300; i++) {
    const id = `r${rnd(40)}`;
    const age = 18 + rnd(5);
    const statements: [string, Value[]][] = [
      ["INSERT INTO users (id, email, age) VALUES (?, ?, ?)", [id, `${id}@${rnd(3)}`, age]],
      ["UPDATE users SET age = ? WHERE id = ?", [age, id]],
      ["UPDATE users SET email = ? WHERE age = ?", [`m${rnd(60)}`, age]],
      ["DELETE FROM users WHERE age = ? AND id <> 'u1'", [age]],
      ["INSERT INTO orders (id, user_id, amount) VALUES (?, ?, 1)", [100 + rnd(50), id]],
    ];
    const [text, params] = statements[rnd(statements.length)] as [string, Value[]];
    const before = i % 7 === 0 ? state(e.snapshot()) : undefined;
    if (i % 10 === 0) {
      const snapshot = e.snapshot();
      held.push([snapshot, state(snapshot)]);
    }
    try {
      const changes = sql(e, text, params).changes;
      if (before !== undefined) {
        // Undo right away: the state before the command comes back.
        e.undo(changes);
        assert.is(state(e.snapshot()), before, text);
      } else {
        all.push(...changes);
      }
    } catch (err) {
      assert.instance(err, StoreError);
    }
    if (i % 25 === 0) {
      // Every key agrees with a scan (`OR FALSE` keeps the planner off the key), rows in table order.
      const keyed: [string, Value][] = [
        ...[18, 19, 20, 21, 22, 30].map((a): [string, Value] => ["age", a]),
        ...Array.from({ length: 40 }, (_, k): [string, Value] => ["id", `r${k}`]),
        ...Array.from({ length: 60 }, (_, k): [string, Value] => ["email", `m${k}`]),
        ["email", "a@x"],
      ];
      for (const [column, v] of keyed) {
        const viaKey = select(e, `SELECT id FROM users WHERE ${column} = ?`, [v]);
        const viaScan = select(e, `SELECT id FROM users WHERE ${column} = ? OR FALSE`, [v]);
        assert.equal(viaKey, viaScan, `${column} = ${v}`);
      }
      const plan = (e.execute({ kind: "sql", sql: "EXPLAIN SELECT id FROM users WHERE age = 1 OR FALSE" }).result as { plan: { statement: { access: { kind: string } } } }).plan;
      assert.is(plan.statement.access.kind, "scan");
    }
  }
  assert.equal(e.execute({ kind: "validate" }).result, { kind: "validation", valid: true, errors: [] });
  e.undo(all);
  assert.is(state(e.snapshot()), start);
  for (const [snapshot, text] of held) assert.is(state(snapshot), text, "a held snapshot changed");
  assert.equal(select(e, "SELECT id FROM users WHERE id = 'u3'"), [["u3"]]);
  assert.equal(select(e, "SELECT id FROM users WHERE email = 'b@x'"), [["u2"]]);
  assert.equal(select(e, "SELECT id FROM users WHERE age = 30"), [["u1"]]);
});

test("create and drop are undoable; describe shows normalized schemas", () => {
  const e = shop();
  const described = e.execute({ kind: "describe", table: "users" }).result;
  assert.equal(described, {
    kind: "schema",
    tables: [
      {
        name: "users",
        columns: { id: "text", email: "text", age: "integer", vip: "boolean" },
        required: ["id", "email"],
        primary_key: { columns: ["id"] },
        unique: [{ columns: ["email"] }],
        checks: [{ name: "adult", expr: { type: "comparison", op: ">=", left: { type: "identifier", name: "age" }, right: { type: "literal", value: 18 } } }],
        indexes: [{ name: "by_age", columns: ["age"] }],
        defaults: { vip: false },
        computed: { senior: { type: "comparison", op: ">=", left: { type: "identifier", name: "age" }, right: { type: "literal", value: 65 } } },
        comment: "people",
        comments: { age: "years" },
      },
    ],
  });
  const names = (e.execute({ kind: "describe" }).result as SchemaResult).tables.map((t) => t.name);
  assert.equal(names, ["lines", "notes", "orders", "users"]);
  const before = state(e.snapshot());
  const drop = e.execute({ kind: "drop-table", table: "notes" });
  const create = sql(e, "CREATE TABLE extra (id INTEGER PRIMARY KEY)");
  sql(e, "SELECT id FROM extra");
  e.undo([...drop.changes, ...create.changes]);
  assert.is(state(e.snapshot()), before);
  fails(e, { kind: "select", table: "extra", columns: "*" }, "table_not_found");
});

test("create-table checks the schema's meaning", () => {
  const e = shop();
  const bad = (schema: Record<string, unknown>): void =>
    fails(e, { kind: "create-table", schema: { name: "z", columns: { a: "integer", b: "text" }, ...schema } } as Command, "invalid_request");
  bad({ primary_key: { columns: ["nope"] } });
  bad({ unique: [{ columns: ["a", "a"] }] });
  bad({ required: ["nope"] });
  bad({ indexes: [{ name: "i", columns: ["nope"] }] });
  bad({ indexes: [{ name: "i", columns: ["a"] }, { name: "i", columns: ["b"] }] });
  bad({ defaults: { a: "x" } });
  bad({ defaults: { nope: 1 } });
  bad({ foreign_keys: [{ columns: ["b"], references: { table: "ghost", columns: ["id"] } }] });
  bad({ foreign_keys: [{ columns: ["b"], references: { table: "users", columns: ["email", "id"] } }] });
  bad({ foreign_keys: [{ columns: ["b"], references: { table: "users", columns: ["age"] } }] });
  bad({ foreign_keys: [{ columns: ["a"], references: { table: "users", columns: ["id"] } }] });
  bad({ checks: [{ expr: { type: "identifier", name: "b" } }] });
  bad({ checks: [{ expr: { type: "comparison", op: "=", left: { type: "identifier", name: "b" }, right: { type: "literal", value: 1 } } }] });
  bad({ computed: { a: { type: "literal", value: 1 } } });
  bad({ computed: { c: { type: "identifier", name: "nope" } } });
  bad({ comments: { nope: "x" } });
  sql(e, "CREATE TABLE z (a INTEGER, b TEXT REFERENCES users(email))");
});

test("load records problems and refuses everything but validate", () => {
  const e = Engine.load([
    {
      name: "users",
      schema: { name: "users", columns: { id: "text", age: "integer" }, primary_key: { columns: ["id"] }, checks: [{ expr: { type: "comparison", op: ">", left: { type: "identifier", name: "age" }, right: { type: "literal", value: 0 } } }] },
      rows: [{ id: "1", age: 5 }, { id: "1", age: 1.5 }, { age: 3 }, { id: "4", age: -1, extra: true }, "nope", { id: "6", age: [1] }],
    },
    { name: "orders", schema: { name: "orders", columns: { id: "integer", uid: "text" }, foreign_keys: [{ columns: ["uid"], references: { table: "users", columns: ["id"] } }] }, rows: [{ id: 1, uid: "9" }, { id: 2 }] },
    { name: "broken", schema: { name: "broken", columns: { a: "decimal" } }, rows: [] },
    { name: "other", schema: { name: "other", columns: { a: "text" }, primary_key: { columns: ["b"] } }, rows: [] },
  ]);
  const codes = e.problems.map((p) => `${p.table}:${p.row ?? "-"}:${p.column ?? "-"}:${p.code}`).sort();
  assert.equal(codes, [
    "broken:-:-:format",
    "orders:0:uid:foreign_key",
    "other:-:-:format",
    "users:1:age:type",
    "users:1:id:duplicate_key",
    "users:2:id:required",
    "users:3:-:check",
    "users:3:extra:unknown_column",
    "users:4:-:format",
    "users:5:age:type",
  ]);
  const v = e.execute({ kind: "validate" }).result;
  assert.equal(v, { kind: "validation", valid: false, errors: e.problems });
  fails(e, { kind: "select", table: "users", columns: "*" }, "database_corrupt");
  fails(e, { kind: "describe" }, "database_corrupt");
  const odd = Engine.load([
    { name: "t", schema: { name: "t", columns: { a: "text" } }, rows: "nope" as never },
    { name: "u", schema: null, rows: [] },
    { name: "v", schema: { name: "v", columns: { a: "text" } }, rows: [] },
    { name: "v", schema: { name: "v", columns: { a: "text" } }, rows: [] },
    { name: "w", schema: { name: "x", columns: { a: "text" } }, rows: [] },
  ]);
  assert.equal(odd.problems.map((p) => `${p.table}:${p.code}`), ["u:format", "v:format", "w:format", "t:format"]);
  const good = Engine.load([{ name: "t", schema: { name: "t", columns: { a: "text", b: "integer" } }, rows: [{ a: "x" }, { b: 2, a: null }] }]);
  assert.equal(good.problems, []);
  assert.equal(JSON.parse(state(good.snapshot())), [{ schema: { name: "t", columns: { a: "text", b: "integer" } }, columns: ["a", "b"], rows: [["x", null], [null, 2]] }]);
});

test("sql: parameter count, plan cache across schema changes, EXPLAIN never executes", () => {
  const e = shop();
  fails(e, { kind: "sql", sql: "SELECT id FROM users WHERE id = ?", params: [] }, "sql_error");
  fails(e, { kind: "sql", sql: "SELECT id FROM users WHERE id = ?", params: ["a", "b"] }, "sql_error");
  fails(e, { kind: "sql", sql: "SELECT id FROM users WHERE id = ?", params: [1] }, "type_mismatch");
  fails(e, { kind: "sql", sql: "INSERT INTO users (id, email) VALUES (?, ?)", params: ["x", 5] }, "validation_failed", { code: "type", column: "email" });
  const q = "SELECT * FROM t2";
  sql(e, "CREATE TABLE t2 (a INTEGER)");
  assert.equal((sql(e, q).result as RowsResult).columns, ["a"]);
  sql(e, "DROP TABLE t2");
  sql(e, "CREATE TABLE t2 (a INTEGER, b TEXT)");
  assert.equal((sql(e, q).result as RowsResult).columns, ["a", "b"]);
  // A repeated text is a cache hit: the very same prepared plan; a schema change drops it.
  const planOf = (text: string) => (e.execute({ kind: "explain", command: { kind: "sql", sql: text } }).result as { plan: unknown }).plan;
  const first = planOf("SELECT a FROM t2 WHERE a = ?");
  sql(e, "SELECT a FROM t2 WHERE a = ?", [1]);
  assert.ok(planOf("SELECT a FROM t2 WHERE a = ?") === first, "cache hit");
  sql(e, "CREATE TABLE t3 (x INTEGER)");
  assert.ok(planOf("SELECT a FROM t2 WHERE a = ?") !== first, "cache cleared by a schema change");
  const plan = sql(e, "EXPLAIN DELETE FROM users WHERE id = 'u1'").result;
  assert.is((plan as { kind: string }).kind, "plan");
  assert.equal(select(e, "SELECT id FROM users WHERE id = 'u1'"), [["u1"]]);
});

test("self-referencing foreign keys: batch inserts, cascade and restrict within one table", () => {
  const e = Engine.empty();
  sql(e, "CREATE TABLE staff (id INTEGER PRIMARY KEY, boss INTEGER REFERENCES staff(id) ON DELETE CASCADE)");
  sql(e, "INSERT INTO staff (id, boss) VALUES (2, 1), (1, NULL), (3, 2), (4, 3), (5, 1)");
  const out = sql(e, "DELETE FROM staff WHERE id = 2");
  assert.is((out.result as MutationResult).rowsAffected, 1);
  assert.equal(select(e, "SELECT id FROM staff"), [[1], [5]]);
  e.undo(out.changes);
  assert.equal(select(e, "SELECT id FROM staff"), [[2], [1], [3], [4], [5]]);
  sql(e, "CREATE TABLE tree (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES tree(id))");
  sql(e, "INSERT INTO tree (id, parent) VALUES (1, NULL), (2, 1), (3, 2)");
  fails(e, { kind: "sql", sql: "DELETE FROM tree WHERE id = 2", params: [] }, "constraint_violation", { code: "foreign_key", table: "tree" });
  assert.is((sql(e, "DELETE FROM tree WHERE id >= 2").result as MutationResult).rowsAffected, 2);
  fails(e, { kind: "sql", sql: "UPDATE tree SET parent = 9 WHERE id = 1", params: [] }, "constraint_violation", { code: "foreign_key" });
  sql(e, "DROP TABLE tree");
});

test("a loaded schema with a bad operator is a format problem", () => {
  const e = Engine.load([
    { name: "t", schema: { name: "t", columns: { a: "integer" }, checks: [{ expr: { type: "comparison", op: "constructor", left: { type: "identifier", name: "a" }, right: { type: "literal", value: 1 } } }] }, rows: [] },
  ]);
  assert.equal(e.problems.map((p) => p.code), ["format"]);
});

test.run();
