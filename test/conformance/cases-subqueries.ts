/**
 * Conformance cases for CONTRACT §11's subqueries: `IN (SELECT …)`,
 * `[NOT] EXISTS` and scalar `(SELECT …)`, uncorrelated and correlated
 * (names the subquery's sources lack belong to the enclosing query, at any
 * depth), in WHERE, the select list, HAVING and ORDER BY, and in an update's
 * or delete's WHERE; the three-valued
 * logic of IN and NOT IN over sets with and without NULLs and over no rows;
 * and each misuse (two columns, two rows, a text compared with a number, an
 * aggregate of only the enclosing query's columns).
 *
 * Fixture rows (see `cases-expressions.ts`): users' ages 36, 17, NULL, 52,
 * 28 (u1..u5), cities Paris, Berlin, Paris, NULL, Rome; orders' amounts by
 * user u1: 250, 20; u2: 99.5; u3: 100; u5: 5, NULL (ids 1..6).
 */

import { and, avg, col, count, eq, exists, gt, lt, max, min, notExists, subquery, sum, type Expr } from "../../src/api/expressions.js";
import type { Expression, Value } from "../../src/commands/types.js";
import { AGG, AND, AS, B, C, EXISTS, I, L, NOT, Q, SUB, access, c, err, ids, misuse, mut, ret, rows, sel, type Case, type Fluent, type Select } from "./dsl.js";

const users = "users";
const orders = "orders";
const IDS = ["u1", "u2", "u3", "u4", "u5"];

const INQ = (expr: Expression | string, select: Select, not?: true): Expression =>
  ({ type: "in", expr: typeof expr === "string" ? I(expr) : expr, select, ...(not ? { not } : {}) }) as unknown as Expression;

/** `SELECT id, <expr> AS v FROM users ORDER BY id`, expecting one value per user. */
function per(name: string, fluent: ((t: Parameters<Fluent>[0]) => Expr) | null, json: Expression, sql: string, values: readonly Value[]): Case {
  return c(
    name,
    fluent === null ? null : (t) => t(users).select("id", fluent(t).as("v")).orderBy("id"),
    sel(users, ["id", AS(json, "v")], { orderBy: [{ column: "id" }] }),
    `SELECT id, ${sql} AS v FROM users ORDER BY id`,
    rows(["id", "v"], ...IDS.map((id, i) => [id, values[i] ?? null])),
  );
}

/** Users with an order: `orders.user_id = users.id` inside a subquery on orders. */
const hasOrder = C("=", "orders.user_id", I("users.id"));

