/**
 * Conformance cases: inserts with a conflict clause (CONTRACT §11) —
 * `nothing` and `update` with `excluded.col`, `INSERT OR IGNORE`, targets
 * and their absence, rows of one command seeing each other, counts and
 * RETURNING — and every rule still checked on the row an update writes,
 * with the whole command undone (`after`) when one row fails.
 */

import { caseWhen, col, excluded, gt, upper } from "../../src/api/expressions.js";
import type { Command, Expression, Value } from "../../src/commands/types.js";
import { B, C, CASE, I, L, c, err, ids, misuse, rows, sel, upserted, type Case } from "./dsl.js";

type Row = Record<string, Value>;
interface Clause {
  readonly target?: string[];
  readonly action: "nothing" | "update";
  readonly set?: Record<string, Value | Expression>;
  readonly where?: Expression;
}
const upsert = (table: string, rowList: Row[], onConflict: Clause, returning?: unknown): Command =>
  ({ kind: "insert", table, rows: rowList, onConflict, ...(returning === undefined ? {} : { returning }) }) as Command;

const FIVE_USERS = ids("u1", "u2", "u3", "u4", "u5");
const allUsers = sel("users", ["id"]);
const user = (id: string, ...columns: string[]) => sel("users", columns, { where: C("=", "id", id) });
const PAIRS = [sel("pairs", ["a", "b", "code", "label"]), rows(["a", "b", "code", "label"], [1, "x", "A", "one"], [1, "y", null, "two"], [2, "x", null, "three"])] as const;

