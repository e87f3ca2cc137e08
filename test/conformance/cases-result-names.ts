/**
 * Conformance cases for result names read outside the select list, as
 * SQLite resolves them: in WHERE, ON, a table function's arguments, GROUP
 * BY (inside an expression too), HAVING and ORDER BY, a name no source
 * column has is a result name standing for its expression (`WHERE next >
 * 30` for `age + 1 AS next`); a source column of that name comes first. A
 * subquery of those clauses reads the enclosing query's result names, after
 * its own sources and result names; a subquery in the select list does not
 * (the list is being bound). Refused as SQLite refuses: a result holding an
 * aggregate where aggregates may not stand, one holding a window function
 * outside ORDER BY, and an UPDATE's or DELETE's RETURNING names in its
 * WHERE. Labelled storedb's rule where SQLite answers otherwise.
 *
 * Every answer labelled SQLite's was checked against SQLite 3.53 on the
 * fixture's rows (users' ages 36, 17, NULL, 52, 28; orders 1–6 of u1, u1,
 * u2, u3, u5, u5 with amounts 250, 20, 99.5, 100, 5, NULL).
 */

import { and, col, eq, gt } from "../../src/api/expressions.js";
import type { Expression } from "../../src/commands/types.js";
import { AGG, AND, AS, B, C, EXISTS, I, L, Q, SUB, c, err, misuse, rows, sel, type Case, type Fluent } from "./dsl.js";

const users = "users";
const orders = "orders";
const next = AS(B("+", "age", 1), "next");
const W = (name: string): Expression => ({ type: "window", name, args: [], over: { orderBy: [{ column: "name" }] } }) as Expression;
const joinOn = (on: Expression, type = "inner") => ({ type, table: orders, on });

const BADGES_ON = { type: "inner", table: "badges", on: C("=", "badges.id", B("+", "orders.id", 99)) };
const LABEL = AS(I("users.name"), "label");
/** `label` is a result name, and a column of badges, joined after the ON reading it. */
const ON_LABEL = AND(C("=", "orders.user_id", I("users.id")), C("=", "label", "Ada"));

