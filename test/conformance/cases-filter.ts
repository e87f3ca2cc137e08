/**
 * Conformance cases for an aggregate's FILTER (WHERE …) (JSON `filter` on
 * an aggregate or window expression, the builder's `filter()`): every
 * aggregate with one, each over rows none of which pass (as over no rows),
 * DISTINCT, GROUP BY with a group none of whose rows pass, HAVING and
 * ORDER BY reading a filtered aggregate, a filtered and an unfiltered
 * aggregate side by side, filtered aggregates in expressions, a parameter
 * and subqueries in a filter, window aggregates with FILTER; and the
 * refusals: a filter that is not boolean (storedb's rule: SQLite takes any
 * value's truth), an aggregate or window function inside one, FILTER on a
 * function or a window function that aggregates nothing. Every answer is
 * SQLite's (3.53) on the same rows.
 *
 * Fixture rows (see `fixture.ts`): users u1..u5 Ada 36 Paris 9.5 active,
 * Bob 17 Berlin 7.25 inactive, Cy NULL Paris NULL active, Dee 52 NULL 3.0
 * NULL, Eve 28 Rome 9.5 inactive; orders 1..6 of u1, u1, u2, u3, u5, u5,
 * amounts 250, 20, 99.5, 100, 5, NULL, statuses shipped, new, shipped,
 * cancelled, new, new, paid 1 and 3.
 */

import {
  and,
  avg,
  col,
  count,
  countDistinct,
  eq,
  filter,
  groupConcat,
  gt,
  inQuery,
  jsonGroupArray,
  jsonGroupObject,
  lower,
  max,
  min,
  ne,
  not,
  over,
  rowNumber,
  sum,
  total,
} from "../../src/api/expressions.js";
import type { Expression, OrderBy, WindowSpec } from "../../src/commands/types.js";
import { AND, AS, B, C, I, L, NOT, NOTNULL, c, err, misuse, rows, sel, type Case } from "./dsl.js";

const users = "users";
const orders = "orders";
const byId: OrderBy[] = [{ column: "id" }];

/** An aggregate with a filter, written out: `arg` a column, or absent for count(*). */
const F = (name: string, arg: string | undefined, where: Expression, extra: Record<string, unknown> = {}): Expression =>
  ({ type: "aggregate", name, ...(arg === undefined ? {} : { arg: I(arg) }), ...extra, filter: where }) as Expression;
/** A window aggregate with a filter. */
const FW = (name: string, args: Expression[], where: Expression, spec: WindowSpec = {}): Expression => ({ type: "window", name, args, filter: where, over: spec }) as Expression;

const active = I("active");
const paid = I("paid");

