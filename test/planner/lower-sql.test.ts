import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Command } from "../../src/commands/types.js";
import { parseCommand } from "../../src/commands/validate.js";
import { StoreError } from "../../src/errors.js";
import { parseSql } from "../../src/parser/index.js";
import { lowerSql } from "../../src/planner/lower-sql.js";
import type { Catalog, TableInfo } from "../../src/planner/table-info.js";
import { storeErrorOf } from "../support/store-error.js";

const lower = (sql: string): Command => lowerSql(parseSql(sql));
const id = (name: string) => ({ type: "identifier", name });
const lit = (value: unknown) => ({ type: "literal", value });
const p = (index: number) => ({ type: "param", index });
const cmp = (op: string, left: unknown, right: unknown) => ({ type: "comparison", op, left, right });

const CASES: [string, unknown][] = [
  ["SELECT * FROM users", { kind: "select", table: "users", columns: "*" }],
  ["SELECT id, users.name FROM users", { kind: "select", table: "users", columns: ["id", "users.name"] }],
  ['SELECT "Name" FROM "Users"', { kind: "select", table: "Users", columns: ["Name"] }],
  [
    "SELECT u2.name FROM users JOIN users AS u2 ON u2.id = users.id LEFT JOIN orders o ON o.user_id = users.id",
    {
      kind: "select",
      table: "users",
      columns: ["u2.name"],
      joins: [
        { type: "inner", table: "users", as: "u2", on: cmp("=", id("u2.id"), id("users.id")) },
        { type: "left", table: "orders", as: "o", on: cmp("=", id("o.user_id"), id("users.id")) },
      ],
    },
  ],
  ["SELECT * FROM t INNER JOIN u ON u.a = t.a", { kind: "select", table: "t", columns: "*", joins: [{ type: "inner", table: "u", on: cmp("=", id("u.a"), id("t.a")) }] }],
  [
    "SELECT a FROM t WHERE a = ? AND NOT b IS NOT NULL OR c <> 'it''s' ORDER BY a DESC, b LIMIT 10 OFFSET 5",
    {
      kind: "select",
      table: "t",
      columns: ["a"],
      where: {
        type: "or",
        operands: [
          { type: "and", operands: [cmp("=", id("a"), p(0)), { type: "not", expr: { type: "is-null", expr: id("b"), not: true } }] },
          cmp("<>", id("c"), lit("it's")),
        ],
      },
      orderBy: [{ column: "a", direction: "desc" }, { column: "b", direction: "asc" }],
      limit: 10,
      offset: 5,
    },
  ],
  ["SELECT a FROM t WHERE a IS NULL LIMIT 0", { kind: "select", table: "t", columns: ["a"], where: { type: "is-null", expr: id("a") }, limit: 0 }],
  ["SELECT a FROM t WHERE a != -1.5", { kind: "select", table: "t", columns: ["a"], where: cmp("!=", id("a"), lit(-1.5)) }],
  ["SELECT a FROM t WHERE TRUE AND x = FALSE AND y = NULL", {
    kind: "select", table: "t", columns: ["a"],
    where: { type: "and", operands: [lit(true), cmp("=", id("x"), lit(false)), cmp("=", id("y"), lit(null))] },
  }],
  [
    "INSERT INTO t (a, b) VALUES (1, ?), ('x', NULL), (?, TRUE)",
    { kind: "insert", table: "t", rows: [{ a: 1, b: p(0) }, { a: "x", b: null }, { a: p(1), b: true }] },
  ],
  ["INSERT INTO t (constructor) VALUES (1)", { kind: "insert", table: "t", rows: [{ constructor: 1 }] }],
  ["UPDATE t SET a = 1, b = ? WHERE c = ?", { kind: "update", table: "t", set: { a: 1, b: p(0) }, where: cmp("=", id("c"), p(1)) }],
  ["UPDATE t SET a = 'x'", { kind: "update", table: "t", set: { a: "x" }, where: lit(true) }],
  ["DELETE FROM t", { kind: "delete", table: "t", where: lit(true) }],
  ["DELETE FROM t WHERE id = -5;", { kind: "delete", table: "t", where: cmp("=", id("id"), lit(-5)) }],
  ["DROP TABLE t", { kind: "drop-table", table: "t" }],
  ["DROP TABLE IF EXISTS t", { kind: "drop-table", table: "t", ifExists: true }],
  ["EXPLAIN SELECT * FROM t", { kind: "explain", command: { kind: "select", table: "t", columns: "*" } }],
  ["EXPLAIN DELETE FROM t", { kind: "explain", command: { kind: "delete", table: "t", where: lit(true) } }],
  ["CREATE TABLE t (a TEXT)", { kind: "create-table", schema: { name: "t", columns: { a: "text" } } }],
  [
    "CREATE TABLE IF NOT EXISTS orders (id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL UNIQUE, paid BOOL DEFAULT FALSE, " +
      "user_id TEXT REFERENCES users(id) ON DELETE CASCADE, amount REAL DEFAULT -1, UNIQUE (name, amount), CONSTRAINT pos CHECK (amount > 0), CHECK (amount < 1000))",
    {
      kind: "create-table",
      ifNotExists: true,
      schema: {
        name: "orders",
        columns: { id: "integer", name: "text", paid: "boolean", user_id: "text", amount: "real" },
        required: ["name"],
        primary_key: { columns: ["id"] },
        unique: [{ columns: ["name"] }, { columns: ["name", "amount"] }],
        foreign_keys: [{ columns: ["user_id"], references: { table: "users", columns: ["id"] }, on_delete: "cascade" }],
        checks: [{ name: "pos", expr: cmp(">", id("amount"), lit(0)) }, { expr: cmp("<", id("amount"), lit(1000)) }],
        defaults: { paid: false, amount: -1 },
      },
    },
  ],
  [
    "CREATE TABLE kv (k1 TEXT, k2 INT, v TEXT, PRIMARY KEY (k1, k2), FOREIGN KEY (k1, k2) REFERENCES other(a, b) ON DELETE RESTRICT)",
    {
      kind: "create-table",
      schema: {
        name: "kv",
        columns: { k1: "text", k2: "integer", v: "text" },
        primary_key: { columns: ["k1", "k2"] },
        foreign_keys: [{ columns: ["k1", "k2"], references: { table: "other", columns: ["a", "b"] }, on_delete: "restrict" }],
      },
    },
  ],
  [
    // A WITH table is lowered once and read wherever FROM or JOIN names it, under its name; a derived table under its alias or none.
    "WITH c AS (SELECT a FROM t WHERE a > ?) SELECT ?, x FROM (SELECT ? AS x) d JOIN c ON c.a = x WHERE EXISTS (SELECT 1 AS one FROM c) LIMIT ?",
    {
      kind: "select",
      columns: [{ expr: p(1), as: "?" }, "x"],
      from: { kind: "select", columns: [{ expr: p(2), as: "x" }] },
      as: "d",
      joins: [{ type: "inner", from: { kind: "select", columns: ["a"], table: "t", where: cmp(">", id("a"), p(0)) }, as: "c", on: cmp("=", id("c.a"), id("x")) }],
      where: { type: "exists", select: { kind: "select", columns: [{ expr: lit(1), as: "one" }], from: { kind: "select", columns: ["a"], table: "t", where: cmp(">", id("a"), p(0)) }, as: "c" } },
      limit: p(3),
    },
  ],
  ["SELECT * FROM (SELECT 1 AS n)", { kind: "select", columns: "*", from: { kind: "select", columns: [{ expr: lit(1), as: "n" }] } }],
  [
    // A table function's call: its arguments are expressions (parameters numbered in text order); unaliased, it keeps no alias (the binder names it by the function).
    "SELECT value FROM t, json_each(t.doc, ?) j JOIN json_tree(?) ON TRUE WHERE key = ?",
    {
      kind: "select",
      columns: ["value"],
      table: "t",
      joins: [
        { type: "cross", from: { kind: "function", name: "json_each", args: [id("t.doc"), p(0)] }, as: "j" },
        { type: "inner", from: { kind: "function", name: "json_tree", args: [p(1)] }, on: lit(true) },
      ],
      where: cmp("=", id("key"), p(2)),
    },
  ],
  [
    // NULLS, FIRST and LAST are names everywhere but after an ORDER BY item.
    "SELECT first, last, nulls FROM t ORDER BY first NULLS FIRST, last DESC NULLS LAST, nulls",
    {
      kind: "select",
      table: "t",
      columns: ["first", "last", "nulls"],
      orderBy: [
        { column: "first", direction: "asc", nulls: "first" },
        { column: "last", direction: "desc", nulls: "last" },
        { column: "nulls", direction: "asc" },
      ],
    },
  ],
  [
    // Placeholders number in text order across the selects, then ORDER BY and LIMIT.
    "SELECT a FROM t WHERE a = ? UNION ALL SELECT b FROM u WHERE b > ? INTERSECT SELECT ? EXCEPT SELECT c FROM v UNION SELECT d FROM w ORDER BY 1 LIMIT ?",
    {
      kind: "select",
      table: "t",
      columns: ["a"],
      where: cmp("=", id("a"), p(0)),
      compound: [
        { op: "union-all", select: { kind: "select", table: "u", columns: ["b"], where: cmp(">", id("b"), p(1)) } },
        { op: "intersect", select: { kind: "select", columns: [{ expr: p(2), as: "?" }] } },
        { op: "except", select: { kind: "select", table: "v", columns: ["c"] } },
        { op: "union", select: { kind: "select", table: "w", columns: ["d"] } },
      ],
      orderBy: [{ expr: lit(1), direction: "asc" }],
      limit: p(3),
    },
  ],
];

