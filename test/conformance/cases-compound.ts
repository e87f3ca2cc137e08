/**
 * Conformance cases for compound selects: UNION, UNION ALL, INTERSECT and
 * EXCEPT — duplicates (NULLs equal, 1 and 1.0 one value), SQLite's
 * left-to-right grouping, the first select's names, ORDER BY by result name
 * or number with LIMIT and OFFSET over the whole result (never pushed into
 * the first select's access path), integer and real unified, compounds as
 * subqueries (IN, EXISTS correlated, scalar), and each misuse: column counts
 * that differ, a text column against a number, an ORDER BY that is no
 * result column, an arm with its own ORDER BY or LIMIT.
 *
 * Fixture rows (see `cases-expressions.ts`): users' ages 36, 17, NULL, 52,
 * 28 (u1..u5), cities Paris, Berlin, Paris, NULL, Rome (index by_city);
 * orders' user ids u1, u1, u2, u3, u5, u5 with amounts 250, 20, 99.5, 100,
 * 5, NULL and statuses shipped, new, shipped, cancelled, new, new.
 */

import { col, exists, gt, lt, max, subquery, eq, and } from "../../src/api/expressions.js";
import type { Expression } from "../../src/commands/types.js";
import { AND, AS, C, I, L, NEG, arrays, c, err, ids, misuse, rows, sel, type Case } from "./dsl.js";

const users = "users";
const orders = "orders";

type Select = Record<string, unknown>;
const Q = (table: string, columns: "*" | unknown[], extra: Select = {}): Select => ({ kind: "select", table, columns, ...extra });
const arm = (op: string, select: Select) => ({ op, select });