export const subqueryCases: readonly Case[] = [
  // ---- IN (SELECT …), uncorrelated: a hash semi-join
  c("IN a subquery", (t) => t(users).select("id").where(col("id").in(t(orders).select("user_id"))).orderBy("id"),
    sel(users, ["id"], { where: INQ("id", Q(orders, ["user_id"])), orderBy: [{ column: "id" }] }),
    "SELECT id FROM users WHERE id IN (SELECT user_id FROM orders) ORDER BY id", ids("u1", "u2", "u3", "u5")),
  c("NOT IN a subquery", (t) => t(users).select("id").where(col("id").notIn(t(orders).select("user_id"))),
    sel(users, ["id"], { where: INQ("id", Q(orders, ["user_id"]), true) }), "SELECT id FROM users WHERE id NOT IN (SELECT user_id FROM orders)", ids("u4")),
  per("IN a subquery without NULLs: TRUE, FALSE, NULL for a NULL operand", (t) => col("age").in(t(users).select("age").where(gt("age", 30))),
    INQ("age", Q(users, ["age"], { where: C(">", "age", 30) })), "age IN (SELECT age FROM users WHERE age > 30)", [true, false, null, true, false]),
  per("NOT IN a subquery without NULLs", (t) => col("age").notIn(t(users).select("age").where(gt("age", 30))),
    INQ("age", Q(users, ["age"], { where: C(">", "age", 30) }), true), "age NOT IN (SELECT age FROM users WHERE age > 30)", [false, true, null, false, true]),
  per("IN a subquery holding NULL: a miss is NULL", null,
    INQ("age", Q(users, ["age"], { where: { type: "or", operands: [C("=", "city", "Paris"), { type: "is-null", expr: I("city") }] } })),
    "age IN (SELECT age FROM users WHERE city = 'Paris' OR city IS NULL)", [true, null, null, true, null]),
  per("NOT IN a subquery holding NULL is never TRUE", null,
    INQ("age", Q(users, ["age"], { where: { type: "or", operands: [C("=", "city", "Paris"), { type: "is-null", expr: I("city") }] } }), true),
    "age NOT IN (SELECT age FROM users WHERE city = 'Paris' OR city IS NULL)", [false, null, null, false, null]),
  per("IN an empty subquery is FALSE, even for NULL", (t) => col("age").in(t(users).select("age").where(eq("id", "nobody"))),
    INQ("age", Q(users, ["age"], { where: C("=", "id", "nobody") })), "age IN (SELECT age FROM users WHERE id = 'nobody')", [false, false, false, false, false]),
  per("NOT IN an empty subquery is TRUE, even for NULL", null,
    INQ("age", Q(users, ["age"], { where: C("=", "id", "nobody") }), true), "age NOT IN (SELECT age FROM users WHERE id = 'nobody')", [true, true, true, true, true]),
  c("NOT IN where the subquery yields a NULL keeps no row", null, sel(users, ["id"], { where: INQ("note", Q(users, ["note"], { where: C("<>", "id", "u1") }), true) }),
    "SELECT id FROM users WHERE note NOT IN (SELECT note FROM users WHERE id <> 'u1')", rows(["id"])),
  c("IN compares integer and real as numbers", null, sel(orders, ["id"], { where: INQ("amount", Q(users, [AS(B("-", B("*", "age", 2), 4), "a")], { where: C("=", "id", "u4") })) }),
    "SELECT id FROM orders WHERE amount IN (SELECT age * 2 - 4 AS a FROM users WHERE id = 'u4')", rows(["id"], [4])),
  c("IN a subquery with ORDER BY and LIMIT", null,
    sel(users, ["id"], { where: INQ("id", Q(orders, ["user_id"], { orderBy: [{ column: "amount", direction: "desc" }], limit: 2 })), orderBy: [{ column: "id" }] }),
    "SELECT id FROM users WHERE id IN (SELECT user_id FROM orders ORDER BY amount DESC LIMIT 2) ORDER BY id", ids("u1", "u3")),
  c("IN a subquery with a parameter", null, sel(users, ["id"], { where: INQ("id", Q(orders, ["user_id"], { where: C(">", "amount", 50) })), orderBy: [{ column: "id" }] }),
    ["SELECT id FROM users WHERE id IN (SELECT user_id FROM orders WHERE amount > ?) ORDER BY id", [50]], ids("u1", "u2", "u3")),
  c("IN a grouped subquery", null,
    sel(users, ["id"], { where: INQ("id", Q(orders, ["user_id"], { groupBy: [I("user_id")], having: C(">", AGG("count"), 1) })), orderBy: [{ column: "id" }] }),
    "SELECT id FROM users WHERE id IN (SELECT user_id FROM orders GROUP BY user_id HAVING count(*) > 1) ORDER BY id", ids("u1", "u5")),
  c("correlated IN", null,
    sel(users, ["name"], { as: "u", where: INQ("u.city", Q(users, ["v.city"], { as: "v", where: C("<>", "v.id", I("u.id")) })), orderBy: [{ column: "name" }] }),
    "SELECT name FROM users u WHERE u.city IN (SELECT v.city FROM users v WHERE v.id <> u.id) ORDER BY name", rows(["name"], ["Ada"], ["Cy"])),
  per("correlated IN on an equality is a hash semi-join, NULL logic kept", null,
    INQ("score", Q(users, ["v.score"], { as: "v", where: C("=", "v.active", I("users.active")) })),
    "score IN (SELECT v.score FROM users v WHERE v.active = users.active)", [true, true, null, false, true]),
  per("correlated NOT IN, an OR in the correlation", null,
    INQ("age", Q(orders, [AS(B("+", B("*", "id", 10), 7), "x")], { where: { type: "or", operands: [C("=", "status", I("users.note")), C("=", "id", 1)] } }), true),
    "age NOT IN (SELECT id * 10 + 7 AS x FROM orders WHERE status = users.note OR id = 1)", [true, false, null, true, true]),

  // ---- IN (SELECT …) on a key or index: the subquery's values looked up, rows in table order
  c("explain IN a subquery on an indexed column", null,
    { kind: "explain", command: sel(orders, ["id"], { where: AND(C(">", "amount", 10), INQ("user_id", Q(users, ["id"], { where: C("=", "city", "Paris") }))) }) },
    "EXPLAIN SELECT id FROM orders WHERE amount > 10 AND user_id IN (SELECT id FROM users WHERE city = 'Paris')", access("key-in-subquery")),
  c("IN a subquery on an indexed column: rows in table order, whatever the subquery's order", null,
    sel(orders, ["id"], { where: INQ("user_id", Q(users, ["id"], { orderBy: [{ column: "id", direction: "desc" }], limit: 3 })) }),
    "SELECT id FROM orders WHERE user_id IN (SELECT id FROM users ORDER BY id DESC LIMIT 3)", rows(["id"], [4], [5], [6])),
  c("IN a subquery on a key, the rest of WHERE still applies", null,
    sel(orders, ["id"], { where: AND(C(">", "amount", 10), INQ("user_id", Q(users, ["id"], { where: C("=", "city", "Paris") }))) }),
    "SELECT id FROM orders WHERE amount > 10 AND user_id IN (SELECT id FROM users WHERE city = 'Paris')", rows(["id"], [1], [2], [4])),
  c("IN a subquery on a key, the subquery holding NULL: the keys it holds, a NULL key never", null,
    sel(users, ["id"], { where: INQ("city", Q(users, ["city"], { where: C("<>", "id", "u1") })) }),
    "SELECT id FROM users WHERE city IN (SELECT city FROM users WHERE id <> 'u1')", ids("u1", "u2", "u3", "u5")),
  c("IN an empty subquery on a key", null, sel(users, ["id"], { where: INQ("id", Q(orders, ["user_id"], { where: C(">", "amount", 1000) })) }),
    "SELECT id FROM users WHERE id IN (SELECT user_id FROM orders WHERE amount > 1000)", rows(["id"])),
  c("explain NOT IN a subquery: a scan", (t) => t(users).select("id").where(col("id").notIn(t(orders).select("user_id"))).explain(),
    { kind: "explain", command: sel(users, ["id"], { where: INQ("id", Q(orders, ["user_id"]), true) }) },
    "EXPLAIN SELECT id FROM users WHERE id NOT IN (SELECT user_id FROM orders)", access("scan")),
  c("explain a correlated IN on a key: a scan", null,
    { kind: "explain", command: sel(users, ["name"], { as: "u", where: INQ("u.id", Q(orders, ["o.user_id"], { as: "o", where: C("<>", "o.status", I("u.note")) })) }) },
    "EXPLAIN SELECT name FROM users u WHERE u.id IN (SELECT o.user_id FROM orders o WHERE o.status <> u.note)", access("scan")),
  c("explain a delete whose WHERE is a key IN a subquery", null,
    { kind: "explain", command: { kind: "delete", table: orders, where: INQ("id", Q(orders, ["id"], { where: C("=", "status", "new") })) } },
    "EXPLAIN DELETE FROM orders WHERE id IN (SELECT id FROM orders WHERE status = 'new')", access("key-in-subquery")),
  c("a delete whose WHERE is a key IN a subquery of its own table", null,
    { kind: "delete", table: orders, where: INQ("id", Q(orders, ["id"], { where: C("=", "status", "new") })), returning: ["id"] },
    "DELETE FROM orders WHERE id IN (SELECT id FROM orders WHERE status = 'new') RETURNING id", ret("delete", orders, 3, ["id"], [2], [5], [6]),
    [sel(orders, ["id"]), rows(["id"], [1], [3], [4])]),

  // ---- EXISTS
  c("EXISTS, correlated", (t) => t(users).select("id").where(exists(t(orders).select("id").where(and(hasOrder, gt("amount", 50))))).orderBy("id"),
    sel(users, ["id"], { where: EXISTS(Q(orders, ["id"], { where: AND(hasOrder, C(">", "amount", 50)) })), orderBy: [{ column: "id" }] }),
    "SELECT id FROM users WHERE EXISTS (SELECT id FROM orders WHERE orders.user_id = users.id AND amount > 50) ORDER BY id", ids("u1", "u2", "u3")),
  c("NOT EXISTS, correlated", (t) => t(users).select("id").where(notExists(t(orders).select().where(hasOrder))),
    sel(users, ["id"], { where: EXISTS(Q(orders, "*", { where: hasOrder }), true) }),
    "SELECT id FROM users WHERE NOT EXISTS (SELECT * FROM orders WHERE orders.user_id = users.id)", ids("u4")),
  c("NOT over EXISTS is NOT EXISTS", null, sel(users, ["id"], { where: NOT(EXISTS(Q(orders, "*", { where: hasOrder }))) }),
    "SELECT id FROM users WHERE NOT (EXISTS (SELECT * FROM orders WHERE orders.user_id = users.id))", ids("u4")),
  c("EXISTS, uncorrelated and empty", (t) => t(users).select("id").where(exists(t(orders).select("id").where(gt("amount", 1000)))),
    sel(users, ["id"], { where: EXISTS(Q(orders, ["id"], { where: C(">", "amount", 1000) })) }),
    "SELECT id FROM users WHERE EXISTS (SELECT id FROM orders WHERE amount > 1000)", rows(["id"])),
  per("EXISTS as a value, on a non-indexed correlation", null, EXISTS(Q(orders, "*", { where: C("=", "status", I("users.note")) })),
    "EXISTS (SELECT * FROM orders WHERE status = users.note)", [false, false, false, false, false]),
  per("EXISTS correlated on an expression", null, EXISTS(Q(orders, "*", { where: AND(C(">", "amount", 50), C("=", I("users.age"), B("-", B("*", "id", 10), 4))) })),
    "EXISTS (SELECT * FROM orders WHERE amount > 50 AND users.age = id * 10 - 4)", [true, false, false, false, false]),
  c("EXISTS over a self-join of the enclosing table", null,
    sel(users, ["u.name"], { as: "u", where: EXISTS(Q(users, "*", { as: "v", where: AND(C("=", "v.city", I("u.city")), C("<>", "v.id", I("u.id"))) })), orderBy: [{ column: "u.name" }] }),
    "SELECT u.name FROM users u WHERE EXISTS (SELECT * FROM users v WHERE v.city = u.city AND v.id <> u.id) ORDER BY u.name", rows(["u.name"], ["Ada"], ["Cy"])),
  c("EXISTS with a join inside", null,
    sel(users, ["id"], { where: EXISTS(Q(orders, ["o.id"], { as: "o", joins: [{ type: "inner", table: users, as: "w", on: C("=", "w.id", I("o.user_id")) }], where: AND(C("=", "o.user_id", I("users.id")), C("=", "w.city", "Paris")) })), orderBy: [{ column: "id" }] }),
    "SELECT id FROM users WHERE EXISTS (SELECT o.id FROM orders o JOIN users w ON w.id = o.user_id WHERE o.user_id = users.id AND w.city = 'Paris') ORDER BY id", ids("u1", "u3")),

  // ---- scalar subqueries
  per("a correlated scalar subquery in the select list", (t) => subquery(t(orders).select(count().as("n")).where(hasOrder)),
    SUB(Q(orders, [AS(AGG("count"), "n")], { where: hasOrder })), "(SELECT count(*) AS n FROM orders WHERE orders.user_id = users.id)", [2, 1, 1, 0, 2]),
  per("a scalar subquery with no row is NULL", (t) => subquery(t(orders).select("amount").where(and(hasOrder, gt("amount", 200)))),
    SUB(Q(orders, ["amount"], { where: AND(hasOrder, C(">", "amount", 200)) })), "(SELECT amount FROM orders WHERE orders.user_id = users.id AND amount > 200)",
    [250, null, null, null, null]),
  c("an uncorrelated scalar subquery in WHERE", (t) => t(users).select("id").where(gt("age", subquery(t(users).select(avg("age").as("a"))))).orderBy("id"),
    sel(users, ["id"], { where: C(">", "age", SUB(Q(users, [AS(AGG("avg", "age"), "a")]))), orderBy: [{ column: "id" }] }),
    "SELECT id FROM users WHERE age > (SELECT avg(age) AS a FROM users) ORDER BY id", ids("u1", "u4")),
  c("a scalar subquery correlated through an alias", null,
    sel(users, ["u.id"], { as: "u", where: C("=", "u.score", SUB(Q(users, [AS({ type: "aggregate", name: "max", arg: I("v.score") } as Expression, "m")], { as: "v", where: C("=", "v.city", I("u.city")) }))), orderBy: [{ column: "u.id" }] }),
    "SELECT u.id FROM users u WHERE u.score = (SELECT max(v.score) AS m FROM users v WHERE v.city = u.city) ORDER BY u.id", rows(["u.id"], ["u1"], ["u2"], ["u5"])),
  c("a scalar subquery in arithmetic", (t) => t(orders).select("id", col("amount").sub(subquery(t(orders).select(min("amount").as("m")))).as("d")).where(C("<=", "id", 2)).orderBy("id"),
    sel(orders, ["id", AS(B("-", "amount", SUB(Q(orders, [AS(AGG("min", "amount"), "m")]))), "d")], { where: C("<=", "id", 2), orderBy: [{ column: "id" }] }),
    "SELECT id, amount - (SELECT min(amount) AS m FROM orders) AS d FROM orders WHERE id <= 2 ORDER BY id", rows(["id", "d"], [1, 245], [2, 15])),
  c("a scalar subquery without FROM", null, sel(users, ["id"], { where: C("=", "age", SUB({ kind: "select", columns: [AS(L(36), "x")] })) }),
    "SELECT id FROM users WHERE age = (SELECT 36 AS x)", ids("u1")),
  c("a scalar subquery without FROM in the outer query", null, { kind: "select", columns: [AS(SUB(Q(users, ["name"], { where: C("=", "id", "nobody") })), "v")] },
    "SELECT (SELECT name FROM users WHERE id = 'nobody') AS v", rows(["v"], [null])),
  c("a subquery in HAVING", (t) => t(users).select("city", count().as("n")).groupBy("city").having(gt(count(), subquery(t(orders).select(count().as("c")).where(eq("user_id", "u2"))))),
    sel(users, ["city", AS(AGG("count"), "n")], { groupBy: [I("city")], having: C(">", AGG("count"), SUB(Q(orders, [AS(AGG("count"), "c")], { where: C("=", "user_id", "u2") }))) }),
    "SELECT city, count(*) AS n FROM users GROUP BY city HAVING count(*) > (SELECT count(*) AS c FROM orders WHERE user_id = 'u2')", rows(["city", "n"], ["Paris", 2])),
  c("a subquery in ORDER BY", (t) => t(users).select("id").orderBy(subquery(t(orders).select(sum("amount").as("s")).where(hasOrder)), "desc").orderBy("id"),
    sel(users, ["id"], { orderBy: [{ expr: SUB(Q(orders, [AS(AGG("sum", "amount"), "s")], { where: hasOrder })), direction: "desc" }, { column: "id" }] }),
    "SELECT id FROM users ORDER BY (SELECT sum(amount) AS s FROM orders WHERE orders.user_id = users.id) DESC, id", ids("u1", "u3", "u2", "u5", "u4")),
  c("subqueries two deep, the inner one reading the outermost query", null,
    sel(users, ["u.id"], { as: "u", where: EXISTS(Q(orders, "*", { as: "o", where: AND(C("=", "o.user_id", I("u.id")), EXISTS(Q(users, "*", { as: "v", where: AND(C("=", "v.id", I("o.user_id")), C("=", "v.age", I("u.age"))) }))) })), orderBy: [{ column: "u.id" }] }),
    "SELECT u.id FROM users u WHERE EXISTS (SELECT * FROM orders o WHERE o.user_id = u.id AND EXISTS (SELECT * FROM users v WHERE v.id = o.user_id AND v.age = u.age)) ORDER BY u.id",
    rows(["u.id"], ["u1"], ["u2"], ["u5"])),
  c("a subquery inside a subquery's WHERE, uncorrelated", (t) =>
      t(users).select("id").where(exists(t(orders).select("id").where(and(hasOrder, gt("amount", subquery(t(orders).select(avg("amount").as("a")))))))).orderBy("id"),
    sel(users, ["id"], { where: EXISTS(Q(orders, ["id"], { where: AND(hasOrder, C(">", "amount", SUB(Q(orders, [AS(AGG("avg", "amount"), "a")])))) })), orderBy: [{ column: "id" }] }),
    "SELECT id FROM users WHERE EXISTS (SELECT id FROM orders WHERE orders.user_id = users.id AND amount > (SELECT avg(amount) AS a FROM orders)) ORDER BY id",
    ids("u1", "u2", "u3")),
  c("a name both queries have is the subquery's own", null, sel(users, ["id"], { where: INQ("id", Q(orders, ["user_id"], { where: C("=", "id", 3) })) }),
    "SELECT id FROM users WHERE id IN (SELECT user_id FROM orders WHERE id = 3)", ids("u2")),

  // ---- in an update's or delete's WHERE: every row is matched before any changes
  c("DELETE WHERE IN a subquery", (t) => t(orders).delete().where(col("user_id").in(t(users).select("id").where(lt("age", 18)))),
    { kind: "delete", table: orders, where: INQ("user_id", Q(users, ["id"], { where: C("<", "age", 18) })) },
    "DELETE FROM orders WHERE user_id IN (SELECT id FROM users WHERE age < 18)", mut("delete", orders, 1),
    [sel(orders, ["id"]), rows(["id"], [1], [2], [4], [5], [6])]),
  c("UPDATE WHERE a correlated EXISTS", (t) => t(orders).update({ status: "x" }).where(exists(t(users).select().where(and(eq("users.id", col("orders.user_id")), eq("users.city", "Paris"))))),
    { kind: "update", table: orders, set: { status: "x" }, where: EXISTS(Q(users, "*", { where: AND(C("=", "users.id", I("orders.user_id")), C("=", "users.city", "Paris")) })) },
    "UPDATE orders SET status = 'x' WHERE EXISTS (SELECT * FROM users WHERE users.id = orders.user_id AND users.city = 'Paris')", mut("update", orders, 3),
    [sel(orders, ["id"], { where: C("=", "status", "x") }), rows(["id"], [1], [2], [4])]),
  c("DELETE WHERE a scalar subquery over the same table sees it whole", null,
    { kind: "delete", table: orders, where: C("<", "amount", SUB(Q(orders, [AS(AGG("avg", "amount"), "a")]))) },
    "DELETE FROM orders WHERE amount < (SELECT avg(amount) AS a FROM orders)", mut("delete", orders, 2),
    [sel(orders, ["id"]), rows(["id"], [1], [3], [4], [6])]),

  // ---- plans: every surface gives the same one
  c("explain a correlated EXISTS", null, { kind: "explain", command: sel(users, ["id"], { where: EXISTS(Q(orders, "*", { where: hasOrder })) }) },
    "EXPLAIN SELECT id FROM users WHERE EXISTS (SELECT * FROM orders WHERE orders.user_id = users.id)", access("scan")),
  c("explain IN a subquery on the primary key: its values looked up", (t) => t(users).select("id").where(col("id").in(t(orders).select("user_id"))).explain(),
    { kind: "explain", command: sel(users, ["id"], { where: INQ("id", Q(orders, ["user_id"])) }) },
    "EXPLAIN SELECT id FROM users WHERE id IN (SELECT user_id FROM orders)", access("key-in-subquery")),

  // ---- misuse
  c("a scalar subquery of two rows", (t) => t(users).select(subquery(t(users).select("id")).as("v")), sel(users, [AS(SUB(Q(users, ["id"])), "v")]),
    "SELECT (SELECT id FROM users) AS v FROM users", err("invalid_request")),
  c("a scalar subquery of two columns", null, sel(users, [AS(SUB(Q(users, ["id", "name"], { limit: 1 })), "v")]),
    "SELECT (SELECT id, name FROM users LIMIT 1) AS v FROM users", misuse),
  c("IN a subquery of two columns", null, sel(users, ["id"], { where: INQ("id", Q(orders, ["user_id", "status"])) }),
    "SELECT id FROM users WHERE id IN (SELECT user_id, status FROM orders)", misuse),
  c("IN a subquery of *", null, sel(users, ["id"], { where: INQ("id", Q(orders, "*")) }), "SELECT id FROM users WHERE id IN (SELECT * FROM orders)", misuse),
  c("IN a subquery of another type", null, sel(users, ["id"], { where: INQ("id", Q(users, ["age"])) }),
    "SELECT id FROM users WHERE id IN (SELECT age FROM users)", err("type_mismatch")),
  c("a scalar subquery compared with another type", (t) => t(users).select("id").where(eq("name", subquery(t(users).select(max("age").as("m"))))),
    sel(users, ["id"], { where: C("=", "name", SUB(Q(users, [AS(AGG("max", "age"), "m")]))) }), "SELECT id FROM users WHERE name = (SELECT max(age) AS m FROM users)",
    err("type_mismatch")),
  c("an unknown column in a subquery", null, sel(users, ["id"], { where: EXISTS(Q(orders, "*", { where: C("=", "nope", 1) })) }),
    "SELECT id FROM users WHERE EXISTS (SELECT * FROM orders WHERE nope = 1)", err("unknown_column")),
  c("an aggregate of only the enclosing query's columns", null, sel(users, [AS(SUB(Q(orders, [AS(AGG("sum", "users.age"), "s")])), "v")]),
    "SELECT (SELECT sum(users.age) AS s FROM orders) AS v FROM users", misuse),
  c("IN with both values and a select", null, sel(users, ["id"], { where: { type: "in", expr: I("id"), values: [L("u1")], select: Q(orders, ["user_id"]) } }), null,
    err("invalid_request")),
  c("a subquery that is not a select", (t) => t(users).select("id").where(exists(t(orders).delete().all())), null, null, err("invalid_request")),
];