test("statements lower to the wire command a JSON client would send", () => {
  for (const [sql, expected] of CASES) assert.equal(lower(sql), expected, sql);
});

test("lowered commands without parameters pass the JSON validator", () => {
  for (const [sql] of CASES) {
    const command = lower(sql);
    if (!JSON.stringify(command).includes('"param"')) assert.is(parseCommand(command), command, sql);
  }
});

test("every SQL type name maps onto a column type, case-insensitively", () => {
  const types: [string, string][] = [
    ["TEXT", "text"], ["varchar(255)", "text"], ["CHAR(3)", "text"], ["Char", "text"],
    ["INT", "integer"], ["integer", "integer"], ["BIGINT", "integer"], ["SMALLINT", "integer"],
    ["REAL", "real"], ["FLOAT", "real"], ["DOUBLE", "real"], ["NUMERIC(10, 2)", "real"], ["DECIMAL", "real"],
    ["BOOL", "boolean"], ["boolean", "boolean"],
  ];
  for (const [name, type] of types) {
    assert.equal(lower(`CREATE TABLE t (a ${name})`), { kind: "create-table", schema: { name: "t", columns: { a: type } } }, name);
  }
});

const failure = (sql: string): StoreError => storeErrorOf(() => lower(sql), `expected ${sql} to fail`);