export const filterCases: readonly Case[] = [
  c("every aggregate reads only the rows its FILTER is true for",
    (t) =>
      t(users).select(
        filter(count(), "active").as("n"),
        filter(count("age"), eq("city", "Paris")).as("c"),
        filter(sum("age"), "active").as("s"),
        filter(total("score"), not(col("active"))).as("t"),
        filter(avg("score"), gt("age", 20)).as("a"),
        filter(min("name"), gt("age", 30)).as("lo"),
        filter(max("name"), gt("age", 30)).as("hi"),
        filter(groupConcat("name", { separator: "+" }), "active").as("g"),
        filter(jsonGroupArray("age"), eq("city", "Paris")).as("j"),
        filter(jsonGroupObject("name", "age"), C("<", "age", 30)).as("o"),
      ),
    sel(users, [
      AS(F("count", undefined, active), "n"),
      AS(F("count", "age", C("=", "city", "Paris")), "c"),
      AS(F("sum", "age", active), "s"),
      AS(F("total", "score", NOT(active)), "t"),
      AS(F("avg", "score", C(">", "age", 20)), "a"),
      AS(F("min", "name", C(">", "age", 30)), "lo"),
      AS(F("max", "name", C(">", "age", 30)), "hi"),
      AS(F("group_concat", "name", active, { separator: "+" }), "g"),
      AS(F("json_group_array", "age", C("=", "city", "Paris")), "j"),
      AS(F("json_group_object", "name", C("<", "age", 30), { value: I("age") }), "o"),
    ]),
    "SELECT count(*) FILTER (WHERE active) AS n, count(age) FILTER (WHERE city = 'Paris') AS c, sum(age) FILTER (WHERE active) AS s, total(score) FILTER (WHERE NOT active) AS t, " +
      "avg(score) FILTER (WHERE age > 20) AS a, min(name) FILTER (WHERE age > 30) AS lo, max(name) FILTER (WHERE age > 30) AS hi, group_concat(name, '+') FILTER (WHERE active) AS g, " +
      "json_group_array(age) FILTER (WHERE city = 'Paris') AS j, json_group_object(name, age) FILTER (WHERE age < 30) AS o FROM users",
    rows(["n", "c", "s", "t", "a", "lo", "hi", "g", "j", "o"], [2, 1, 36, 16.75, 22 / 3, "Ada", "Dee", "Ada+Cy", "[36,null]", '{"Bob":17,"Eve":28}'])),
  c("a FILTER no row passes: each aggregate as over no rows (count 0, total 0.0, json [] and {}, the others NULL)",
    (t) => {
      const none = gt("age", 99);
      return t(users).select(
        filter(count(), none).as("n"),
        filter(sum("age"), none).as("s"),
        filter(total("score"), none).as("t"),
        filter(avg("score"), none).as("a"),
        filter(min("name"), none).as("lo"),
        filter(groupConcat("name"), none).as("g"),
        filter(jsonGroupArray("age"), none).as("j"),
        filter(jsonGroupObject("name", "age"), none).as("o"),
      );
    },
    sel(users, [
      AS(F("count", undefined, C(">", "age", 99)), "n"),
      AS(F("sum", "age", C(">", "age", 99)), "s"),
      AS(F("total", "score", C(">", "age", 99)), "t"),
      AS(F("avg", "score", C(">", "age", 99)), "a"),
      AS(F("min", "name", C(">", "age", 99)), "lo"),
      AS(F("group_concat", "name", C(">", "age", 99)), "g"),
      AS(F("json_group_array", "age", C(">", "age", 99)), "j"),
      AS(F("json_group_object", "name", C(">", "age", 99), { value: I("age") }), "o"),
    ]),
    "SELECT count(*) FILTER (WHERE age > 99) AS n, sum(age) FILTER (WHERE age > 99) AS s, total(score) FILTER (WHERE age > 99) AS t, avg(score) FILTER (WHERE age > 99) AS a, " +
      "min(name) FILTER (WHERE age > 99) AS lo, group_concat(name) FILTER (WHERE age > 99) AS g, json_group_array(age) FILTER (WHERE age > 99) AS j, json_group_object(name, age) FILTER (WHERE age > 99) AS o FROM users",
    rows(["n", "s", "t", "a", "lo", "g", "j", "o"], [0, null, 0, null, null, null, "[]", "{}"])),
  c("DISTINCT with FILTER: each passing value once",
    (t) =>
      t(users).select(
        filter(countDistinct("city"), "active").as("cities"),
        filter(sum("score", { distinct: true }), col("age").isNotNull()).as("scores"),
        filter(groupConcat("city", { distinct: true }), not(col("active"))).as("g"),
      ),
    sel(users, [
      AS(F("count", "city", active, { distinct: true }), "cities"),
      AS(F("sum", "score", NOTNULL("age"), { distinct: true }), "scores"),
      AS(F("group_concat", "city", NOT(active), { distinct: true }), "g"),
    ]),
    "SELECT count(DISTINCT city) FILTER (WHERE active) AS cities, sum(DISTINCT score) FILTER (WHERE age IS NOT NULL) AS scores, group_concat(DISTINCT city) FILTER (WHERE NOT active) AS g FROM users",
    rows(["cities", "scores", "g"], [1, 19.75, "Berlin,Rome"])),
  c("GROUP BY: a group none of whose rows pass still stands, its aggregate as over no rows",
    (t) => t(orders).select("user_id", filter(count(), "paid").as("paid"), filter(sum("amount"), eq("status", "new")).as("fresh")).groupBy("user_id").orderBy("user_id"),
    sel(orders, ["user_id", AS(F("count", undefined, paid), "paid"), AS(F("sum", "amount", C("=", "status", "new")), "fresh")], { groupBy: [I("user_id")], orderBy: [{ column: "user_id" }] }),
    "SELECT user_id, count(*) FILTER (WHERE paid) AS paid, sum(amount) FILTER (WHERE status = 'new') AS fresh FROM orders GROUP BY user_id ORDER BY user_id",
    rows(["user_id", "paid", "fresh"], ["u1", 1, 20], ["u2", 1, null], ["u3", 0, null], ["u5", 0, 5])),
  c("GROUP BY over a WHERE, groups sorted by a filtered count",
    (t) => t(users).select("city", filter(count(), "active").as("n")).groupBy("city").orderBy("n", "desc").orderBy("city"),
    sel(users, ["city", AS(F("count", undefined, active), "n")], { groupBy: [I("city")], orderBy: [{ column: "n", direction: "desc" }, { column: "city" }] }),
    "SELECT city, count(*) FILTER (WHERE active) AS n FROM users GROUP BY city ORDER BY n DESC, city",
    rows(["city", "n"], ["Paris", 2], [null, 0], ["Berlin", 0], ["Rome", 0])),
  c("HAVING and ORDER BY read filtered aggregates, the same call written again being the same aggregate",
    (t) => {
      const live = filter(sum("amount"), ne("status", "cancelled"));
      return t(orders).select("user_id", live.as("live")).groupBy("user_id").having(filter(count(), not(col("paid"))).gt(0)).orderBy(live, "desc");
    },
    sel(orders, ["user_id", AS(F("sum", "amount", C("<>", "status", "cancelled")), "live")], {
      groupBy: [I("user_id")],
      having: C(">", F("count", undefined, NOT(paid)), 0),
      orderBy: [{ expr: F("sum", "amount", C("<>", "status", "cancelled")), direction: "desc" }],
    }),
    "SELECT user_id, sum(amount) FILTER (WHERE status <> 'cancelled') AS live FROM orders GROUP BY user_id HAVING count(*) FILTER (WHERE NOT paid) > 0 ORDER BY sum(amount) FILTER (WHERE status <> 'cancelled') DESC",
    rows(["user_id", "live"], ["u1", 270], ["u5", 5], ["u3", null])),
  c("an aggregate with and without a FILTER are two aggregates; filtered ones inside expressions",
    (t) =>
      t(orders).select(
        sum("amount").as("every"),
        filter(sum("amount"), "paid").as("paid"),
        filter(sum("amount"), "paid").mul(2).as("twice"),
        filter(count(), "paid").mul(1.5).div(count()).as("share"),
      ),
    sel(orders, [
      AS({ type: "aggregate", name: "sum", arg: I("amount") }, "every"),
      AS(F("sum", "amount", paid), "paid"),
      AS(B("*", F("sum", "amount", paid), 2), "twice"),
      AS(B("/", B("*", F("count", undefined, paid), 1.5), { type: "aggregate", name: "count" }), "share"),
    ]),
    "SELECT sum(amount) AS every, sum(amount) FILTER (WHERE paid) AS paid, sum(amount) FILTER (WHERE paid) * 2 AS twice, count(*) FILTER (WHERE paid) * 1.5 / count(*) AS share FROM orders",
    rows(["every", "paid", "twice", "share"], [474.5, 349.5, 699, 0.5])),
  c("a FILTER beside a WHERE: the aggregate reads the rows both keep",
    (t) => t(users).select(filter(count(), eq("city", "Paris")).as("n")).where(gt("age", 20)),
    sel(users, [AS(F("count", undefined, C("=", "city", "Paris")), "n")], { where: C(">", "age", 20) }),
    "SELECT count(*) FILTER (WHERE city = 'Paris') AS n FROM users WHERE age > 20",
    rows(["n"], [1])),
  c("a parameter in a FILTER",
    (t) => t(users).select(filter(count(), gt("age", 20)).as("n")),
    sel(users, [AS(F("count", undefined, C(">", "age", 20)), "n")]),
    ["SELECT count(*) FILTER (WHERE age > ?) AS n FROM users", [20]],
    rows(["n"], [3])),
  c("a subquery in a FILTER",
    (t) => t(users).select(filter(count(), inQuery("id", t(orders).select("user_id").where(eq("paid", true)))).as("buyers")),
    sel(users, [AS(F("count", undefined, { type: "in", expr: I("id"), select: { kind: "select", table: orders, columns: ["user_id"], where: C("=", "paid", true) } } as Expression), "buyers")]),
    "SELECT count(*) FILTER (WHERE id IN (SELECT user_id FROM orders WHERE paid)) AS buyers FROM users",
    rows(["buyers"], [2])),
  c("a filtered aggregate in a correlated subquery",
    null,
    {
      kind: "select",
      table: users,
      as: "u",
      columns: ["name", AS({ type: "subquery", select: { kind: "select", table: orders, as: "o", columns: [AS(F("count", undefined, I("o.paid")), "n")], where: C("=", "o.user_id", I("u.id")) } } as Expression, "paid")],
      orderBy: [{ column: "name" }],
    },
    "SELECT name, (SELECT count(*) FILTER (WHERE o.paid) FROM orders o WHERE o.user_id = u.id) AS paid FROM users u ORDER BY name",
    rows(["name", "paid"], ["Ada", 1], ["Bob", 1], ["Cy", 0], ["Dee", 0], ["Eve", 0])),
  c("in a subquery, an aggregate whose FILTER reads its own rows is its own, even of an enclosing value",
    null,
    {
      kind: "select",
      table: users,
      as: "u",
      columns: ["name", AS({ type: "subquery", select: { kind: "select", table: orders, as: "o", columns: [AS(F("sum", "u.age", I("o.paid")), "n")], where: C("=", "o.user_id", I("u.id")) } } as Expression, "paid_age")],
      orderBy: [{ column: "name" }],
    },
    "SELECT name, (SELECT sum(u.age) FILTER (WHERE o.paid) FROM orders o WHERE o.user_id = u.id) AS paid_age FROM users u ORDER BY name",
    rows(["name", "paid_age"], ["Ada", 36], ["Bob", 17], ["Cy", null], ["Dee", null], ["Eve", null])),
  c("in a subquery, an aggregate whose FILTER reads only enclosing values is refused (storedb's rule: SQLite makes it the enclosing query's)",
    null,
    {
      kind: "select",
      table: users,
      as: "u",
      columns: ["name", AS({ type: "subquery", select: { kind: "select", table: orders, as: "o", columns: [AS(F("count", undefined, I("u.active")), "n")], where: C("=", "o.user_id", I("u.id")) } } as Expression, "n")],
    },
    "SELECT name, (SELECT count(*) FILTER (WHERE u.active) FROM orders o WHERE o.user_id = u.id) AS n FROM users u",
    misuse),
  c("window aggregates with FILTER: a running sum, a count per partition",
    (t) =>
      t(orders)
        .select("id", over(filter(sum("amount"), "paid"), { orderBy: ["id"] }).as("running"), filter(over(count(), { partitionBy: ["user_id"] }), eq("status", "new")).as("fresh"))
        .orderBy("id"),
    sel(orders, ["id", AS(FW("sum", [I("amount")], paid, { orderBy: byId }), "running"), AS(FW("count", [], C("=", "status", "new"), { partitionBy: [I("user_id")] }), "fresh")], { orderBy: byId }),
    "SELECT id, sum(amount) FILTER (WHERE paid) OVER (ORDER BY id) AS running, count(*) FILTER (WHERE status = 'new') OVER (PARTITION BY user_id) AS fresh FROM orders ORDER BY id",
    rows(["id", "running", "fresh"], [1, 250, 1], [2, 250, 1], [3, 349.5, 0], [4, 349.5, 0], [5, 349.5, 2], [6, 349.5, 2])),
  c("window aggregates with FILTER over a moving frame, a growing one and the whole partition",
    (t) =>
      t(users)
        .select(
          over(filter(min("name"), "active"), { orderBy: ["id"], frame: { units: "rows", start: { preceding: 1 }, end: { following: 1 } } }).as("m"),
          over(filter(groupConcat("name", { separator: "/" }), gt("age", 20)), { orderBy: ["id"] }).as("g"),
          over(filter(avg("score"), "active")).as("a"),
        )
        .orderBy("id"),
    sel(users, [
      AS(FW("min", [I("name")], active, { orderBy: byId, frame: { units: "rows", start: { preceding: 1 }, end: { following: 1 } } }), "m"),
      AS({ ...FW("group_concat", [I("name")], C(">", "age", 20), { orderBy: byId }), separator: "/" } as Expression, "g"),
      AS(FW("avg", [I("score")], active), "a"),
    ], { orderBy: byId }),
    "SELECT min(name) FILTER (WHERE active) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS m, group_concat(name, '/') FILTER (WHERE age > 20) OVER (ORDER BY id) AS g, " +
      "avg(score) FILTER (WHERE active) OVER () AS a FROM users ORDER BY id",
    rows(["m", "g", "a"], ["Ada", "Ada", 9.5], ["Ada", "Ada", 9.5], ["Cy", "Ada", 9.5], ["Cy", "Ada/Dee", 9.5], [null, "Ada/Dee/Eve", 9.5])),
  c("a window aggregate's FILTER over groups reads their keys and aggregates",
    (t) => t(orders).select("status", over(filter(sum(count()), and(ne("status", "new"), gt(count(), 1))), { orderBy: ["status"] }).as("running")).groupBy("status").orderBy("status"),
    sel(orders, ["status", AS(FW("sum", [{ type: "aggregate", name: "count" }], AND(C("<>", "status", "new"), C(">", { type: "aggregate", name: "count" }, 1)), { orderBy: [{ column: "status" }] }), "running")], {
      groupBy: [I("status")],
      orderBy: [{ column: "status" }],
    }),
    "SELECT status, sum(count(*)) FILTER (WHERE status <> 'new' AND count(*) > 1) OVER (ORDER BY status) AS running FROM orders GROUP BY status ORDER BY status",
    rows(["status", "running"], ["cancelled", null], ["new", null], ["shipped", 2])),
  c("a table function's column read only by a FILTER is made for it",
    null,
    null,
    "SELECT count(*) FILTER (WHERE j.type = 'integer') AS n FROM users u, json_each('[1,\"a\",2]') j",
    rows(["n"], [10])),
  c("filter is still a name: an alias after a call, as in SQLite",
    null,
    null,
    "SELECT count(*) filter FROM users",
    rows(["filter"], [5])),

  // ---- refusals
  c("a FILTER must be boolean (storedb's rule: SQLite takes an integer's truth)",
    (t) => t(users).select(filter(sum("age"), "age").as("s")),
    sel(users, [AS(F("sum", "age", I("age")), "s")]),
    "SELECT sum(age) FILTER (WHERE age) AS s FROM users",
    err("type_mismatch")),
  c("a FILTER comparing text with a number is type_mismatch",
    (t) => t(users).select(filter(count(), eq("name", 1)).as("n")),
    sel(users, [AS(F("count", undefined, C("=", "name", 1)), "n")]),
    "SELECT count(*) FILTER (WHERE name = 1) AS n FROM users",
    err("type_mismatch")),
  c("no aggregate inside a FILTER (SQLite: misuse of aggregate function)",
    (t) => t(users).select(filter(count(), count().gt(1)).as("n")),
    sel(users, [AS(F("count", undefined, C(">", { type: "aggregate", name: "count" }, 1)), "n")]),
    "SELECT count(*) FILTER (WHERE count(*) > 1) AS n FROM users",
    misuse),
  c("no window function inside a FILTER",
    (t) => t(orders).select(filter(count(), over(rowNumber()).gt(1)).as("n")),
    sel(orders, [AS(F("count", undefined, C(">", { type: "window", name: "row_number", args: [], over: {} } as Expression, 1)), "n")]),
    "SELECT count(*) FILTER (WHERE row_number() OVER () > 1) AS n FROM orders",
    misuse),
  c("FILTER only on an aggregate window function (SQLite: FILTER clause may only be used with aggregate window functions)",
    (t) => t(orders).select(filter(over(rowNumber(), { orderBy: ["id"] }), "paid").as("n")),
    sel(orders, [AS(FW("row_number", [], paid, { orderBy: byId }), "n")]),
    "SELECT row_number() FILTER (WHERE paid) OVER (ORDER BY id) AS n FROM orders",
    misuse),
  c("FILTER only on an aggregate (SQLite: FILTER may not be used with non-aggregate lower())",
    (t) => t(users).select(filter(lower("name"), "active").as("n")),
    null,
    "SELECT lower(name) FILTER (WHERE active) AS n FROM users",
    misuse),
  c("a window aggregate's FILTER over groups reads no ungrouped column (storedb's rule for grouped queries: SQLite reads some row's)",
    (t) => t(orders).select("status", over(filter(sum(count()), gt("amount", 1))).as("s")).groupBy("status"),
    sel(orders, ["status", AS(FW("sum", [{ type: "aggregate", name: "count" }], C(">", "amount", 1)), "s")], { groupBy: [I("status")] }),
    "SELECT status, sum(count(*)) FILTER (WHERE amount > 1) OVER () AS s FROM orders GROUP BY status",
    misuse),
  c("an aggregate with a FILTER is still no WHERE term",
    (t) => t(users).select("id").where(filter(count(), "active").gt(1)),
    sel(users, ["id"], { where: C(">", F("count", undefined, active), 1) }),
    "SELECT id FROM users WHERE count(*) FILTER (WHERE active) > 1",
    misuse),
  c("FILTER comes before OVER, and once",
    null,
    null,
    "SELECT sum(amount) OVER () FILTER (WHERE paid) AS s FROM orders",
    err("sql_syntax_error")),
];
