/**
 * The bind step: name resolution and type errors with their codes, the
 * access path and join strategy chosen, and one plan for one query whatever
 * the surface (JSON command, SQL, EXPLAIN).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { PlanResult } from "../../src/commands/results.js";
import type { Command, ExplainCommand, SelectCommand } from "../../src/commands/types.js";
import { StoreError } from "../../src/errors.js";
import type { SelectPlan } from "../../src/planner/plan.js";

function engine(): Engine {
  const e = Engine.empty();
  for (const s of [
    "CREATE TABLE users (id TEXT PRIMARY KEY, email TEXT UNIQUE, city TEXT, age INTEGER, score REAL, ok BOOLEAN)",
    "CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id TEXT REFERENCES users(id), amount REAL, city TEXT)",
    "CREATE TABLE pairs (a INTEGER, b INTEGER, PRIMARY KEY (a, b))",
  ]) {
    e.execute({ kind: "sql", sql: s });
  }
  e.execute({ kind: "create-table", schema: { name: "idx", columns: { k: "text", v: "integer" }, indexes: [{ name: "by_k", columns: ["k"] }] } });
  return e;
}

const explain = (e: Engine, sql: string): SelectPlan => ((e.execute({ kind: "sql", sql: `EXPLAIN ${sql}` }).result as PlanResult).plan.statement as SelectPlan);

const ERRORS: [sql: string, code: string][] = [
  ["SELECT nope FROM users", "unknown_column"],
  ["SELECT x.id FROM users", "unknown_column"],
  ["SELECT id FROM ghost", "table_not_found"],
  ["SELECT id FROM users JOIN ghost ON ghost.a = users.id", "table_not_found"],
  ["SELECT id FROM users JOIN orders ON orders.user_id = users.id", "ambiguous_column"],
  ["SELECT users.id FROM users JOIN orders ON city = 'x'", "ambiguous_column"],
  ["SELECT users.id FROM users JOIN users AS u2 ON users.id = u2.id", ""],
  ["SELECT id FROM users WHERE age = 'x'", "type_mismatch"],
  ["SELECT id FROM users WHERE city = 1", "type_mismatch"],
  ["SELECT id FROM users WHERE ok = 1", "type_mismatch"],
  ["SELECT id FROM users WHERE ok = 'true'", "type_mismatch"],
  ["SELECT id FROM users WHERE city", "type_mismatch"],
  ["SELECT id FROM users WHERE age AND ok", "type_mismatch"],
  ["SELECT id FROM users WHERE NOT score", "type_mismatch"],
  ["SELECT users.id FROM users JOIN orders ON orders.amount WHERE users.id = 'x'", "type_mismatch"],
  ["SELECT id FROM users WHERE age = 1.5 AND score = 2 AND ok = FALSE AND city = NULL", ""],
  ["SELECT id FROM users WHERE (age = 1) = ok", ""],
  ["SELECT id FROM users ORDER BY nope", "unknown_column"],
  ["UPDATE users SET nope = 1 WHERE id = 'x'", "validation_failed"],
  ["INSERT INTO users (id, nope) VALUES ('x', 1)", "validation_failed"],
  ["DELETE FROM users WHERE nope = 1", "unknown_column"],
  ['SELECT "__proto__" FROM users', "invalid_name"],
  ['SELECT "1x" FROM users', "invalid_name"],
  ['SELECT * FROM "bad name"', "invalid_name"],
];

test("name and type errors", () => {
  const e = engine();
  for (const [sql, code] of ERRORS) {
    try {
      e.execute({ kind: "sql", sql: `EXPLAIN ${sql}` });
      assert.is(code, "", `${sql} should fail with ${code}`);
    } catch (err) {
      assert.instance(err, StoreError);
      assert.is((err as StoreError).code, code, `${sql}: ${(err as StoreError).message}`);
    }
  }
});

/** UPDATE … FROM's messages name what the statement wrote, never a derived table's internal name. */
const MESSAGES: [sql: string, code: string, message: string][] = [
  ["WITH users AS (SELECT 'u1' AS id, 9 AS n) UPDATE users SET age = users.n FROM users WHERE users.id = 'u1'", "sql_error", `"users" is the table updated: FROM names it again, so alias it there (FROM users AS other)`],
  ["UPDATE users SET age = 1 FROM users", "sql_error", `"users" is the table updated: FROM names it again, so alias it there (FROM users AS other)`],
  ["UPDATE orders SET amount = 1 FROM users AS orders", "sql_error", `"orders" is the table updated: FROM names it again, so alias it there (FROM users AS other)`],
  ["UPDATE orders SET amount = n FROM (SELECT id, 1 AS n FROM users) WHERE id = orders.user_id", "ambiguous_column", `Column "id" is ambiguous: FROM's (SELECT …), orders have it`],
];

test("UPDATE … FROM's messages name what was written", () => {
  const e = engine();
  for (const [sql, code, message] of MESSAGES) {
    try {
      e.execute({ kind: "sql", sql: `EXPLAIN ${sql}` });
      assert.unreachable(`${sql} should fail`);
    } catch (err) {
      assert.instance(err, StoreError, sql);
      assert.is((err as StoreError).code, code, sql);
      assert.is((err as StoreError).message, message, sql);
    }
  }
});