test("what the command form cannot hold is a sql_error at the offending token", () => {
  const cases: [string, string, number][] = [
    ["INSERT INTO t (a, b) VALUES (1)", "VALUES has 1 value(s) but the column list has 2", 29],
    ["INSERT INTO t (a) VALUES (1, 2, 3)", "VALUES has 3 value(s) but the column list has 1", 29],
    ["INSERT INTO t (a, b) VALUES (1, 2), (3)", "VALUES has 1 value(s) but the column list has 2", 37],
    ["INSERT INTO t (a, a) VALUES (1, 2)", "Column a appears twice in the INSERT column list", 18],
    ["UPDATE t SET a = 1, a = 2", "Column a appears twice in the SET list", 20],
    ["CREATE TABLE t (a TEXT, a INT)", "Column a appears twice in the column list", 24],
    ["CREATE TABLE t (a BLOB)", "Unknown type BLOB", 18],
    ["CREATE TABLE t (a INT(11))", "Type INT takes at most 0 argument(s)", 18],
    ["CREATE TABLE t (a INT PRIMARY KEY, b INT PRIMARY KEY)", "A table has at most one PRIMARY KEY", 35],
    ["CREATE TABLE t (a INT PRIMARY KEY, b INT, PRIMARY KEY (b))", "A table has at most one PRIMARY KEY", 42],
    ["CREATE TABLE t (a INT, PRIMARY KEY (a, a))", "Column a appears twice in the PRIMARY KEY", 39],
    ["CREATE TABLE t (a INT, FOREIGN KEY (a) REFERENCES u(x, y))", "FOREIGN KEY has 1 column(s) but REFERENCES names 2", 23],
    ["SELECT a FROM t WHERE a LIKE 'x' ESCAPE b", "ESCAPE takes a string literal or ?", 40],
    ["SELECT CAST(a AS BLOB) FROM t", "Unknown type BLOB", 17],
    ["SELECT sum(*) FROM t", "sum(*) does not exist", 7],
    ["SELECT count(a, b) FROM t", "count() takes 1 argument or *, got 2", 7],
    ["SELECT avg() FROM t", "avg() takes 1 argument, got 0", 7],
    ["SELECT lower(DISTINCT a) FROM t", "lower() is no aggregate", 7],
    ["SELECT value FROM generate_series(1, 5)", 'No table function is named "generate_series"', 18],
    ["SELECT t.a FROM t, json_each(t.a, '$', 3)", "json_each() takes a JSON document and, optionally, a path: got 3 argument(s)", 19],
    ["SELECT value FROM json_tree()", "json_tree() takes a JSON document and, optionally, a path: got 0 argument(s)", 18],
    ["SELECT a FROM t WHERE a = 'x' COLLATE klingon", "no such collation sequence: klingon", 38],
    ["SELECT a FROM t ORDER BY a COLLATE nocase COLLATE x", "no such collation sequence: x", 50],
    ["SELECT a FROM t GROUP BY 1 COLLATE \"no case\"", "no such collation sequence: no case", 35],
    ["CREATE TABLE t (email TEXT COLLATE NOCASE UNIQUE)", "Column email cannot be declared COLLATE NOCASE", 35],
    ["CREATE TABLE t (a TEXT COLLATE rtrim)", "Column a cannot be declared COLLATE RTRIM", 31],
    ["CREATE TABLE t (a TEXT COLLATE binary COLLATE binary)", "Column a has a second COLLATE", 38],
    ["ALTER TABLE t ADD COLUMN a TEXT COLLATE NOCASE", "Column a cannot be declared COLLATE NOCASE", 40],
    ["CREATE UNIQUE INDEX i ON t (s COLLATE NOCASE)", "Column s cannot be declared COLLATE NOCASE", 38],
    ["CREATE TABLE t (s TEXT, UNIQUE (s COLLATE nocase))", "Column s cannot be declared COLLATE NOCASE", 42],
    ["CREATE TABLE t (s TEXT, PRIMARY KEY (s COLLATE RTRIM))", "Column s cannot be declared COLLATE RTRIM", 47],
    ["INSERT INTO t (s) VALUES ('x') ON CONFLICT (s COLLATE NOCASE) DO NOTHING", "Column s cannot be declared COLLATE NOCASE", 54],
    ["CREATE INDEX i ON t (s COLLATE klingon)", "no such collation sequence: klingon", 31],
  ];
  for (const [sql, message, offset] of cases) {
    const error = failure(sql);
    assert.is(error.code, "sql_error", sql);
    assert.ok(error.message.startsWith(message), `${sql}: ${error.message}`);
    assert.is(error.position?.offset, offset, `${sql}: offset`);
    assert.is(error.position?.line, 1);
    assert.is(error.position?.column, offset + 1);
  }
});

