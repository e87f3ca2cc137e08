/**
 * Conformance cases for row values (SQLite's `(a, b)`, JSON `{"type":"row"}`,
 * the builder's `row()`): every comparison operator with NULLs in each
 * position, BETWEEN, IN a subquery of several columns (uncorrelated,
 * correlated, empty, with duplicates and NULLs), a row subquery, UPDATE's
 * `SET (a, b) = …`, and each misuse. Every expected answer is SQLite's
 * (3.53, better-sqlite3, over the same rows), booleans as storedb gives them.
 *
 * Fixture rows (see `cases-expressions.ts`): users u1..u5 — names Ada, Bob,
 * Cy, Dee, Eve; ages 36, 17, NULL, 52, 28; cities Paris, Berlin, Paris,
 * NULL, Rome; scores 9.5, 7.25, NULL, 3, 9.5. Orders 1..6: users u1, u1,
 * u2, u3, u5, u5; amounts 250, 20, 99.5, 100, 5, NULL; statuses shipped,
 * new, shipped, cancelled, new, new.
 */

import { col, eq, fn, ne, row, subquery, type Expr } from "../../src/api/expressions.js";
import type { Expression, Value } from "../../src/commands/types.js";
import { AGG, AS, C, I, L, Q, TRUE, c, misuse, ret, rows, sel, type Case, type Fluent, type Select } from "./dsl.js";

const users = "users";
const orders = "orders";
const USERS = ["u1", "u2", "u3", "u4", "u5"];
const ORDERS = [1, 2, 3, 4, 5, 6];

/** A row value: a string is a column, anything else a literal (or the expression it is). */
const ROW = (...items: (Value | Expression)[]): Expression => ({
  type: "row",
  items: items.map((x) => (typeof x === "string" ? I(x) : typeof x === "object" && x !== null ? x : L(x))),
});
const INQ = (expr: Expression, select: Select, not?: true): Expression => ({ type: "in", expr, select, ...(not ? { not } : {}) }) as unknown as Expression;
const SUBQ = (select: Select, column?: number): Expression => ({ type: "subquery", select, ...(column === undefined ? {} : { column }) }) as unknown as Expression;
const BETWEENR = (expr: Expression, low: Expression, high: Expression, not?: true): Expression => ({ type: "between", expr, low, high, ...(not ? { not } : {}) });

/** `SELECT id, <expr> AS v FROM <table> ORDER BY id`, expecting one value per row. */
function per(name: string, table: string, fluent: ((t: Parameters<Fluent>[0]) => Expr) | null, json: Expression, sql: string, values: readonly Value[]): Case {
  const keys: readonly Value[] = table === users ? USERS : ORDERS;
  return c(
    name,
    fluent === null ? null : (t) => t(table).select("id", fluent(t).as("v")).orderBy("id"),
    sel(table, ["id", AS(json, "v")], { orderBy: [{ column: "id" }] }),
    `SELECT id, ${sql} AS v FROM ${table} ORDER BY id`,
    rows(["id", "v"], ...keys.map((id, i) => [id, values[i] ?? null])),
  );
}

const cityAge = row(col("city"), col("age"));

