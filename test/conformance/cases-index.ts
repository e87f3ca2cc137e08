/**
 * Conformance cases: ordered index access (CONTRACT §11's index line) on
 * the fixture's `users.by_city` and `orders.by_user`. Each answer must be
 * the one a scan gives — table order without ORDER BY, NULL outside every
 * range, LIKE case-insensitive for ASCII letters, ties in table order when
 * the index serves ORDER BY — and `explain` must show the index range from
 * every surface.
 */

import { and, between, col, ge, gt, is, like, lt, val } from "../../src/api/expressions.js";
import { AND, BETWEEN, C, I, L, LIKE, access, c, ids, mut, rows, sel, type Case } from "./dsl.js";

const users = "users";
const orders = "orders";

export const indexCases: readonly Case[] = [
  c("a range on an indexed column keeps table order and skips NULL", (t) => t(users).select("id").where(gt("city", "Berlin")),
    sel(users, ["id"], { where: C(">", "city", "Berlin") }), "SELECT id FROM users WHERE city > 'Berlin'", ids("u1", "u3", "u5")),
  c("an upper bound alone skips NULL (it sorts first in the index)", (t) => t(users).select("id").where(lt("city", "Rome")),
    sel(users, ["id"], { where: C("<", "city", "Rome") }), "SELECT id FROM users WHERE city < 'Rome'", ids("u1", "u2", "u3")),
  c("BETWEEN on an indexed column is inclusive", (t) => t(users).select("id").where(between("city", "Berlin", "Paris")),
    sel(users, ["id"], { where: BETWEEN("city", "Berlin", "Paris") }), "SELECT id FROM users WHERE city BETWEEN 'Berlin' AND 'Paris'", ids("u1", "u2", "u3")),
  c("bounds from parameters", null, null, ["SELECT id FROM users WHERE city >= ? AND city < ?", ["Paris", "Rome"]], ids("u1", "u3")),
  c("a NULL bound matches nothing", null, null, ["SELECT id FROM users WHERE city > ?", [null]], ids()),
  c("a LIKE prefix on an indexed column is case-insensitive", (t) => t(users).select("id").where(like("city", "pA%")),
    sel(users, ["id"], { where: LIKE("city", "pA%") }), "SELECT id FROM users WHERE city LIKE 'pA%'", ids("u1", "u3")),
  c("a LIKE prefix with more after the wildcard", (t) => t(users).select("id").where(like("city", "r%e")),
    sel(users, ["id"], { where: LIKE("city", "r%e") }), "SELECT id FROM users WHERE city LIKE 'r%e'", ids("u5")),
  c("a LIKE prefix with an escaped wildcard", (t) => t(users).select("id").where(like("city", "Pa!%%", "!")),
    sel(users, ["id"], { where: LIKE("city", "Pa!%%", { escape: "!" }) }), "SELECT id FROM users WHERE city LIKE 'Pa!%%' ESCAPE '!'", ids()),
  c("a LIKE pattern from a parameter", null, null, ["SELECT id FROM users WHERE city LIKE ?", ["b%"]], ids("u2")),
  c("ORDER BY an indexed column DESC LIMIT: ties in table order, NULL last", (t) => t(users).select("id", "city").orderBy("city", "desc").limit(10),
    sel(users, ["id", "city"], { orderBy: [{ column: "city", direction: "desc" }], limit: 10 }), "SELECT id, city FROM users ORDER BY city DESC LIMIT 10",
    rows(["id", "city"], ["u5", "Rome"], ["u1", "Paris"], ["u3", "Paris"], ["u2", "Berlin"], ["u4", null])),
  c("ORDER BY an indexed column LIMIT OFFSET: NULL first", (t) => t(users).select("id").orderBy("city").limit(2).offset(1),
    sel(users, ["id"], { orderBy: [{ column: "city" }], limit: 2, offset: 1 }), "SELECT id FROM users ORDER BY city LIMIT 2 OFFSET 1", ids("u2", "u1")),
  c("ORDER BY … LIMIT through the index with a filter on other columns", (t) => t(users).select("id").where(ge("age", 18)).orderBy("city", "desc").limit(2),
    sel(users, ["id"], { where: C(">=", "age", 18), orderBy: [{ column: "city", direction: "desc" }], limit: 2 }),
    "SELECT id FROM users WHERE age >= 18 ORDER BY city DESC LIMIT 2", ids("u5", "u1")),
  c("a range served in ORDER BY's order", (t) => t(orders).select("id").where(ge("user_id", "u2")).orderBy("user_id", "desc").limit(3),
    sel(orders, ["id"], { where: C(">=", "user_id", "u2"), orderBy: [{ column: "user_id", direction: "desc" }], limit: 3 }),
    "SELECT id FROM orders WHERE user_id >= 'u2' ORDER BY user_id DESC LIMIT 3", rows(["id"], [5], [6], [4])),
  c("an update through an index range", (t) => t(users).update({ score: 0 }).where(gt("city", "Q")),
    { kind: "update", table: users, set: { score: 0 }, where: C(">", "city", "Q") }, "UPDATE users SET score = 0 WHERE city > 'Q'", mut("update", users, 1),
    [sel(users, ["id"], { where: C("=", "score", 0) }), ids("u5")]),
  c("a delete through an index range", (t) => t(orders).delete().where(and(ge("user_id", "u5"), gt("id", 5))),
    { kind: "delete", table: orders, where: AND(C(">=", "user_id", "u5"), C(">", "id", 5)) }, "DELETE FROM orders WHERE user_id >= 'u5' AND id > 5", mut("delete", orders, 1),
    [sel(orders, ["id"], { where: C(">=", "user_id", "u3") }), rows(["id"], [4], [5])]),

  // ---- IS a value: the equality a key serves, where it finds the rows = finds (IS NULL finds the NULL ones)
  c("IS a value looks up an indexed column", (t) => t(users).select("id").where(is("city", "Paris")).explain(),
    { kind: "explain", command: sel(users, ["id"], { where: C("is", "city", "Paris") }) }, "EXPLAIN SELECT id FROM users WHERE city IS 'Paris'", access("index-lookup")),
  c("a value IS the primary key looks it up", (t) => t(users).select("id").where(is(val("u2"), col("id"))).explain(),
    { kind: "explain", command: sel(users, ["id"], { where: C("is", L("u2"), I("id")) }) }, "EXPLAIN SELECT id FROM users WHERE 'u2' IS id", access("primary-key-lookup")),
  c("IS a value: the rows = gives", (t) => t(users).select("id").where(is("city", "Paris")),
    sel(users, ["id"], { where: C("is", "city", "Paris") }), "SELECT id FROM users WHERE city IS 'Paris'", ids("u1", "u3")),
  c("IS NULL written as IS a NULL value finds the NULL rows", (t) => t(users).select("id").where(is("city", null)),
    sel(users, ["id"], { where: C("is", "city", null) }), "SELECT id FROM users WHERE city IS NULL", ids("u4")),
  c("IS a parameter looks up its value", null, null, ["SELECT id FROM users WHERE city IS ?", ["Rome"]], ids("u5")),
  c("IS a parameter bound to NULL finds the NULL rows", null, null, ["SELECT id FROM users WHERE city IS ?", [null]], ids("u4")),
  c("IS NOT a parameter bound to NULL finds the others", null, null, ["SELECT id FROM users WHERE city IS NOT ?", [null]], ids("u1", "u2", "u3", "u5")),
  c("IS a parameter on the primary key, bound to NULL: no row", null, null, ["SELECT id FROM users WHERE id IS ?", [null]], ids()),
  c("IS a parameter on the primary key", null, null, ["SELECT id FROM users WHERE ? IS id", ["u3"]], ids("u3")),
  c("explain IS a parameter: a lookup", null, null, ["EXPLAIN SELECT id FROM users WHERE city IS ?", ["Rome"]], access("index-lookup")),
  c("explain IS a parameter bound to NULL: a scan", null, null, ["EXPLAIN SELECT id FROM users WHERE city IS ?", [null]], access("scan")),
  c("explain IS NOT a value: a scan", null, { kind: "explain", command: sel(users, ["id"], { where: C("is not", "city", "Paris") }) },
    "EXPLAIN SELECT id FROM users WHERE city IS NOT 'Paris'", access("scan")),

  // ---- explain: the index and its range, the same from every surface
  c("explain a range", (t) => t(users).select("id").where(between("city", "A", "M")).explain(),
    { kind: "explain", command: sel(users, ["id"], { where: BETWEEN("city", "A", "M") }) }, "EXPLAIN SELECT id FROM users WHERE city BETWEEN 'A' AND 'M'",
    access("index-range")),
  c("explain a LIKE prefix", (t) => t(users).select("id").where(like(col("city"), "Ro%")).explain(),
    { kind: "explain", command: sel(users, ["id"], { where: LIKE("city", "Ro%") }) }, "EXPLAIN SELECT id FROM users WHERE city LIKE 'Ro%'", access("index-range")),
  c("explain ORDER BY … LIMIT on an index", (t) => t(users).select("id").orderBy("city", "desc").limit(1).explain(),
    { kind: "explain", command: sel(users, ["id"], { orderBy: [{ column: "city", direction: "desc" }], limit: 1 }) },
    "EXPLAIN SELECT id FROM users ORDER BY city DESC LIMIT 1", access("index-range")),
  c("explain a LIKE with a leading wildcard: a scan", (t) => t(users).select("id").where(like("city", "%s")).explain(),
    { kind: "explain", command: sel(users, ["id"], { where: LIKE("city", "%s") }) }, "EXPLAIN SELECT id FROM users WHERE city LIKE '%s'", access("scan")),
  c("explain ORDER BY without LIMIT and no range: a scan", (t) => t(users).select("id").orderBy("city").explain(),
    { kind: "explain", command: sel(users, ["id"], { orderBy: [{ column: "city" }] }) }, "EXPLAIN SELECT id FROM users ORDER BY city", access("scan")),
];
