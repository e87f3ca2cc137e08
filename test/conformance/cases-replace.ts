/**
 * Conformance cases for INSERT OR REPLACE (JSON `onConflict: {"action":
 * "replace"}`, SQL `INSERT OR REPLACE` and `REPLACE INTO`, the builder's
 * `onConflictReplace()`): a proposed row deletes every row it conflicts
 * with on any key — what that delete cascades to goes too, a restricting
 * reference refuses it — and is inserted at the table's end; counts,
 * RETURNING, INSERT … SELECT, rows of one command replacing each other,
 * rules still checked on the written row, a transaction undoing a replace,
 * and the refused forms (a target, a set, ON CONFLICT beside OR REPLACE,
 * OR FAIL and OR ROLLBACK; OR ABORT is a plain insert).
 *
 * Fixture rows (see `fixture.ts`): users u1..u5, orders referencing u1, u2,
 * u3 and u5 (restrict); teams 1 and 2 ← members 10, 11 (team 1) and 12
 * (team 2) by cascade ← badges 100, 103 (member 10), 101 (11), 102 (12) by
 * cascade; awards 1 → member 12 (restrict); pairs (1,x,A,one), (1,y,–,two),
 * (2,x,–,three) with key (a, b) and unique code.
 */

import { col } from "../../src/api/expressions.js";
import type { Command, Value } from "../../src/commands/types.js";
import { C, I, L, c, err, ids, misuse, mut, rows, sel, tx, txr, type Case, type StepForms } from "./dsl.js";
import type { Result } from "../../src/commands/results.js";

type Row = Record<string, Value>;
const replace = (table: string, rowList: Row[], extra: Record<string, unknown> = {}): Command =>
  ({ kind: "insert", table, rows: rowList, onConflict: { action: "replace" }, ...extra }) as Command;

/** An INSERT OR REPLACE's result: rows inserted anew and in place of others, and with RETURNING the rows written. */
const replaced = (table: string, [inserted, count]: readonly [number, number], columns?: readonly string[], ...data: readonly (readonly Value[])[]): Result => ({
  kind: "mutation",
  operation: "insert",
  table,
  rowsAffected: inserted + count,
  inserted,
  replaced: count,
  ...(columns === undefined ? {} : { columns, rows: data.map((values) => Object.fromEntries(columns.map((column, i) => [column, values[i] as Value]))) }),
});

const USERS = sel("users", ["id", "name", "age"]);
const FIVE = rows(["id", "name", "age"], ["u1", "Ada", 36], ["u2", "Bob", 17], ["u3", "Cy", null], ["u4", "Dee", 52], ["u5", "Eve", 28]);
const PAIRS = sel("pairs", ["a", "b", "code", "label"]);
const THREE_PAIRS = rows(["a", "b", "code", "label"], [1, "x", "A", "one"], [1, "y", null, "two"], [2, "x", null, "three"]);
const TEAMS = sel("teams", ["id", "name"]);
const MEMBERS = sel("members", ["id"]);
const BADGES = sel("badges", ["id"]);
const idList = (...list: number[]) => rows(["id"], ...list.map((id) => [id]));

const replaceU4: StepForms = [(t) => t("users").insert({ id: "u4", name: "Dot" }).onConflictReplace(), replace("users", [{ id: "u4", name: "Dot" }]),
  "REPLACE INTO users (id, name) VALUES ('u4', 'Dot')"];

