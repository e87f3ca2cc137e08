/**
 * Conformance cases for derived tables — a select read as a table in FROM
 * or JOIN (SQL `(SELECT …) AS d`, JSON `from`, the builder's
 * `table(query)` and `join(query, …)`) — and SQL's WITH, which names such
 * selects: filtering, grouping and joining their rows (an equi-join hashes),
 * a left join's missing rows, a derived table without an alias, its columns
 * named as SQLite names them (`u.id` is `id`), its own ORDER BY and LIMIT,
 * one in a subquery; WITH tables read twice, by later WITH tables and by
 * subqueries, shadowing a stored table, with parameters numbered in text
 * order; and each misuse: a WITH table reading itself outside a recursion (see
 * `cases-recursive.ts`), two columns of one name, a
 * column of no type, a source that is both a table and a select. Derived
 * tables that read the queries enclosing them are in `cases-correlated.ts`.
 *
 * Fixture rows (see `cases-expressions.ts`): users' ages 36, 17, NULL, 52,
 * 28 (u1..u5), cities Paris, Berlin, Paris, NULL, Rome; orders' user ids
 * u1, u1, u2, u3, u5, u5 with amounts 250, 20, 99.5, 100, 5, NULL.
 */

import { col, count, eq, gt, sum } from "../../src/api/expressions.js";
import type { Expression } from "../../src/commands/types.js";
import { AS, C, CAST, I, L, c, err, ids, misuse, rows, sel, type Case } from "./dsl.js";

const users = "users";
const orders = "orders";

type Select = Record<string, unknown>;
const Q = (table: string, columns: "*" | unknown[], extra: Select = {}): Select => ({ kind: "select", table, columns, ...extra });
const AGG = (name: string, arg?: string): Expression => ({ type: "aggregate", name, ...(arg === undefined ? {} : { arg: I(arg) }) }) as Expression;
const perCity = Q(users, ["city", AS(AGG("count"), "n")], { groupBy: [I("city")] });
const spend = Q(orders, ["user_id", AS(AGG("sum", "amount"), "total")], { groupBy: [I("user_id")] });

