/**
 * Conformance cases for derived tables that read the queries enclosing
 * them, as SQLite's do: a derived table (or a WITH table read there) inside
 * a scalar, EXISTS or IN subquery reads the enclosing query's row, at any
 * depth of FROM and of subqueries, with joins, grouping, ORDER BY and LIMIT
 * of its own, and is made again for each enclosing row; a name resolves
 * exactly at every level outward before a table name behind an alias is
 * tried. And what SQLite refuses: a derived table reading a source beside
 * it in FROM (LATERAL). Every answer here is SQLite 3.53's.
 *
 * Fixture rows (see `cases-expressions.ts`): users' ages 36, 17, NULL, 52,
 * 28 (u1..u5), cities Paris, Berlin, Paris, NULL, Rome; orders' amounts by
 * user u1: 250, 20; u2: 99.5; u3: 100; u5: 5, NULL (ids 1..6).
 */

import { col, count, eq, exists, gt, subquery } from "../../src/api/expressions.js";
import type { Expression, Value } from "../../src/commands/types.js";
import { AGG, AS, C, EXISTS, I, Q, SUB, c, err, ids, mut, rows, sel, type Case, type Select } from "./dsl.js";

const users = "users";
const orders = "orders";
const IDS = ["u1", "u2", "u3", "u4", "u5"];

/** `SELECT <aggregate> AS n FROM (<from>) [AS d]`. */
const OVER = (from: Select, aggregate: Expression, extra: Select = {}): Select => ({ kind: "select", from, columns: [AS(aggregate, "n")], ...extra });

/** The value of `v` per user, in id order. */
const perUser = (...values: Value[]) => rows(["id", "v"], ...IDS.map((id, i) => [id, values[i] ?? null]));

/** The repro: `users.id` names the enclosing row, not the alias `w` of users in the derived table's own join. */
const firstTwo = Q(orders, ["o.id"], { as: "o", joins: [{ type: "left", table: users, as: "w", on: C("=", "w.id", I("o.user_id")) }], where: C("=", "o.user_id", I("users.id")), limit: 2 });

