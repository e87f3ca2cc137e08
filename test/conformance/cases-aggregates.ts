/**
 * Conformance cases for CONTRACT §11's aggregates, GROUP BY, HAVING and
 * DISTINCT: each aggregate over values with NULLs and over no rows, integer
 * vs real results, DISTINCT aggregates, groups of NULL, HAVING, grouping by
 * expression, number and result name, SELECT DISTINCT, and each misuse
 * (an aggregate in WHERE or GROUP BY, nested aggregates, an ungrouped
 * column, a wrong argument count, sum of text).
 *
 * Fixture values used below: users' ages 36, 17, NULL, 52, 28 and scores
 * 9.5, 7.25, NULL, 3, 9.5; cities Paris (u1, u3), Berlin, NULL, Rome;
 * orders' amounts by user u1: 250, 20; u2: 99.5; u3: 100; u5: 5, NULL.
 */

import { avg, col, count, countDistinct, eq, groupConcat, gt, lower, max, min, sum } from "../../src/api/expressions.js";
import type { Expression, Value } from "../../src/commands/types.js";
import { AS, B, C, FN, I, L, c, err, misuse, rows, sel, type Case } from "./dsl.js";

const users = "users";
const orders = "orders";
const AGG = (name: string, arg?: Expression | string, distinct?: true): Expression =>
  ({ type: "aggregate", name, ...(arg === undefined ? {} : { arg: typeof arg === "string" ? I(arg) : arg }), ...(distinct ? { distinct } : {}) }) as Expression;

/** `SELECT <agg> AS v FROM users [WHERE ...]`: one row. */
function whole(name: string, fluent: ReturnType<typeof count> | null, json: Expression, sql: string, value: Value, where?: [Expression, string]): Case {
  return c(
    name,
    fluent === null ? null : (t) => (where ? t(users).select(fluent.as("v")).where(where[0]) : t(users).select(fluent.as("v"))),
    sel(users, [AS(json, "v")], where ? { where: where[0] } : {}),
    `SELECT ${sql} AS v FROM users${where ? ` WHERE ${where[1]}` : ""}`,
    rows(["v"], [value]),
  );
}

const none: [Expression, string] = [C("=", "id", "nobody"), "id = 'nobody'"];

