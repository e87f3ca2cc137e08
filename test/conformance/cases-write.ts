/**
 * Conformance cases: insert, update, delete with rowsAffected, and every
 * schema rule of CONTRACT §3 — types, required, primary keys (composite too),
 * unique with several NULLs, foreign keys (restrict, cascade, chains),
 * checks (NULL passes), defaults, computed fields never writable — including
 * that a failing statement changes nothing (`after`).
 */

import { eq, gt, val } from "../../src/api/expressions.js";
import type { Value } from "../../src/commands/types.js";
import { C, L, TRUE, c, del, err, ids, ins, mut, ret, rows, sel, tx, txr, upd, type Case, type StepForms } from "./dsl.js";

const orderIds = (...list: number[]) => rows(["id"], ...list.map((id) => [id]));
const allOrders = sel("orders", ["id"]);
const allUsers = sel("users", ["id"]);
const FIVE_USERS = ids("u1", "u2", "u3", "u4", "u5");
const SIX_ORDERS = orderIds(1, 2, 3, 4, 5, 6);

/** Rows as JSON.parse makes them from hostile text: `__proto__` as an own key. */
const protoRow = () => JSON.parse('{"id":"u6","name":"Fay","__proto__":1}') as Record<string, Value>;
const protoSet = () => JSON.parse('{"__proto__":1}') as Record<string, Value>;

/** A table whose rows reference rows of itself, deletes cascading: its creation and its rows `[id, parent, v]` as transaction steps. */
const TREE = (data: readonly (readonly [number, number | null, number])[]): StepForms[] => {
  const list = data.map(([id, parent, v]) => ({ id, parent, v }));
  return [
    [null,
      { kind: "create-table", schema: { name: "n", columns: { id: "integer", parent: "integer", v: "integer" }, primary_key: { columns: ["id"] },
        foreign_keys: [{ columns: ["parent"], references: { table: "n", columns: ["id"] }, on_delete: "cascade" }] } },
      "CREATE TABLE n (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES n (id) ON DELETE CASCADE, v INTEGER)"],
    [(t) => t("n").insert(list), ins("n", ...list), `INSERT INTO n (id, parent, v) VALUES ${data.map((r) => `(${r.map((x) => (x === null ? "NULL" : x)).join(", ")})`).join(", ")}`],
  ];
};
const CREATED_N = mut("create-table", "n", 0);
/** 1 ← 2 ← 3, 4 ← 5, and 6 alone. */
const TREE_ROWS: readonly (readonly [number, number | null, number])[] = [[1, null, 5], [2, 1, 6], [3, 2, 7], [4, null, 8], [5, 4, 1], [6, null, 0]];
/** 6 ← 5 ← 3 ← 1 ← 2 and 6 ← 4, with these values of v. */
const DEEP_ROWS = (v: readonly number[]): readonly (readonly [number, number | null, number])[] =>
  ([[1, 3], [2, 1], [3, 5], [4, 6], [5, 6], [6, null]] as const).map(([id, parent], i) => [id, parent, v[i] as number] as const);