/** A call's misuse names the function as written (`substring`, not the `substr` it stands for) and says what likelihood's p must be. */
const CALL_MESSAGES: [sql: string, code: string, message: string][] = [
  ["SELECT substring(city) FROM users", "sql_error", "substring() takes 2 to 3 arguments, got 1"],
  ["SELECT CEILING(age, 1) FROM users", "sql_error", "ceiling() takes 1 argument, got 2"],
  ["SELECT likely() FROM users", "sql_error", "likely() takes 1 argument, got 0"],
  ["SELECT Likelihood(age) FROM users", "sql_error", "likelihood() takes 2 arguments, got 1"],
  ["SELECT likelihood(age, 1) FROM users", "sql_error", "likelihood()'s second argument must be a real constant between 0.0 and 1.0 (such as 0.9 or 1.0), as in SQLite"],
  ["SELECT likelihood(age, ?) FROM users", "sql_error", "likelihood()'s second argument must be a real constant between 0.0 and 1.0 (such as 0.9 or 1.0), as in SQLite"],
  ["SELECT octet_length(age) FROM users", "type_mismatch", "octet_length() takes a text, got integer"],
];

test("function misuse names the function as written", () => {
  const e = engine();
  for (const [sql, code, message] of CALL_MESSAGES) {
    try {
      e.execute({ kind: "sql", sql: `EXPLAIN ${sql}`, params: sql.includes("?") ? [0.5] : [] });
      assert.unreachable(`${sql} should fail`);
    } catch (err) {
      assert.instance(err, StoreError, sql);
      assert.is((err as StoreError).code, code, sql);
      assert.is((err as StoreError).message, message, sql);
    }
  }
});

test("likely, unlikely and likelihood are their argument in the plan: an index serves likely(email = ?)", () => {
  const e = engine();
  assert.equal(explain(e, "SELECT id FROM users WHERE likely(email = ?) AND unlikely(age > 1)"), explain(e, "SELECT id FROM users WHERE email = ? AND age > 1"));
  assert.is(explain(e, "SELECT id FROM users WHERE likelihood(email = ?, 0.0625)").access.kind, "unique-lookup");
});

const PATHS: [sql: string, access: string, extra?: string][] = [
  ["SELECT * FROM users WHERE id = 'a'", "primary-key-lookup"],
  ["SELECT * FROM users WHERE 'a' = id AND age > 3", "primary-key-lookup"],
  ["SELECT * FROM users WHERE id = ?", "primary-key-lookup"],
  ["SELECT * FROM users WHERE email = ?", "unique-lookup", "unique(email)"],
  ["SELECT * FROM users WHERE id = 'a' OR id = 'b'", "scan"],
  ["SELECT * FROM users WHERE id > 'a'", "scan"],
  ["SELECT * FROM users WHERE NOT id = 'a'", "scan"],
  ["SELECT * FROM pairs WHERE a = 1", "scan"],
  ["SELECT * FROM pairs WHERE b = 2 AND a = 1", "primary-key-lookup"],
  ["SELECT * FROM idx WHERE k = 'x' AND v = 2", "index-lookup", "by_k"],
  ["SELECT * FROM idx WHERE v = 2", "scan"],
];

test("access path choice", () => {
  const e = engine();
  for (const [sql, kind, index] of PATHS) {
    const access = explain(e, sql).access;
    assert.is(access.kind, kind, sql);
    if (index !== undefined) assert.is("index" in access ? access.index : undefined, index, sql);
  }
  const pk = explain(e, "SELECT * FROM pairs WHERE b = ? AND a = 7").access;
  assert.equal(pk, { kind: "primary-key-lookup", columns: ["a", "b"], values: [{ kind: "const", value: 7 }, { kind: "param", index: 0 }] });
  const del = (e.execute({ kind: "sql", sql: "EXPLAIN DELETE FROM users WHERE id = ?" }).result as PlanResult).plan.statement;
  assert.is(del.kind === "delete" ? del.access.kind : "", "primary-key-lookup");
});

test("join strategy choice", () => {
  const e = engine();
  const strategy = (sql: string): string => explain(e, sql).joins[0]?.strategy.kind ?? "";
  assert.is(strategy("SELECT users.id FROM users JOIN orders ON orders.id = users.age"), "index-nested-loop");
  assert.is(strategy("SELECT users.id FROM orders JOIN users ON users.id = orders.user_id"), "index-nested-loop");
  assert.is(strategy("SELECT users.id FROM users JOIN orders ON orders.user_id = users.id"), "hash");
  assert.is(strategy("SELECT users.id FROM users JOIN orders ON orders.amount > users.score"), "nested-loop");
  assert.is(strategy("SELECT users.id FROM users LEFT JOIN idx ON idx.k = users.city AND idx.v > 1"), "index-nested-loop");
});