export const derivedCases: readonly Case[] = [
  c("a derived table in FROM: its rows filtered as a table's",
    (t) => t(t(users).select("city", count().as("n")).groupBy("city")).as("c").select("city", "n").where(gt("n", 1)),
    { kind: "select", from: perCity, as: "c", columns: ["city", "n"], where: C(">", "n", 1) },
    "SELECT city, n FROM (SELECT city, count(*) AS n FROM users GROUP BY city) AS c WHERE n > 1", rows(["city", "n"], ["Paris", 2])),
  c("a derived table joined on a key: each user's total",
    (t) => t(users).as("u").select("u.name", "s.total").join(t(orders).select("user_id", sum("amount").as("total")).groupBy("user_id"), eq("s.user_id", col("u.id")), { as: "s" }).orderBy("s.total", "desc"),
    sel(users, ["u.name", "s.total"], { as: "u", joins: [{ type: "inner", from: spend, as: "s", on: C("=", "s.user_id", I("u.id")) }], orderBy: [{ column: "s.total", direction: "desc" }] }),
    "SELECT u.name, s.total FROM users u JOIN (SELECT user_id, sum(amount) AS total FROM orders GROUP BY user_id) s ON s.user_id = u.id ORDER BY s.total DESC",
    rows(["u.name", "s.total"], ["Ada", 270], ["Cy", 100], ["Bob", 99.5], ["Eve", 5])),
  c("a LEFT JOIN of a derived table keeps rows without matches, NULL beside them", null,
    sel(users, ["u.id", "b.n"], { as: "u", joins: [{ type: "left", from: Q(orders, ["user_id", AS(AGG("count"), "n")], { where: C(">", "amount", 90), groupBy: [I("user_id")] }), as: "b", on: C("=", "b.user_id", I("u.id")) }], orderBy: [{ column: "u.id" }] }),
    "SELECT u.id, b.n FROM users u LEFT JOIN (SELECT user_id, count(*) AS n FROM orders WHERE amount > 90 GROUP BY user_id) AS b ON b.user_id = u.id ORDER BY u.id",
    rows(["u.id", "b.n"], ["u1", 1], ["u2", 1], ["u3", 1], ["u4", null], ["u5", null])),
  c("a derived table without an alias, over a compound", null,
    { kind: "select", from: Q(users, ["id"], { compound: [{ op: "union-all", select: Q(orders, ["user_id"]) }] }), columns: [AS(AGG("count"), "n")] },
    "SELECT count(*) AS n FROM (SELECT id FROM users UNION ALL SELECT user_id FROM orders)", rows(["n"], [11])),
  c("a derived column that is a plain column goes by the column's own name",
    (t) => t(t(users).as("u").select("u.id").where(gt("u.age", 30))).select("id").orderBy("id"),
    { kind: "select", from: Q(users, ["u.id"], { as: "u", where: C(">", "u.age", 30) }), columns: ["id"], orderBy: [{ column: "id" }] },
    "SELECT id FROM (SELECT u.id FROM users u WHERE u.age > 30) ORDER BY id", ids("u1", "u4")),
  c("a derived table keeps its own ORDER BY and LIMIT",
    (t) => t(t(users).select("name", "age").orderBy("age", "desc").limit(2)).as("d").select("name").orderBy("name"),
    { kind: "select", from: Q(users, ["name", "age"], { orderBy: [{ column: "age", direction: "desc" }], limit: 2 }), as: "d", columns: ["name"], orderBy: [{ column: "name" }] },
    "SELECT name FROM (SELECT name, age FROM users ORDER BY age DESC LIMIT 2) d ORDER BY name", rows(["name"], ["Ada"], ["Dee"])),
  c("a grouped derived table names its key column as the column is named",
    (t) => t(t(orders).as("o").select("o.user_id", count().as("n")).groupBy("o.user_id")).as("g").select("user_id", "n").where(gt("n", 1)).orderBy("user_id"),
    { kind: "select", from: Q(orders, ["o.user_id", AS(AGG("count"), "n")], { as: "o", groupBy: [I("o.user_id")] }), as: "g", columns: ["user_id", "n"], where: C(">", "n", 1), orderBy: [{ column: "user_id" }] },
    "SELECT user_id, n FROM (SELECT o.user_id, count(*) AS n FROM orders o GROUP BY o.user_id) g WHERE n > 1 ORDER BY user_id",
    rows(["user_id", "n"], ["u1", 2], ["u5", 2])),
  c("an alias with a dot names the derived column whole", null, null,
    'SELECT * FROM (SELECT name AS "p.q" FROM users WHERE id = \'u1\')', rows(["p.q"], ["Ada"])),
  c("a subquery run per row reads a derived table made once", null,
    sel(users, ["id", AS({ type: "subquery", select: { kind: "select", from: Q(orders, ["user_id"]), as: "d", columns: [AS(AGG("count"), "n")], where: C("=", "d.user_id", I("users.id")) } } as unknown as Expression, "n")], { orderBy: [{ column: "id" }] }),
    "SELECT id, (SELECT count(*) AS n FROM (SELECT user_id FROM orders) d WHERE d.user_id = users.id) AS n FROM users ORDER BY id",
    rows(["id", "n"], ["u1", 2], ["u2", 1], ["u3", 1], ["u4", 0], ["u5", 2])),
  c("LIMIT 0 reads no derived table", null, null, "SELECT * FROM (SELECT (SELECT id FROM users) AS x) d LIMIT 0", rows(["x"])),
  c("a derived table inside a subquery", null,
    sel(users, ["id"], { where: { type: "in", expr: I("id"), select: { kind: "select", from: Q(orders, ["user_id", "amount"]), as: "o", columns: ["user_id"], where: C(">", "amount", 200) } } }),
    "SELECT id FROM users WHERE id IN (SELECT user_id FROM (SELECT user_id, amount FROM orders) o WHERE amount > 200)", ids("u1")),

  // ---- WITH (SQL): the same derived tables, named
  c("WITH names a select a query joins", null,
    sel(users, ["u.name"], { as: "u", joins: [{ type: "inner", from: spend, as: "spend", on: C("=", "spend.user_id", I("u.id")) }], where: C(">", "spend.total", 99.9), orderBy: [{ column: "u.name" }] }),
    "WITH spend AS (SELECT user_id, sum(amount) AS total FROM orders GROUP BY user_id) SELECT u.name FROM users u JOIN spend ON spend.user_id = u.id WHERE spend.total > 99.9 ORDER BY u.name",
    rows(["u.name"], ["Ada"], ["Cy"])),
  c("WITH tables read by later ones, twice, and in a subquery", null, null,
    "WITH adults AS (SELECT id, city FROM users WHERE age >= 18), paris AS (SELECT id FROM adults WHERE city = 'Paris') SELECT a.id FROM adults a WHERE a.id NOT IN (SELECT id FROM paris) ORDER BY a.id",
    rows(["a.id"], ["u4"], ["u5"])),
  c("a WITH table hides a stored table of its name", null, null,
    "WITH orders AS (SELECT id AS user_id FROM users WHERE age > 50) SELECT user_id FROM orders", rows(["user_id"], ["u4"])),
  c("parameters in WITH number in text order", null, null,
    ["WITH c AS (SELECT id FROM users WHERE age > ?) SELECT id FROM c WHERE id <> ? ORDER BY id", [20, "u1"]], ids("u4", "u5")),
  c("a parameter in a derived table computes as the literal it holds", null, null,
    ["SELECT v / 2 AS h FROM (SELECT CAST(? AS real) * 1 AS v) d", [3]], rows(["h"], [1.5])),

  // ---- misuse
  c("a WITH table that reads itself", null, null, "WITH x AS (SELECT * FROM x) SELECT * FROM x", err("sql_error")),
  c("a WITH table that reads a later one", null, null, "WITH a AS (SELECT * FROM users), users AS (SELECT 1 AS x) SELECT * FROM a", err("sql_error")),
  c("WITH tables that double at each level stop at 256 derived tables", null, null,
    `WITH w0 AS (SELECT id FROM users)${Array.from({ length: 9 }, (_, i) => `, w${i + 1} AS (SELECT a.id FROM w${i} a JOIN w${i} b ON a.id = b.id)`).join("")} SELECT count(*) AS n FROM w9`, err("sql_error")),
  c("a chain of 3,000 WITH tables is refused, not run out of stack", null, null,
    `WITH w0 AS (SELECT id FROM users)${Array.from({ length: 3000 }, (_, i) => `, w${i + 1} AS (SELECT id FROM w${i})`).join("")} SELECT count(*) AS n FROM w3000`, err("sql_error")),
  c("a derived table in a join needs an alias", null,
    sel(users, ["id"], { joins: [{ type: "inner", from: Q(orders, ["user_id"]), on: L(true) }] }), "SELECT id FROM users JOIN (SELECT user_id FROM orders) ON TRUE", misuse),
  c("WITH RECURSIVE over a table that does not read itself is a WITH table", null, null, "WITH RECURSIVE x AS (SELECT 1 AS n) SELECT * FROM x", rows(["n"], [1])),
  c("WITH names one table twice", null, null, "WITH x AS (SELECT 1 AS n), x AS (SELECT 2 AS n) SELECT * FROM x", err("sql_error")),
  c("a derived table with two columns of one name", null,
    { kind: "select", from: Q(users, ["u.id", "o.id"], { as: "u", joins: [{ type: "inner", table: orders, as: "o", on: C("=", "o.user_id", I("u.id")) }] }), columns: "*" },
    "SELECT * FROM (SELECT u.id, o.id FROM users u JOIN orders o ON o.user_id = u.id)", misuse),
  c("a derived column of no type", null,
    { kind: "select", from: { kind: "select", columns: [AS(L(null), "z")] }, columns: "*" }, "SELECT * FROM (SELECT NULL AS z)", misuse),
  // As the error for a column of no type advises: a cast of NULL was folded to a bare NULL, of no type.
  c("a derived column of NULL cast to a type", null,
    { kind: "select", from: { kind: "select", columns: [AS(CAST(null, "integer"), "z")] }, columns: "*" }, "SELECT * FROM (SELECT CAST(NULL AS integer) AS z)",
    rows(["z"], [null])),
  c("a derived table in a subquery reads the enclosing query's row", null,
    sel(users, ["id"], { as: "u", where: { type: "exists", select: { kind: "select", from: Q(orders, ["user_id"], { where: C("=", "user_id", I("u.id")) }), columns: "*" } } }),
    "SELECT id FROM users u WHERE EXISTS (SELECT * FROM (SELECT user_id FROM orders WHERE user_id = u.id))", ids("u1", "u2", "u3", "u5")),
  c("a source is a table or a select, not both", null, { kind: "select", table: users, from: Q(orders, ["id"]), columns: "*" }, null, err("invalid_request")),
  c("a join is a table or a select, not both", null, sel(users, ["id"], { joins: [{ type: "inner", table: orders, from: Q(orders, ["id"]), on: L(true) }] }), null, err("invalid_request")),
];
