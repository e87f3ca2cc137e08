/**
 * Conformance cases: transactions (CONTRACT §11) — steps in order, each
 * seeing the ones before it; a failure at the first, a middle or the last
 * step naming that step and keeping nothing (`after` shows the fixture
 * intact, dropped and created tables included); the limits on what a
 * transaction holds. Each case runs as a transaction command whose steps
 * come from the builder, from JSON and from SQL, and (library) as
 * `db.transaction(async (tx) => …)`.
 */

import { col, eq } from "../../src/api/expressions.js";
import type { Command, Value } from "../../src/commands/types.js";
import { B, C, L, TRUE, atStep, del, err, ids, ins, mut, ret, rows, sel, tx, txr, upd, upserted, type Case, type StepForms } from "./dsl.js";

const FIVE_USERS = ids("u1", "u2", "u3", "u4", "u5");
const allUsers = sel("users", ["id"]);
const user = (id: string, ...columns: string[]) => sel("users", columns, { where: C("=", "id", id) });

const insertU6: StepForms = [(t) => t("users").insert({ id: "u6", name: "Fay" }), ins("users", { id: "u6", name: "Fay" }), "INSERT INTO users (id, name) VALUES ('u6', 'Fay')"];
const insertU7: StepForms = [(t) => t("users").insert({ id: "u7", name: "Gus" }), ins("users", { id: "u7", name: "Gus" }), "INSERT INTO users (id, name) VALUES ('u7', 'Gus')"];
const duplicateU1: StepForms = [(t) => t("users").insert({ id: "u1", name: "Dup" }), ins("users", { id: "u1", name: "Dup" }), "INSERT INTO users (id, name) VALUES ('u1', 'Dup')"];
const badAge: StepForms = [(t) => t("users").update({ age: "old" }).where({ id: "u6" }), upd("users", { age: "old" }, C("=", "id", "u6")), "UPDATE users SET age = 'old' WHERE id = 'u6'"];
const ageUp: StepForms = [
  (t) => t("users").update({ age: col("age").add(1) }).where({ id: "u1" }),
  { kind: "update", table: "users", set: { age: B("+", "age", 1) }, where: C("=", "id", "u1") },
  "UPDATE users SET age = age + 1 WHERE id = 'u1'",
];
const selectAge: StepForms = [(t) => t("users").select("age").where({ id: "u1" }), user("u1", "age"), "SELECT age FROM users WHERE id = 'u1'"];
const createT2: Command = { kind: "create-table", schema: { name: "t2", columns: { id: "integer", v: "text" }, primary_key: { columns: ["id"] } } };
const createT2Forms: StepForms = [null, createT2, "CREATE TABLE t2 (id INTEGER PRIMARY KEY, v TEXT)"];
const COMMAND_ONLY = { commandOnly: true };
const oneRow = (value: Value): Command => ({ kind: "select", columns: [{ expr: L(value), as: "v" }] }) as Command;