export const compoundCases: readonly Case[] = [
  c("UNION: each distinct row once, NULL one of them",
    (t) => t(users).select("city").union(t(orders).select("status")).orderBy("city"),
    sel(users, ["city"], { compound: [arm("union", Q(orders, ["status"]))], orderBy: [{ column: "city" }] }),
    "SELECT city FROM users UNION SELECT status FROM orders ORDER BY city",
    rows(["city"], [null], ["Berlin"], ["Paris"], ["Rome"], ["cancelled"], ["new"], ["shipped"])),
  c("UNION ALL keeps every row",
    (t) => t(orders).select("user_id").unionAll(t(users).select("id").where(gt("age", 30))).orderBy("user_id"),
    sel(orders, ["user_id"], { compound: [arm("union-all", Q(users, ["id"], { where: C(">", "age", 30) }))], orderBy: [{ column: "user_id" }] }),
    "SELECT user_id FROM orders UNION ALL SELECT id FROM users WHERE age > 30 ORDER BY user_id",
    rows(["user_id"], ["u1"], ["u1"], ["u1"], ["u2"], ["u3"], ["u4"], ["u5"], ["u5"])),
  c("UNION ALL without ORDER BY: the first select's rows, then the next's",
    (t) => t(users).select("name").where(eq("id", "u4")).unionAll(t(orders).select("status").where(eq("id", 1))),
    sel(users, ["name"], { where: C("=", "id", "u4"), compound: [arm("union-all", Q(orders, ["status"], { where: C("=", "id", 1) }))] }),
    "SELECT name FROM users WHERE id = 'u4' UNION ALL SELECT status FROM orders WHERE id = 1",
    rows(["name"], ["Dee"], ["shipped"])),
  c("INTERSECT keeps the rows both have",
    (t) => t(users).select("id").intersect(t(orders).select("user_id")).orderBy("id"),
    sel(users, ["id"], { compound: [arm("intersect", Q(orders, ["user_id"]))], orderBy: [{ column: "id" }] }),
    "SELECT id FROM users INTERSECT SELECT user_id FROM orders ORDER BY id", ids("u1", "u2", "u3", "u5")),
  c("EXCEPT keeps the first's rows the second lacks",
    (t) => t(users).select("id").except(t(orders).select("user_id")),
    sel(users, ["id"], { compound: [arm("except", Q(orders, ["user_id"]))] }),
    "SELECT id FROM users EXCEPT SELECT user_id FROM orders", ids("u4")),
  c("INTERSECT and EXCEPT drop the first select's repeats too",
    (t) => t(orders).select("user_id").intersect(t(users).select("id")).orderBy("user_id"),
    sel(orders, ["user_id"], { compound: [arm("intersect", Q(users, ["id"]))], orderBy: [{ column: "user_id" }] }),
    "SELECT user_id FROM orders INTERSECT SELECT id FROM users ORDER BY user_id", rows(["user_id"], ["u1"], ["u2"], ["u3"], ["u5"])),
  c("operators group left to right, as in SQLite (INTERSECT binds no tighter)", null,
    { kind: "select", table: users, columns: ["id"], compound: [arm("union", { kind: "select", columns: [AS(L("x"), "id")] }), arm("intersect", Q(orders, ["user_id"]))], orderBy: [{ column: "id" }] },
    "SELECT id FROM users UNION SELECT 'x' INTERSECT SELECT user_id FROM orders ORDER BY id", ids("u1", "u2", "u3", "u5")),
  c("the names are the first select's",
    (t) => t(users).select(col("name").as("who")).where(gt("age", 50)).unionAll(t(orders).select("status").where(eq("id", 1))),
    sel(users, [AS(I("name"), "who")], { where: C(">", "age", 50), compound: [arm("union-all", Q(orders, ["status"], { where: C("=", "id", 1) }))] }),
    "SELECT name AS who FROM users WHERE age > 50 UNION ALL SELECT status FROM orders WHERE id = 1", rows(["who"], ["Dee"], ["shipped"])),
  c("several columns: rows are distinct as a whole",
    (t) => t(users).select("city", "active").union(t(users).select("city", "active")).orderBy("city").orderBy("active"),
    sel(users, ["city", "active"], { compound: [arm("union", Q(users, ["city", "active"]))], orderBy: [{ column: "city" }, { column: "active" }] }),
    "SELECT city, active FROM users UNION SELECT city, active FROM users ORDER BY city, active",
    rows(["city", "active"], [null, null], ["Berlin", false], ["Paris", true], ["Rome", false])),
  c("ORDER BY a result name, descending, with LIMIT and OFFSET over the whole",
    (t) => t(users).select("name").union(t(orders).select("status")).orderBy("name", "desc").limit(3).offset(1),
    sel(users, ["name"], { compound: [arm("union", Q(orders, ["status"]))], orderBy: [{ column: "name", direction: "desc" }], limit: 3, offset: 1 }),
    "SELECT name FROM users UNION SELECT status FROM orders ORDER BY name DESC LIMIT 3 OFFSET 1", rows(["name"], ["new"], ["cancelled"], ["Eve"])),
  c("NULLS LAST over a compound", null,
    sel(users, ["city"], { compound: [arm("union", Q(orders, ["status"], { where: C("=", "id", 1) }))], orderBy: [{ column: "city", nulls: "last" }] }),
    "SELECT city FROM users UNION SELECT status FROM orders WHERE id = 1 ORDER BY city NULLS LAST",
    rows(["city"], ["Berlin"], ["Paris"], ["Rome"], ["shipped"], [null])),
  c("ORDER BY a column number over a compound", null,
    sel(users, ["id", "age"], { where: C(">", "age", 30), compound: [arm("union-all", Q(users, ["id", "age"], { where: C("<", "age", 20) }))], orderBy: [{ expr: L(2), direction: "desc" }] }),
    "SELECT id, age FROM users WHERE age > 30 UNION ALL SELECT id, age FROM users WHERE age < 20 ORDER BY 2 DESC",
    rows(["id", "age"], ["u4", 52], ["u1", 36], ["u2", 17])),
  c("LIMIT over the whole result: the first select is read whole even where an index could walk in order",
    (t) => t(users).select("city").except(t(users).select("city").where(eq("id", "u5"))).orderBy("city", "desc").limit(1),
    sel(users, ["city"], { compound: [arm("except", Q(users, ["city"], { where: C("=", "id", "u5") }))], orderBy: [{ column: "city", direction: "desc" }], limit: 1 }),
    "SELECT city FROM users EXCEPT SELECT city FROM users WHERE id = 'u5' ORDER BY city DESC LIMIT 1", rows(["city"], ["Paris"])),
  c("an integer and a real are one value; the column unifies to real", null,
    { kind: "select", columns: [AS(L(100), "v")], compound: [arm("union", Q(orders, ["amount"], { where: C(">=", "amount", 99.5) }))], orderBy: [{ expr: L(1) }] },
    "SELECT 100 AS v UNION SELECT amount FROM orders WHERE amount >= 99.5 ORDER BY 1", rows(["v"], [99.5], [100], [250])),
  c("a parameter in a joined select computes as the literal it holds", null, null, ["SELECT 0 AS v UNION ALL SELECT (? + ?) / 2", [1.5, 1.5]], rows(["v"], [0], [1.5])),
  c("a parameter in a joined select is typed: a number against text is refused", null, null, ["SELECT 'a' AS v UNION SELECT ?", [1]], err("type_mismatch")),
  c("NULLs are one value", null,
    sel(users, ["city"], { where: { type: "is-null", expr: I("city") }, compound: [arm("union", Q(users, ["note"], { where: { type: "is-null", expr: I("note") } }))] }),
    "SELECT city FROM users WHERE city IS NULL UNION SELECT note FROM users WHERE note IS NULL", rows(["city"], [null])),
  c("arrays output for the whole result", null,
    sel(users, ["id"], { where: C("=", "id", "u1"), compound: [arm("union-all", Q(users, ["id"], { where: C("=", "id", "u2") }))], output: "arrays" }),
    null, arrays(["id"], ["u1"], ["u2"])),
  c("a compound in IN (SELECT …)",
    (t) => t(users).select("id").where(col("id").in(t(orders).select("user_id").where(gt("amount", 200)).union(t(users).select("id").where(lt("age", 20))))).orderBy("id"),
    sel(users, ["id"], { where: { type: "in", expr: I("id"), select: Q(orders, ["user_id"], { where: C(">", "amount", 200), compound: [arm("union", Q(users, ["id"], { where: C("<", "age", 20) }))] }) }, orderBy: [{ column: "id" }] }),
    "SELECT id FROM users WHERE id IN (SELECT user_id FROM orders WHERE amount > 200 UNION SELECT id FROM users WHERE age < 20) ORDER BY id", ids("u1", "u2")),
  c("a correlated compound in EXISTS: each select reads the enclosing row",
    (t) => t(users).as("u").select("id").where(exists(t(orders).select("user_id").where(and(eq("user_id", col("u.id")), gt("amount", 90))).union(t(users).as("v").select("v.id").where(and(eq("v.id", col("u.id")), gt("v.age", 50)))))).orderBy("id"),
    sel(users, ["id"], {
      as: "u",
      where: { type: "exists", select: Q(orders, ["user_id"], { where: AND(C("=", "user_id", I("u.id")), C(">", "amount", 90)), compound: [arm("union", Q(users, ["v.id"], { as: "v", where: AND(C("=", "v.id", I("u.id")), C(">", "v.age", 50)) }))] }) },
      orderBy: [{ column: "id" }],
    }),
    "SELECT id FROM users u WHERE EXISTS (SELECT user_id FROM orders WHERE user_id = u.id AND amount > 90 UNION SELECT v.id FROM users v WHERE v.id = u.id AND v.age > 50) ORDER BY id",
    ids("u1", "u2", "u3", "u4")),
  c("a compound as a scalar subquery, ordered and cut to one row",
    (t) => t(users).select(subquery(t(users).select(max("age").as("m")).unionAll(t(orders).select("amount")).orderBy("m", "desc").limit(1)).as("v")).where(eq("id", "u1")),
    sel(users, [AS({ type: "subquery", select: { kind: "select", table: users, columns: [AS({ type: "aggregate", name: "max", arg: I("age") } as Expression, "m")], compound: [arm("union-all", Q(orders, ["amount"]))], orderBy: [{ column: "m", direction: "desc" }], limit: 1 } } as unknown as Expression, "v")], { where: C("=", "id", "u1") }),
    "SELECT (SELECT max(age) AS m FROM users UNION ALL SELECT amount FROM orders ORDER BY m DESC LIMIT 1) AS v FROM users WHERE id = 'u1'", rows(["v"], [250])),
  c("the first select's access path is its own", null,
    { kind: "explain", command: sel(users, ["name"], { where: C("=", "id", "u1"), compound: [arm("union", Q(orders, ["status"]))] }) },
    "EXPLAIN SELECT name FROM users WHERE id = 'u1' UNION SELECT status FROM orders", { access: "primary-key-lookup" }),

  // ---- misuse
  c("the selects must have as many columns",
    (t) => t(users).select("id", "name").union(t(orders).select("user_id")),
    sel(users, ["id", "name"], { compound: [arm("union", Q(orders, ["user_id"]))] }),
    "SELECT id, name FROM users UNION SELECT user_id FROM orders", misuse),
  c("a column is text in one select and a number in another",
    (t) => t(users).select("name").union(t(users).select("age")),
    sel(users, ["name"], { compound: [arm("union", Q(users, ["age"]))] }),
    "SELECT name FROM users UNION SELECT age FROM users", err("type_mismatch")),
  c("ORDER BY names no result column (the second select's names are not the result's)",
    (t) => t(users).select("city").union(t(orders).select("status")).orderBy("status"),
    sel(users, ["city"], { compound: [arm("union", Q(orders, ["status"]))], orderBy: [{ column: "status" }] }),
    "SELECT city FROM users UNION SELECT status FROM orders ORDER BY status", misuse),
  c("ORDER BY an expression over a compound", null,
    sel(users, ["age"], { compound: [arm("union", Q(users, ["age"]))], orderBy: [{ expr: NEG("age") }] }),
    "SELECT age FROM users UNION SELECT age FROM users ORDER BY -age", misuse),
  c("ORDER BY a column number out of range over a compound", null,
    sel(users, ["age"], { compound: [arm("union", Q(users, ["age"]))], orderBy: [{ expr: L(2) }] }),
    "SELECT age FROM users UNION SELECT age FROM users ORDER BY 2", misuse),
  c("a joined select with its own ORDER BY or LIMIT",
    (t) => t(users).select("id").union(t(orders).select("user_id").limit(1)),
    sel(users, ["id"], { compound: [arm("union", Q(orders, ["user_id"], { orderBy: [{ column: "user_id" }] }))] }),
    null, err("invalid_request")),
  c("ORDER BY before UNION is a syntax error", null, null, "SELECT id FROM users ORDER BY id UNION SELECT user_id FROM orders", err("sql_syntax_error")),
];
