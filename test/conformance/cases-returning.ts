/**
 * Conformance cases: `set` expressions over the row before the update
 * (CONTRACT §11 "Writes") — arithmetic, functions, CASE over a computed
 * field, swaps that read the old row — and every rule still checked on the
 * new row, with what stays unchanged after a refusal; and RETURNING on
 * insert, update and delete (`*` with computed fields, expressions,
 * parameters, qualified names, cascades returning only the named table).
 */

import { and, caseWhen, cast, col, eq, fn, nullif, upper, val } from "../../src/api/expressions.js";
import { AND, AS, B, C, CASE, CAST, FN, I, IN, L, TRUE, c, del, err, ids, ins, misuse, mut, ret, rows, sel, type Case } from "./dsl.js";
import type { Command, Expression, Value } from "../../src/commands/types.js";

/** An update whose `set` may hold expressions, with an optional RETURNING. */
const upd = (table: string, set: Record<string, Value | Expression>, where: Expression, returning?: unknown): Command =>
  ({ kind: "update", table, set, where, ...(returning === undefined ? {} : { returning }) }) as Command;
const withReturning = (command: Command, returning: unknown): Command => ({ ...command, returning }) as Command;

const user = (id: string, ...columns: string[]) => sel("users", columns, { where: C("=", "id", id) });
const FIVE_USERS = ids("u1", "u2", "u3", "u4", "u5");
const allUsers = sel("users", ["id"]);
const USER_STAR = ["id", "name", "age", "city", "score", "active", "note", "adult"];
const ORDER_STAR = ["id", "user_id", "amount", "status", "paid", "big"];