export const writeCases: readonly Case[] = [
  // ---- insert
  c("insert one row", (t) => t("users").insert({ id: "u6", name: "Fay", age: 40 }), ins("users", { id: "u6", name: "Fay", age: 40 }),
    "INSERT INTO users (id, name, age) VALUES ('u6', 'Fay', 40)", mut("insert", "users", 1),
    [sel("users", ["id", "name", "age", "city"], { where: C("=", "id", "u6") }), rows(["id", "name", "age", "city"], ["u6", "Fay", 40, null])]),
  c("insert several rows", (t) => t("users").insert([{ id: "u6", name: "Fay" }, { id: "u7", name: "Gus" }]),
    ins("users", { id: "u6", name: "Fay" }, { id: "u7", name: "Gus" }), "INSERT INTO users (id, name) VALUES ('u6', 'Fay'), ('u7', 'Gus')",
    mut("insert", "users", 2), [allUsers, ids("u1", "u2", "u3", "u4", "u5", "u6", "u7")]),
  c("insert with parameters", (t) => t("users").insert({ id: "u6", name: "Fay", score: 1.5, active: true }),
    ins("users", { id: "u6", name: "Fay", score: 1.5, active: true }), ["INSERT INTO users (id, name, score, active) VALUES (?, ?, ?, ?)", ["u6", "Fay", 1.5, true]],
    mut("insert", "users", 1), [sel("users", ["score", "active"], { where: C("=", "id", "u6") }), rows(["score", "active"], [1.5, true])]),
  c("SQL without a column list fills the stored columns in order (the computed one is not among them)",
    (t) => t("orders").insert({ id: 7, user_id: "u4", amount: 120, status: "paid", paid: true }),
    ins("orders", { id: 7, user_id: "u4", amount: 120, status: "paid", paid: true }), "INSERT INTO orders VALUES (7, 'u4', 120, 'paid', TRUE)",
    mut("insert", "orders", 1),
    [sel("orders", ["user_id", "amount", "status", "paid", "big"], { where: C("=", "id", 7) }), rows(["user_id", "amount", "status", "paid", "big"], ["u4", 120, "paid", true, true])]),
  c("omitted columns take their default", (t) => t("orders").insert({ id: 7, user_id: "u4", amount: 12 }), ins("orders", { id: 7, user_id: "u4", amount: 12 }),
    "INSERT INTO orders (id, user_id, amount) VALUES (7, 'u4', 12)", mut("insert", "orders", 1),
    [sel("orders", ["status", "paid"], { where: C("=", "id", 7) }), rows(["status", "paid"], ["new", false])]),
  c("an explicit NULL is not replaced by the default", (t) => t("orders").insert({ id: 7, user_id: "u4", amount: 12, status: null }),
    ins("orders", { id: 7, user_id: "u4", amount: 12, status: null }), "INSERT INTO orders (id, user_id, amount, status) VALUES (7, 'u4', 12, NULL)",
    mut("insert", "orders", 1), [sel("orders", ["status", "paid"], { where: C("=", "id", 7) }), rows(["status", "paid"], [null, false])]),
  c("stored text compares by code point", (t) => t("users").insert({ id: "u6", name: "Fay", note: "😀" }), ins("users", { id: "u6", name: "Fay", note: "😀" }),
    "INSERT INTO users (id, name, note) VALUES ('u6', 'Fay', '😀')", mut("insert", "users", 1),
    [sel("users", ["id"], { where: C(">", "note", "！") }), ids("u6")]),
  c("a real column takes an integer value", (t) => t("users").insert({ id: "u6", name: "Fay", score: 3 }), ins("users", { id: "u6", name: "Fay", score: 3 }),
    "INSERT INTO users (id, name, score) VALUES ('u6', 'Fay', 3)", mut("insert", "users", 1)),
  c("an inserted row is visible to a computed field", (t) => t("users").insert({ id: "u6", name: "Fay", age: 18 }), ins("users", { id: "u6", name: "Fay", age: 18 }),
    "INSERT INTO users (id, name, age) VALUES ('u6', 'Fay', 18)", mut("insert", "users", 1),
    [sel("users", ["adult"], { where: C("=", "id", "u6") }), rows(["adult"], [true])]),
  c("an unknown table", (t) => t("nope").insert({ id: 1 }), ins("nope", { id: 1 }), "INSERT INTO nope (id) VALUES (1)", err("table_not_found")),

  // ---- types (422 validation_failed, code type)
  c("text into an integer column", (t) => t("users").insert({ id: "u6", name: "Fay", age: "old" }), ins("users", { id: "u6", name: "Fay", age: "old" }),
    "INSERT INTO users (id, name, age) VALUES ('u6', 'Fay', 'old')", err("validation_failed"), [allUsers, FIVE_USERS]),
  c("1.5 into an integer column is not rounded", (t) => t("users").insert({ id: "u6", name: "Fay", age: 1.5 }), ins("users", { id: "u6", name: "Fay", age: 1.5 }),
    "INSERT INTO users (id, name, age) VALUES ('u6', 'Fay', 1.5)", err("validation_failed")),
  c("2^53 into an integer column", (t) => t("users").insert({ id: "u6", name: "Fay", age: 9007199254740992 }),
    ins("users", { id: "u6", name: "Fay", age: 9007199254740992 }), ["INSERT INTO users (id, name, age) VALUES ('u6', 'Fay', ?)", [9007199254740992]],
    err("validation_failed")),
  c("a value outside its type is rejected even when the update matches no row",
    (t) => t("users").update({ age: "old" }).where(eq("id", "nobody")), upd("users", { age: "old" }, C("=", "id", "nobody")),
    ["UPDATE users SET age = ? WHERE id = ?", ["old", "nobody"]], err("validation_failed")),
  c("a number into a text column", (t) => t("users").insert({ id: "u6", name: 5 }), ins("users", { id: "u6", name: 5 }),
    "INSERT INTO users (id, name) VALUES ('u6', 5)", err("validation_failed")),
  c("a number into a boolean column", (t) => t("users").insert({ id: "u6", name: "Fay", active: 1 }), ins("users", { id: "u6", name: "Fay", active: 1 }),
    "INSERT INTO users (id, name, active) VALUES ('u6', 'Fay', 1)", err("validation_failed")),
  c("text into a real column", (t) => t("users").insert({ id: "u6", name: "Fay", score: "9" }), ins("users", { id: "u6", name: "Fay", score: "9" }),
    ["INSERT INTO users (id, name, score) VALUES ('u6', 'Fay', ?)", ["9"]], err("validation_failed")),
  c("a parameter of the wrong type is a 422 too", (t) => t("users").insert({ id: "u6", name: "Fay", age: true }), ins("users", { id: "u6", name: "Fay", age: true }),
    ["INSERT INTO users (id, name, age) VALUES (?, ?, ?)", ["u6", "Fay", true]], err("validation_failed")),

  c("an object value is outside every type, never NULL", (t) => t("users").insert({ id: "u6", name: "Fay", note: { x: 1 } } as never),
    ins("users", { id: "u6", name: "Fay", note: { x: 1 } as never }), null, err("validation_failed"), [allUsers, FIVE_USERS]),
  c("an array value is outside every type", (t) => t("users").update({ note: ["a"] } as never).where({ id: "u1" }),
    upd("users", { note: ["a"] as never }, C("=", "id", "u1")), null, err("validation_failed"),
    [sel("users", ["note"], { where: C("=", "id", "u1") }), rows(["note"], ["first"])]),
  c("a JSON value shaped like a parameter slot is just a wrong value", null,
    ins("users", { id: "u6", name: "Fay", note: { type: "param", index: 0 } as never }), null, err("validation_failed"), [allUsers, FIVE_USERS]),

  // ---- required and unknown columns
  c("a required column left out", (t) => t("users").insert({ id: "u6" }), ins("users", { id: "u6" }), "INSERT INTO users (id) VALUES ('u6')",
    err("validation_failed")),
  c("NULL into a required column", (t) => t("users").insert({ id: "u6", name: null }), ins("users", { id: "u6", name: null }),
    "INSERT INTO users (id, name) VALUES ('u6', NULL)", err("validation_failed")),
  c("a primary-key column is implicitly required", (t) => t("users").insert({ id: null, name: "Fay" }), ins("users", { id: null, name: "Fay" }),
    "INSERT INTO users (id, name) VALUES (NULL, 'Fay')", err("validation_failed")),
  c("an unknown column in a row", (t) => t("users").insert({ id: "u6", name: "Fay", nickname: "f" }), ins("users", { id: "u6", name: "Fay", nickname: "f" }),
    "INSERT INTO users (id, name, nickname) VALUES ('u6', 'Fay', 'f')", err("validation_failed")),
  c("a computed field is never writable (insert)", (t) => t("users").insert({ id: "u6", name: "Fay", adult: true }),
    ins("users", { id: "u6", name: "Fay", adult: true }), "INSERT INTO users (id, name, adult) VALUES ('u6', 'Fay', TRUE)", err("validation_failed")),

  c("an invalid name inside a row is a 422, not a 400", (t) => t("users").insert({ id: "u6", name: "Fay", "a b": 1 }), ins("users", { id: "u6", name: "Fay", "a b": 1 }),
    'INSERT INTO users (id, name, "a b") VALUES (\'u6\', \'Fay\', 1)', err("validation_failed"), [allUsers, FIVE_USERS]),
  c("a __proto__ key in a row is an unknown column", (t) => t("users").insert(protoRow()), { kind: "insert", table: "users", rows: [protoRow()] },
    'INSERT INTO users (id, name, "__proto__") VALUES (\'u6\', \'Fay\', 1)', err("validation_failed"), [allUsers, FIVE_USERS]),
  c("a constructor key in a row is an unknown column", (t) => t("users").insert({ id: "u6", name: "Fay", constructor: 1 }),
    ins("users", { id: "u6", name: "Fay", constructor: 1 }), "INSERT INTO users (id, name, constructor) VALUES ('u6', 'Fay', 1)", err("validation_failed")),
  c("a __proto__ key in an update's set is an unknown column", (t) => t("users").update(protoSet()).where({ id: "u1" }),
    { kind: "update", table: "users", set: protoSet(), where: C("=", "id", "u1") }, 'UPDATE users SET "__proto__" = 1 WHERE id = \'u1\'',
    err("validation_failed")),

  // ---- primary keys and unique keys
  c("a duplicate primary key", (t) => t("users").insert({ id: "u1", name: "Again" }), ins("users", { id: "u1", name: "Again" }),
    "INSERT INTO users (id, name) VALUES ('u1', 'Again')", err("constraint_violation"), [allUsers, FIVE_USERS]),
  c("a multi-row insert is all or nothing", (t) => t("users").insert([{ id: "u6", name: "Fay" }, { id: "u2", name: "Dup" }]),
    ins("users", { id: "u6", name: "Fay" }, { id: "u2", name: "Dup" }), "INSERT INTO users (id, name) VALUES ('u6', 'Fay'), ('u2', 'Dup')",
    err("constraint_violation"), [allUsers, FIVE_USERS]),
  c("a duplicate key inside one insert", (t) => t("users").insert([{ id: "u6", name: "Fay" }, { id: "u6", name: "Fay2" }]),
    ins("users", { id: "u6", name: "Fay" }, { id: "u6", name: "Fay2" }), "INSERT INTO users (id, name) VALUES ('u6', 'Fay'), ('u6', 'Fay2')",
    err("constraint_violation"), [allUsers, FIVE_USERS]),
  c("a bad row late in a batch rolls back the earlier ones", (t) => t("users").insert([{ id: "u6", name: "Fay" }, { id: "u7", name: null }]),
    ins("users", { id: "u6", name: "Fay" }, { id: "u7", name: null }), "INSERT INTO users (id, name) VALUES ('u6', 'Fay'), ('u7', NULL)",
    err("validation_failed"), [allUsers, FIVE_USERS]),
  c("composite key: one part equal is fine", (t) => t("pairs").insert({ a: 1, b: "z", label: "four" }), ins("pairs", { a: 1, b: "z", label: "four" }),
    "INSERT INTO pairs (a, b, label) VALUES (1, 'z', 'four')", mut("insert", "pairs", 1)),
  c("composite key: both parts equal", (t) => t("pairs").insert({ a: 1, b: "x", label: "dup" }), ins("pairs", { a: 1, b: "x", label: "dup" }),
    "INSERT INTO pairs (a, b, label) VALUES (1, 'x', 'dup')", err("constraint_violation")),
  c("composite key: every part is required", (t) => t("pairs").insert({ a: 3, label: "half" }), ins("pairs", { a: 3, label: "half" }),
    "INSERT INTO pairs (a, label) VALUES (3, 'half')", err("validation_failed")),
  c("composite key lookup", (t) => t("pairs").select("label").where({ a: 1, b: "y" }), sel("pairs", ["label"], { where: { type: "and", operands: [C("=", "a", 1), C("=", "b", "y")] } }),
    "SELECT label FROM pairs WHERE a = 1 AND b = 'y'", rows(["label"], ["two"])),
  c("a unique key rejects a duplicate", (t) => t("pairs").insert({ a: 3, b: "q", code: "A" }), ins("pairs", { a: 3, b: "q", code: "A" }),
    "INSERT INTO pairs (a, b, code) VALUES (3, 'q', 'A')", err("constraint_violation")),
  c("a unique key allows several NULLs", (t) => t("pairs").insert({ a: 3, b: "q", code: null }), ins("pairs", { a: 3, b: "q", code: null }),
    "INSERT INTO pairs (a, b, code) VALUES (3, 'q', NULL)", mut("insert", "pairs", 1)),
  c("an update that would duplicate a unique key", (t) => t("pairs").update({ code: "A" }).where({ a: 2 }), upd("pairs", { code: "A" }, C("=", "a", 2)),
    "UPDATE pairs SET code = 'A' WHERE a = 2", err("constraint_violation")),
  c("an update giving two rows one unique value changes nothing", (t) => t("pairs").update({ code: "Z" }).where({ a: 1 }), upd("pairs", { code: "Z" }, C("=", "a", 1)),
    "UPDATE pairs SET code = 'Z' WHERE a = 1", err("constraint_violation"),
    [sel("pairs", ["code"]), rows(["code"], ["A"], [null], [null])]),
  c("an update that would duplicate a primary key", (t) => t("users").update({ id: "u1" }).where({ id: "u4" }), upd("users", { id: "u1" }, C("=", "id", "u4")),
    "UPDATE users SET id = 'u1' WHERE id = 'u4'", err("constraint_violation")),

  // ---- foreign keys
  c("a foreign key to a missing parent", (t) => t("orders").insert({ id: 7, user_id: "nobody", amount: 1 }), ins("orders", { id: 7, user_id: "nobody", amount: 1 }),
    "INSERT INTO orders (id, user_id, amount) VALUES (7, 'nobody', 1)", err("constraint_violation"), [allOrders, SIX_ORDERS]),
  c("a NULL foreign key is not checked", (t) => t("members").insert({ id: 13, team_id: null, name: "solo" }), ins("members", { id: 13, team_id: null, name: "solo" }),
    "INSERT INTO members (id, team_id, name) VALUES (13, NULL, 'solo')", mut("insert", "members", 1)),
  c("an update to a missing parent", (t) => t("orders").update({ user_id: "nobody" }).where({ id: 1 }), upd("orders", { user_id: "nobody" }, C("=", "id", 1)),
    "UPDATE orders SET user_id = 'nobody' WHERE id = 1", err("constraint_violation")),
  c("an update to another parent", (t) => t("orders").update({ user_id: "u4" }).where({ id: 1 }), upd("orders", { user_id: "u4" }, C("=", "id", 1)),
    "UPDATE orders SET user_id = 'u4' WHERE id = 1", mut("update", "orders", 1)),
  c("restrict: a referenced parent cannot be deleted", (t) => t("users").delete().where({ id: "u1" }), del("users", C("=", "id", "u1")),
    "DELETE FROM users WHERE id = 'u1'", err("constraint_violation"), [allOrders, SIX_ORDERS]),
  c("restrict: an unreferenced parent can", (t) => t("users").delete().where({ id: "u4" }), del("users", C("=", "id", "u4")),
    "DELETE FROM users WHERE id = 'u4'", mut("delete", "users", 1), [allUsers, ids("u1", "u2", "u3", "u5")]),
  c("restrict: a referenced key cannot change", (t) => t("users").update({ id: "u9" }).where({ id: "u1" }), upd("users", { id: "u9" }, C("=", "id", "u1")),
    "UPDATE users SET id = 'u9' WHERE id = 'u1'", err("constraint_violation")),
  c("restrict: setting a referenced key to itself breaks nothing", (t) => t("users").update({ id: "u1" }).where({ id: "u1" }),
    upd("users", { id: "u1" }, C("=", "id", "u1")), "UPDATE users SET id = 'u1' WHERE id = 'u1'", mut("update", "users", 1)),
  c("cascade is for deletes: a referenced key still cannot change", (t) => t("teams").update({ id: 5 }).where({ id: 1 }),
    upd("teams", { id: 5 }, C("=", "id", 1)), "UPDATE teams SET id = 5 WHERE id = 1", err("constraint_violation"),
    [sel("members", ["team_id"]), rows(["team_id"], [1], [1], [2])]),
  c("cascade: children and grandchildren go; only the parent is counted", (t) => t("teams").delete().where({ id: 1 }), del("teams", C("=", "id", 1)),
    "DELETE FROM teams WHERE id = 1", mut("delete", "teams", 1), [sel("badges", ["id"]), rows(["id"], [102])]),
  c("cascade from the middle of a chain", (t) => t("members").delete().where({ id: 10 }), del("members", C("=", "id", 10)),
    "DELETE FROM members WHERE id = 10", mut("delete", "members", 1), [sel("badges", ["id"]), rows(["id"], [101], [102])]),
  c("cascade from several parents at once", (t) => t("members").delete().where({ team_id: 1 }), del("members", C("=", "team_id", 1)),
    "DELETE FROM members WHERE team_id = 1", mut("delete", "members", 2), [sel("badges", ["id"]), rows(["id"], [102])]),
  c("a cascade over every row stops whole at a restricted row", (t) => t("teams").delete().all(), del("teams", TRUE), "DELETE FROM teams",
    err("constraint_violation"), [sel("badges", ["id"]), rows(["id"], [100], [101], [102], [103])]),
  c("a cascade that reaches a restricted row changes nothing", (t) => t("teams").delete().where({ id: 2 }), del("teams", C("=", "id", 2)),
    "DELETE FROM teams WHERE id = 2", err("constraint_violation"), [sel("members", ["id"]), rows(["id"], [10], [11], [12])]),
  c("a cascade that reaches no restricted row goes through", (t) => t("teams").delete().where({ id: 1 }), del("teams", C("=", "id", 1)),
    "DELETE FROM teams WHERE id = 1", mut("delete", "teams", 1), [sel("awards", ["id"]), rows(["id"], [1])]),
  c("a delete that matches nothing cascades nothing", (t) => t("teams").delete().where({ id: 9 }), del("teams", C("=", "id", 9)),
    "DELETE FROM teams WHERE id = 9", mut("delete", "teams", 0), [sel("badges", ["id"]), rows(["id"], [100], [101], [102], [103])]),

  // ---- a self-referencing cascade (SQLite's answers): the matched rows go one by one in table order, and a row an
  // earlier row's cascade already took is neither counted nor returned
  tx("a matched row a cascade took first is neither counted nor returned", [...TREE(TREE_ROWS),
    [(t) => t("n").delete().where(gt("v", 4)).returning("id"), { ...del("n", C(">", "v", 4)), returning: ["id"] }, "DELETE FROM n WHERE v > 4 RETURNING id"]],
    txr(CREATED_N, mut("insert", "n", 6), ret("delete", "n", 2, ["id"], [1], [4])), [sel("n", ["id"]), rows(["id"], [6])]),
  tx("without RETURNING the count is the same", [...TREE(TREE_ROWS),
    [(t) => t("n").delete().where(gt("v", 4)), del("n", C(">", "v", 4)), "DELETE FROM n WHERE v > 4"]],
    txr(CREATED_N, mut("insert", "n", 6), mut("delete", "n", 2)), [sel("n", ["id"]), rows(["id"], [6])]),
  tx("a chain deleted whole counts its head", [...TREE([[1, null, 1], [2, 1, 2], [3, 2, 3]]),
    [(t) => t("n").delete().all().returning("id"), { ...del("n", TRUE), returning: ["id"] }, "DELETE FROM n RETURNING id"]],
    txr(CREATED_N, mut("insert", "n", 3), ret("delete", "n", 1, ["id"], [1])), [sel("n", ["id"]), rows(["id"])]),
  tx("a descendant met before its ancestor is deleted and counted; one met after is not", [...TREE(DEEP_ROWS([1, 1, 0, 0, 1, 1])),
    [(t) => t("n").delete().where(eq("v", 1)).returning("id", "parent"), { ...del("n", C("=", "v", 1)), returning: ["id", "parent"] }, "DELETE FROM n WHERE v = 1 RETURNING id, parent"]],
    txr(CREATED_N, mut("insert", "n", 6), ret("delete", "n", 3, ["id", "parent"], [1, 3], [5, 6], [6, null])), [sel("n", ["id"]), rows(["id"])]),
  tx("descendants all met before their ancestors are each counted", [...TREE(DEEP_ROWS([0, 1, 1, 0, 0, 1])),
    [(t) => t("n").delete().where(eq("v", 1)).returning("id"), { ...del("n", C("=", "v", 1)), returning: ["id"] }, "DELETE FROM n WHERE v = 1 RETURNING id"]],
    txr(CREATED_N, mut("insert", "n", 6), ret("delete", "n", 3, ["id"], [2], [3], [6])), [sel("n", ["id"]), rows(["id"])]),

  // ---- checks
  c("a check that fails", (t) => t("orders").insert({ id: 7, user_id: "u1", amount: 0 }), ins("orders", { id: 7, user_id: "u1", amount: 0 }),
    "INSERT INTO orders (id, user_id, amount) VALUES (7, 'u1', 0)", err("validation_failed")),
  c("a check that is NULL passes", (t) => t("orders").insert({ id: 7, user_id: "u1", amount: null }), ins("orders", { id: 7, user_id: "u1", amount: null }),
    "INSERT INTO orders (id, user_id, amount) VALUES (7, 'u1', NULL)", mut("insert", "orders", 1)),
  c("an update that breaks a check", (t) => t("orders").update({ amount: -1 }).where({ id: 1 }), upd("orders", { amount: -1 }, C("=", "id", 1)),
    "UPDATE orders SET amount = -1 WHERE id = 1", err("validation_failed"),
    [sel("orders", ["amount"], { where: C("=", "id", 1) }), rows(["amount"], [250])]),
  c("an update to NULL passes the check", (t) => t("orders").update({ amount: null }).where({ id: 2 }), upd("orders", { amount: null }, C("=", "id", 2)),
    "UPDATE orders SET amount = NULL WHERE id = 2", mut("update", "orders", 1)),

  // ---- update
  c("update counts matched rows", (t) => t("users").update({ score: 1 }).where({ city: "Paris" }), upd("users", { score: 1 }, C("=", "city", "Paris")),
    "UPDATE users SET score = 1 WHERE city = 'Paris'", mut("update", "users", 2),
    [sel("users", ["id"], { where: C("=", "score", 1) }), ids("u1", "u3")]),
  c("update counts rows whose value does not change", (t) => t("users").update({ city: "Paris" }).where({ city: "Paris" }),
    upd("users", { city: "Paris" }, C("=", "city", "Paris")), "UPDATE users SET city = 'Paris' WHERE city = 'Paris'", mut("update", "users", 2)),
  c("update every row", (t) => t("users").update({ note: "n" }).all(), upd("users", { note: "n" }, TRUE), "UPDATE users SET note = 'n'",
    mut("update", "users", 5), [sel("users", ["id"], { where: C("=", "note", "n") }), FIVE_USERS]),
  c("update matching nothing", (t) => t("users").update({ note: "n" }).where(gt("age", 100)), upd("users", { note: "n" }, C(">", "age", 100)),
    "UPDATE users SET note = 'n' WHERE age > 100", mut("update", "users", 0)),
  c("update several columns with parameters", (t) => t("users").update({ score: 4.5, active: false }).where({ id: "u2" }),
    upd("users", { score: 4.5, active: false }, C("=", "id", "u2")), ["UPDATE users SET score = ?, active = ? WHERE id = ?", [4.5, false, "u2"]],
    mut("update", "users", 1), [sel("users", ["score", "active"], { where: C("=", "id", "u2") }), rows(["score", "active"], [4.5, false])]),
  c("update a required column to NULL", (t) => t("users").update({ name: null }).where({ id: "u1" }), upd("users", { name: null }, C("=", "id", "u1")),
    "UPDATE users SET name = NULL WHERE id = 'u1'", err("validation_failed")),
  c("update with a wrong type", (t) => t("users").update({ age: "x" }).where({ id: "u1" }), upd("users", { age: "x" }, C("=", "id", "u1")),
    "UPDATE users SET age = 'x' WHERE id = 'u1'", err("validation_failed")),
  c("a computed field is never writable (update)", (t) => t("users").update({ adult: false }).where({ id: "u1" }), upd("users", { adult: false }, C("=", "id", "u1")),
    "UPDATE users SET adult = FALSE WHERE id = 'u1'", err("validation_failed")),
  c("update an unknown column", (t) => t("users").update({ nickname: "x" }).where({ id: "u1" }), upd("users", { nickname: "x" }, C("=", "id", "u1")),
    "UPDATE users SET nickname = 'x' WHERE id = 'u1'", err("validation_failed")),
  c("update with an unknown column in WHERE", (t) => t("users").update({ note: "n" }).where({ nickname: "x" }), upd("users", { note: "n" }, C("=", "nickname", "x")),
    "UPDATE users SET note = 'n' WHERE nickname = 'x'", err("unknown_column")),
  c("update with a type mismatch in WHERE", (t) => t("users").update({ note: "n" }).where(eq("age", "x")), upd("users", { note: "n" }, C("=", "age", "x")),
    "UPDATE users SET note = 'n' WHERE age = 'x'", err("type_mismatch")),
  c("update a missing table", (t) => t("nope").update({ a: 1 }).all(), upd("nope", { a: 1 }, TRUE), "UPDATE nope SET a = 1", err("table_not_found")),

  // ---- indexes stay exact through every mutation
  c("an updated indexed column is found under its new value only", (t) => t("orders").update({ user_id: "u4" }).where({ id: 1 }),
    upd("orders", { user_id: "u4" }, C("=", "id", 1)), "UPDATE orders SET user_id = 'u4' WHERE id = 1", mut("update", "orders", 1),
    [sel("orders", ["id"], { where: C("=", "user_id", "u1") }), orderIds(2)]),
  c("an updated primary key is found under its new value", (t) => t("users").update({ id: "u9" }).where({ id: "u4" }),
    upd("users", { id: "u9" }, C("=", "id", "u4")), "UPDATE users SET id = 'u9' WHERE id = 'u4'", mut("update", "users", 1),
    [sel("users", ["name"], { where: C("=", "id", "u9") }), rows(["name"], ["Dee"])]),
  c("an old primary key is gone after an update", (t) => t("users").update({ id: "u9" }).where({ id: "u4" }),
    upd("users", { id: "u9" }, C("=", "id", "u4")), "UPDATE users SET id = 'u9' WHERE id = 'u4'", mut("update", "users", 1),
    [sel("users", ["name"], { where: C("=", "id", "u4") }), rows(["name"])]),
  c("a secondary index keeps table order after an update", (t) => t("users").update({ city: "Rome" }).where({ id: "u1" }),
    upd("users", { city: "Rome" }, C("=", "id", "u1")), "UPDATE users SET city = 'Rome' WHERE id = 'u1'", mut("update", "users", 1),
    [sel("users", ["id"], { where: C("=", "city", "Rome") }), ids("u1", "u5")]),
  c("a deleted row leaves the index", (t) => t("orders").delete().where({ id: 2 }), del("orders", C("=", "id", 2)), "DELETE FROM orders WHERE id = 2",
    mut("delete", "orders", 1), [sel("orders", ["id"], { where: C("=", "user_id", "u1") }), orderIds(1)]),
  c("delete through an index", (t) => t("orders").delete().where({ user_id: "u5" }), del("orders", C("=", "user_id", "u5")),
    "DELETE FROM orders WHERE user_id = 'u5'", mut("delete", "orders", 2), [allOrders, orderIds(1, 2, 3, 4)]),
  c("an inserted row joins the index", (t) => t("orders").insert({ id: 7, user_id: "u1", amount: 1 }), ins("orders", { id: 7, user_id: "u1", amount: 1 }),
    "INSERT INTO orders (id, user_id, amount) VALUES (7, 'u1', 1)", mut("insert", "orders", 1),
    [sel("orders", ["id"], { where: C("=", "user_id", "u1") }), orderIds(1, 2, 7)]),
  c("text sorts by code point", (t) => t("users").insert([{ id: "u6", name: "😀" }, { id: "u7", name: "b" }, { id: "u8", name: "！" }, { id: "u9", name: "é" }]),
    ins("users", { id: "u6", name: "😀" }, { id: "u7", name: "b" }, { id: "u8", name: "！" }, { id: "u9", name: "é" }),
    "INSERT INTO users (id, name) VALUES ('u6', '😀'), ('u7', 'b'), ('u8', '！'), ('u9', 'é')", mut("insert", "users", 4),
    [sel("users", ["name"], { orderBy: [{ column: "name" }] }), rows(["name"], ["Ada"], ["Bob"], ["Cy"], ["Dee"], ["Eve"], ["b"], ["é"], ["！"], ["😀"])]),

  // ---- delete
  c("delete by a filter", (t) => t("orders").delete().where({ status: "new" }), del("orders", C("=", "status", "new")),
    "DELETE FROM orders WHERE status = 'new'", mut("delete", "orders", 3), [allOrders, orderIds(1, 3, 4)]),
  c("delete every row", (t) => t("orders").delete().all(), del("orders", TRUE), "DELETE FROM orders", mut("delete", "orders", 6), [allOrders, orderIds()]),
  c("delete with WHERE TRUE", (t) => t("orders").delete().where(val(true)), del("orders", L(true)), "DELETE FROM orders WHERE TRUE",
    mut("delete", "orders", 6)),
  c("delete matching nothing", (t) => t("orders").delete().where({ id: 99 }), del("orders", C("=", "id", 99)), "DELETE FROM orders WHERE id = 99",
    mut("delete", "orders", 0), [allOrders, SIX_ORDERS]),
  c("delete a missing table", (t) => t("nope").delete().all(), del("nope", TRUE), "DELETE FROM nope", err("table_not_found")),
];