function laterSourceCases(): Case[] {
  const refused = (what: string, sqlite: string, json: unknown, sql: string, fluent: Fluent | null = null): Case =>
    c(`an ON reading a name a source joined after it has is refused: ${what} (${sqlite})`, fluent, json, sql, misuse);
  const onLabel = "SELECT users.name AS label, orders.id FROM users JOIN orders ON orders.user_id = users.id AND label = 'Ada'";
  const reads = "storedb's rule: SQLite reads badges.label, no rows";
  return [
    refused("JOIN … ON", reads, sel(users, [LABEL, "orders.id"], { joins: [joinOn(ON_LABEL), BADGES_ON] }), `${onLabel} JOIN badges ON badges.id = orders.id + 99`,
      (t) => t(users).select(col("users.name").as("label"), "orders.id").join(orders, and(eq("orders.user_id", col("users.id")), eq("label", "Ada"))).join("badges", eq("badges.id", col("orders.id").add(99)))),
    refused("CROSS JOIN", reads, sel(users, [LABEL, "orders.id"], { joins: [joinOn(ON_LABEL), { type: "cross", table: "badges" }] }), `${onLabel} CROSS JOIN badges`,
      (t) => t(users).select(col("users.name").as("label"), "orders.id").join(orders, and(eq("orders.user_id", col("users.id")), eq("label", "Ada"))).crossJoin("badges")),
    refused("a comma join", reads, null, `${onLabel}, badges`),
    refused("LEFT JOIN after it", reads, sel(users, [LABEL, "orders.id"], { joins: [joinOn(ON_LABEL), { ...BADGES_ON, type: "left" }] }), `${onLabel} LEFT JOIN badges ON badges.id = orders.id + 99`),
    refused("its own join a LEFT JOIN", "SQLite: ON clause references tables to its right", sel(users, [LABEL, "orders.id"], { joins: [joinOn(ON_LABEL, "left"), BADGES_ON] }),
      "SELECT users.name AS label, orders.id FROM users LEFT JOIN orders ON orders.user_id = users.id AND label = 'Ada' JOIN badges ON badges.id = orders.id + 99"),
    refused("through a subquery", reads, null,
      "SELECT users.name AS label, orders.id FROM users JOIN orders ON orders.user_id = users.id AND (SELECT label) = 'Ada' JOIN badges ON badges.id = orders.id + 99"),
    refused("through a subquery's WHERE", reads,
      sel(users, [LABEL, "orders.id"], { joins: [joinOn(AND(C("=", "orders.user_id", I("users.id")), EXISTS(Q(orders, [AS(L(1), "one")], { as: "o2", where: C("=", "o2.status", I("label")) })))), BADGES_ON] }),
      "SELECT users.name AS label, orders.id FROM users JOIN orders ON orders.user_id = users.id AND EXISTS (SELECT 1 FROM orders AS o2 WHERE o2.status = label) JOIN badges ON badges.id = orders.id + 99"),
    refused("in a derived table's select", reads,
      { kind: "select", from: Q(users, [LABEL, "orders.id"], { joins: [joinOn(ON_LABEL), BADGES_ON] }), as: "d", columns: "*" },
      `SELECT * FROM (${onLabel} JOIN badges ON badges.id = orders.id + 99) AS d`),
    refused("a qualified name", "storedb's rule: SQLite reads badges.label, one row",
      sel(users, ["users.name"], { joins: [joinOn(AND(C("=", "orders.user_id", I("users.id")), C("=", "badges.label", "x"))), BADGES_ON] }),
      "SELECT users.name FROM users JOIN orders ON orders.user_id = users.id AND badges.label = 'x' JOIN badges ON badges.id = orders.id + 99"),
    refused("an enclosing query's column of the name", "storedb's rule: SQLite reads b2.label, four rows where the enclosing label gives one",
      sel("badges", ["badges.id"], { where: EXISTS(Q(users, [AS(L(1), "one")], { joins: [joinOn(AND(C("=", "orders.user_id", I("users.id")), C("=", "label", "x"))), { ...BADGES_ON, as: "b2" }] })) }),
      "SELECT badges.id FROM badges WHERE EXISTS (SELECT 1 FROM users JOIN orders ON orders.user_id = users.id AND label = 'x' JOIN badges AS b2 ON b2.id = orders.id + 99)"),
  ];
}