export const transactionCases: readonly Case[] = [
  tx("a transaction's steps all take effect, in order", [insertU6, [(t) => t("users").update({ age: 1 }).where({ id: "u6" }), upd("users", { age: 1 }, C("=", "id", "u6")), "UPDATE users SET age = 1 WHERE id = 'u6'"]],
    txr(mut("insert", "users", 1), mut("update", "users", 1)), [user("u6", "name", "age"), rows(["name", "age"], ["Fay", 1])]),
  tx("a later step sees an earlier step's row (a reference to it)", [insertU6,
    [(t) => t("orders").insert({ id: 7, user_id: "u6", amount: 3 }), ins("orders", { id: 7, user_id: "u6", amount: 3 }), "INSERT INTO orders (id, user_id, amount) VALUES (7, 'u6', 3)"]],
    txr(mut("insert", "users", 1), mut("insert", "orders", 1)), [sel("orders", ["user_id"], { where: C("=", "id", 7) }), rows(["user_id"], ["u6"])]),
  tx("a read step sees the writes before it", [ageUp, selectAge], txr(mut("update", "users", 1), rows(["age"], [37]))),
  tx("set expressions in two steps build on each other", [ageUp, ageUp, selectAge], txr(mut("update", "users", 1), mut("update", "users", 1), rows(["age"], [38]))),
  tx("a step's RETURNING sees the steps before it", [insertU6,
    [(t) => t("users").update({ age: 30 }).where({ id: "u6" }).returning("id", "name", "adult"), { ...upd("users", { age: 30 }, C("=", "id", "u6")), returning: ["id", "name", "adult"] },
      "UPDATE users SET age = 30 WHERE id = 'u6' RETURNING id, name, adult"]],
    txr(mut("insert", "users", 1), ret("update", "users", 1, ["id", "name", "adult"], ["u6", "Fay", true]))),
  tx("a transaction of one read", [selectAge], txr(rows(["age"], [36]))),
  tx("an upsert in a transaction", [insertU6,
    [(t) => t("users").insert({ id: "u6", name: "Fey" }).onConflictDoUpdate({ target: ["id"], set: { name: "Fey" } }),
      { kind: "insert", table: "users", rows: [{ id: "u6", name: "Fey" }], onConflict: { target: ["id"], action: "update", set: { name: "Fey" } } },
      "INSERT INTO users (id, name) VALUES ('u6', 'Fey') ON CONFLICT (id) DO UPDATE SET name = 'Fey'"]],
    txr(mut("insert", "users", 1), upserted("users", [0, 1, 0])), [user("u6", "name"), rows(["name"], ["Fey"])]),

  // ---- a failing step keeps nothing: first, middle, last
  tx("a failing first step keeps nothing", [duplicateU1, insertU6, insertU7], atStep(0, "constraint_violation"), [allUsers, FIVE_USERS]),
  tx("a failing middle step undoes the steps before it", [insertU6, badAge, insertU7], atStep(1, "validation_failed"), [allUsers, FIVE_USERS]),
  tx("a failing last step undoes every step", [insertU6, insertU7, ageUp,
    [(t) => t("users").delete().where({ id: "u1" }), del("users", C("=", "id", "u1")), "DELETE FROM users WHERE id = 'u1'"]],
    atStep(3, "constraint_violation"), [[allUsers, FIVE_USERS], [user("u1", "age"), rows(["age"], [36])]]),
  tx("a reference is checked when its step runs, not at the end", [
    [(t) => t("orders").insert({ id: 7, user_id: "u6", amount: 3 }), ins("orders", { id: 7, user_id: "u6", amount: 3 }), "INSERT INTO orders (id, user_id, amount) VALUES (7, 'u6', 3)"],
    insertU6], atStep(0, "constraint_violation"), [allUsers, FIVE_USERS]),
  tx("an unknown table in a step", [insertU6, [(t) => t("nope").insert({ id: 1 }), ins("nope", { id: 1 }), "INSERT INTO nope (id) VALUES (1)"]],
    atStep(1, "table_not_found"), [allUsers, FIVE_USERS]),
  tx("a SQL syntax error in a step", [insertU6, [null, { kind: "sql", sql: "SELEC 1" }, "SELEC 1"]], atStep(1, "sql_syntax_error"), [allUsers, FIVE_USERS]),
  tx("a type mismatch in a step", [insertU6, [(t) => t("users").select("id").where(eq("age", "x")), sel("users", ["id"], { where: C("=", "age", "x") }), "SELECT id FROM users WHERE age = 'x'"]],
    atStep(1, "type_mismatch"), [allUsers, FIVE_USERS]),
  tx("a cascade inside a failed transaction is undone", [
    [(t) => t("teams").delete().where({ id: 1 }), del("teams", C("=", "id", 1)), "DELETE FROM teams WHERE id = 1"], duplicateU1],
    atStep(1, "constraint_violation"), [[sel("members", ["id"]), rows(["id"], [10], [11], [12])], [sel("badges", ["id"]), rows(["id"], [100], [101], [102], [103])]]),
  tx("a table created and filled by a transaction", [createT2Forms,
    [(t) => t("t2").insert([{ id: 1, v: "a" }, { id: 2, v: "b" }]), ins("t2", { id: 1, v: "a" }, { id: 2, v: "b" }), "INSERT INTO t2 (id, v) VALUES (1, 'a'), (2, 'b')"],
    [(t) => t("t2").select("v").orderBy("id", "desc"), sel("t2", ["v"], { orderBy: [{ column: "id", direction: "desc" }] }), "SELECT v FROM t2 ORDER BY id DESC"]],
    txr(mut("create-table", "t2", 0), mut("insert", "t2", 2), rows(["v"], ["b"], ["a"])), [sel("t2", ["id"]), rows(["id"], [1], [2])]),
  tx("a table created by a failed transaction does not exist", [createT2Forms,
    [(t) => t("t2").insert({ id: 1, v: 5 }), ins("t2", { id: 1, v: 5 }), "INSERT INTO t2 (id, v) VALUES (1, 5)"]],
    atStep(1, "validation_failed"), [sel("t2", ["id"]), { error: "table_not_found" }]),
  tx("a table dropped by a failed transaction comes back with its rows", [
    [null, { kind: "drop-table", table: "pairs" }, "DROP TABLE pairs"], duplicateU1],
    atStep(1, "constraint_violation"), [sel("pairs", ["a", "b", "code"]), rows(["a", "b", "code"], [1, "x", "A"], [1, "y", null], [2, "x", null])]),
  tx("a step may drop a table an earlier step emptied of references", [
    [(t) => t("awards").delete().all(), del("awards", TRUE), "DELETE FROM awards"],
    [(t) => t("badges").delete().all(), del("badges", TRUE), "DELETE FROM badges"],
    [null, { kind: "drop-table", table: "badges" }, "DROP TABLE badges"]],
    txr(mut("delete", "awards", 1), mut("delete", "badges", 4), mut("drop-table", "badges", 0)), [sel("badges", ["id"]), { error: "table_not_found" }]),
  tx("a step of a SQL statement with parameters", [[null, { kind: "sql", sql: "UPDATE users SET score = score * ? WHERE id = ?", params: [2, "u2"] },
    ["UPDATE users SET score = score * ? WHERE id = ?", [2, "u2"]]], [null, user("u2", "score"), ["SELECT score FROM users WHERE id = ?", ["u2"]]]],
    txr(mut("update", "users", 1), rows(["score"], [14.5]))),

  // ---- what a transaction may hold
  tx("exactly 1,000 steps run", Array.from({ length: 1000 }, (_, i): StepForms => [null, oneRow(i), null]),
    txr(...Array.from({ length: 1000 }, (_, i) => rows(["v"], [i])))),
  tx("more than 1,000 steps are refused", Array.from({ length: 1001 }, (_, i): StepForms => [null, oneRow(i), null]), err("invalid_request"), undefined, COMMAND_ONLY),
  tx("an empty transaction is refused", [], err("invalid_request"), undefined, COMMAND_ONLY),
  tx("transactions do not nest", [[null, { kind: "transaction", commands: [oneRow(1)] }, null]], err("invalid_request")),
  tx("validate is no transaction step", [[null, { kind: "validate" }, null]], err("invalid_request"), undefined, COMMAND_ONLY),
  tx("checkpoint is no transaction step", [insertU6, [null, { kind: "checkpoint" }, null]], err("invalid_request"), [allUsers, FIVE_USERS]),
  tx("a malformed step refuses the whole transaction before anything runs", [insertU6, [null, { kind: "update", table: "users", set: { age: 1 } }, null]],
    err("invalid_request"), [allUsers, FIVE_USERS]),
];