test("COLLATE BINARY on a key's, an index's or an ON CONFLICT target's column is every column's: it lowers as without it", () => {
  const pairs = [
    ["CREATE UNIQUE INDEX i ON t (a, s COLLATE binary)", "CREATE UNIQUE INDEX i ON t (a, s)"],
    ["CREATE TABLE t (s TEXT, a INT, PRIMARY KEY (s COLLATE BINARY), UNIQUE (a, s COLLATE \"binary\"))", "CREATE TABLE t (s TEXT, a INT, PRIMARY KEY (s), UNIQUE (a, s))"],
    ["INSERT INTO t (s) VALUES (1) ON CONFLICT (s COLLATE BINARY) DO NOTHING", "INSERT INTO t (s) VALUES (1) ON CONFLICT (s) DO NOTHING"],
  ];
  for (const [collated, plain] of pairs) assert.equal(lower(collated!), lower(plain!), collated);
});

test("COLLATE lowers to its node, a name in any case; around an ORDER BY item it is the item's collation; LIMIT -1 is none", () => {
  const coll = (expr: unknown, collation: string) => ({ type: "collate", expr, collation });
  assert.equal(lower("SELECT a FROM t WHERE a = 'x' COLLATE NoCase"), { kind: "select", table: "t", columns: ["a"], where: cmp("=", id("a"), coll(lit("x"), "nocase")) });
  assert.equal(lower("SELECT a FROM t WHERE a NOT GLOB 'x*'"), { kind: "select", table: "t", columns: ["a"], where: { type: "glob", expr: id("a"), pattern: lit("x*"), not: true } });
  assert.equal(lower('SELECT a FROM t ORDER BY a COLLATE "rtrim" DESC, 2 COLLATE binary COLLATE nocase'), {
    kind: "select",
    table: "t",
    columns: ["a"],
    orderBy: [
      { column: "a", direction: "desc", collation: "rtrim" },
      { expr: lit(2), direction: "asc", collation: "nocase" },
    ],
  });
  assert.equal(lower("SELECT a FROM t LIMIT -1 OFFSET -5"), { kind: "select", table: "t", columns: ["a"] });
  assert.equal(lower("SELECT a FROM t LIMIT -2 OFFSET 3"), { kind: "select", table: "t", columns: ["a"], offset: 3 });
  assert.equal(lower("CREATE TABLE t (a TEXT COLLATE BINARY)"), lower("CREATE TABLE t (a TEXT)"));
});

