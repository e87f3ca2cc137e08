/**
 * Conformance cases for INSERT … SELECT (JSON `select` on an insert, with
 * `columns` by position or result names matched to columns; SQL
 * `INSERT INTO t [(cols)] SELECT …`; the builder's `insert(query)`): rows
 * copied with computed values and defaults, a table copied into itself as
 * it was, an empty select, parameters, grouping, WITH, RETURNING and
 * ON CONFLICT on the selected rows; VALUES tuples that compute (`lower(?)`,
 * a scalar subquery), which SQL lowers to such a select; and each refusal,
 * with nothing kept:
 * keys and references broken by the selected rows, a result column of the
 * wrong type, a value out of its column's type, column counts that differ,
 * an unknown column, rows and a select together.
 *
 * Fixture rows (see `fixture.ts`): orders 1..6 of users u1, u1, u2, u3, u5,
 * u5, amounts 250, 20, 99.5, 100, 5, NULL; statuses shipped, new, shipped,
 * cancelled, new, new.
 */

import { col, count, eq, gt, sum } from "../../src/api/expressions.js";
import type { Expression } from "../../src/commands/types.js";
import { AS, B, C, I, L, c, err, misuse, mut, ret, rows, sel, upserted, type Case } from "./dsl.js";

const orders = "orders";
const orderIds = (...list: number[]) => rows(["id"], ...list.map((id) => [id]));
const allOrders = sel(orders, ["id"], { orderBy: [{ column: "id" }] });
const SIX = orderIds(1, 2, 3, 4, 5, 6);
const insertSelect = (select: unknown, extra: Record<string, unknown> = {}) => ({ kind: "insert", table: orders, select, ...extra });
const plus = (column: string, n: number): Expression => B("+", column, n);
const AGG = (name: string, arg?: string): Expression => ({ type: "aggregate", name, ...(arg === undefined ? {} : { arg: I(arg) }) }) as Expression;