export const aggregateCases: readonly Case[] = [
  // ---- each aggregate, NULLs skipped
  whole("count(*) counts rows", count(), AGG("count"), "count(*)", 5),
  whole("count(x) counts non-NULL values", count("age"), AGG("count", "age"), "count(age)", 4),
  whole("sum of integers is an integer", sum("age"), AGG("sum", "age"), "sum(age)", 133),
  whole("sum of reals", sum("score"), AGG("sum", "score"), "sum(score)", 29.25),
  whole("avg is real", avg("age"), AGG("avg", "age"), "avg(age)", 33.25),
  whole("min of integers", min("age"), AGG("min", "age"), "min(age)", 17),
  whole("max of reals", max("score"), AGG("max", "score"), "max(score)", 9.5),
  whole("min and max of text by code point", min("name"), AGG("min", "name"), "min(name)", "Ada"),
  whole("max of booleans", max("active"), AGG("max", "active"), "max(active)", true),
  whole("min of booleans", min("active"), AGG("min", "active"), "min(active)", false),
  whole("count(DISTINCT x)", countDistinct("score"), AGG("count", "score", true), "count(DISTINCT score)", 3),
  whole("sum(DISTINCT x)", sum("score", { distinct: true }), AGG("sum", "score", true), "sum(DISTINCT score)", 19.75),
  whole("avg(DISTINCT x)", avg("age", { distinct: true }), AGG("avg", "age", true), "avg(DISTINCT age)", 33.25),
  whole("group_concat joins text in row order", groupConcat("name"), AGG("group_concat", "name"), "group_concat(name)", "Ada,Bob,Cy,Dee,Eve"),
  whole("group_concat skips NULL and joins numbers as CAST writes them, with its separator", groupConcat("score", { separator: " | " }),
    { ...AGG("group_concat", "score"), separator: " | " } as Expression, "group_concat(score, ' | ')", "9.5 | 7.25 | 3.0 | 9.5"),
  whole("string_agg is group_concat with a separator", groupConcat("city", { separator: "; " }), { ...AGG("group_concat", "city"), separator: "; " } as Expression,
    "string_agg(city, '; ')", "Paris; Berlin; Paris; Rome"),
  whole("group_concat(DISTINCT x): each value once, where it first came", groupConcat("city", { distinct: true }), AGG("group_concat", "city", true),
    "group_concat(DISTINCT city)", "Paris,Berlin,Rome"),
  whole("group_concat over no rows is NULL", groupConcat("name"), AGG("group_concat", "name"), "group_concat(name)", null, none),
  c("only group_concat takes a separator", null, sel(users, [AS({ ...AGG("sum", "age"), separator: "," } as Expression, "v")]), null, err("invalid_request")),
  c("group_concat's separator is a string literal", null, null, "SELECT group_concat(name, city) AS v FROM users", err("sql_error")),
  whole("an aggregate of an expression", sum(col("age").mul(2)), AGG("sum", B("*", "age", 2)), "sum(age * 2)", 266),
  whole("arithmetic over aggregates", null, B("-", AGG("max", "age"), AGG("min", "age")), "max(age) - min(age)", 35),
  whole("integer division of aggregates", null, B("/", AGG("sum", "age"), AGG("count", "age")), "sum(age) / count(age)", 33),

  // ---- over no rows: one row all the same
  whole("count(*) over no rows is 0", count(), AGG("count"), "count(*)", 0, none),
  whole("count(x) over no rows is 0", count("age"), AGG("count", "age"), "count(age)", 0, none),
  whole("sum over no rows is NULL", sum("age"), AGG("sum", "age"), "sum(age)", null, none),
  whole("avg over no rows is NULL", avg("score"), AGG("avg", "score"), "avg(score)", null, none),
  whole("min over no rows is NULL", min("name"), AGG("min", "name"), "min(name)", null, none),
  whole("sum over only NULLs is NULL", sum("age"), AGG("sum", "age"), "sum(age)", null, [C("=", "id", "u3"), "id = 'u3'"]),
  c("an aggregate without FROM", null, { kind: "select", columns: [AS(AGG("count"), "n")] }, "SELECT count(*) AS n", rows(["n"], [1])),

  // ---- GROUP BY
  c("GROUP BY: count and avg per city, NULL a group of its own", (t) => t(users).select("city", count().as("n"), avg("score").as("a")).groupBy("city").orderBy("city"),
    sel(users, ["city", AS(AGG("count"), "n"), AS(AGG("avg", "score"), "a")], { groupBy: [I("city")], orderBy: [{ column: "city" }] }),
    "SELECT city, count(*) AS n, avg(score) AS a FROM users GROUP BY city ORDER BY city",
    rows(["city", "n", "a"], [null, 1, 3], ["Berlin", 1, 7.25], ["Paris", 2, 9.5], ["Rome", 1, 9.5])),
  c("GROUP BY over a join, sum per user", (t) => t(orders).select("user_id", sum("amount").as("total"), count().as("n")).groupBy("user_id").orderBy("user_id"),
    sel(orders, ["user_id", AS(AGG("sum", "amount"), "total"), AS(AGG("count"), "n")], { groupBy: [I("user_id")], orderBy: [{ column: "user_id" }] }),
    "SELECT user_id, sum(amount) AS total, count(*) AS n FROM orders GROUP BY user_id ORDER BY user_id",
    rows(["user_id", "total", "n"], ["u1", 270, 2], ["u2", 99.5, 1], ["u3", 100, 1], ["u5", 5, 2])),
  c("a LEFT JOIN counts 0 for a row without matches", (t) => t(users).select("users.id", count("orders.id").as("n")).leftJoin(orders, eq("orders.user_id", col("users.id"))).groupBy("users.id").orderBy("users.id"),
    sel(users, ["users.id", AS(AGG("count", "orders.id"), "n")], { joins: [{ type: "left", table: orders, on: C("=", "orders.user_id", I("users.id")) }], groupBy: [I("users.id")], orderBy: [{ column: "users.id" }] }),
    "SELECT users.id, count(orders.id) AS n FROM users LEFT JOIN orders ON orders.user_id = users.id GROUP BY users.id ORDER BY users.id",
    rows(["users.id", "n"], ["u1", 2], ["u2", 1], ["u3", 1], ["u4", 0], ["u5", 2])),
  c("GROUP BY an expression the select list repeats", null,
    sel(users, [AS(B("/", "age", 20), "band"), AS(AGG("count"), "n")], { groupBy: [B("/", "age", 20)], orderBy: [{ column: "band" }] }),
    "SELECT age / 20 AS band, count(*) AS n FROM users GROUP BY age / 20 ORDER BY band", rows(["band", "n"], [null, 1], [0, 1], [1, 2], [2, 1])),
  c("GROUP BY a column number", null, sel(users, ["city", AS(AGG("count"), "n")], { groupBy: [L(1)], orderBy: [{ expr: L(2), direction: "desc" }, { column: "city" }] }),
    "SELECT city, count(*) AS n FROM users GROUP BY 1 ORDER BY 2 DESC, city", rows(["city", "n"], ["Paris", 2], [null, 1], ["Berlin", 1], ["Rome", 1])),
  c("GROUP BY a result name", null, sel(users, [AS(FN("lower", "city"), "c"), AS(AGG("count"), "n")], { groupBy: [I("c")], orderBy: [{ column: "c" }] }),
    "SELECT lower(city) AS c, count(*) AS n FROM users GROUP BY c ORDER BY c", rows(["c", "n"], [null, 1], ["berlin", 1], ["paris", 2], ["rome", 1])),
  c("GROUP BY a computed field", null, sel(users, ["adult", AS(AGG("count"), "n")], { groupBy: [I("adult")], orderBy: [{ column: "adult" }] }),
    "SELECT adult, count(*) AS n FROM users GROUP BY adult ORDER BY adult", rows(["adult", "n"], [null, 1], [false, 1], [true, 3])),
  c("GROUP BY over no rows has no groups", (t) => t(users).select("city", count().as("n")).where({ id: "nobody" }).groupBy("city"),
    sel(users, ["city", AS(AGG("count"), "n")], { where: C("=", "id", "nobody"), groupBy: [I("city")] }), "SELECT city, count(*) AS n FROM users WHERE id = 'nobody' GROUP BY city",
    rows(["city", "n"])),
  c("ORDER BY an aggregate", (t) => t(orders).select("status").groupBy("status").orderBy(sum("amount"), "desc"),
    sel(orders, ["status"], { groupBy: [I("status")], orderBy: [{ expr: AGG("sum", "amount"), direction: "desc" }] }),
    "SELECT status FROM orders GROUP BY status ORDER BY sum(amount) DESC", rows(["status"], ["shipped"], ["cancelled"], ["new"])),
  c("an expression over a key and an aggregate", null, sel(orders, [AS(B("||", "status", L("!")), "s"), AS(B("+", AGG("count"), 1), "n")], { groupBy: [I("status")], orderBy: [{ column: "s" }] }),
    "SELECT status || '!' AS s, count(*) + 1 AS n FROM orders GROUP BY status ORDER BY s", rows(["s", "n"], ["cancelled!", 2], ["new!", 4], ["shipped!", 3])),

  // ---- HAVING
  c("HAVING keeps the groups it holds for", (t) => t(users).select("city", count().as("n")).groupBy("city").having(gt(count(), 1)),
    sel(users, ["city", AS(AGG("count"), "n")], { groupBy: [I("city")], having: C(">", AGG("count"), 1) }), "SELECT city, count(*) AS n FROM users GROUP BY city HAVING count(*) > 1",
    rows(["city", "n"], ["Paris", 2])),
  c("HAVING over an aggregate not selected", null, sel(orders, ["user_id"], { groupBy: [I("user_id")], having: C(">=", AGG("sum", "amount"), 100), orderBy: [{ column: "user_id" }] }),
    "SELECT user_id FROM orders GROUP BY user_id HAVING sum(amount) >= 100 ORDER BY user_id", rows(["user_id"], ["u1"], ["u3"])),
  c("HAVING over a key", null, sel(orders, ["status", AS(AGG("count"), "n")], { groupBy: [I("status")], having: C("<>", "status", "new"), orderBy: [{ column: "status" }] }),
    "SELECT status, count(*) AS n FROM orders GROUP BY status HAVING status <> 'new' ORDER BY status", rows(["status", "n"], ["cancelled", 1], ["shipped", 2])),
  c("HAVING names a result by its alias where no source column has the name (as SQLite)", null,
    sel(orders, ["user_id", AS(AGG("sum", "amount"), "spent")], { groupBy: [I("user_id")], having: C(">=", "spent", 100), orderBy: [{ column: "user_id" }] }),
    "SELECT user_id, sum(amount) AS spent FROM orders GROUP BY user_id HAVING spent >= 100 ORDER BY user_id", rows(["user_id", "spent"], ["u1", 270], ["u3", 100])),
  c("in HAVING a source column wins over a result alias of its name", null,
    sel(orders, [AS(AGG("count"), "amount")], { groupBy: [I("user_id")], having: C(">", "amount", 1) }),
    "SELECT count(*) AS amount FROM orders GROUP BY user_id HAVING amount > 1", misuse),
  c("ORDER BY an expression over a result alias (as SQLite)", null,
    sel(orders, ["user_id", AS(AGG("sum", "amount"), "spent")], { groupBy: [I("user_id")], orderBy: [{ expr: { type: "negate", expr: I("spent") } }, { column: "user_id" }] }),
    "SELECT user_id, sum(amount) AS spent FROM orders GROUP BY user_id ORDER BY -spent, user_id", rows(["user_id", "spent"], ["u1", 270], ["u3", 100], ["u2", 99.5], ["u5", 5])),
  c("ORDER BY an expression over a result alias, ungrouped", null,
    sel(users, ["name", AS(B("*", "age", 2), "twice")], { orderBy: [{ expr: B("%", "twice", 7) }, { column: "name" }] }),
    "SELECT name, age * 2 AS twice FROM users ORDER BY twice % 7, name", rows(["name", "twice"], ["Cy", null], ["Eve", 56], ["Ada", 72], ["Bob", 34], ["Dee", 104])),
  c("in an ORDER BY expression a source column wins over a result alias of its name (a bare name is the result's)", null,
    sel(users, [AS(I("age"), "score"), "name"], { orderBy: [{ expr: B("*", "score", 1) }, { column: "name" }] }),
    "SELECT age AS score, name FROM users ORDER BY score * 1, name", rows(["score", "name"], [null, "Cy"], [52, "Dee"], [17, "Bob"], [36, "Ada"], [28, "Eve"])),
  c("GROUP BY matches a column however it is written, qualified or not", null,
    sel(users, ["users.name"], { groupBy: [I("name")], orderBy: [{ column: "users.name" }] }), "SELECT users.name FROM users GROUP BY name ORDER BY users.name",
    rows(["users.name"], ["Ada"], ["Bob"], ["Cy"], ["Dee"], ["Eve"])),
  c("GROUP BY a qualified key, t.* in the list", null,
    sel(orders, ["orders.*"], { groupBy: [I("orders.id"), I("orders.user_id"), I("orders.amount"), I("orders.status"), I("orders.paid")], where: C("=", "id", 3) }),
    "SELECT orders.* FROM orders WHERE id = 3 GROUP BY orders.id, orders.user_id, orders.amount, orders.status, orders.paid",
    rows(["id", "user_id", "amount", "status", "paid", "big"], [3, "u2", 99.5, "shipped", true, false])),
  c("HAVING without GROUP BY makes one group", null, { kind: "select", table: users, columns: [AS(AGG("count"), "n")], having: C(">", AGG("count"), 10) },
    "SELECT count(*) AS n FROM users HAVING count(*) > 10", rows(["n"])),

  // ---- DISTINCT
  c("SELECT DISTINCT", (t) => t(users).select("city").distinct().orderBy("city"), sel(users, ["city"], { distinct: true, orderBy: [{ column: "city" }] }),
    "SELECT DISTINCT city FROM users ORDER BY city", rows(["city"], [null], ["Berlin"], ["Paris"], ["Rome"])),
  c("DISTINCT over several columns", null, sel(orders, ["status", "paid"], { distinct: true, orderBy: [{ column: "status" }, { column: "paid" }] }),
    "SELECT DISTINCT status, paid FROM orders ORDER BY status, paid", rows(["status", "paid"], ["cancelled", false], ["new", false], ["shipped", true])),
  c("DISTINCT keeps first-met order, then LIMIT", null, sel(orders, ["user_id"], { distinct: true, limit: 3 }), "SELECT DISTINCT user_id FROM orders LIMIT 3",
    rows(["user_id"], ["u1"], ["u2"], ["u3"])),
  c("DISTINCT treats integer and real alike", null, { kind: "select", table: users, columns: [AS(B("/", "score", 1), "s")], distinct: true, where: C(">", "score", 7) },
    "SELECT DISTINCT score / 1 AS s FROM users WHERE score > 7", rows(["s"], [9.5], [7.25])),
  c("DISTINCT with ORDER BY a column not selected", null, sel(users, ["city"], { distinct: true, orderBy: [{ column: "name" }] }),
    "SELECT DISTINCT city FROM users ORDER BY name", misuse),

  // ---- misuse
  c("an aggregate in WHERE", (t) => t(users).select("id").where(gt(count(), 1)), sel(users, ["id"], { where: C(">", AGG("count"), 1) }),
    "SELECT id FROM users WHERE count(*) > 1", misuse),
  c("an aggregate in ON", null, sel(users, ["users.id"], { joins: [{ type: "inner", table: orders, on: C(">", AGG("count"), 0) }] }),
    "SELECT users.id FROM users JOIN orders ON count(*) > 0", misuse),
  c("an aggregate in GROUP BY", null, sel(users, [AS(AGG("count"), "n")], { groupBy: [AGG("count")] }), "SELECT count(*) AS n FROM users GROUP BY count(*)", misuse),
  c("an aggregate inside another", (t) => t(users).select(sum(count()).as("v")), sel(users, [AS(AGG("sum", AGG("count")), "v")]), "SELECT sum(count(*)) AS v FROM users", misuse),
  c("a column neither grouped nor aggregated", (t) => t(users).select("name", count().as("n")), sel(users, ["name", AS(AGG("count"), "n")]),
    "SELECT name, count(*) AS n FROM users", misuse),
  c("an ungrouped column in HAVING", null, sel(users, ["city"], { groupBy: [I("city")], having: C(">", "age", 1) }), "SELECT city FROM users GROUP BY city HAVING age > 1", misuse),
  c("an ungrouped column in ORDER BY", null, sel(users, ["city"], { groupBy: [I("city")], orderBy: [{ column: "age" }] }), "SELECT city FROM users GROUP BY city ORDER BY age", misuse),
  c("* with GROUP BY", null, sel(users, "*", { groupBy: [I("city")] }), "SELECT * FROM users GROUP BY city", misuse),
  c("an aggregate with two arguments", null, sel(users, [AS(FN("count", "age", "name"), "v")]), "SELECT count(age, name) AS v FROM users", misuse),
  c("sum(*)", null, sel(users, [AS(AGG("sum"), "v")]), "SELECT sum(*) AS v FROM users", misuse),
  c("sum of text is type_mismatch", (t) => t(users).select(sum("name").as("v")), sel(users, [AS(AGG("sum", "name"), "v")]), "SELECT sum(name) AS v FROM users", err("type_mismatch")),
  c("avg of booleans is type_mismatch", (t) => t(users).select(avg("active").as("v")), sel(users, [AS(AGG("avg", "active"), "v")]), "SELECT avg(active) AS v FROM users",
    err("type_mismatch")),
  c("a function named like an aggregate in JSON", null, sel(users, [AS(FN("count", "age"), "v")]), null, misuse),
  c("GROUP BY a column number out of range", null, sel(users, ["city"], { groupBy: [L(2)] }), "SELECT city FROM users GROUP BY 2", misuse),
  c("lower() of an aggregate", (t) => t(users).select(lower(max("name")).as("v")), sel(users, [AS(FN("lower", AGG("max", "name")), "v")]),
    "SELECT lower(max(name)) AS v FROM users", rows(["v"], ["eve"])),
];