export const resultNameCases: readonly Case[] = [
  // ---- WHERE
  c("WHERE reads a result name as its expression (SQLite's answer)", (t) => t(users).select("name", col("age").add(1).as("next")).where(gt("next", 30)),
    sel(users, ["name", next], { where: C(">", "next", 30) }),
    "SELECT name, age + 1 AS next FROM users WHERE next > 30", rows(["name", "next"], ["Ada", 37], ["Dee", 53])),
  c("in WHERE a source column wins over a result name of its name (SQLite's answer)", null,
    sel(users, ["name", AS(B("*", "age", 2), "age")], { where: C(">", "age", 30) }),
    "SELECT name, age * 2 AS age FROM users WHERE age > 30", rows(["name", "age"], ["Ada", 72], ["Dee", 104])),
  c("WHERE reads a result name of a function call (SQLite's answer)", null,
    sel(users, [AS({ type: "function", name: "lower", args: [I("city")] }, "c")], { where: { type: "like", expr: I("c"), pattern: L("p%") }, orderBy: [{ column: "id" }] }),
    "SELECT lower(city) AS c FROM users WHERE c LIKE 'p%' ORDER BY id", rows(["c"], ["paris"], ["paris"])),
  c("WHERE reads a result name of a correlated subquery (SQLite's answer)", null,
    sel(users, ["name", AS(SUB(Q("orders", [AS(AGG("count"), "n")], { as: "o", where: C("=", "o.user_id", I("users.id")) })), "n")], { where: C(">", "n", 1) }),
    "SELECT name, (SELECT count(*) FROM orders o WHERE o.user_id = users.id) AS n FROM users WHERE n > 1", rows(["name", "n"], ["Ada", 2], ["Eve", 2])),
  c("a WHERE result name holding an aggregate is refused (SQLite: misuse of aggregate)", null,
    sel(users, [AS(AGG("count"), "n")], { where: C(">", "n", 1) }), "SELECT count(*) AS n FROM users WHERE n > 1", misuse),
  c("a WHERE result name holding a window function is refused (SQLite: misuse of aliased window function)", null,
    sel(users, ["name", AS(W("row_number"), "r")], { where: C(">", "r", 1) }),
    "SELECT name, row_number() OVER (ORDER BY name) AS r FROM users WHERE r > 1", misuse),
  c("a result name does not read another result name (SQLite: no such column)", null,
    sel(users, [AS(B("+", "age", 1), "next"), AS(B("+", "next", 1), "after")], { where: C(">", "after", 30) }),
    "SELECT age + 1 AS next, next + 1 AS after FROM users WHERE after > 30", err("unknown_column")),

  // ---- ON and a table function's arguments
  c("ON reads a result name (SQLite's answer)", null,
    sel(users, ["users.name", "orders.amount", AS(I("users.id"), "uid")], { joins: [joinOn(C("=", "orders.user_id", I("uid")))], where: C(">", "orders.amount", 99), orderBy: [{ column: "orders.id" }] }),
    "SELECT users.name, orders.amount, users.id AS uid FROM users JOIN orders ON orders.user_id = uid WHERE orders.amount > 99 ORDER BY orders.id",
    rows(["users.name", "orders.amount", "uid"], ["Ada", 250, "u1"], ["Bob", 99.5, "u2"], ["Cy", 100, "u3"])),
  c("a LEFT JOIN's ON reads result names of either side (SQLite's answer)", null,
    sel(users, [AS(I("users.name"), "who"), AS(I("orders.id"), "ord")],
      { joins: [joinOn(AND(C("=", "orders.user_id", I("users.id")), C(">", "who", "C")), "left")], orderBy: [{ column: "users.id" }, { column: "ord" }] }),
    "SELECT users.name AS who, orders.id AS ord FROM users LEFT JOIN orders ON orders.user_id = users.id AND who > 'C' ORDER BY users.id, ord",
    rows(["who", "ord"], ["Ada", null], ["Bob", null], ["Cy", 4], ["Dee", null], ["Eve", 5], ["Eve", 6])),
  c("an ON result name reading a source joined after it is refused (storedb's rule: SQLite reads it in an inner join)", null,
    sel(users, ["users.name", AS(I("o2.id"), "later")], {
      joins: [joinOn(C("=", "orders.id", I("later"))), { type: "inner", table: orders, as: "o2", on: C("=", "o2.user_id", I("users.id")) }],
    }),
    "SELECT users.name, o2.id AS later FROM users JOIN orders ON orders.id = later JOIN orders AS o2 ON o2.user_id = users.id", misuse),
  // A name a source joined after the ON has is that source's in SQLite (its ON sees the whole FROM; after an outer join it refuses):
  // never a result name (nor an enclosing query's column) in its place. storedb's ON reads only the sources before it, so it refuses.
  ...laterSourceCases(),
  c("an ON reads a result name no later source has (SQLite's answer)", (t) =>
    t(users).select(col("users.name").as("who"), "orders.id").join(orders, and(eq("orders.user_id", col("users.id")), eq("who", "Ada"))).join("badges", eq("badges.id", col("orders.id").add(99))),
    sel(users, [AS(I("users.name"), "who"), "orders.id"], { joins: [joinOn(AND(C("=", "orders.user_id", I("users.id")), C("=", "who", "Ada"))), BADGES_ON] }),
    "SELECT users.name AS who, orders.id FROM users JOIN orders ON orders.user_id = users.id AND who = 'Ada' JOIN badges ON badges.id = orders.id + 99",
    rows(["who", "orders.id"], ["Ada", 1], ["Ada", 2])),
  c("a table function's argument reads a result name (SQLite's answer)", null, null,
    "SELECT '[1,2]' AS doc, value FROM json_each(doc)", rows(["doc", "value"], ["[1,2]", 1], ["[1,2]", 2])),

  // ---- GROUP BY, HAVING
  c("GROUP BY and HAVING read result names (SQLite's answer)", null,
    sel(users, [AS(I("city"), "place"), AS(AGG("count"), "n")], { groupBy: [I("place")], having: C(">", "n", 1) }),
    "SELECT city AS place, count(*) AS n FROM users GROUP BY place HAVING n > 1", rows(["place", "n"], ["Paris", 2])),
  c("GROUP BY reads a result name inside an expression (SQLite's answer)", null,
    sel(users, [AS(L(20), "d"), AS(AGG("min", "name"), "first"), AS(AGG("count"), "n")], { groupBy: [B("/", "age", I("d"))], orderBy: [{ column: "first" }] }),
    "SELECT 20 AS d, min(name) AS first, count(*) AS n FROM users GROUP BY age / d ORDER BY first",
    rows(["d", "first", "n"], [20, "Ada", 2], [20, "Bob", 1], [20, "Cy", 1], [20, "Dee", 1])),
  c("a GROUP BY result name holding an aggregate is refused (SQLite: aggregate functions are not allowed in the GROUP BY clause)", null,
    sel(orders, [AS(AGG("sum", "amount"), "total")], { groupBy: [I("total")] }), "SELECT sum(amount) AS total FROM orders GROUP BY total", misuse),

  // ---- subqueries
  c("a subquery in WHERE reads the enclosing query's result name (SQLite's answer)", null,
    sel(users, ["id", next], { where: EXISTS(Q(orders, [AS(L(1), "one")], { where: C(">", "orders.amount", B("*", "next", 5)) })), orderBy: [{ column: "id" }] }),
    "SELECT id, age + 1 AS next FROM users WHERE EXISTS (SELECT 1 AS one FROM orders WHERE orders.amount > next * 5) ORDER BY id",
    rows(["id", "next"], ["u1", 37], ["u2", 18], ["u5", 29])),
  c("a subquery's own result name comes before the enclosing query's column (SQLite's answer)", null,
    sel(users, ["id"], { where: EXISTS(Q(orders, [AS(I("orders.amount"), "age")], { where: AND(C(">", "age", 200), C("=", "orders.user_id", I("users.id"))) })) }),
    "SELECT id FROM users WHERE EXISTS (SELECT orders.amount AS age FROM orders WHERE age > 200 AND orders.user_id = users.id)", rows(["id"], ["u1"])),
  c("a subquery in the select list does not read its result names (SQLite: no such column)", null,
    sel(users, [next, AS(SUB(Q(orders, [AS(AGG("count"), "n")], { where: C(">", "orders.amount", I("next")) })), "n")]),
    "SELECT age + 1 AS next, (SELECT count(*) FROM orders WHERE orders.amount > next) AS n FROM users", err("unknown_column")),
  c("a subquery in WHERE reading a result name holding an aggregate is refused (SQLite: misuse of aggregate)", null,
    sel(users, [AS(AGG("count"), "n")], { where: C(">", SUB({ kind: "select", columns: [AS(I("n"), "v")] }), 0) }),
    "SELECT count(*) AS n FROM users WHERE (SELECT n) > 0", misuse),
  c("a subquery in ORDER BY reading a result name holding a window function is refused (SQLite: misuse of aliased window function)", null, null,
    "SELECT name, row_number() OVER (ORDER BY name) AS r FROM users ORDER BY (SELECT r)", misuse),

  // ---- writes: RETURNING's names are no names of WHERE
  c("a DELETE's WHERE does not read its RETURNING names (SQLite: no such column)", null,
    { kind: "delete", table: orders, where: C(">", "k", 1), returning: [AS(I("amount"), "k")] },
    "DELETE FROM orders WHERE k > 1 RETURNING amount AS k", err("unknown_column")),
  c("an UPDATE's WHERE does not read its RETURNING names (SQLite: no such column)", null,
    { kind: "update", table: orders, set: { paid: true }, where: C(">", "k", 1), returning: [AS(I("amount"), "k")] },
    "UPDATE orders SET paid = TRUE WHERE k > 1 RETURNING amount AS k", err("unknown_column")),
];