export const insertSelectCases: readonly Case[] = [
  c("rows copied from a select: result columns go to the columns of their names, the others take their defaults",
    (t) => t(orders).insert(t(orders).select(col("id").add(10).as("id"), "user_id", "amount").where(gt("amount", 90))),
    insertSelect(sel(orders, [AS(plus("id", 10), "id"), "user_id", "amount"], { where: C(">", "amount", 90) })),
    "INSERT INTO orders (id, user_id, amount) SELECT id + 10, user_id, amount FROM orders WHERE amount > 90",
    mut("insert", orders, 3),
    [sel(orders, ["id", "user_id", "amount", "status", "paid"], { where: C(">", "id", 10), orderBy: [{ column: "id" }] }),
      rows(["id", "user_id", "amount", "status", "paid"], [11, "u1", 250, "new", false], [13, "u2", 99.5, "new", false], [14, "u3", 100, "new", false])]),
  c("columns listed: each result column goes to the column at its position",
    (t) => t(orders).insert(t(orders).select(col("id").add(20).as("n"), "user_id", "status").where(eq("id", 2)), { columns: ["id", "user_id", "status"] }),
    insertSelect(sel(orders, [AS(plus("id", 20), "n"), "user_id", "status"], { where: C("=", "id", 2) }), { columns: ["id", "user_id", "status"] }),
    "INSERT INTO orders (id, user_id, status) SELECT id + 20, user_id, status FROM orders WHERE id = 2",
    mut("insert", orders, 1),
    [sel(orders, ["user_id", "amount", "status", "paid"], { where: C("=", "id", 22) }), rows(["user_id", "amount", "status", "paid"], ["u1", null, "new", false])]),
  c("SQL without a column list fills the stored columns in order",
    (t) => t(orders).insert(t(orders).select(col("id").add(30).as("i"), "user_id", "amount", "status", "paid").where(eq("id", 1)), { columns: ["id", "user_id", "amount", "status", "paid"] }),
    insertSelect(sel(orders, [AS(plus("id", 30), "i"), "user_id", "amount", "status", "paid"], { where: C("=", "id", 1) }), { columns: ["id", "user_id", "amount", "status", "paid"] }),
    "INSERT INTO orders SELECT id + 30, user_id, amount, status, paid FROM orders WHERE id = 1",
    mut("insert", orders, 1),
    [sel(orders, ["amount", "status", "paid", "big"], { where: C("=", "id", 31) }), rows(["amount", "status", "paid", "big"], [250, "shipped", true, true])]),
  c("a table copied into itself reads it as it was: each row once",
    (t) => t(orders).insert(t(orders).select(col("id").add(100).as("id"), "user_id")),
    insertSelect(sel(orders, [AS(plus("id", 100), "id"), "user_id"])),
    "INSERT INTO orders (id, user_id) SELECT id + 100, user_id FROM orders",
    mut("insert", orders, 6), [allOrders, orderIds(1, 2, 3, 4, 5, 6, 101, 102, 103, 104, 105, 106)]),
  c("a select that returns no row inserts none",
    (t) => t(orders).insert(t(orders).select("id", "user_id").where(gt("amount", 1000))),
    insertSelect(sel(orders, ["id", "user_id"], { where: C(">", "amount", 1000) })),
    "INSERT INTO orders (id, user_id) SELECT id, user_id FROM orders WHERE amount > 1000",
    mut("insert", orders, 0), [allOrders, SIX]),
  c("parameters in the select", null, null,
    ["INSERT INTO orders (id, user_id, amount) SELECT ?, id, ? FROM users WHERE name = ?", [40, 12.5, "Dee"]],
    mut("insert", orders, 1),
    [sel(orders, ["user_id", "amount"], { where: C("=", "id", 40) }), rows(["user_id", "amount"], ["u4", 12.5])]),
  c("a grouped select: one row per group",
    (t) => t(orders).insert(t(orders).select(count().add(50).as("id"), "user_id", sum("amount").as("amount")).where(eq("user_id", "u1")).groupBy("user_id")),
    insertSelect(sel(orders, [AS(B("+", AGG("count"), 50), "id"), "user_id", AS(AGG("sum", "amount"), "amount")], { where: C("=", "user_id", "u1"), groupBy: [I("user_id")] })),
    "INSERT INTO orders (id, user_id, amount) SELECT count(*) + 50, user_id, sum(amount) FROM orders WHERE user_id = 'u1' GROUP BY user_id",
    mut("insert", orders, 1),
    [sel(orders, ["user_id", "amount"], { where: C("=", "id", 52) }), rows(["user_id", "amount"], ["u1", 270])]),
  c("a WITH table read by the insert's select", null, null,
    "INSERT INTO orders (id, user_id, amount) WITH big AS (SELECT id, user_id, amount FROM orders WHERE amount >= 100) SELECT id + 60, user_id, amount / 2 FROM big",
    mut("insert", orders, 2),
    [sel(orders, ["id", "amount"], { where: C(">", "id", 60), orderBy: [{ column: "id" }] }), rows(["id", "amount"], [61, 125], [64, 50])]),
  c("a recursive WITH table read by the insert's select", null,
    insertSelect({ kind: "select", columns: [AS(I("x"), "id"), AS(L("u1"), "user_id"), AS(I("x"), "amount")], from: { kind: "with", name: "c", columns: ["x"], select: {
      kind: "select", columns: [AS(L(80), "x")], compound: [{ op: "union-all", select: { kind: "select", table: "c", columns: [AS(plus("x", 1), "x")], where: C("<", "x", 82) } }] } } }),
    "INSERT INTO orders (id, user_id, amount) WITH RECURSIVE c(x) AS (SELECT 80 UNION ALL SELECT x + 1 FROM c WHERE x < 82) SELECT x, 'u1', x FROM c",
    mut("insert", orders, 3),
    [sel(orders, ["id", "amount"], { where: C(">=", "id", 80), orderBy: [{ column: "id" }] }), rows(["id", "amount"], [80, 80], [81, 81], [82, 82])]),
  c("RETURNING the inserted rows",
    (t) => t(orders).insert(t(orders).select(col("id").add(70).as("id"), "user_id").where(eq("id", 3))).returning("id", "status"),
    insertSelect(sel(orders, [AS(plus("id", 70), "id"), "user_id"], { where: C("=", "id", 3) }), { returning: ["id", "status"] }),
    "INSERT INTO orders (id, user_id) SELECT id + 70, user_id FROM orders WHERE id = 3 RETURNING id, status",
    ret("insert", orders, 1, ["id", "status"], [73, "new"])),
  c("RETURNING right after the select's table is the clause, not an alias",
    (t) => t(orders).insert(t(orders).select(col("id").add(200).as("id"), "user_id")).returning("id"),
    insertSelect(sel(orders, [AS(plus("id", 200), "id"), "user_id"]), { returning: ["id"] }),
    "INSERT INTO orders (id, user_id) SELECT id + 200, user_id FROM orders RETURNING id",
    ret("insert", orders, 6, ["id"], [201], [202], [203], [204], [205], [206])),
  c("ON CONFLICT DO NOTHING skips the selected rows that conflict",
    (t) => t(orders).insert(t(orders).select(col("id").add(4).as("id"), "user_id").where(gt("id", 1))).onConflictDoNothing(),
    insertSelect(sel(orders, [AS(plus("id", 4), "id"), "user_id"], { where: C(">", "id", 1) }), { onConflict: { action: "nothing" } }),
    "INSERT INTO orders (id, user_id) SELECT id + 4, user_id FROM orders WHERE id > 1 ON CONFLICT DO NOTHING",
    upserted(orders, [4, 0, 1]), [allOrders, orderIds(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)]),
  c("ON CONFLICT DO UPDATE reads the selected row as excluded",
    (t) => t(orders).insert(t(orders).select(col("id").sub(1).as("id"), "user_id", "status").where(eq("id", 2))).onConflictDoUpdate({ target: ["id"], set: { status: col("excluded.status") } }),
    insertSelect(sel(orders, [AS(B("-", "id", 1), "id"), "user_id", "status"], { where: C("=", "id", 2) }), { onConflict: { target: ["id"], action: "update", set: { status: I("excluded.status") } } }),
    "INSERT INTO orders (id, user_id, status) SELECT id - 1, user_id, status FROM orders WHERE id = 2 ON CONFLICT (id) DO UPDATE SET status = excluded.status",
    upserted(orders, [0, 1, 0]), [sel(orders, ["status"], { where: C("=", "id", 1) }), rows(["status"], ["new"])]),

  // ---- VALUES that compute: a select per tuple
  c("VALUES items that compute are the select without FROM they stand for", null,
    insertSelect({ kind: "select", columns: [AS(L(20), "id"), AS({ type: "function", name: "lower", args: [L("U1")] }, "user_id"), AS(B("*", 2, L(5.5)), "amount")] }),
    "INSERT INTO orders (id, user_id, amount) VALUES (20, lower('U1'), 2 * 5.5)",
    mut("insert", orders, 1),
    [sel(orders, ["user_id", "amount", "status"], { where: C("=", "id", 20) }), rows(["user_id", "amount", "status"], ["u1", 11, "new"])]),
  c("VALUES rows keep their order when one computes", null, null,
    ["INSERT INTO orders (id, user_id, amount) VALUES (21, 'u1', 1), (?, 'u2', ? * 2) RETURNING id, amount", [22, 4]],
    ret("insert", orders, 2, ["id", "amount"], [21, 1], [22, 8])),
  c("a scalar subquery in VALUES", null, null,
    "INSERT INTO orders (id, user_id, amount) VALUES ((SELECT max(id) + 1 FROM orders), 'u3', 5)",
    mut("insert", orders, 1), [allOrders, orderIds(1, 2, 3, 4, 5, 6, 7)]),
  c("a computed VALUES item outside its column's type", null, null,
    "INSERT INTO orders (id, user_id, amount) VALUES (24, 'u1', 'a' || 'b')", err("validation_failed"), [allOrders, SIX]),
  c("a VALUES item naming a column: there is no row to read", null, null,
    "INSERT INTO orders (id, user_id, amount) VALUES (25, user_id, 1 + 1)", err("unknown_column"), [allOrders, SIX]),
  c("an aggregate in VALUES: there are no rows to aggregate", null, null,
    "INSERT INTO orders (id, user_id, amount) VALUES (30, 'u1', count(*))", err("sql_error"), [allOrders, SIX]),
  c("computed VALUES rows hold one kind of value per column", null, null,
    "INSERT INTO orders (id, user_id, status) VALUES (26, 'u1', 'a' || 'b'), (27, 'u1', 1 + 1)", err("type_mismatch"), [allOrders, SIX]),

  // ---- refusals: nothing is kept
  c("selected rows that repeat a key already there",
    (t) => t(orders).insert(t(orders).select("id", "user_id")),
    insertSelect(sel(orders, ["id", "user_id"])),
    "INSERT INTO orders (id, user_id) SELECT id, user_id FROM orders",
    err("constraint_violation"), [allOrders, SIX]),
  c("selected rows that break a reference",
    (t) => t(orders).insert(t(orders).select(col("id").add(10).as("id"), "status").where(eq("id", 1)), { columns: ["id", "user_id"] }),
    insertSelect(sel(orders, [AS(plus("id", 10), "id"), "status"], { where: C("=", "id", 1) }), { columns: ["id", "user_id"] }),
    "INSERT INTO orders (id, user_id) SELECT id + 10, status FROM orders WHERE id = 1",
    err("constraint_violation"), [allOrders, SIX]),
  c("a result column whose type is not its column's, whatever rows the select returns",
    (t) => t(orders).insert(t(orders).select(col("id").add(10).as("id"), "user_id", "status").where(gt("id", 99)), { columns: ["id", "user_id", "amount"] }),
    insertSelect(sel(orders, [AS(plus("id", 10), "id"), "user_id", "status"], { where: C(">", "id", 99) }), { columns: ["id", "user_id", "amount"] }),
    "INSERT INTO orders (id, user_id, amount) SELECT id + 10, user_id, status FROM orders WHERE id > 99",
    err("validation_failed"), [allOrders, SIX]),
  c("a selected value outside its column's type (99.5 into an integer)", null,
    { kind: "insert", table: "users", columns: ["id", "name", "age"], select: sel(orders, ["user_id", "status", "amount"], { where: C("=", "id", 3) }) },
    "INSERT INTO users (id, name, age) SELECT user_id || '!', status, amount FROM orders WHERE id = 3",
    err("validation_failed")),
  c("a selected row that breaks a check", null, null,
    "INSERT INTO orders (id, user_id, amount) SELECT id + 10, user_id, amount - 100 FROM orders WHERE id = 3",
    err("validation_failed"), [allOrders, SIX]),
  c("more result columns than columns listed", null,
    insertSelect(sel(orders, ["id", "user_id", "amount"]), { columns: ["id", "user_id"] }),
    "INSERT INTO orders (id, user_id) SELECT id, user_id, amount FROM orders",
    misuse),
  c("a result column named for no column", (t) => t(orders).insert(t(orders).select(col("id").add(10).as("number"), "user_id")),
    insertSelect(sel(orders, [AS(plus("id", 10), "number"), "user_id"])), "INSERT INTO orders (number, user_id) SELECT id + 10, user_id FROM orders",
    err("validation_failed"), [allOrders, SIX]),
  c("two result columns for one column", null, insertSelect(sel(orders, ["id", AS(I("id"), "id")])), null, err("invalid_request")),
  c("rows and a select together", null, { kind: "insert", table: orders, rows: [{ id: 9, user_id: "u1" }], select: sel(orders, ["id"]) }, null, err("invalid_request"), [allOrders, SIX]),
  c("columns beside rows", null, { kind: "insert", table: orders, columns: ["id", "user_id"], rows: [{ id: 9, user_id: "u1" }] }, null, err("invalid_request")),
  c("the select may not write", null, insertSelect({ kind: "delete", table: orders, where: L(true) }), null, err("invalid_request"), [allOrders, SIX]),
];
