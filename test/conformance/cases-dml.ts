/**
 * Conformance cases for the write forms SQLite users write beyond the
 * plain ones: UPDATE … FROM (JSON `from` and `joins` on an update, the
 * builder's `.from()`), INSERT and REPLACE … DEFAULT VALUES (JSON `rows:
 * [{}]`, the builder's `insert({})`), and a WITH clause before INSERT,
 * UPDATE, DELETE and REPLACE (in JSON and the builder, a WITH table is read
 * where it stands, as a select's is), and a table alias on UPDATE and
 * DELETE (JSON `as`, the builder's `.as()` after `.update()` or
 * `.delete()`). UPDATE … FROM keeps every rule of an
 * update: a check, key or reference one row breaks refuses the whole
 * statement, and nothing changes.
 *
 * Fixture rows (see `fixture.ts`): users u1 (Paris, 36), u2 (Berlin, 17),
 * u3 (Paris), u4 (52), u5 (Rome, 28); orders 1 (u1, 250), 2 (u1, 20), 3 (u2,
 * 99.5), 4 (u3, 100, cancelled), 5 (u5, 5), 6 (u5, NULL); teams 1 red, 2
 * blue; members 10, 11 (team 1), 12 (team 2); badges 100, 103 (member 10),
 * 101 (11), 102 (12); pairs (1,x,A,one), (1,y,–,two), (2,x,–,three).
 */

import { and, cast, col, concat, count, eq, inQuery, lt, notExists, subquery, sum, val, withTable } from "../../src/api/expressions.js";
import type { Command, Value } from "../../src/commands/types.js";
import type { Result } from "../../src/commands/results.js";
import { AGG, AND, AS, B, C, CAST, EXISTS, I, L, Q, SUB, c, err, misuse, mut, ret, rows, sel, tx, txr, type Case } from "./dsl.js";

const upd = (table: string, fields: Record<string, unknown>): Command => ({ kind: "update", table, ...fields }) as Command;
const AMOUNTS = sel("orders", ["id", "amount"]);
const ALL_AMOUNTS = rows(["id", "amount"], [1, 250], [2, 20], [3, 99.5], [4, 100], [5, 5], [6, null]);
const PAIRS = sel("pairs", ["a", "b", "code", "label"]);
const THREE_PAIRS = rows(["a", "b", "code", "label"], [1, "x", "A", "one"], [1, "y", null, "two"], [2, "x", null, "three"]);
const ORDERS_OF = C("=", "users.id", I("orders.user_id"));
const PARIS_JSON = { kind: "select" as const, table: "users", columns: ["id"], where: C("=", "city", "Paris") };

/** A write's counts with a conflict clause, and with RETURNING its rows. */
const counted = (table: string, counts: Record<string, number>, columns: readonly string[], ...data: readonly (readonly Value[])[]): Result => ({
  kind: "mutation",
  operation: "insert",
  table,
  rowsAffected: (counts["inserted"] ?? 0) + (counts["updated"] ?? 0) + (counts["replaced"] ?? 0),
  ...counts,
  columns,
  rows: data.map((values) => Object.fromEntries(columns.map((column, i) => [column, values[i] as Value]))),
});

/** A recursive WITH table of 7, 8 and 9 (`n(x)`). */
const SEVEN_TO_NINE = {
  kind: "with",
  name: "n",
  columns: ["x"],
  select: { kind: "select", columns: [AS(L(7), "x")], compound: [{ op: "union-all", select: { kind: "select", table: "n", columns: [AS(B("+", "x", 1), "x")], where: C("<", "x", 9) } }] },
};

/** A table whose every column has a default, made by the first step of a DEFAULT VALUES transaction. */
const SOLO: readonly [null, unknown, string] = [
  null,
  { kind: "create-table", schema: { name: "solo", columns: { k: "integer", v: "text", at: "text" }, primary_key: { columns: ["k"] }, defaults: { k: 1, v: "d" } } },
  "CREATE TABLE solo (k INTEGER DEFAULT 1 PRIMARY KEY, v TEXT DEFAULT 'd', at TEXT)",
];
const SOLO_ROW = ["k", "v", "at"];