export const correlatedCases: readonly Case[] = [
  c("a derived table in a scalar subquery reads the enclosing row, not a table of its own behind an alias",
    (t) => t(users).select("id", subquery(t(t(orders).as("o").select("o.id").leftJoin(users, eq("w.id", col("o.user_id")), { as: "w" }).where(eq("o.user_id", col("users.id"))).limit(2)).select(count().as("n"))).as("v")).orderBy("id"),
    sel(users, ["id", AS(SUB(OVER(firstTwo, AGG("count"))), "v")], { orderBy: [{ column: "id" }] }),
    "SELECT id, (SELECT count(*) FROM (SELECT o.id FROM orders o LEFT JOIN users w ON w.id = o.user_id WHERE o.user_id = users.id LIMIT 2)) AS v FROM users ORDER BY id",
    perUser(2, 1, 1, 0, 2)),
  c("a derived table in EXISTS reads the enclosing row",
    (t) => t(users).as("u").select("id").where(exists(t(t(orders).select("amount").where(eq("user_id", col("u.id")))).as("d").select("amount").where(gt("d.amount", 50)))).orderBy("id"),
    sel(users, ["id"], { as: "u", where: EXISTS({ kind: "select", from: Q(orders, ["amount"], { where: C("=", "user_id", I("u.id")) }), as: "d", columns: ["amount"], where: C(">", "d.amount", 50) }), orderBy: [{ column: "id" }] }),
    "SELECT id FROM users u WHERE EXISTS (SELECT 1 FROM (SELECT amount FROM orders WHERE user_id = u.id) d WHERE d.amount > 50) ORDER BY id",
    ids("u1", "u2", "u3")),
  // The subquery's own equality on a column of no index would decorrelate it into one hashed run, which its derived table cannot be made for.
  c("EXISTS correlated by an equality and by its derived table runs per row", null,
    sel(users, ["id"], {
      as: "u",
      where: EXISTS(Q(users, ["w.id"], { as: "w", joins: [{ type: "inner", from: Q(orders, ["user_id"], { where: { type: "and", operands: [C("=", "user_id", I("u.id")), C("<", "amount", 50)] } }), as: "d", on: C("=", "d.user_id", I("w.id")) }], where: C("=", "w.name", I("u.name")) })),
      orderBy: [{ column: "id" }],
    }),
    "SELECT id FROM users u WHERE EXISTS (SELECT w.id FROM users w JOIN (SELECT user_id FROM orders WHERE user_id = u.id AND amount < 50) d ON d.user_id = w.id WHERE w.name = u.name) ORDER BY id",
    ids("u1", "u5")),
  c("a derived table in IN (SELECT …) reads the enclosing row", null, null,
    "SELECT id FROM users u WHERE 'shipped' IN (SELECT status FROM (SELECT status FROM orders WHERE user_id = u.id)) ORDER BY id", ids("u1", "u2")),
  c("NOT IN over a derived table correlated by a join condition", null, null,
    "SELECT id FROM users u WHERE u.id NOT IN (SELECT user_id FROM (SELECT o.user_id FROM orders o JOIN users w ON w.id = o.user_id AND w.city = u.city)) ORDER BY id",
    ids("u4")),
  c("a derived table inside a derived table reads the enclosing row", null,
    sel(users, ["id", AS(SUB(OVER({ kind: "select", from: Q(orders, ["amount"], { where: C("=", "user_id", I("u.id")) }), columns: ["amount"], where: C(">", "amount", 10) }, AGG("sum", "amount"))), "v")], { as: "u", orderBy: [{ column: "id" }] }),
    "SELECT id, (SELECT sum(amount) FROM (SELECT amount FROM (SELECT amount FROM orders WHERE user_id = u.id) WHERE amount > 10)) AS v FROM users u ORDER BY id",
    perUser(270, 99.5, 100, null, null)),
  c("a derived table two subqueries deep reads both enclosing rows", null, null,
    "SELECT id, (SELECT count(*) FROM orders o WHERE o.user_id = u.id AND o.amount >= (SELECT max(x) FROM (SELECT amount AS x FROM orders WHERE user_id = u.id AND id <> o.id))) AS v FROM users u ORDER BY id",
    perUser(1, 0, 0, 0, 0)),
  c("a correlated derived table that groups", null,
    sel(users, ["id", AS(SUB({ kind: "select", from: Q(orders, ["user_id", AS(AGG("count"), "n")], { where: C("=", "user_id", I("u.id")), groupBy: [I("user_id")] }), columns: ["n"] }), "v")], { as: "u", orderBy: [{ column: "id" }] }),
    "SELECT id, (SELECT n FROM (SELECT user_id, count(*) AS n FROM orders WHERE user_id = u.id GROUP BY user_id)) AS v FROM users u ORDER BY id",
    perUser(2, 1, 1, null, 2)),
  c("a correlated derived table's own ORDER BY, LIMIT and OFFSET", null, null,
    "SELECT id, (SELECT min(id) FROM (SELECT id FROM orders WHERE user_id = u.id ORDER BY id DESC LIMIT 1 OFFSET 1)) AS v FROM users u ORDER BY id",
    perUser(1, null, null, null, 5)),
  c("a correlated derived table with a join of its own", null, null,
    "SELECT id, (SELECT count(*) FROM (SELECT o.id FROM orders o JOIN users w ON w.id = o.user_id WHERE w.city = u.city) d) AS v FROM users u ORDER BY id",
    perUser(3, 1, 3, 0, 2)),
  c("a correlated derived table joined on a hash to an uncorrelated one", null, null,
    "SELECT id, (SELECT sum(e.amount) FROM (SELECT id FROM orders WHERE user_id = u.id) d JOIN (SELECT id, amount FROM orders) e ON e.id = d.id) AS v FROM users u ORDER BY id",
    perUser(270, 99.5, 100, null, 5)),
  c("a correlated derived table in HAVING reads a group key", null, null,
    "SELECT city FROM users u GROUP BY city HAVING (SELECT count(*) FROM (SELECT id FROM users WHERE city = u.city)) > 1", rows(["city"], ["Paris"])),
  c("a WITH table inside a subquery reads the enclosing row", null, null,
    "SELECT id, (WITH mine AS (SELECT amount FROM orders WHERE user_id = u.id) SELECT count(*) FROM mine) AS v FROM users u ORDER BY id",
    perUser(2, 1, 1, 0, 2)),
  c("a WITH table read in a subquery reads the query enclosing that subquery", null, null,
    "WITH mine AS (SELECT amount FROM orders WHERE user_id = u.id) SELECT id, (SELECT sum(amount) FROM mine) AS v FROM users u ORDER BY id",
    perUser(270, 99.5, 100, null, 5)),
  c("a recursive WITH table inside a subquery reads the enclosing row", null, null,
    "SELECT id, (WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < u.age / 10) SELECT max(k) FROM n) AS v FROM users u ORDER BY id",
    perUser(3, 1, 1, 5, 2)),
  c("a derived table in an update's subquery reads the row updated", null,
    { kind: "update", table: users, set: { note: "big" }, where: EXISTS({ kind: "select", from: Q(orders, ["id"], { where: { type: "and", operands: [C("=", "user_id", I("users.id")), C(">=", "amount", 100)] } }), columns: "*" }) },
    "UPDATE users SET note = 'big' WHERE EXISTS (SELECT * FROM (SELECT id FROM orders WHERE user_id = users.id AND amount >= 100))",
    mut("update", users, 2), [sel(users, ["id"], { where: C("=", "note", "big"), orderBy: [{ column: "id" }] }), ids("u1", "u3")]),
  c("an enclosing query's table named exactly wins over a table behind an alias in the subquery", null, null,
    "SELECT id, (SELECT w.name FROM users w WHERE w.id = users.id) AS v FROM users ORDER BY id",
    rows(["id", "v"], ["u1", "Ada"], ["u2", "Bob"], ["u3", "Cy"], ["u4", "Dee"], ["u5", "Eve"])),
  c("a derived table reads its enclosing query's table, not the one of that name beside it", null, null,
    "SELECT id, (SELECT count(*) FROM users, (SELECT id FROM orders WHERE orders.user_id = users.id) d) AS v FROM users ORDER BY id",
    perUser(10, 5, 5, 0, 10)),

  // ---- What SQLite refuses: a derived table reads no source beside it (LATERAL)
  c("a derived table reads no source beside it in FROM", null,
    sel(users, ["u.id"], { as: "u", joins: [{ type: "cross", from: Q(orders, ["id"], { where: C("=", "user_id", I("u.id")) }), as: "d" }] }),
    "SELECT u.id FROM users u, (SELECT id FROM orders WHERE user_id = u.id) d", err("unknown_column")),
  c("a derived table in a subquery reads no source beside it", null, null,
    "SELECT id, (SELECT count(*) FROM orders o, (SELECT id FROM users WHERE id = o.user_id) d) AS v FROM users", err("unknown_column")),
  // Read as a table behind an alias, users.id would have been the derived table's own w.id.
  c("a table name beside a derived table is refused there, not read as its own table behind an alias", null, null,
    "SELECT count(*) AS n FROM users, (SELECT o.id FROM orders o JOIN users w ON w.id = o.user_id WHERE o.user_id = users.id) d", err("unknown_column")),
  c("an enclosing query's alias is not a table beside the derived table by its table's name", null, null,
    "SELECT x.id, (SELECT count(*) FROM users, (SELECT id FROM orders WHERE user_id = users.id) d) AS v FROM users x", err("unknown_column")),
];
