/**
 * Conformance cases for collations (`x COLLATE BINARY | NOCASE | RTRIM`,
 * JSON `{"type":"collate"}` and an ORDER BY item's `collation`, the
 * builder's `.collate()`), GLOB, total() and SQLite's negative LIMIT.
 *
 * Which collation a comparison takes is SQLite's rule: the left side's
 * explicit one, else the right side's; ORDER BY, GROUP BY, DISTINCT,
 * min/max and compounds take their own. A NOCASE comparison on the indexed
 * `city` must not use the BINARY index (it would find nothing). Fixture
 * rows (see `cases-expressions.ts`): users Ada, Bob, Cy, Dee, Eve (u1..u5),
 * ages 36, 17, NULL, 52, 28, cities Paris, Berlin, Paris, NULL, Rome (index
 * by_city); orders' statuses shipped, new, shipped, cancelled, new, new.
 */

import { between, caseOf, caseWhen, col, count, eq, fn, glob, max, over, rowNumber, sum, total, val } from "../../src/api/expressions.js";
import type { Expression } from "../../src/commands/types.js";
import { AS, BETWEEN, C, CASE, FN, I, IN, L, access, c, err, ids, misuse, rows, sel, type Case } from "./dsl.js";

const users = "users";
const orders = "orders";

const COLL = (expr: Expression, collation: string): Expression => ({ type: "collate", expr, collation }) as Expression;
const GLOB = (column: string, pattern: string, not?: true): Expression => ({ type: "glob", expr: I(column), pattern: L(pattern), ...(not ? { not } : {}) });
/** Upper case for users over 30: PARIS and Paris then differ only in case. */
const MIXED_CITY = CASE([[C(">", "age", 30), FN("upper", "city")]], I("city"));
const mixedCity = caseWhen([[col("age").gt(30), fn("upper", "city")]], col("city"));