export const rowValueCases: readonly Case[] = [
  // ---- comparisons: =, <> as AND / OR of their pairs
  per("= of row values: FALSE once a pair differs, else NULL for a NULL", users, () => cityAge.eq(row("Paris", 36)), C("=", ROW("city", "age"), ROW(L("Paris"), 36)), "(city, age) = ('Paris', 36)", [true, false, null, false, false]),
  per("<> of row values: TRUE once a pair differs, else NULL for a NULL", users, () => cityAge.ne(row("Paris", 36)), C("<>", ROW("city", "age"), ROW(L("Paris"), 36)), "(city, age) <> ('Paris', 36)", [false, true, null, true, true]),
  per("!= of row values is <>", users, null, C("!=", ROW("city", "age"), ROW(L("Paris"), 36)), "(city, age) != ('Paris', 36)", [false, true, null, true, true]),
  c("= of row values in WHERE", (t) => t(users).select("id").where(eq(cityAge, row("Paris", 36))), sel(users, ["id"], { where: C("=", ROW("city", "age"), ROW(L("Paris"), 36)) }),
    "SELECT id FROM users WHERE (city, age) = ('Paris', 36)", rows(["id"], ["u1"])),
  c("= of row values on the key uses the key", null, { kind: "explain", command: sel(users, ["id"], { where: C("=", ROW("id", "age"), ROW(L("u1"), 36)) }) },
    "EXPLAIN SELECT id FROM users WHERE (id, age) = ('u1', 36)", { access: "primary-key-lookup" }),
  // ---- orderings: lexicographic, a NULL reached first makes NULL
  per("< of row values: the first unequal pair decides", users, () => cityAge.lt(row("Paris", 40)), C("<", ROW("city", "age"), ROW(L("Paris"), 40)), "(city, age) < ('Paris', 40)", [true, true, null, null, false]),
  per("<= of row values: equal rows are <=", users, () => cityAge.le(row("Paris", 36)), C("<=", ROW("city", "age"), ROW(L("Paris"), 36)), "(city, age) <= ('Paris', 36)", [true, true, null, null, false]),
  per("> of row values, a NULL in the last pair on the right", users, null, C(">", ROW("age", "score"), ROW(30, L(null))), "(age, score) > (30, NULL)", [true, false, null, true, false]),
  per(">= of row values, a NULL in the first pair on the right", users, null, C(">=", ROW("age", "score"), ROW(L(null), 1)), "(age, score) >= (NULL, 1)", [null, null, null, null, null]),
  per("> against a row subquery holding a NULL", users, (t) => row(col("name"), col("age")).gt(subquery(t(users).select("name", "age").where(eq("id", "u3")))),
    C(">", ROW("name", "age"), SUBQ(Q(users, ["name", "age"], { where: C("=", "id", "u3") }))), "(name, age) > (SELECT name, age FROM users WHERE id = 'u3')", [false, false, null, true, true]),
  // ---- IS and IS NOT: NULL is a value
  per("IS of row values: NULLs equal", users, () => cityAge.is(row("Paris", null)), C("is", ROW("city", "age"), ROW(L("Paris"), L(null))), "(city, age) IS ('Paris', NULL)", [false, false, true, false, false]),
  per("IS NOT of row values", users, () => cityAge.isNot(row("Paris", null)), C("is not", ROW("city", "age"), ROW(L("Paris"), L(null))), "(city, age) IS NOT ('Paris', NULL)", [true, true, false, true, true]),
  // ---- BETWEEN
  per("BETWEEN row values", users, () => cityAge.between(row("Berlin", 0), row("Paris", 36)), BETWEENR(ROW("city", "age"), ROW(L("Berlin"), 0), ROW(L("Paris"), 36)),
    "(city, age) BETWEEN ('Berlin', 0) AND ('Paris', 36)", [true, true, null, null, false]),
  per("NOT BETWEEN row values", users, () => cityAge.notBetween(row("Berlin", 0), row("Paris", 36)), BETWEENR(ROW("city", "age"), ROW(L("Berlin"), 0), ROW(L("Paris"), 36), true),
    "(city, age) NOT BETWEEN ('Berlin', 0) AND ('Paris', 36)", [false, false, null, null, true]),
  // ---- IN a subquery of several columns
  per("a row value IN a subquery of two columns", users, (t) => row(col("id"), "new").in(t(orders).select("user_id", "status")), INQ(ROW("id", L("new")), Q(orders, ["user_id", "status"])),
    "(id, 'new') IN (SELECT user_id, status FROM orders)", [true, false, false, false, true]),
  per("IN with NULLs on both sides: NULL where a row might match", users, (t) => cityAge.in(t(users).select("city", "age").where(ne("id", "u1"))),
    INQ(ROW("city", "age"), Q(users, ["city", "age"], { where: C("<>", "id", "u1") })), "(city, age) IN (SELECT city, age FROM users WHERE id <> 'u1')", [null, true, null, null, true]),
  per("NOT IN with NULLs on both sides", users, (t) => cityAge.notIn(t(users).select("city", "age").where(ne("id", "u1"))),
    INQ(ROW("city", "age"), Q(users, ["city", "age"], { where: C("<>", "id", "u1") }), true), "(city, age) NOT IN (SELECT city, age FROM users WHERE id <> 'u1')", [null, false, null, null, false]),
  per("IN an empty subquery is FALSE, NULLs or not", users, null, INQ(ROW("id", "age"), Q(users, ["id", "age"], { where: L(false) })), "(id, age) IN (SELECT id, age FROM users WHERE false)", [false, false, false, false, false]),
  per("NOT IN an empty subquery is TRUE, NULLs or not", users, null, INQ(ROW("id", "age"), Q(users, ["id", "age"], { where: L(false) }), true), "(id, age) NOT IN (SELECT id, age FROM users WHERE false)", [true, true, true, true, true]),
  per("IN a subquery of duplicate rows", orders, null,
    INQ(ROW("user_id", "amount"), { kind: "select", table: orders, columns: ["user_id", "amount"], compound: [{ op: "union-all", select: Q(orders, ["user_id", "amount"]) }] }),
    "(user_id, amount) IN (SELECT user_id, amount FROM orders UNION ALL SELECT user_id, amount FROM orders)", [true, true, true, true, true, null]),
  per("correlated NOT IN of row values (a hash semi-join)", orders, null,
    INQ(ROW("status", "amount"), Q(orders, ["o.status", "o.amount"], { as: "o", where: { type: "and", operands: [C("=", "o.user_id", I("orders.user_id")), C("<>", "o.id", I("orders.id"))] } }), true),
    "(status, amount) NOT IN (SELECT o.status, o.amount FROM orders o WHERE o.user_id = orders.user_id AND o.id <> orders.id)", [true, true, true, true, null, null]),
  per("IN compares each pair in its collation", users, null, INQ(ROW("id", "city"), Q(users, ["id", AS({ type: "collate", expr: { type: "function", name: "upper", args: [I("city")] }, collation: "nocase" }, "c")])),
    "(id, city) IN (SELECT id, upper(city) COLLATE NOCASE AS c FROM users)", [true, true, true, null, true]),
  // ---- IN a list of row values (SQLite reads it as IN (VALUES …))
  per("IN a list of row values", users, () => cityAge.in(row("Paris", 36), row("Berlin", 17), row(null, 52)),
    { type: "in", expr: ROW("city", "age"), values: [ROW(L("Paris"), 36), ROW(L("Berlin"), 17), ROW(L(null), 52)] },
    "(city, age) IN (('Paris', 36), ('Berlin', 17), (NULL, 52))", [true, true, null, null, false]),
  per("NOT IN a list of row values, a NULL in a row", users, () => cityAge.notIn(row("Paris", 36), row("Rome", null)),
    { type: "in", expr: ROW("city", "age"), values: [ROW(L("Paris"), 36), ROW(L("Rome"), L(null))], not: true },
    "(city, age) NOT IN (('Paris', 36), ('Rome', NULL))", [false, true, null, null, null]),
  per("IN a list of row values takes the last row's collation for each pair", users, null,
    { type: "in", expr: ROW("city", "age"), values: [ROW(L("paris"), 36), ROW({ type: "collate", expr: L("PARIS"), collation: "nocase" }, 36)] },
    "(city, age) IN (('paris', 36), ('PARIS' COLLATE NOCASE, 36))", [true, false, null, false, false]),
  c("IN a list of one row value is its = (a key lookup)", null, { kind: "explain", command: sel(users, ["id"], { where: { type: "in", expr: ROW("id", "age"), values: [ROW(L("u1"), 36)] } }) },
    "EXPLAIN SELECT id FROM users WHERE (id, age) IN (('u1', 36))", { access: "primary-key-lookup" }),
  // ---- a row subquery
  c("= a row subquery", (t) => t(users).select("id").where(cityAge.eq(subquery(t(users).select("city", "age").where(eq("id", "u1"))))),
    sel(users, ["id"], { where: C("=", ROW("city", "age"), SUBQ(Q(users, ["city", "age"], { where: C("=", "id", "u1") }))) }),
    "SELECT id FROM users WHERE (city, age) = (SELECT city, age FROM users WHERE id = 'u1')", rows(["id"], ["u1"])),
  per("= a row subquery of no row is NULL", users, null, C("=", ROW("city", "age"), SUBQ(Q(users, ["city", "age"], { where: C("=", "id", "none") }))),
    "(city, age) = (SELECT city, age FROM users WHERE id = 'none')", [null, null, null, null, null]),
  per("= a correlated row subquery", orders, null,
    C("=", ROW("user_id", "amount"), SUBQ(Q(orders, ["o.user_id", AS(AGG("max", "o.amount"), "m")], { as: "o", where: C("=", "o.user_id", I("orders.user_id")), groupBy: [I("o.user_id")] }))),
    "(user_id, amount) = (SELECT o.user_id, max(o.amount) AS m FROM orders o WHERE o.user_id = orders.user_id GROUP BY o.user_id)", [true, false, true, true, true, null]),
  c("a row subquery of two rows is refused when it runs (storedb's rule for a scalar subquery)", null, sel(users, ["id"], { where: C("=", ROW("city", "age"), SUBQ(Q(users, ["city", "age"]))) }),
    "SELECT id FROM users WHERE (city, age) = (SELECT city, age FROM users)", { error: "invalid_request" }),
  // ---- UPDATE … SET (a, b) = …
  c("SET (a, b) = (x, y)", (t) => t(users).update({ city: "Oslo", age: 40 }).where(eq("id", "u2")).returning("id", "city", "age"),
    { kind: "update", table: users, set: { city: "Oslo", age: 40 }, where: C("=", "id", "u2"), returning: ["id", "city", "age"] },
    "UPDATE users SET (city, age) = ('Oslo', 40) WHERE id = 'u2' RETURNING id, city, age", ret("update", users, 1, ["id", "city", "age"], ["u2", "Oslo", 40])),
  c("SET (a, b) = (SELECT …), correlated, NULLs for no row",
    (t) => {
      const q = t(orders).as("o").select("o.status", "o.amount").where(eq("o.id", fn("length", col("users.note"))));
      return t(users).update({ note: subquery(q, 0), score: subquery(q, 1) }).where(ne("id", "u1")).returning("id", "note", "score");
    },
    (() => {
      const q = Q(orders, ["o.status", "o.amount"], { as: "o", where: C("=", "o.id", { type: "function", name: "length", args: [I("users.note")] }) });
      return { kind: "update", table: users, set: { note: SUBQ(q, 0), score: SUBQ(q, 1) }, where: C("<>", "id", "u1"), returning: ["id", "note", "score"] };
    })(),
    "UPDATE users SET (note, score) = (SELECT o.status, o.amount FROM orders o WHERE o.id = length(users.note)) WHERE id <> 'u1' RETURNING id, note, score",
    ret("update", users, 4, ["id", "note", "score"], ["u2", null, null], ["u3", "shipped", 250], ["u4", null, null], ["u5", "new", 20])),
  c("SET (a, b) = (SELECT …) of a matching row", null,
    { kind: "update", table: orders, set: {}, setRows: [{ columns: ["status", "amount"], select: Q(users, ["city", "score"], { where: C("=", "id", I("orders.user_id")) }) }], where: C("<", "id", 4), returning: ["id", "status", "amount"] },
    "UPDATE orders SET (status, amount) = (SELECT city, score FROM users WHERE id = orders.user_id) WHERE id < 4 RETURNING id, status, amount",
    ret("update", orders, 3, ["id", "status", "amount"], [1, "Paris", 9.5], [2, "Paris", 9.5], [3, "Berlin", 7.25])),
  c("SET a = …, (b, c) = (SELECT * …) of as many columns", null,
    { kind: "update", table: users, set: { note: "n" }, setRows: [{ columns: ["city", "age"], select: { kind: "select", from: { kind: "select", table: users, columns: ["name", "age"], where: C("=", "id", "u4") }, as: "d", columns: "*" } }], where: C("=", "id", "u1"), returning: ["id", "note", "city", "age"] },
    "UPDATE users SET note = 'n', (city, age) = (SELECT * FROM (SELECT name, age FROM users WHERE id = 'u4')) WHERE id = 'u1' RETURNING id, note, city, age",
    ret("update", users, 1, ["id", "note", "city", "age"], ["u1", "n", "Dee", 52])),
  // ---- misuse
  c("a row value where one value is needed", null, sel(users, [AS(ROW("id", "age"), "r")]), "SELECT (id, age) AS r FROM users", misuse),
  c("a row value in arithmetic", null, sel(users, [AS({ type: "binary", op: "+", left: ROW("age", "age"), right: L(1) }, "r")]), "SELECT (age, age) + 1 AS r FROM users", misuse),
  c("row values of different sizes", null, sel(users, ["id"], { where: C("=", ROW("id", "age"), ROW(L("u1"), 36, 1)) }), "SELECT id FROM users WHERE (id, age) = ('u1', 36, 1)", misuse),
  c("a row value compared with one value", null, sel(users, ["id"], { where: C("<", ROW("id", "age"), L(1)) }), "SELECT id FROM users WHERE (id, age) < 1", misuse),
  c("a row value IN a subquery of another width", null, sel(users, ["id"], { where: INQ(ROW("id", "age"), Q(users, ["id"])) }), "SELECT id FROM users WHERE (id, age) IN (SELECT id FROM users)", misuse),
  c("a value IN a subquery of two columns", null, sel(users, ["id"], { where: INQ(I("id"), Q(users, ["id", "age"])) }), "SELECT id FROM users WHERE id IN (SELECT id, age FROM users)", misuse),
  c("a row value IN a list holding one value", null, sel(users, ["id"], { where: { type: "in", expr: ROW("id", "age"), values: [ROW(L("u1"), 36), L("u2")] } }), "SELECT id FROM users WHERE (id, age) IN (('u1', 36), 'u2')", misuse),
  c("a value IN a list holding a row value", null, sel(users, ["id"], { where: { type: "in", expr: I("id"), values: [ROW(L("u1"), 36)] } }), "SELECT id FROM users WHERE id IN (('u1', 36))", misuse),
  c("a subquery of two columns as a value", null, sel(users, [AS(SUBQ(Q(users, ["id", "age"], { limit: 1 })), "v")]), "SELECT (SELECT id, age FROM users LIMIT 1) AS v FROM users", misuse),
  c("a subquery's column beyond its columns", null, sel(users, [AS(SUBQ(Q(users, ["id", "age"], { limit: 1 }), 2), "v")]), null, misuse),
  c("row values compared with mismatched types", null, sel(users, ["id"], { where: C("=", ROW("id", "age"), ROW(L("u1"), L("x"))) }), "SELECT id FROM users WHERE (id, age) = ('u1', 'x')", { error: "type_mismatch" }),
  c("SET (a, b) = a row value of another size", null, null, "UPDATE users SET (city, age) = ('Oslo', 40, 1)", { error: "sql_error" }),
  c("SET (a, b) = a subquery of another width", null, null, "UPDATE users SET (city, age) = (SELECT city FROM users WHERE id = 'u1')", { error: "sql_error" }),
  c("SET (a, b) = one value", null, null, "UPDATE users SET (city, age) = 1", { error: "sql_error" }),
  c("SET (a, b) = a subquery whose * gives more columns (SQLite: 2 columns assigned 6 values)", null,
    { kind: "update", table: users, set: {}, setRows: [{ columns: ["city", "age"], select: Q(users, "*", { where: C("=", "id", "u1") }) }], where: TRUE },
    "UPDATE users SET (city, age) = (SELECT * FROM users WHERE id = 'u1')", misuse),
  c("SET (a, b) = a subquery whose * gives fewer columns", null, null, "UPDATE users SET (city, age, name) = (SELECT * FROM (SELECT 'x' AS a, 1 AS b))", { error: "sql_error" }),
  c("SET (a) = a subquery of two columns", null, { kind: "update", table: users, set: {}, setRows: [{ columns: ["city"], select: Q(users, ["city", "age"], { where: C("=", "id", "u1") }) }], where: TRUE },
    "UPDATE users SET (city) = (SELECT city, age FROM users WHERE id = 'u1')", misuse),
  c("a column both in set and setRows", null, { kind: "update", table: users, set: { city: "x" }, setRows: [{ columns: ["city", "age"], select: Q(users, ["city", "age"], { where: C("=", "id", "u1") }) }], where: TRUE },
    "UPDATE users SET city = 'x', (city, age) = (SELECT city, age FROM users WHERE id = 'u1')", misuse),
  c("ON CONFLICT DO UPDATE SET (a, b) = (SELECT …): an upsert's SET holds no subquery", null, null,
    "INSERT INTO users (id, name) VALUES ('u1', 'Ann') ON CONFLICT (id) DO UPDATE SET (city, age) = (SELECT city, age FROM users WHERE id = 'u2')", { error: "sql_error" }),
];