test("one plan from JSON, SQL and EXPLAIN", () => {
  const e = engine();
  const json: SelectCommand = {
    kind: "select",
    table: "users",
    columns: ["users.id", "orders.amount"],
    joins: [{ type: "left", table: "orders", on: { type: "comparison", op: "=", left: { type: "identifier", name: "orders.user_id" }, right: { type: "identifier", name: "users.id" } } }],
    where: {
      type: "and",
      operands: [
        { type: "comparison", op: "!=", left: { type: "identifier", name: "users.city" }, right: { type: "literal", value: "x" } },
        { type: "is-null", expr: { type: "identifier", name: "orders.id" }, not: true },
      ],
    },
    orderBy: [{ column: "orders.amount", direction: "desc" }, { column: "users.id" }],
    limit: 5,
  };
  const sql = "SELECT users.id, orders.amount FROM users LEFT JOIN orders ON orders.user_id = users.id WHERE users.city <> 'x' AND orders.id IS NOT NULL ORDER BY orders.amount DESC, users.id LIMIT 5";
  const viaJson = e.execute({ kind: "explain", command: json }).result;
  const viaSqlCommand = e.execute({ kind: "explain", command: { kind: "sql", sql } }).result;
  const viaExplain = e.execute({ kind: "sql", sql: `EXPLAIN ${sql}` }).result;
  assert.equal(viaSqlCommand, viaJson);
  assert.equal(viaExplain, viaJson);
  const where = (viaJson as PlanResult).plan.statement as SelectPlan;
  assert.is(where.where?.kind === "and" && where.where.operands[0]?.kind === "compare" ? where.where.operands[0].op : "", "<>");
});

test("one plan for each join form, whichever surface or spelling; explain shows the type and USING's columns", () => {
  const e = engine();
  const plan = (command: ExplainCommand["command"]) => (e.execute({ kind: "explain", command }).result as PlanResult).plan;
  const select = (joins: SelectCommand["joins"], where?: SelectCommand["where"]): SelectCommand => ({ kind: "select", table: "users", columns: "*", joins, ...(where ? { where } : {}) });
  const id = (name: string) => ({ type: "identifier", name }) as const;
  const onCity = { type: "comparison", op: "=", left: id("orders.city"), right: id("users.city") } as const;
  const same: [string[], SelectCommand][] = [
    [["SELECT * FROM users, orders WHERE orders.user_id = users.id", "SELECT * FROM users CROSS JOIN orders WHERE orders.user_id = users.id", "SELECT * FROM users JOIN orders WHERE orders.user_id = users.id"],
      select([{ type: "cross", table: "orders" }], { type: "comparison", op: "=", left: id("orders.user_id"), right: id("users.id") })],
    [["SELECT * FROM users RIGHT JOIN orders ON orders.city = users.city", "SELECT * FROM users RIGHT OUTER JOIN orders ON orders.city = users.city"], select([{ type: "right", table: "orders", on: onCity }])],
    [["SELECT * FROM users FULL OUTER JOIN orders USING (city)"], select([{ type: "full", table: "orders", using: ["city"] }])],
    [["SELECT * FROM orders NATURAL LEFT JOIN orders AS o2", "SELECT * FROM orders LEFT JOIN orders AS o2 USING (id, user_id, amount, city)"],
      { kind: "select", table: "orders", columns: "*", joins: [{ type: "left", table: "orders", as: "o2", natural: true }] }],
  ];
  for (const [sqls, json] of same) {
    const expected = plan(json);
    for (const sql of sqls) assert.equal(plan({ kind: "sql", sql }), expected, sql);
  }
  const natural = explain(e, "SELECT * FROM orders NATURAL LEFT JOIN orders AS o2").joins[0]!;
  assert.equal([natural.type, natural.using, natural.strategy.kind], ["left", ["id", "user_id", "amount", "city"], "index-nested-loop"]);
  const full = explain(e, "SELECT * FROM users FULL JOIN orders USING (city)");
  assert.equal([full.joins[0]!.type, full.joins[0]!.using, full.joins[0]!.strategy.kind], ["full", ["city"], "hash"]);
  // A cross join is an inner join whose ON is TRUE; the WHERE's equality is its key.
  const comma = explain(e, "SELECT * FROM users, orders WHERE orders.user_id = users.id").joins[0]!;
  assert.equal([comma.type, comma.on, comma.strategy.kind], ["inner", { kind: "const", value: true }, "hash"]);
});

test("computed fields inline as expressions and `*` lists them last", () => {
  const e = engine();
  e.execute({ kind: "create-table", schema: { name: "c", columns: { a: "integer" }, computed: { big: { type: "comparison", op: ">", left: { type: "identifier", name: "a" }, right: { type: "literal", value: 10 } } } } } as Command);
  const plan = explain(e, "SELECT * FROM c WHERE big ORDER BY big");
  assert.equal(plan.columns.map((c) => c.name), ["a", "big"]);
  assert.equal(plan.where, { kind: "compare", op: ">", left: { kind: "column", source: 0, column: 0, name: "a", type: "integer" }, right: { kind: "const", value: 10 } });
});

test.run();