export const collateCases: readonly Case[] = [
  // ---- comparisons: the explicit collation of the left side, else of the right
  c("= in NOCASE, the collation on the right",
    (t) => t(users).select("id").where(eq("name", val("ADA").collate("nocase"))),
    sel(users, ["id"], { where: C("=", "name", COLL(L("ADA"), "nocase")) }),
    "SELECT id FROM users WHERE name = 'ADA' COLLATE NOCASE", ids("u1")),
  c("the left side's explicit collation wins over the right side's",
    (t) => t(users).select("id").where(col("name").collate("binary").eq(val("ada").collate("nocase"))),
    sel(users, ["id"], { where: C("=", COLL(I("name"), "binary"), COLL(L("ada"), "nocase")) }),
    "SELECT id FROM users WHERE name COLLATE BINARY = 'ada' COLLATE NOCASE", ids()),
  c("a NOCASE equality on an indexed column finds its rows (not through the BINARY index)",
    (t) => t(users).select("id").where(col("city").collate("nocase").eq("PARIS")).orderBy("id"),
    sel(users, ["id"], { where: C("=", COLL(I("city"), "nocase"), "PARIS"), orderBy: [{ column: "id" }] }),
    "SELECT id FROM users WHERE city COLLATE nocase = 'PARIS' ORDER BY id", ids("u1", "u3")),
  c("explain: a NOCASE equality on an indexed column scans",
    (t) => t(users).select("id").where(eq("city", val("PARIS").collate("nocase"))).explain(),
    { kind: "explain", command: sel(users, ["id"], { where: C("=", "city", COLL(L("PARIS"), "nocase")) }) },
    "EXPLAIN SELECT id FROM users WHERE city = 'PARIS' COLLATE NOCASE", access("scan")),
  c("a NOCASE range on an indexed column finds its rows",
    (t) => t(users).select("id").where(col("city").collate("nocase").ge("paris")).orderBy("id"),
    sel(users, ["id"], { where: C(">=", COLL(I("city"), "nocase"), "paris"), orderBy: [{ column: "id" }] }),
    "SELECT id FROM users WHERE city COLLATE NOCASE >= 'paris' ORDER BY id", ids("u1", "u3", "u5")),
  c("RTRIM ignores trailing spaces",
    (t) => t(users).select("id").where(col("name").collate("rtrim").eq("Eve  ")),
    sel(users, ["id"], { where: C("=", COLL(I("name"), "rtrim"), "Eve  ") }),
    "SELECT id FROM users WHERE name COLLATE RTRIM = 'Eve  '", ids("u5")),
  c("IN (list) takes the operand's collation",
    (t) => t(users).select("id").where(col("name").collate("nocase").in("ada", "BOB")).orderBy("id"),
    sel(users, ["id"], { where: IN(COLL(I("name"), "nocase"), ["ada", "BOB"]), orderBy: [{ column: "id" }] }),
    "SELECT id FROM users WHERE name COLLATE NOCASE IN ('ada', 'BOB') ORDER BY id", ids("u1", "u2")),
  c("IN (subquery) takes the subquery column's collation",
    (t) => t(orders).select("id").where(col("status").in(t(orders).select(fn("upper", "status").collate("nocase").as("s")).where(eq("id", 1)))),
    sel(orders, ["id"], { where: { type: "in", expr: I("status"), select: sel(orders, [AS(COLL(FN("upper", "status"), "nocase"), "s")], { where: C("=", "id", 1) }) } }),
    "SELECT id FROM orders WHERE status IN (SELECT upper(status) COLLATE NOCASE AS s FROM orders WHERE id = 1)", rows(["id"], [1], [3])),
  c("BETWEEN in NOCASE",
    (t) => t(users).select("id").where(between(col("name").collate("nocase"), "b", "d")).orderBy("id"),
    sel(users, ["id"], { where: BETWEEN(COLL(I("name"), "nocase"), "b", "d"), orderBy: [{ column: "id" }] }),
    "SELECT id FROM users WHERE name COLLATE NOCASE BETWEEN 'b' AND 'd' ORDER BY id", ids("u2", "u3")),
  c("CASE x WHEN compares in the WHEN's collation",
    (t) => t(users).select("id", caseOf("name", [[val("ada").collate("nocase"), 1]], 0).as("m")).where(col("id").in("u1", "u2")).orderBy("id"),
    sel(users, ["id", AS(CASE([[COLL(L("ada"), "nocase"), 1]], 0, "name"), "m")], { where: IN("id", ["u1", "u2"]), orderBy: [{ column: "id" }] }),
    "SELECT id, CASE name WHEN 'ada' COLLATE NOCASE THEN 1 ELSE 0 END AS m FROM users WHERE id IN ('u1', 'u2') ORDER BY id",
    rows(["id", "m"], ["u1", 1], ["u2", 0])),

  // ---- orderings and groupings
  c("ORDER BY … COLLATE NOCASE over a compound, by result name",
    (t) => t(users).select("city").union(t(orders).select("status")).orderBy(col("city").collate("nocase")),
    sel(users, ["city"], { compound: [{ op: "union", select: sel(orders, ["status"]) }], orderBy: [{ column: "city", collation: "nocase" }] }),
    "SELECT city FROM users UNION SELECT status FROM orders ORDER BY city COLLATE NOCASE",
    rows(["city"], [null], ["Berlin"], ["cancelled"], ["new"], ["Paris"], ["Rome"], ["shipped"])),
  c("ORDER BY a column number under COLLATE",
    null,
    sel(users, ["city"], { compound: [{ op: "union", select: sel(orders, ["status"]) }], orderBy: [{ expr: L(1), collation: "nocase", direction: "desc" }], limit: 3 }),
    "SELECT city FROM users UNION SELECT status FROM orders ORDER BY 1 COLLATE NOCASE DESC LIMIT 3",
    rows(["city"], ["shipped"], ["Rome"], ["Paris"])),
  c("GROUP BY … COLLATE NOCASE: texts equal but for case make one group",
    (t) => t(users).select(count().as("n")).where(col("city").isNotNull()).groupBy(mixedCity.collate("nocase")).orderBy("n", "desc"),
    sel(users, [AS({ type: "aggregate", name: "count" }, "n")], { where: { type: "is-null", expr: I("city"), not: true }, groupBy: [COLL(MIXED_CITY, "nocase")], orderBy: [{ column: "n", direction: "desc" }] }),
    "SELECT count(*) AS n FROM users WHERE city IS NOT NULL GROUP BY CASE WHEN age > 30 THEN upper(city) ELSE city END COLLATE NOCASE ORDER BY n DESC",
    rows(["n"], [2], [1], [1])),
  c("DISTINCT in NOCASE keeps the first text of each, sorted in it",
    (t) => t(users).select(mixedCity.collate("nocase").as("c")).distinct().where(col("city").isNotNull()).orderBy("c"),
    sel(users, [AS(COLL(MIXED_CITY, "nocase"), "c")], { distinct: true, where: { type: "is-null", expr: I("city"), not: true }, orderBy: [{ column: "c" }] }),
    "SELECT DISTINCT CASE WHEN age > 30 THEN upper(city) ELSE city END COLLATE NOCASE AS c FROM users WHERE city IS NOT NULL ORDER BY c",
    rows(["c"], ["Berlin"], ["PARIS"], ["Rome"])),
  c("max() in NOCASE",
    (t) => t(users).select(max(caseWhen([[col("age").gt(30), fn("lower", "name")]], col("name")).collate("nocase")).as("m")),
    sel(users, [AS({ type: "aggregate", name: "max", arg: COLL(CASE([[C(">", "age", 30), FN("lower", "name")]], I("name")), "nocase") }, "m")]),
    "SELECT max(CASE WHEN age > 30 THEN lower(name) ELSE name END COLLATE NOCASE) AS m FROM users",
    rows(["m"], ["Eve"])),
  c("a window's ORDER BY refuses a collation it cannot honour",
    (t) => t(users).select(over(rowNumber(), { orderBy: [col("name").collate("nocase")] }).as("r")),
    sel(users, [AS({ type: "window", name: "row_number", over: { orderBy: [{ expr: COLL(I("name"), "nocase") }] } }, "r")]),
    "SELECT row_number() OVER (ORDER BY name COLLATE NOCASE) AS r FROM users", misuse),
  c("a derived table's column keeps its select's collation", null, null, "SELECT id FROM (SELECT id, name COLLATE NOCASE AS n FROM users) WHERE n = 'ADA'", ids("u1")),
  c("a WITH table's collated column yields to an explicit COLLATE", null, null, "WITH d AS (SELECT id, name COLLATE NOCASE AS n FROM users) SELECT id FROM d WHERE n = 'ada' COLLATE BINARY", ids()),
  c("a derived table's collated column sorts in its collation", null, null, "SELECT n FROM (SELECT CASE WHEN age > 30 THEN upper(name) ELSE name END COLLATE NOCASE AS n FROM users) ORDER BY n", rows(["n"], ["ADA"], ["Bob"], ["Cy"], ["DEE"], ["Eve"])),
  c("a window's ORDER BY refuses a derived column's collation", null, null, "SELECT row_number() OVER (ORDER BY n) AS r FROM (SELECT name COLLATE NOCASE AS n FROM users)", misuse),
  c("a table made from a select refuses a collated column", null, null, "CREATE TABLE made AS SELECT name COLLATE NOCASE AS n FROM users", err("sql_error")),
  c("an unknown collation", null, null, "SELECT id FROM users WHERE name = 'a' COLLATE klingon", err("sql_error")),
  c("a JSON collation outside the three", null, sel(users, ["id"], { where: C("=", "name", COLL(L("a"), "klingon")) }), null, err("invalid_request")),

  // ---- GLOB
  c("GLOB: a class and a star, case-sensitive",
    (t) => t(users).select("id").where(glob("name", "[A-C]*")).orderBy("id"),
    sel(users, ["id"], { where: GLOB("name", "[A-C]*"), orderBy: [{ column: "id" }] }),
    "SELECT id FROM users WHERE name GLOB '[A-C]*' ORDER BY id", ids("u1", "u2", "u3")),
  c("GLOB does not fold case", (t) => t(users).select("id").where(glob("name", "a*")), sel(users, ["id"], { where: GLOB("name", "a*") }), "SELECT id FROM users WHERE name GLOB 'a*'", ids()),
  c("NOT GLOB with ? and a negated class",
    (t) => t(users).select("id").where(col("name").notGlob("?[^v]?")).orderBy("id"),
    sel(users, ["id"], { where: GLOB("name", "?[^v]?", true), orderBy: [{ column: "id" }] }),
    "SELECT id FROM users WHERE name NOT GLOB '?[^v]?' ORDER BY id", ids("u3", "u5")),
  c("GLOB takes text", null, sel(users, ["id"], { where: { type: "glob", expr: I("age"), pattern: L("1*") } }), "SELECT id FROM users WHERE age GLOB '1*'", err("type_mismatch")),

  // ---- total()
  c("total() is a real sum", (t) => t(users).select(total("age").as("t")), sel(users, [AS({ type: "aggregate", name: "total", arg: I("age") }, "t")]), "SELECT total(age) AS t FROM users", rows(["t"], [133])),
  c("total() over no rows is 0.0, sum() NULL",
    (t) => t(orders).select(total("amount").as("t"), sum("amount").as("s")).where(col("id").gt(100)),
    sel(orders, [AS({ type: "aggregate", name: "total", arg: I("amount") }, "t"), AS({ type: "aggregate", name: "sum", arg: I("amount") }, "s")], { where: C(">", "id", 100) }),
    "SELECT total(amount) AS t, sum(amount) AS s FROM orders WHERE id > 100",
    rows(["t", "s"], [0, null])),
  c("total() over a window",
    (t) => t(orders).select("id", over(total("amount"), { orderBy: ["id"] }).as("t")).where(col("id").le(2)),
    sel(orders, ["id", AS({ type: "window", name: "total", args: [I("amount")], over: { orderBy: [{ expr: I("id") }] } }, "t")], { where: C("<=", "id", 2) }),
    "SELECT id, total(amount) OVER (ORDER BY id) AS t FROM orders WHERE id <= 2", rows(["id", "t"], [1, 250], [2, 270])),

  // ---- LIMIT
  c("a negative LIMIT is no limit and a negative OFFSET 0, as SQLite", null, null, "SELECT id FROM users ORDER BY id LIMIT -1 OFFSET -2", ids("u1", "u2", "u3", "u4", "u5")),
  c("a JSON limit stays ≥ 0", null, sel(users, ["id"], { limit: -1 }), null, err("invalid_request")),
];