test("a position counts lines and UTF-16 units", () => {
  const error = failure("-- ünïcödé 😀\nCREATE TABLE t (\n  a INT,\n  b GEOMETRY)");
  assert.equal(error.position, { line: 4, column: 5, offset: 44 });
});

test("quoted names that break CONTRACT §1 are invalid_name with a position", () => {
  const cases: [string, number][] = [
    ['SELECT * FROM "bad name"', 14],
    ['SELECT "__proto__" FROM t', 7],
    ['SELECT t."a-b" FROM t', 9],
    ['CREATE TABLE "9t" (a INT)', 13],
    ['DROP TABLE "a.b"', 11],
    [`SELECT ${"a".repeat(65)} FROM t`, 7],
  ];
  for (const [sql, offset] of cases) {
    const error = failure(sql);
    assert.is(error.code, "invalid_name", sql);
    assert.is(error.position?.offset, offset, sql);
  }
});

test("INSERT and SET column names are row keys, passed through for the engine to judge", () => {
  assert.equal(lower('INSERT INTO t ("x y") VALUES (1)'), { kind: "insert", table: "t", rows: [{ "x y": 1 }] });
  assert.equal(lower('UPDATE t SET "a b" = 1'), { kind: "update", table: "t", set: { "a b": 1 }, where: lit(true) });
  const insert = lower('INSERT INTO t ("__proto__", b) VALUES (1, 2)') as unknown as { rows: Record<string, unknown>[] };
  const row = insert.rows[0] as Record<string, unknown>;
  assert.equal(Object.keys(row), ["__proto__", "b"]);
  assert.is(Object.getPrototypeOf(row), Object.prototype);
  assert.is(Object.getOwnPropertyDescriptor(row, "__proto__")?.value, 1);
  const update = lower('UPDATE t SET "__proto__" = 1') as { set: Record<string, unknown> };
  assert.equal(Object.keys(update.set), ["__proto__"]);
  assert.is(Object.getPrototypeOf(update.set), Object.prototype);
  assert.is(failure('INSERT INTO t ("x y", "x y") VALUES (1, 2)').code, "sql_error");
});

test("INSERT without a column list takes the table's stored columns, in order, from the catalog", () => {
  // Only the columns matter to the lowering; a table of three stored columns.
  const catalog: Catalog = { table: (name) => (name === "t" ? ({ name, columns: ["a", "b", "c"] } as unknown as TableInfo) : undefined), tables: () => [] };
  const lowerIn = (sql: string) => lowerSql(parseSql(sql), catalog);
  assert.equal(lowerIn("INSERT INTO t VALUES (1, 'x', ?), (2, NULL, 3)"), {
    kind: "insert",
    table: "t",
    rows: [{ a: 1, b: "x", c: p(0) }, { a: 2, b: null, c: 3 }],
  });
  assert.equal(lowerIn("EXPLAIN INSERT OR IGNORE INTO t VALUES (1, 2, 3)"), {
    kind: "explain",
    command: { kind: "insert", table: "t", rows: [{ a: 1, b: 2, c: 3 }], onConflict: { action: "nothing" } },
  });
  const narrow = storeErrorOf(() => lowerIn("INSERT INTO t VALUES (1, 2)"));
  assert.is(narrow.code, "sql_error");
  assert.is(narrow.message.split(" at line")[0], "VALUES has 2 value(s) but table t has 3 column(s) (a, b, c)");
  assert.is(narrow.position?.offset, 25);
  assert.is(storeErrorOf(() => lowerIn("INSERT INTO nope VALUES (1)")).code, "table_not_found");
  // With no catalog to ask (the CLI's export lowers its query alone), the list is required.
  assert.is(failure("INSERT INTO t VALUES (1, 2, 3)").code, "sql_error");
});

test.run();