export const replaceCases: readonly Case[] = [
  // ---- what goes, what comes, where it lands
  c("INSERT OR REPLACE deletes the row holding the key and inserts the new one at the end",
    (t) => t("users").insert({ id: "u4", name: "Dot" }).onConflictReplace(), replace("users", [{ id: "u4", name: "Dot" }]),
    "INSERT OR REPLACE INTO users (id, name) VALUES ('u4', 'Dot')", replaced("users", [0, 1]),
    [USERS, rows(["id", "name", "age"], ["u1", "Ada", 36], ["u2", "Bob", 17], ["u3", "Cy", null], ["u5", "Eve", 28], ["u4", "Dot", null])]),
  c("REPLACE INTO counts rows inserted anew and in place of others",
    (t) => t("users").insert([{ id: "u6", name: "Fay" }, { id: "u4", name: "Dot", age: 53 }]).onConflictReplace(),
    replace("users", [{ id: "u6", name: "Fay" }, { id: "u4", name: "Dot", age: 53 }]),
    "REPLACE INTO users (id, name, age) VALUES ('u6', 'Fay', NULL), ('u4', 'Dot', 53)", replaced("users", [1, 1]),
    [sel("users", ["id", "name", "age"], { where: { type: "in", expr: I("id"), values: [L("u4"), L("u6")] } }), rows(["id", "name", "age"], ["u6", "Fay", null], ["u4", "Dot", 53])]),
  c("a row conflicting on two keys deletes both rows",
    (t) => t("pairs").insert({ a: 1, b: "y", code: "A", label: "both" }).onConflictReplace(), replace("pairs", [{ a: 1, b: "y", code: "A", label: "both" }]),
    "INSERT OR REPLACE INTO pairs (a, b, code, label) VALUES (1, 'y', 'A', 'both')", replaced("pairs", [0, 1]),
    [PAIRS, rows(["a", "b", "code", "label"], [2, "x", null, "three"], [1, "y", "A", "both"])]),
  c("a row conflicting with none is inserted", (t) => t("pairs").insert({ a: 3, b: "z", code: "Q" }).onConflictReplace(),
    replace("pairs", [{ a: 3, b: "z", code: "Q" }]), "REPLACE INTO pairs (a, b, code) VALUES (3, 'z', 'Q')", replaced("pairs", [1, 0])),
  c("a later row of one command replaces an earlier one; RETURNING gives both, in order",
    (t) => t("users").insert([{ id: "u6", name: "Fay" }, { id: "u6", name: "Fey" }]).onConflictReplace().returning("id", "name"),
    replace("users", [{ id: "u6", name: "Fay" }, { id: "u6", name: "Fey" }], { returning: ["id", "name"] }),
    "INSERT OR REPLACE INTO users (id, name) VALUES ('u6', 'Fay'), ('u6', 'Fey') RETURNING id, name",
    replaced("users", [1, 1], ["id", "name"], ["u6", "Fay"], ["u6", "Fey"]), [sel("users", ["name"], { where: C("=", "id", "u6") }), rows(["name"], ["Fey"])]),
  c("RETURNING reads the written row, its defaults and computed fields",
    (t) => t("orders").insert({ id: 2, user_id: "u4", amount: 120 }).onConflictReplace().returning("id", "user_id", "status", "big"),
    replace("orders", [{ id: 2, user_id: "u4", amount: 120 }], { returning: ["id", "user_id", "status", "big"] }),
    "REPLACE INTO orders (id, user_id, amount) VALUES (2, 'u4', 120) RETURNING id, user_id, status, big",
    replaced("orders", [0, 1], ["id", "user_id", "status", "big"], [2, "u4", "new", true]),
    [sel("orders", ["id"]), idList(1, 3, 4, 5, 6, 2)]),
  c("INSERT OR REPLACE … SELECT replaces with the selected rows",
    (t) => t("pairs").insert(t("pairs").select("a", "b", "code", col("label").concat("!").as("label")).where({ a: 1 })).onConflictReplace(),
    { kind: "insert", table: "pairs", select: sel("pairs", ["a", "b", "code", { expr: { type: "binary", op: "||", left: I("label"), right: L("!") }, as: "label" }], { where: C("=", "a", 1) }), onConflict: { action: "replace" } },
    "INSERT OR REPLACE INTO pairs (a, b, code, label) SELECT a, b, code, label || '!' FROM pairs WHERE a = 1", replaced("pairs", [0, 2]),
    [PAIRS, rows(["a", "b", "code", "label"], [2, "x", null, "three"], [1, "x", "A", "one!"], [1, "y", null, "two!"])]),
  c("a VALUES tuple that computes replaces as well", null, null,
    "REPLACE INTO pairs (a, b, code, label) VALUES (1, 'x', lower('B'), upper('one'))", replaced("pairs", [0, 1]),
    [PAIRS, rows(["a", "b", "code", "label"], [1, "y", null, "two"], [2, "x", null, "three"], [1, "x", "b", "ONE"])]),

  // ---- foreign keys: a replaced row is deleted
  c("a replaced row's cascade deletes its children", (t) => t("teams").insert({ id: 1, name: "crimson" }).onConflictReplace(),
    replace("teams", [{ id: 1, name: "crimson" }]), "REPLACE INTO teams (id, name) VALUES (1, 'crimson')", replaced("teams", [0, 1]),
    [[TEAMS, rows(["id", "name"], [2, "blue"], [1, "crimson"])], [MEMBERS, idList(12)], [BADGES, idList(102)]]),
  c("a restricting reference to the replaced row refuses it, even with the same key", (t) => t("users").insert({ id: "u1", name: "Ada" }).onConflictReplace(),
    replace("users", [{ id: "u1", name: "Ada" }]), "INSERT OR REPLACE INTO users (id, name) VALUES ('u1', 'Ada')", err("constraint_violation"), [USERS, FIVE]),
  c("a restricting reference met down a cascade refuses it", (t) => t("teams").insert({ id: 2, name: "navy" }).onConflictReplace(),
    replace("teams", [{ id: 2, name: "navy" }]), "REPLACE INTO teams (id, name) VALUES (2, 'navy')", err("constraint_violation"),
    [[TEAMS, rows(["id", "name"], [1, "red"], [2, "blue"])], [MEMBERS, idList(10, 11, 12)], [BADGES, idList(100, 101, 102, 103)]]),
  c("the new row must reference an existing parent", (t) => t("orders").insert({ id: 1, user_id: "nobody", amount: 1 }).onConflictReplace(),
    replace("orders", [{ id: 1, user_id: "nobody", amount: 1 }]), "REPLACE INTO orders (id, user_id, amount) VALUES (1, 'nobody', 1)", err("constraint_violation"),
    [sel("orders", ["id"]), idList(1, 2, 3, 4, 5, 6)]),

  // ---- other rules still refuse; a failing row undoes the command
  c("a required column left NULL is refused, not defaulted", (t) => t("users").insert({ id: "u4" }).onConflictReplace(),
    replace("users", [{ id: "u4" }]), "REPLACE INTO users (id) VALUES ('u4')", err("validation_failed"), [USERS, FIVE]),
  c("a check the new row breaks is refused", (t) => t("orders").insert({ id: 5, user_id: "u5", amount: -1 }).onConflictReplace(),
    replace("orders", [{ id: 5, user_id: "u5", amount: -1 }]), "REPLACE INTO orders (id, user_id, amount) VALUES (5, 'u5', -1)", err("validation_failed"),
    [sel("orders", ["id"]), idList(1, 2, 3, 4, 5, 6)]),
  c("a failing row undoes the replacements before it", (t) => t("users").insert([{ id: "u4", name: "Dot" }, { id: "u1", name: "Ann" }]).onConflictReplace(),
    replace("users", [{ id: "u4", name: "Dot" }, { id: "u1", name: "Ann" }]), "REPLACE INTO users (id, name) VALUES ('u4', 'Dot'), ('u1', 'Ann')",
    err("constraint_violation"), [USERS, FIVE]),
  tx("a transaction that fails after a replace restores the replaced row in its place",
    [replaceU4, [null, { kind: "insert", table: "users", rows: [{ id: "u1", name: "Dup" }] }, "INSERT INTO users (id, name) VALUES ('u1', 'Dup')"]],
    { error: "constraint_violation", step: 1 }, [USERS, FIVE]),
  tx("a replace is seen by the next step", [replaceU4, [null, sel("users", ["id"]), "SELECT id FROM users"]],
    txr(replaced("users", [0, 1]), ids("u1", "u2", "u3", "u5", "u4"))),

  // ---- refused and mapped forms
  c("action replace takes no target", null, replace("users", [{ id: "u1", name: "X" }], { onConflict: { action: "replace", target: ["id"] } }), null, err("invalid_request")),
  c("action replace takes no set", null, replace("users", [{ id: "u1", name: "X" }], { onConflict: { action: "replace", set: { name: "Y" } } }), null, err("invalid_request")),
  c("INSERT OR REPLACE takes no ON CONFLICT clause", null, null,
    "INSERT OR REPLACE INTO users (id, name) VALUES ('u1', 'X') ON CONFLICT DO NOTHING", err("sql_error")),
  c("INSERT OR FAIL is refused: a statement is all or nothing", null, null, "INSERT OR FAIL INTO users (id, name) VALUES ('u6', 'X')", err("sql_error"), [USERS, FIVE]),
  c("INSERT OR ABORT is a plain insert", (t) => t("users").insert({ id: "u1", name: "X" }), { kind: "insert", table: "users", rows: [{ id: "u1", name: "X" }] },
    "INSERT OR ABORT INTO users (id, name) VALUES ('u1', 'X')", err("constraint_violation"), [USERS, FIVE]),
  c("onConflictReplace is for inserts", (t) => t("users").update({ name: "X" }).where({ id: "u1" }).onConflictReplace(), null, null, misuse),
];