export const returningCases: readonly Case[] = [
  // ---- set expressions
  c("SET n = n + 1 reads the old value", (t) => t("users").update({ age: col("age").add(1) }).where({ id: "u1" }),
    upd("users", { age: B("+", "age", 1) }, C("=", "id", "u1")), "UPDATE users SET age = age + 1 WHERE id = 'u1'",
    mut("update", "users", 1), [user("u1", "age"), rows(["age"], [37])]),
  c("every assignment reads the row before the update (a swap)", (t) => t("users").update({ name: col("city"), city: col("name") }).where({ id: "u1" }),
    upd("users", { name: I("city"), city: I("name") }, C("=", "id", "u1")), "UPDATE users SET name = city, city = name WHERE id = 'u1'",
    mut("update", "users", 1), [user("u1", "name", "city"), rows(["name", "city"], ["Paris", "Ada"])]),
  c("SET with a function of the old value", (t) => t("users").update({ name: upper("name") }).where({ id: "u2" }),
    upd("users", { name: FN("upper", "name") }, C("=", "id", "u2")), "UPDATE users SET name = upper(name) WHERE id = 'u2'",
    mut("update", "users", 1), [user("u2", "name"), rows(["name"], ["BOB"])]),
  c("SET expression: NULL in, NULL out", (t) => t("users").update({ age: col("age").add(1) }).where({ id: "u3" }),
    upd("users", { age: B("+", "age", 1) }, C("=", "id", "u3")), "UPDATE users SET age = age + 1 WHERE id = 'u3'",
    mut("update", "users", 1), [user("u3", "age"), rows(["age"], [null])]),
  c("SET expression over every row", (t) => t("orders").update({ amount: col("amount").mul(2) }).all(),
    upd("orders", { amount: B("*", "amount", 2) }, TRUE), "UPDATE orders SET amount = amount * 2",
    mut("update", "orders", 6), [sel("orders", ["id", "amount"]), rows(["id", "amount"], [1, 500], [2, 40], [3, 199], [4, 200], [5, 10], [6, null])]),
  c("SET expression breaking a check is 422 and changes nothing", (t) => t("orders").update({ amount: col("amount").sub(30) }).where({ id: 2 }),
    upd("orders", { amount: B("-", "amount", 30) }, C("=", "id", 2)), "UPDATE orders SET amount = amount - 30 WHERE id = 2",
    err("validation_failed"), [sel("orders", ["amount"], { where: C("=", "id", 2) }), rows(["amount"], [20])]),
  c("SET expression of another family is 422 even when no row matches", (t) => t("users").update({ age: col("name") }).where({ id: "nobody" }),
    upd("users", { age: I("name") }, C("=", "id", "nobody")), "UPDATE users SET age = name WHERE id = 'nobody'", err("validation_failed")),
  c("SET expression with a real result in an integer column is 422", (t) => t("users").update({ age: col("age").add(0.5) }).where({ id: "u1" }),
    upd("users", { age: B("+", "age", 0.5) }, C("=", "id", "u1")), "UPDATE users SET age = age + 0.5 WHERE id = 'u1'",
    err("validation_failed"), [user("u1", "age"), rows(["age"], [36])]),
  c("SET expression making a required column NULL is 422", (t) => t("users").update({ name: nullif("name", "Ada") }).where({ id: "u1" }),
    upd("users", { name: FN("nullif", "name", "Ada") }, C("=", "id", "u1")), "UPDATE users SET name = nullif(name, 'Ada') WHERE id = 'u1'",
    err("validation_failed"), [user("u1", "name"), rows(["name"], ["Ada"])]),
  c("SET expression duplicating a primary key is 409 and changes nothing",
    (t) => t("pairs").update({ a: col("a").add(1) }).where(and(eq("a", 1), eq("b", "x"))),
    upd("pairs", { a: B("+", "a", 1) }, AND(C("=", "a", 1), C("=", "b", "x"))), "UPDATE pairs SET a = a + 1 WHERE a = 1 AND b = 'x'",
    err("constraint_violation"), [sel("pairs", ["a", "b"]), rows(["a", "b"], [1, "x"], [1, "y"], [2, "x"])]),
  c("SET expression shifting every key keeps them unique", (t) => t("pairs").update({ a: col("a").add(1) }).all(),
    upd("pairs", { a: B("+", "a", 1) }, TRUE), "UPDATE pairs SET a = a + 1",
    mut("update", "pairs", 3), [sel("pairs", ["a", "b"]), rows(["a", "b"], [2, "x"], [2, "y"], [3, "x"])]),
  c("SET expression changing a referenced key is 409", (t) => t("teams").update({ id: col("id").add(10) }).where({ id: 1 }),
    upd("teams", { id: B("+", "id", 10) }, C("=", "id", 1)), "UPDATE teams SET id = id + 10 WHERE id = 1",
    err("constraint_violation"), [sel("teams", ["id"]), rows(["id"], [1], [2])]),
  c("SET expression with a parameter", (t) => t("users").update({ score: col("score").add(0.25) }).where({ id: "u2" }),
    upd("users", { score: B("+", "score", 0.25) }, C("=", "id", "u2")), ["UPDATE users SET score = score + ? WHERE id = ?", [0.25, "u2"]],
    mut("update", "users", 1), [user("u2", "score"), rows(["score"], [7.5])]),
  c("SET expression naming an unknown column", (t) => t("users").update({ age: col("agee").add(1) }).where({ id: "u1" }),
    upd("users", { age: B("+", "agee", 1) }, C("=", "id", "u1")), "UPDATE users SET age = agee + 1 WHERE id = 'u1'", err("unknown_column")),
  c("SET expression mixing text and a number", (t) => t("users").update({ age: col("age").add("x") }).where({ id: "u1" }),
    upd("users", { age: B("+", "age", "x") }, C("=", "id", "u1")), "UPDATE users SET age = age + 'x' WHERE id = 'u1'", err("type_mismatch"),
    [user("u1", "age"), rows(["age"], [36])]),
  c("SET expression reads a computed field",
    (t) => t("users").update({ note: caseWhen([[col("adult"), "adult"]], "minor") }).where(col("id").in("u1", "u2")),
    upd("users", { note: CASE([["adult", "adult"]], "minor") }, IN("id", ["u1", "u2"])),
    "UPDATE users SET note = CASE WHEN adult THEN 'adult' ELSE 'minor' END WHERE id IN ('u1', 'u2')",
    mut("update", "users", 2), [sel("users", ["id", "note"], { where: IN("id", ["u1", "u2"]) }), rows(["id", "note"], ["u1", "adult"], ["u2", "minor"])]),
  c("SET expression with a CAST", (t) => t("users").update({ score: cast("age", "real") }).where({ id: "u2" }),
    upd("users", { score: CAST("age", "real") }, C("=", "id", "u2")), "UPDATE users SET score = CAST(age AS real) WHERE id = 'u2'",
    mut("update", "users", 1), [user("u2", "score"), rows(["score"], [17])]),
  c("a literal expression in SET is a value", (t) => t("users").update({ note: val("z") }).where({ id: "u2" }),
    upd("users", { note: L("z") }, C("=", "id", "u2")), "UPDATE users SET note = 'z' WHERE id = 'u2'",
    mut("update", "users", 1), [user("u2", "note"), rows(["note"], ["z"])]),
  c("SET expression into a computed field is never allowed", (t) => t("users").update({ adult: col("active") }).where({ id: "u1" }),
    upd("users", { adult: I("active") }, C("=", "id", "u1")), "UPDATE users SET adult = active WHERE id = 'u1'", err("validation_failed")),
  c("SET expression of an unknown function", (t) => t("users").update({ name: fn("shout", "name") }).where({ id: "u1" }),
    upd("users", { name: FN("shout", "name") }, C("=", "id", "u1")), "UPDATE users SET name = shout(name) WHERE id = 'u1'", misuse),

  // ---- RETURNING
  c("insert RETURNING * gives stored and computed columns", (t) => t("users").insert({ id: "u6", name: "Fay", age: 40 }).returning(),
    withReturning(ins("users", { id: "u6", name: "Fay", age: 40 }), "*"), "INSERT INTO users (id, name, age) VALUES ('u6', 'Fay', 40) RETURNING *",
    ret("insert", "users", 1, USER_STAR, ["u6", "Fay", 40, null, null, null, null, true])),
  c("insert RETURNING shows defaults", (t) => t("orders").insert({ id: 7, user_id: "u4", amount: 12 }).returning("id", "status", "paid"),
    withReturning(ins("orders", { id: 7, user_id: "u4", amount: 12 }), ["id", "status", "paid"]),
    "INSERT INTO orders (id, user_id, amount) VALUES (7, 'u4', 12) RETURNING id, status, paid",
    ret("insert", "orders", 1, ["id", "status", "paid"], [7, "new", false])),
  c("insert RETURNING an expression", (t) => t("orders").insert({ id: 7, user_id: "u4", amount: 12 }).returning("id", col("amount").mul(2).as("twice")),
    withReturning(ins("orders", { id: 7, user_id: "u4", amount: 12 }), ["id", AS(B("*", "amount", 2), "twice")]),
    "INSERT INTO orders (id, user_id, amount) VALUES (7, 'u4', 12) RETURNING id, amount * 2 AS twice",
    ret("insert", "orders", 1, ["id", "twice"], [7, 24])),
  c("insert of several rows RETURNING each in order", (t) => t("users").insert([{ id: "u7", name: "Gus" }, { id: "u6", name: "Fay" }]).returning("id"),
    withReturning(ins("users", { id: "u7", name: "Gus" }, { id: "u6", name: "Fay" }), ["id"]),
    "INSERT INTO users (id, name) VALUES ('u7', 'Gus'), ('u6', 'Fay') RETURNING id", ret("insert", "users", 2, ["id"], ["u7"], ["u6"])),
  c("update RETURNING gives the new values", (t) => t("users").update({ age: col("age").add(1) }).where({ city: "Paris" }).returning("id", "age"),
    upd("users", { age: B("+", "age", 1) }, C("=", "city", "Paris"), ["id", "age"]), "UPDATE users SET age = age + 1 WHERE city = 'Paris' RETURNING id, age",
    ret("update", "users", 2, ["id", "age"], ["u1", 37], ["u3", null])),
  c("update RETURNING matching nothing returns no rows", (t) => t("users").update({ note: "n" }).where({ id: "nobody" }).returning("id"),
    upd("users", { note: "n" }, C("=", "id", "nobody"), ["id"]), "UPDATE users SET note = 'n' WHERE id = 'nobody' RETURNING id",
    ret("update", "users", 0, ["id"])),
  c("delete RETURNING gives the deleted rows", (t) => t("orders").delete().where({ user_id: "u5" }).returning("id", "amount"),
    withReturning(del("orders", C("=", "user_id", "u5")), ["id", "amount"]), "DELETE FROM orders WHERE user_id = 'u5' RETURNING id, amount",
    ret("delete", "orders", 2, ["id", "amount"], [5, 5], [6, null]), [sel("orders", ["id"]), rows(["id"], [1], [2], [3], [4])]),
  c("delete RETURNING * with computed fields", (t) => t("orders").delete().where({ id: 5 }).returning(),
    withReturning(del("orders", C("=", "id", 5)), "*"), "DELETE FROM orders WHERE id = 5 RETURNING *",
    ret("delete", "orders", 1, ORDER_STAR, [5, "u5", 5, "new", false, false])),
  c("a cascading delete returns only the named table's rows", (t) => t("teams").delete().where({ id: 1 }).returning(),
    withReturning(del("teams", C("=", "id", 1)), "*"), "DELETE FROM teams WHERE id = 1 RETURNING *", ret("delete", "teams", 1, ["id", "name"], [1, "red"]),
    [[sel("members", ["id"]), rows(["id"], [12])], [sel("badges", ["id"]), rows(["id"], [102])]]),
  c("RETURNING a computed field of the new row", (t) => t("users").update({ age: 18 }).where({ id: "u2" }).returning("id", "adult"),
    upd("users", { age: 18 }, C("=", "id", "u2"), ["id", "adult"]), "UPDATE users SET age = 18 WHERE id = 'u2' RETURNING id, adult",
    ret("update", "users", 1, ["id", "adult"], ["u2", true])),
  c("RETURNING an unknown column is refused before anything is written", (t) => t("users").insert({ id: "u6", name: "Fay" }).returning("nope"),
    withReturning(ins("users", { id: "u6", name: "Fay" }), ["nope"]), "INSERT INTO users (id, name) VALUES ('u6', 'Fay') RETURNING nope",
    err("unknown_column"), [allUsers, FIVE_USERS]),
  c("RETURNING two columns of one name is refused", (t) => t("users").delete().where({ id: "u4" }).returning("id", col("name").as("id")),
    withReturning(del("users", C("=", "id", "u4")), ["id", AS(I("name"), "id")]), "DELETE FROM users WHERE id = 'u4' RETURNING id, name AS id",
    err("invalid_request"), [allUsers, FIVE_USERS]),
  c("RETURNING with a parameter", (t) => t("orders").delete().where({ id: 5 }).returning("id", val("gone").as("tag")),
    withReturning(del("orders", C("=", "id", 5)), ["id", AS(L("gone"), "tag")]), ["DELETE FROM orders WHERE id = ? RETURNING id, ? AS tag", [5, "gone"]],
    ret("delete", "orders", 1, ["id", "tag"], [5, "gone"])),
  c("a refused insert RETURNING returns nothing and changes nothing", (t) => t("users").insert([{ id: "u6", name: "Fay" }, { id: "u1", name: "Dup" }]).returning(),
    withReturning(ins("users", { id: "u6", name: "Fay" }, { id: "u1", name: "Dup" }), "*"),
    "INSERT INTO users (id, name) VALUES ('u6', 'Fay'), ('u1', 'Dup') RETURNING *", err("constraint_violation"), [allUsers, FIVE_USERS]),
  c("RETURNING a column qualified by its table", (t) => t("orders").delete().where({ id: 6 }).returning("orders.id"),
    withReturning(del("orders", C("=", "id", 6)), ["orders.id"]), "DELETE FROM orders WHERE id = 6 RETURNING orders.id",
    ret("delete", "orders", 1, ["orders.id"], [6])),
  c("a refused update RETURNING changes nothing", (t) => t("orders").update({ amount: col("amount").sub(30) }).all().returning(),
    upd("orders", { amount: B("-", "amount", 30) }, TRUE, "*"), "UPDATE orders SET amount = amount - 30 RETURNING *", err("validation_failed"),
    [sel("orders", ["id", "amount"], { where: C("=", "id", 1) }), rows(["id", "amount"], [1, 250])]),
  c("RETURNING on a delete whose restrict refuses it", (t) => t("users").delete().where({ id: "u1" }).returning(),
    withReturning(del("users", C("=", "id", "u1")), "*"), "DELETE FROM users WHERE id = 'u1' RETURNING *", err("constraint_violation"),
    [allUsers, FIVE_USERS]),
];