export const dmlCases: readonly Case[] = [
  // ---- UPDATE … FROM
  c("UPDATE … FROM sets a column from the joined row; WHERE picks the pairs",
    (t) => t("orders").update({ status: col("users.city") }).from("users").where(and(eq("users.id", col("orders.user_id")), eq("users.city", "Paris"))).returning("id", "status"),
    upd("orders", { from: { table: "users" }, set: { status: I("users.city") }, where: AND(ORDERS_OF, C("=", "users.city", "Paris")), returning: ["id", "status"] }),
    "UPDATE orders SET status = users.city FROM users WHERE users.id = orders.user_id AND users.city = 'Paris' RETURNING id, status",
    ret("update", "orders", 3, ["id", "status"], [1, "Paris"], [2, "Paris"], [4, "Paris"]),
    [sel("orders", ["id", "status"], { where: C("=", "status", "Paris") }), rows(["id", "status"], [1, "Paris"], [2, "Paris"], [4, "Paris"])]),
  c("a row several joined rows hold is updated once, from the last of them in join order, in table order (SQLite's pick here too)",
    (t) => t("users").update({ score: col("orders.amount") }).from("orders").where(eq("orders.user_id", col("users.id"))).returning("id", "score"),
    upd("users", { from: { table: "orders" }, set: { score: I("orders.amount") }, where: C("=", "orders.user_id", I("users.id")), returning: ["id", "score"] }),
    "UPDATE users SET score = orders.amount FROM orders WHERE orders.user_id = users.id RETURNING id, score",
    ret("update", "users", 4, ["id", "score"], ["u1", 20], ["u2", 99.5], ["u3", 100], ["u5", null])),
  c("FROM a grouped derived table: each row's total",
    (t) => t("users").update({ score: col("s.total") }).from(t("orders").select("user_id", sum("amount").as("total")).groupBy("user_id"), { as: "s" }).where(eq("s.user_id", col("users.id"))).returning("id", "score"),
    upd("users", {
      from: { from: { kind: "select", table: "orders", columns: ["user_id", AS({ type: "aggregate", name: "sum", arg: I("amount") }, "total")], groupBy: [I("user_id")] }, as: "s" },
      set: { score: I("s.total") },
      where: C("=", "s.user_id", I("users.id")),
      returning: ["id", "score"],
    }),
    "UPDATE users SET score = s.total FROM (SELECT user_id, sum(amount) AS total FROM orders GROUP BY user_id) AS s WHERE s.user_id = users.id RETURNING id, score",
    ret("update", "users", 4, ["id", "score"], ["u1", 270], ["u2", 99.5], ["u3", 100], ["u5", 5])),
  c("FROM an unaliased derived table: no join was written, so its columns are read by their names (as SQLite)",
    (t) => t("users").update({ score: col("total") }).from(t("orders").select("user_id", sum("amount").as("total")).groupBy("user_id")).where(eq("user_id", col("users.id"))).returning("id", "score"),
    upd("users", {
      from: { from: { kind: "select", table: "orders", columns: ["user_id", AS({ type: "aggregate", name: "sum", arg: I("amount") }, "total")], groupBy: [I("user_id")] } },
      set: { score: I("total") },
      where: C("=", "user_id", I("users.id")),
      returning: ["id", "score"],
    }),
    "UPDATE users SET score = total FROM (SELECT user_id, sum(amount) AS total FROM orders GROUP BY user_id) WHERE user_id = users.id RETURNING id, score",
    ret("update", "users", 4, ["id", "score"], ["u1", 270], ["u2", 99.5], ["u3", 100], ["u5", 5])),
  c("the table aliased joins itself; SET and WHERE read both, each as it was before the statement",
    (t) => t("members").update({ name: col("o.name") }).as("m").from("members", { as: "o" }).where(eq("o.id", col("m.id").add(1))).returning("id", "name"),
    upd("members", { as: "m", from: { table: "members", as: "o" }, set: { name: I("o.name") }, where: C("=", "o.id", B("+", "m.id", 1)), returning: ["id", "name"] }),
    "UPDATE members AS m SET name = o.name FROM members AS o WHERE o.id = m.id + 1 RETURNING id, name",
    ret("update", "members", 2, ["id", "name"], [10, "m2"], [11, "m3"])),
  c("FROM's sources join each other as a select's; the table joins them all",
    (t) => t("badges").update({ label: col("teams.name") }).from("members").join("teams", eq("teams.id", col("members.team_id"))).where(eq("members.id", col("badges.member_id"))).returning("id", "label"),
    upd("badges", {
      from: { table: "members" },
      joins: [{ type: "inner", table: "teams", on: C("=", "teams.id", I("members.team_id")) }],
      set: { label: I("teams.name") },
      where: C("=", "members.id", I("badges.member_id")),
      returning: ["id", "label"],
    }),
    "UPDATE badges SET label = teams.name FROM members JOIN teams ON teams.id = members.team_id WHERE members.id = badges.member_id RETURNING id, label",
    ret("update", "badges", 4, ["id", "label"], [100, "red"], [101, "red"], [102, "blue"], [103, "red"])),
  c("a table row no joined row holds is not updated; rowsAffected counts rows, not pairs",
    (t) => t("teams").update({ name: concat(col("teams.name"), "!") }).from("members").where(eq("members.team_id", col("teams.id"))),
    upd("teams", { from: { table: "members" }, set: { name: B("||", "teams.name", "!") }, where: C("=", "members.team_id", I("teams.id")) }),
    "UPDATE teams SET name = teams.name || '!' FROM members WHERE members.team_id = teams.id",
    mut("update", "teams", 2),
    [sel("teams", ["id", "name"]), rows(["id", "name"], [1, "red!"], [2, "blue!"])]),
  c("UPDATE … FROM with a parameter", null, null,
    ["UPDATE orders SET paid = TRUE FROM users WHERE users.id = orders.user_id AND users.age > ? RETURNING id", [30]],
    ret("update", "orders", 2, ["id"], [1], [2])),

  // ---- UPDATE … FROM keeps every rule: nothing changes when one row breaks one
  c("a check one joined row breaks refuses the whole UPDATE … FROM",
    (t) => t("orders").update({ amount: col("orders.amount").sub(col("users.age")) }).from("users").where(ORDERS_OF),
    upd("orders", { from: { table: "users" }, set: { amount: B("-", "orders.amount", I("users.age")) }, where: ORDERS_OF }),
    "UPDATE orders SET amount = orders.amount - users.age FROM users WHERE users.id = orders.user_id",
    err("validation_failed"), [AMOUNTS, ALL_AMOUNTS]),
  c("a unique key two updated rows would share refuses the whole UPDATE … FROM",
    (t) => t("pairs").update({ code: col("teams.name") }).from("teams").where(eq("teams.id", 1)),
    upd("pairs", { from: { table: "teams" }, set: { code: I("teams.name") }, where: C("=", "teams.id", 1) }),
    "UPDATE pairs SET code = teams.name FROM teams WHERE teams.id = 1",
    err("constraint_violation"), [PAIRS, THREE_PAIRS]),
  c("a reference to no row refuses the whole UPDATE … FROM",
    (t) => t("orders").update({ user_id: col("members.name") }).from("members").where(and(eq("members.id", 10), eq("orders.id", 1))),
    upd("orders", { from: { table: "members" }, set: { user_id: I("members.name") }, where: AND(C("=", "members.id", 10), C("=", "orders.id", 1)) }),
    "UPDATE orders SET user_id = members.name FROM members WHERE members.id = 10 AND orders.id = 1",
    err("constraint_violation"), [sel("orders", ["user_id"], { where: C("=", "id", 1) }), rows(["user_id"], ["u1"])]),
  c("a value of the wrong type from the joined row is refused",
    (t) => t("orders").update({ amount: col("users.name") }).from("users").where(ORDERS_OF),
    upd("orders", { from: { table: "users" }, set: { amount: I("users.name") }, where: ORDERS_OF }),
    "UPDATE orders SET amount = users.name FROM users WHERE users.id = orders.user_id",
    err("validation_failed"), [AMOUNTS, ALL_AMOUNTS]),
  tx("a transaction step of UPDATE … FROM that fails undoes the steps before it",
    [
      [(t) => t("teams").update({ name: "gone" }).all(), upd("teams", { set: { name: "gone" }, where: L(true) }), "UPDATE teams SET name = 'gone'"],
      [(t) => t("orders").update({ amount: col("orders.amount").sub(col("users.age")) }).from("users").where(ORDERS_OF),
        upd("orders", { from: { table: "users" }, set: { amount: B("-", "orders.amount", I("users.age")) }, where: ORDERS_OF }),
        "UPDATE orders SET amount = orders.amount - users.age FROM users WHERE users.id = orders.user_id"],
    ],
    { error: "validation_failed", step: 1 },
    [[sel("teams", ["name"]), rows(["name"], ["red"], ["blue"])], [AMOUNTS, ALL_AMOUNTS]]),

  // ---- UPDATE … FROM: what it refuses, as SQLite does
  c("FROM may not name the table updated unaliased",
    (t) => t("teams").update({ name: "x" }).from("teams").all(),
    upd("teams", { from: { table: "teams" }, set: { name: "x" }, where: L(true) }),
    "UPDATE teams SET name = 'x' FROM teams", misuse),
  c("RETURNING reads only the table updated, not FROM's sources",
    (t) => t("orders").update({ status: "x" }).from("users").where(ORDERS_OF).returning("users.city"),
    upd("orders", { from: { table: "users" }, set: { status: "x" }, where: ORDERS_OF, returning: ["users.city"] }),
    "UPDATE orders SET status = 'x' FROM users WHERE users.id = orders.user_id RETURNING users.city", err("unknown_column")),
  c("FROM's join conditions do not read the table updated",
    (t) => t("badges").update({ label: "x" }).from("members").join("teams", eq("teams.id", col("badges.id"))).all(),
    upd("badges", { from: { table: "members" }, joins: [{ type: "inner", table: "teams", on: C("=", "teams.id", I("badges.id")) }], set: { label: "x" }, where: L(true) }),
    "UPDATE badges SET label = 'x' FROM members JOIN teams ON teams.id = badges.id", err("unknown_column")),
  c("a name both the table and FROM have is ambiguous unqualified",
    (t) => t("orders").update({ status: "x" }).from("users").where(eq("id", "u1")),
    upd("orders", { from: { table: "users" }, set: { status: "x" }, where: C("=", "id", "u1") }),
    "UPDATE orders SET status = 'x' FROM users WHERE id = 'u1'", err("ambiguous_column")),
  c("joins without from are refused", (t) => t("orders").update({ status: "x" }).join("users", ORDERS_OF).all(),
    upd("orders", { joins: [{ type: "inner", table: "users", on: ORDERS_OF }], set: { status: "x" }, where: L(true) }), null, err("invalid_request")),
  c("from names a table or a select, not both", null,
    upd("orders", { from: { table: "users", from: { kind: "select", table: "users", columns: "*" } }, set: { status: "x" }, where: L(true) }), null, err("invalid_request")),

  // ---- DEFAULT VALUES
  c("INSERT … DEFAULT VALUES inserts one row of defaults, checked as any insert (a required column refuses it)",
    (t) => t("orders").insert({}), { kind: "insert", table: "orders", rows: [{}] }, "INSERT INTO orders DEFAULT VALUES", err("validation_failed")),
  tx("INSERT … DEFAULT VALUES inserts one row of defaults; RETURNING gives it",
    [SOLO, [(t) => t("solo").insert({}).returning(), { kind: "insert", table: "solo", rows: [{}], returning: "*" }, "INSERT INTO solo DEFAULT VALUES RETURNING *"]],
    txr(mut("create-table", "solo", 0), ret("insert", "solo", 1, SOLO_ROW, [1, "d", null]))),
  tx("REPLACE INTO … DEFAULT VALUES replaces the row of its key; INSERT OR IGNORE … DEFAULT VALUES skips it",
    [
      SOLO,
      [(t) => t("solo").insert({ k: 1, v: "old" }), { kind: "insert", table: "solo", rows: [{ k: 1, v: "old" }] }, "INSERT INTO solo (k, v) VALUES (1, 'old')"],
      [(t) => t("solo").insert({}).onConflictReplace().returning("k", "v"), { kind: "insert", table: "solo", rows: [{}], onConflict: { action: "replace" }, returning: ["k", "v"] },
        "REPLACE INTO solo DEFAULT VALUES RETURNING k, v"],
      [(t) => t("solo").insert({}).onConflictDoNothing().returning("k"), { kind: "insert", table: "solo", rows: [{}], onConflict: { action: "nothing" }, returning: ["k"] },
        "INSERT OR IGNORE INTO solo DEFAULT VALUES RETURNING k"],
    ],
    txr(mut("create-table", "solo", 0), mut("insert", "solo", 1), counted("solo", { inserted: 0, replaced: 1 }, ["k", "v"], [1, "d"]), counted("solo", { inserted: 0, updated: 0, ignored: 1 }, ["k"]))),

  // ---- A table alias on UPDATE and DELETE (SQLite's answers, but where a case names storedb's own rule)
  c("UPDATE t AS x: WHERE names the table by its alias",
    (t) => t("orders").update({ status: "held" }).as("o").where(eq("o.id", 3)).returning("id", "status"),
    upd("orders", { as: "o", set: { status: "held" }, where: C("=", "o.id", 3), returning: ["id", "status"] }),
    "UPDATE orders AS o SET status = 'held' WHERE o.id = 3 RETURNING id, status",
    ret("update", "orders", 1, ["id", "status"], [3, "held"])),
  c("UPDATE t AS x SET c = (SELECT … FROM t y WHERE y.g = x.g): a subquery over the same table reads the alias's row",
    (t) => t("orders").update({ amount: subquery(t("orders").as("y").select(count().as("count(*)")).where(eq("y.user_id", col("x.user_id")))) }).as("x").all().returning("id", "amount"),
    upd("orders", { as: "x", set: { amount: SUB(Q("orders", [AS(AGG("count"), "count(*)")], { as: "y", where: C("=", "y.user_id", I("x.user_id")) })) }, where: L(true), returning: ["id", "amount"] }),
    "UPDATE orders AS x SET amount = (SELECT count(*) FROM orders y WHERE y.user_id = x.user_id) RETURNING id, amount",
    ret("update", "orders", 6, ["id", "amount"], [1, 2], [2, 2], [3, 1], [4, 1], [5, 2], [6, 2])),
  c("DELETE FROM t AS x WHERE NOT EXISTS (… x.c …): a correlated subquery reads the alias",
    (t) => t("orders").delete().as("o").where(notExists(t("users").as("u").select(val(1).as("1")).where(and(eq("u.id", col("o.user_id")), eq("u.city", "Paris"))))).returning("id"),
    { kind: "delete", table: "orders", as: "o", where: EXISTS(Q("users", [AS(L(1), "1")], { as: "u", where: AND(C("=", "u.id", I("o.user_id")), C("=", "u.city", "Paris")) }), true), returning: ["id"] },
    "DELETE FROM orders AS o WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = o.user_id AND u.city = 'Paris') RETURNING id",
    ret("delete", "orders", 3, ["id"], [3], [5], [6]),
    [AMOUNTS, rows(["id", "amount"], [1, 250], [2, 20], [4, 100])]),
  c("DELETE with an alias and a parameter; RETURNING reads the deleted row by the table's name, as in SQLite",
    null, null,
    ["DELETE FROM orders AS o WHERE o.amount < ? RETURNING orders.id, status", [50]],
    ret("delete", "orders", 2, ["orders.id", "status"], [2, "new"], [5, "new"])),
  c("DELETE with an alias cascades as any delete",
    (t) => t("teams").delete().as("x").where(eq("x.id", 1)),
    { kind: "delete", table: "teams", as: "x", where: C("=", "x.id", 1) },
    "DELETE FROM teams AS x WHERE x.id = 1",
    mut("delete", "teams", 1),
    [[sel("members", ["id"]), rows(["id"], [12])], [sel("badges", ["id"]), rows(["id"], [102])]]),
  c("an alias without AS, as after a select's FROM (storedb's rule; SQLite's grammar requires AS)",
    null, null,
    "DELETE FROM orders o WHERE o.amount < 50 RETURNING id",
    ret("delete", "orders", 2, ["id"], [2], [5])),
  c("UPDATE's alias without AS too (storedb's rule; SQLite's grammar requires AS)",
    null, null,
    "UPDATE orders o SET status = 'held' WHERE o.id = 3 RETURNING id, status",
    ret("update", "orders", 1, ["id", "status"], [3, "held"])),
  c("RETURNING does not read the alias (SQLite: no such column)",
    (t) => t("orders").delete().as("o").where(eq("o.id", 1)).returning("o.id"),
    { kind: "delete", table: "orders", as: "o", where: C("=", "o.id", 1), returning: ["o.id"] },
    "DELETE FROM orders AS o WHERE o.id = 1 RETURNING o.id",
    err("unknown_column"), [AMOUNTS, ALL_AMOUNTS]),
  c("a qualifier no source has is unknown_column, as in a select",
    (t) => t("orders").delete().as("o").where(eq("x.id", 1)),
    { kind: "delete", table: "orders", as: "o", where: C("=", "x.id", 1) },
    "DELETE FROM orders AS o WHERE x.id = 1",
    err("unknown_column"), [AMOUNTS, ALL_AMOUNTS]),
  c("the table's own name still qualifies behind its alias, as in a select (storedb's lenient rule; SQLite refuses)",
    (t) => t("orders").delete().as("o").where(eq("orders.id", 2)).returning("id"),
    { kind: "delete", table: "orders", as: "o", where: C("=", "orders.id", 2), returning: ["id"] },
    "DELETE FROM orders AS o WHERE orders.id = 2 RETURNING id",
    ret("delete", "orders", 1, ["id"], [2])),
  c("in a subquery, a source named as the alias is the subquery's own (SQL's rule first)",
    (t) => t("orders").delete().as("u").where(inQuery("user_id", t("users").as("u").select("id").where(eq("u.city", "Berlin")))).returning("id"),
    { kind: "delete", table: "orders", as: "u", where: { type: "in", expr: I("user_id"), select: Q("users", ["id"], { as: "u", where: C("=", "u.city", "Berlin") }) }, returning: ["id"] },
    "DELETE FROM orders AS u WHERE user_id IN (SELECT id FROM users u WHERE u.city = 'Berlin') RETURNING id",
    ret("delete", "orders", 1, ["id"], [3])),
  c("an alias that is no name is refused",
    (t) => t("orders").delete().as("").where(eq("id", 1)),
    { kind: "delete", table: "orders", as: "", where: C("=", "id", 1) },
    null,
    err("invalid_name"), [AMOUNTS, ALL_AMOUNTS]),
  c("an alias is no select shape: .as() before .delete() is a misuse",
    (t) => t("orders").as("o").delete().where(eq("o.id", 1)),
    null, null,
    err("invalid_request")),

  // ---- WITH before a write
  c("WITH … DELETE reads the WITH table in a subquery of its WHERE",
    (t) => t("orders").delete().where(and(inQuery("user_id", t(t("users").select("id").where(eq("city", "Paris"))).select("id")), eq("status", "cancelled"))).returning("id"),
    { kind: "delete", table: "orders", where: AND({ type: "in", expr: I("user_id"), select: { kind: "select", from: PARIS_JSON, as: "paris", columns: ["id"] } }, C("=", "status", "cancelled")), returning: ["id"] },
    "WITH paris AS (SELECT id FROM users WHERE city = 'Paris') DELETE FROM orders WHERE user_id IN (SELECT id FROM paris) AND status = 'cancelled' RETURNING id",
    ret("delete", "orders", 1, ["id"], [4])),
  c("WITH RECURSIVE … INSERT … SELECT inserts the recursive table's rows",
    (t) => t("teams").insert(
      t(withTable("n", t("teams").select(val(7).as("x")).where(eq("id", 1)).unionAll(t("n").select(col("x").add(1).as("x")).where(lt("x", 9))))).select("x", concat(val("team "), cast(col("x"), "text")).as("name")),
      { columns: ["id", "name"] },
    ).returning("id", "name"),
    { kind: "insert", table: "teams", columns: ["id", "name"], select: { kind: "select", from: SEVEN_TO_NINE, as: "n", columns: ["x", AS({ type: "binary", op: "||", left: L("team "), right: CAST("x", "text") }, "name")] }, returning: ["id", "name"] },
    "WITH RECURSIVE n(x) AS (SELECT 7 UNION ALL SELECT x + 1 FROM n WHERE x < 9) INSERT INTO teams (id, name) SELECT x, 'team ' || CAST(x AS text) FROM n RETURNING id, name",
    ret("insert", "teams", 3, ["id", "name"], [7, "team 7"], [8, "team 8"], [9, "team 9"])),
  c("WITH … UPDATE … FROM reads the WITH table as FROM's source",
    (t) => t("teams").update({ name: col("c.name") }).from(t("teams").select(val(2).as("k"), val("navy").as("name")).where(eq("id", 1)), { as: "c" }).where(eq("c.k", col("teams.id"))).returning(),
    upd("teams", { from: { from: { kind: "select", columns: [AS(L(2), "k"), AS(L("navy"), "name")] }, as: "c" }, set: { name: I("c.name") }, where: C("=", "c.k", I("teams.id")), returning: "*" }),
    "WITH c AS (SELECT 2 AS k, 'navy' AS name) UPDATE teams SET name = c.name FROM c WHERE c.k = teams.id RETURNING *",
    ret("update", "teams", 1, ["id", "name"], [2, "navy"])),
  c("WITH … REPLACE … SELECT",
    null,
    { kind: "insert", table: "pairs", columns: ["a", "b", "code", "label"], select: { kind: "select", from: { kind: "select", columns: [AS(L("B"), "code")] }, as: "c", columns: [AS(L(2), "2"), AS(L("x"), "'x'"), "code", AS(L("new"), "'new'")] }, onConflict: { action: "replace" }, returning: ["a", "code", "label"] },
    "WITH c AS (SELECT 'B' AS code) REPLACE INTO pairs (a, b, code, label) SELECT 2, 'x', code, 'new' FROM c RETURNING a, code, label",
    counted("pairs", { inserted: 0, replaced: 1 }, ["a", "code", "label"], [2, "B", "new"])),
  c("a WITH table of the name of the table written is read only where FROM or a subquery names it",
    null, null,
    "WITH pairs AS (SELECT 1 AS a) DELETE FROM pairs WHERE a NOT IN (SELECT a FROM pairs) RETURNING a, b",
    ret("delete", "pairs", 1, ["a", "b"], [2, "x"])),
];