export const upsertCases: readonly Case[] = [
  // ---- DO NOTHING, INSERT OR IGNORE
  c("ON CONFLICT DO NOTHING skips a conflicting row", (t) => t("users").insert([{ id: "u1", name: "Ann" }, { id: "u6", name: "Fay" }]).onConflictDoNothing({ target: ["id"] }),
    upsert("users", [{ id: "u1", name: "Ann" }, { id: "u6", name: "Fay" }], { target: ["id"], action: "nothing" }),
    "INSERT INTO users (id, name) VALUES ('u1', 'Ann'), ('u6', 'Fay') ON CONFLICT (id) DO NOTHING",
    upserted("users", [1, 0, 1]), [[allUsers, ids("u1", "u2", "u3", "u4", "u5", "u6")], [user("u1", "name"), rows(["name"], ["Ada"])]]),
  c("INSERT OR IGNORE skips conflicts on any key",
    (t) => t("pairs").insert([{ a: 1, b: "x", code: "Q" }, { a: 3, b: "z", code: "A" }, { a: 4, b: "z", code: "N" }]).onConflictDoNothing(),
    upsert("pairs", [{ a: 1, b: "x", code: "Q" }, { a: 3, b: "z", code: "A" }, { a: 4, b: "z", code: "N" }], { action: "nothing" }),
    "INSERT OR IGNORE INTO pairs (a, b, code) VALUES (1, 'x', 'Q'), (3, 'z', 'A'), (4, 'z', 'N')",
    upserted("pairs", [1, 0, 2]), [sel("pairs", ["a", "code"]), rows(["a", "code"], [1, "A"], [1, null], [2, null], [4, "N"])]),
  c("DO NOTHING without a target skips a unique key's conflict", (t) => t("pairs").insert({ a: 9, b: "q", code: "A" }).onConflictDoNothing(),
    upsert("pairs", [{ a: 9, b: "q", code: "A" }], { action: "nothing" }), "INSERT INTO pairs (a, b, code) VALUES (9, 'q', 'A') ON CONFLICT DO NOTHING",
    upserted("pairs", [0, 0, 1]), PAIRS),
  c("DO NOTHING on one key: a conflict on another is 409 and nothing changes",
    (t) => t("pairs").insert([{ a: 5, b: "n", code: "N" }, { a: 3, b: "z", code: "A" }]).onConflictDoNothing({ target: ["a", "b"] }),
    upsert("pairs", [{ a: 5, b: "n", code: "N" }, { a: 3, b: "z", code: "A" }], { target: ["a", "b"], action: "nothing" }),
    "INSERT INTO pairs (a, b, code) VALUES (5, 'n', 'N'), (3, 'z', 'A') ON CONFLICT (a, b) DO NOTHING", err("constraint_violation"), PAIRS),
  c("a target in another column order names the same key", (t) => t("pairs").insert({ a: 1, b: "x", code: "Q" }).onConflictDoNothing({ target: ["b", "a"] }),
    upsert("pairs", [{ a: 1, b: "x", code: "Q" }], { target: ["b", "a"], action: "nothing" }),
    "INSERT INTO pairs (a, b, code) VALUES (1, 'x', 'Q') ON CONFLICT (b, a) DO NOTHING", upserted("pairs", [0, 0, 1]), PAIRS),
  c("DO NOTHING does not skip a row that breaks another rule", (t) => t("users").insert({ id: "u1" }).onConflictDoNothing(),
    upsert("users", [{ id: "u1" }], { action: "nothing" }), "INSERT INTO users (id) VALUES ('u1') ON CONFLICT DO NOTHING", err("validation_failed"),
    [allUsers, FIVE_USERS]),
  c("DO NOTHING RETURNING leaves out the skipped rows",
    (t) => t("users").insert([{ id: "u1", name: "Ann" }, { id: "u6", name: "Fay" }]).onConflictDoNothing().returning("id", "name"),
    upsert("users", [{ id: "u1", name: "Ann" }, { id: "u6", name: "Fay" }], { action: "nothing" }, ["id", "name"]),
    "INSERT INTO users (id, name) VALUES ('u1', 'Ann'), ('u6', 'Fay') ON CONFLICT DO NOTHING RETURNING id, name",
    upserted("users", [1, 0, 1], ["id", "name"], ["u6", "Fay"])),
  c("an upsert of new rows only inserts", (t) => t("users").insert([{ id: "u6", name: "Fay" }, { id: "u7", name: "Gus" }]).onConflictDoNothing(),
    upsert("users", [{ id: "u6", name: "Fay" }, { id: "u7", name: "Gus" }], { action: "nothing" }),
    "INSERT INTO users (id, name) VALUES ('u6', 'Fay'), ('u7', 'Gus') ON CONFLICT DO NOTHING", upserted("users", [2, 0, 0])),

  // ---- DO UPDATE
  c("DO UPDATE takes the proposed row's value through excluded",
    (t) => t("users").insert({ id: "u1", name: "Ann", age: 40 }).onConflictDoUpdate({ target: ["id"], set: { name: excluded("name") } }),
    upsert("users", [{ id: "u1", name: "Ann", age: 40 }], { target: ["id"], action: "update", set: { name: I("excluded.name") } }),
    "INSERT INTO users (id, name, age) VALUES ('u1', 'Ann', 40) ON CONFLICT (id) DO UPDATE SET name = excluded.name",
    upserted("users", [0, 1, 0]), [user("u1", "name", "age"), rows(["name", "age"], ["Ann", 36])]),
  c("DO UPDATE reads the row already there", (t) => t("users").insert({ id: "u1", name: "Ann", age: 4 }).onConflictDoUpdate({ target: ["id"], set: { age: col("age").add(excluded("age")) } }),
    upsert("users", [{ id: "u1", name: "Ann", age: 4 }], { target: ["id"], action: "update", set: { age: B("+", "age", I("excluded.age")) } }),
    "INSERT INTO users (id, name, age) VALUES ('u1', 'Ann', 4) ON CONFLICT (id) DO UPDATE SET age = age + excluded.age",
    upserted("users", [0, 1, 0]), [user("u1", "name", "age"), rows(["name", "age"], ["Ada", 40])]),
  c("DO UPDATE may name the row already there by its table", (t) => t("users").insert({ id: "u1", name: "Ann" }).onConflictDoUpdate({ target: ["id"], set: { note: upper("users.name") } }),
    upsert("users", [{ id: "u1", name: "Ann" }], { target: ["id"], action: "update", set: { note: { type: "function", name: "upper", args: [I("users.name")] } } }),
    "INSERT INTO users (id, name) VALUES ('u1', 'Ann') ON CONFLICT (id) DO UPDATE SET note = upper(users.name)",
    upserted("users", [0, 1, 0]), [user("u1", "note"), rows(["note"], ["ADA"])]),
  c("DO UPDATE … WHERE updates the rows it holds for and ignores the others' proposed rows",
    (t) => t("users").insert([{ id: "u1", name: "Ann", age: 40 }, { id: "u2", name: "Bo", age: 1 }, { id: "u6", name: "Fay" }])
      .onConflictDoUpdate({ target: ["id"], set: { name: excluded("name"), age: excluded("age") }, where: gt(excluded("age"), col("age")) }),
    upsert("users", [{ id: "u1", name: "Ann", age: 40 }, { id: "u2", name: "Bo", age: 1 }, { id: "u6", name: "Fay" }],
      { target: ["id"], action: "update", set: { name: I("excluded.name"), age: I("excluded.age") }, where: C(">", "excluded.age", I("age")) }),
    "INSERT INTO users (id, name, age) VALUES ('u1', 'Ann', 40), ('u2', 'Bo', 1), ('u6', 'Fay', NULL) ON CONFLICT (id) DO UPDATE SET name = excluded.name, age = excluded.age WHERE excluded.age > age",
    upserted("users", [1, 1, 1]),
    [sel("users", ["id", "name", "age"], { where: { type: "in", expr: I("id"), values: [L("u1"), L("u2"), L("u6")] } }), rows(["id", "name", "age"], ["u1", "Ann", 40], ["u2", "Bob", 17], ["u6", "Fay", null])]),
  c("DO UPDATE … WHERE cannot hold a subquery", null,
    upsert("users", [{ id: "u1", name: "Ann" }], { target: ["id"], action: "update", set: { name: I("excluded.name") }, where: { type: "exists", select: { kind: "select", table: "orders", columns: ["id"] } } }),
    "INSERT INTO users (id, name) VALUES ('u1', 'Ann') ON CONFLICT (id) DO UPDATE SET name = excluded.name WHERE EXISTS (SELECT id FROM orders)", misuse,
    [user("u1", "name"), rows(["name"], ["Ada"])]),
  c("DO UPDATE SET cannot hold a subquery", null,
    upsert("users", [{ id: "u1", name: "Ann" }], { target: ["id"], action: "update", set: { name: { type: "subquery", select: { kind: "select", table: "orders", columns: ["status"], limit: 1 } } } }),
    "INSERT INTO users (id, name) VALUES ('u1', 'Ann') ON CONFLICT (id) DO UPDATE SET name = (SELECT status FROM orders LIMIT 1)", misuse,
    [user("u1", "name"), rows(["name"], ["Ada"])]),
  c("DO NOTHING takes no WHERE", null, upsert("users", [{ id: "u1", name: "Ann" }], { action: "nothing", where: C("=", "id", "u1") }), null, err("invalid_request")),
  c("DO UPDATE counts inserted and updated rows",
    (t) => t("users").insert([{ id: "u1", name: "Ann" }, { id: "u6", name: "Fay" }]).onConflictDoUpdate({ target: ["id"], set: { name: excluded("name") } }),
    upsert("users", [{ id: "u1", name: "Ann" }, { id: "u6", name: "Fay" }], { target: ["id"], action: "update", set: { name: I("excluded.name") } }),
    "INSERT INTO users (id, name) VALUES ('u1', 'Ann'), ('u6', 'Fay') ON CONFLICT (id) DO UPDATE SET name = excluded.name",
    upserted("users", [1, 1, 0]), [sel("users", ["id", "name"], { where: { type: "in", expr: I("id"), values: [L("u1"), L("u6")] } }), rows(["id", "name"], ["u1", "Ann"], ["u6", "Fay"])]),
  c("a later row of one command sees an earlier one",
    (t) => t("users").insert([{ id: "u6", name: "Fay" }, { id: "u6", name: "Fey" }]).onConflictDoUpdate({ target: ["id"], set: { name: excluded("name") } }),
    upsert("users", [{ id: "u6", name: "Fay" }, { id: "u6", name: "Fey" }], { target: ["id"], action: "update", set: { name: I("excluded.name") } }),
    "INSERT INTO users (id, name) VALUES ('u6', 'Fay'), ('u6', 'Fey') ON CONFLICT (id) DO UPDATE SET name = excluded.name",
    upserted("users", [1, 1, 0]), [user("u6", "name"), rows(["name"], ["Fey"])]),
  c("DO UPDATE RETURNING gives inserted and updated rows in order",
    (t) => t("users").insert([{ id: "u6", name: "Fay" }, { id: "u2", name: "Bo" }]).onConflictDoUpdate({ target: ["id"], set: { name: excluded("name") } }).returning("id", "name", "age"),
    upsert("users", [{ id: "u6", name: "Fay" }, { id: "u2", name: "Bo" }], { target: ["id"], action: "update", set: { name: I("excluded.name") } }, ["id", "name", "age"]),
    "INSERT INTO users (id, name) VALUES ('u6', 'Fay'), ('u2', 'Bo') ON CONFLICT (id) DO UPDATE SET name = excluded.name RETURNING id, name, age",
    upserted("users", [1, 1, 0], ["id", "name", "age"], ["u6", "Fay", null], ["u2", "Bo", 17])),
  c("DO UPDATE without a target updates the row of whichever key conflicts",
    (t) => t("pairs").insert({ a: 9, b: "q", code: "A", label: "new" }).onConflictDoUpdate({ set: { label: excluded("label") } }),
    upsert("pairs", [{ a: 9, b: "q", code: "A", label: "new" }], { action: "update", set: { label: I("excluded.label") } }),
    "INSERT INTO pairs (a, b, code, label) VALUES (9, 'q', 'A', 'new') ON CONFLICT DO UPDATE SET label = excluded.label",
    upserted("pairs", [0, 1, 0]), [sel("pairs", ["a", "b", "label"], { where: C("=", "code", "A") }), rows(["a", "b", "label"], [1, "x", "new"])]),
  c("excluded holds the proposed row's defaults",
    (t) => t("orders").insert({ id: 1, user_id: "u1", amount: 9 }).onConflictDoUpdate({ target: ["id"], set: { status: excluded("status").concat("!") } }),
    upsert("orders", [{ id: 1, user_id: "u1", amount: 9 }], { target: ["id"], action: "update", set: { status: B("||", I("excluded.status"), "!") } }),
    "INSERT INTO orders (id, user_id, amount) VALUES (1, 'u1', 9) ON CONFLICT (id) DO UPDATE SET status = excluded.status || '!'",
    upserted("orders", [0, 1, 0]), [sel("orders", ["status", "amount"], { where: C("=", "id", 1) }), rows(["status", "amount"], ["new!", 250])]),
  c("excluded has the computed fields of the proposed row",
    (t) => t("users").insert({ id: "u2", name: "Bob", age: 30 }).onConflictDoUpdate({ target: ["id"], set: { note: caseWhen([[excluded("adult"), "grown"]], "young") } }),
    upsert("users", [{ id: "u2", name: "Bob", age: 30 }], { target: ["id"], action: "update", set: { note: CASE([[I("excluded.adult"), "grown"]], "young") } }),
    "INSERT INTO users (id, name, age) VALUES ('u2', 'Bob', 30) ON CONFLICT (id) DO UPDATE SET note = CASE WHEN excluded.adult THEN 'grown' ELSE 'young' END",
    upserted("users", [0, 1, 0]), [user("u2", "note", "age"), rows(["note", "age"], ["grown", 17])]),
  c("DO UPDATE with a parameter", (t) => t("users").insert({ id: "u1", name: "X" }).onConflictDoUpdate({ target: ["id"], set: { note: "again" } }),
    upsert("users", [{ id: "u1", name: "X" }], { target: ["id"], action: "update", set: { note: "again" } }),
    ["INSERT INTO users (id, name) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET note = ?", ["u1", "X", "again"]],
    upserted("users", [0, 1, 0]), [user("u1", "name", "note"), rows(["name", "note"], ["Ada", "again"])]),

  // ---- every rule on the updated row; a failing row undoes the command
  c("the updated row must pass the checks", (t) => t("orders").insert({ id: 1, user_id: "u1", amount: 5 }).onConflictDoUpdate({ target: ["id"], set: { amount: col("amount").sub(300) } }),
    upsert("orders", [{ id: 1, user_id: "u1", amount: 5 }], { target: ["id"], action: "update", set: { amount: B("-", "amount", 300) } }),
    "INSERT INTO orders (id, user_id, amount) VALUES (1, 'u1', 5) ON CONFLICT (id) DO UPDATE SET amount = amount - 300",
    err("validation_failed"), [sel("orders", ["amount"], { where: C("=", "id", 1) }), rows(["amount"], [250])]),
  c("the updated row must keep its required columns", (t) => t("users").insert({ id: "u1", name: "Ann" }).onConflictDoUpdate({ target: ["id"], set: { name: excluded("note") } }),
    upsert("users", [{ id: "u1", name: "Ann" }], { target: ["id"], action: "update", set: { name: I("excluded.note") } }),
    "INSERT INTO users (id, name) VALUES ('u1', 'Ann') ON CONFLICT (id) DO UPDATE SET name = excluded.note",
    err("validation_failed"), [user("u1", "name"), rows(["name"], ["Ada"])]),
  c("the updated row must keep its unique keys free", (t) => t("pairs").insert({ a: 2, b: "x", code: "Z" }).onConflictDoUpdate({ target: ["a", "b"], set: { code: "A" } }),
    upsert("pairs", [{ a: 2, b: "x", code: "Z" }], { target: ["a", "b"], action: "update", set: { code: "A" } }),
    "INSERT INTO pairs (a, b, code) VALUES (2, 'x', 'Z') ON CONFLICT (a, b) DO UPDATE SET code = 'A'", err("constraint_violation"), PAIRS),
  c("the updated row must reference an existing parent", (t) => t("orders").insert({ id: 1, user_id: "u1", amount: 1 }).onConflictDoUpdate({ target: ["id"], set: { user_id: "nobody" } }),
    upsert("orders", [{ id: 1, user_id: "u1", amount: 1 }], { target: ["id"], action: "update", set: { user_id: "nobody" } }),
    "INSERT INTO orders (id, user_id, amount) VALUES (1, 'u1', 1) ON CONFLICT (id) DO UPDATE SET user_id = 'nobody'",
    err("constraint_violation"), [sel("orders", ["user_id"], { where: C("=", "id", 1) }), rows(["user_id"], ["u1"])]),
  c("DO UPDATE may not change a key other rows reference", (t) => t("users").insert({ id: "u1", name: "X" }).onConflictDoUpdate({ target: ["id"], set: { id: "u9" } }),
    upsert("users", [{ id: "u1", name: "X" }], { target: ["id"], action: "update", set: { id: "u9" } }),
    "INSERT INTO users (id, name) VALUES ('u1', 'X') ON CONFLICT (id) DO UPDATE SET id = 'u9'", err("constraint_violation"), [allUsers, FIVE_USERS]),
  c("a failing row undoes the rows before it",
    (t) => t("users").insert([{ id: "u6", name: "Fay" }, { id: "u1", name: "Ann" }]).onConflictDoUpdate({ target: ["id"], set: { name: excluded("note") } }),
    upsert("users", [{ id: "u6", name: "Fay" }, { id: "u1", name: "Ann" }], { target: ["id"], action: "update", set: { name: I("excluded.note") } }),
    "INSERT INTO users (id, name) VALUES ('u6', 'Fay'), ('u1', 'Ann') ON CONFLICT (id) DO UPDATE SET name = excluded.note",
    err("validation_failed"), [allUsers, FIVE_USERS]),
  c("a set value of the wrong type is 422 even when no row conflicts",
    (t) => t("users").insert({ id: "u6", name: "Fay" }).onConflictDoUpdate({ target: ["id"], set: { age: "old" } }),
    upsert("users", [{ id: "u6", name: "Fay" }], { target: ["id"], action: "update", set: { age: "old" } }),
    "INSERT INTO users (id, name) VALUES ('u6', 'Fay') ON CONFLICT (id) DO UPDATE SET age = 'old'", err("validation_failed"), [allUsers, FIVE_USERS]),
  c("DO UPDATE SET a computed field is never allowed", (t) => t("users").insert({ id: "u1", name: "X" }).onConflictDoUpdate({ set: { adult: true } }),
    upsert("users", [{ id: "u1", name: "X" }], { action: "update", set: { adult: true } }),
    "INSERT INTO users (id, name) VALUES ('u1', 'X') ON CONFLICT DO UPDATE SET adult = TRUE", err("validation_failed"), [allUsers, FIVE_USERS]),

  // ---- refused clauses
  c("an ON CONFLICT target that is no key is refused", (t) => t("users").insert({ id: "u1", name: "X" }).onConflictDoNothing({ target: ["name"] }),
    upsert("users", [{ id: "u1", name: "X" }], { target: ["name"], action: "nothing" }),
    "INSERT INTO users (id, name) VALUES ('u1', 'X') ON CONFLICT (name) DO NOTHING", misuse, [allUsers, FIVE_USERS]),
  c("an ON CONFLICT target naming a column twice is refused", (t) => t("users").insert({ id: "u1", name: "X" }).onConflictDoNothing({ target: ["id", "id"] }),
    upsert("users", [{ id: "u1", name: "X" }], { target: ["id", "id"], action: "nothing" }), null, misuse),
  c("an ON CONFLICT target naming an unknown column", (t) => t("users").insert({ id: "u1", name: "X" }).onConflictDoNothing({ target: ["nope"] }),
    upsert("users", [{ id: "u1", name: "X" }], { target: ["nope"], action: "nothing" }),
    "INSERT INTO users (id, name) VALUES ('u1', 'X') ON CONFLICT (nope) DO NOTHING", err("unknown_column")),
  c("excluded names only the table's columns", (t) => t("users").insert({ id: "u1", name: "X" }).onConflictDoUpdate({ set: { name: excluded("nope") } }),
    upsert("users", [{ id: "u1", name: "X" }], { action: "update", set: { name: I("excluded.nope") } }),
    "INSERT INTO users (id, name) VALUES ('u1', 'X') ON CONFLICT DO UPDATE SET name = excluded.nope", err("unknown_column"), [allUsers, FIVE_USERS]),
  c("action nothing takes no set", null, upsert("users", [{ id: "u1", name: "X" }], { action: "nothing", set: { name: "Y" } }), null, err("invalid_request")),
  c("action update needs a set", null, upsert("users", [{ id: "u1", name: "X" }], { action: "update" }), null, err("invalid_request")),
  c("INSERT OR IGNORE takes no ON CONFLICT clause", null, null,
    "INSERT OR IGNORE INTO users (id, name) VALUES ('u1', 'X') ON CONFLICT DO NOTHING", err("sql_error")),
];
