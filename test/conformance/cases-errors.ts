/**
 * Conformance cases: the CONTRACT §7 codes the engine and the validators
 * raise (each surface where it can be said), table DDL, describe and explain.
 */

import { and, eq } from "../../src/api/expressions.js";
import type { Command, TableSchema } from "../../src/commands/types.js";
import { C, FN, I, L, TRUE, access, c, err, ids, mut, rows, sel, type Case } from "./dsl.js";

const notesSchema: TableSchema = {
  name: "notes",
  columns: { id: "integer", body: "text", done: "boolean" },
  required: ["body"],
  primary_key: { columns: ["id"] },
  defaults: { done: false },
};
const notes: Command = { kind: "create-table", schema: notesSchema };
/** As `describe` shows it: primary-key columns are implicitly required. */
const notesDescribed: TableSchema = { ...notesSchema, required: ["id", "body"] };
const describeNotes: Command = { kind: "describe", table: "notes" };

export const errorCases: readonly Case[] = [
  // ---- names and shapes: 400 invalid_name / invalid_request
  c("a table name with a space", (t) => t("bad name").select(), sel("bad name", "*"), 'SELECT * FROM "bad name"', err("invalid_name")),
  c("a column named __proto__", (t) => t("users").select("__proto__"), sel("users", ["__proto__"]), 'SELECT "__proto__" FROM users', err("invalid_name")),
  c("a name longer than 64 characters", (t) => t("users").select("a".repeat(65)), sel("users", ["a".repeat(65)]), `SELECT ${"a".repeat(65)} FROM users`,
    err("invalid_name")),
  c("a name starting with a digit", (t) => t("users").select().where(eq("1x", 1)), sel("users", "*", { where: C("=", "1x", 1) }), 'SELECT * FROM users WHERE "1x" = 1',
    err("invalid_name")),
  c("a negative limit", (t) => t("users").select().limit(-1), sel("users", "*", { limit: -1 }), null, err("invalid_request")),
  c("a fractional offset", (t) => t("users").select().limit(1).offset(1.5), sel("users", "*", { limit: 1, offset: 1.5 }), null, err("invalid_request")),
  c("AND without operands", (t) => t("users").select().where(and()), sel("users", "*", { where: { type: "and", operands: [] } }), null, err("invalid_request")),
  c("update without where", (t) => t("users").update({ note: "n" }), { kind: "update", table: "users", set: { note: "n" } }, null, err("invalid_request"),
    [sel("users", ["id"], { where: C("=", "note", "n") }), ids()]),
  c("delete without where", (t) => t("orders").delete(), { kind: "delete", table: "orders" }, null, err("invalid_request"),
    [sel("orders", ["id"]), rows(["id"], [1], [2], [3], [4], [5], [6])]),
  c("a typo never widens a delete", null, { kind: "delete", table: "orders", wehre: C("=", "id", 1) }, null, err("invalid_request"),
    [sel("orders", ["id"]), rows(["id"], [1], [2], [3], [4], [5], [6])]),
  c("an unknown comparison operator", null, sel("users", "*", { where: { type: "comparison", op: "==", left: I("id"), right: L("u1") } }), null,
    err("invalid_request")),
  c("a parameter slot is not wire format", null, sel("users", "*", { where: { type: "comparison", op: "=", left: I("id"), right: { type: "param", index: 0 } } }),
    null, err("invalid_request")),
  c("insert with no rows", (t) => t("users").insert([]), { kind: "insert", table: "users", rows: [] }, null, err("invalid_request")),
  c("an unknown column type", null, { kind: "create-table", schema: { name: "t", columns: { a: "blob" } } }, null, err("invalid_request")),
  c("an unknown SQL type name", null, null, "CREATE TABLE t (a BLOB)", err("sql_error")),

  // ---- SQL: 400 sql_error
  c("too few parameters", null, null, ["SELECT id FROM users WHERE id = ?", []], err("sql_error")),
  c("too many parameters", null, null, ["SELECT id FROM users WHERE id = ?", ["u1", "u2"]], err("sql_error")),
  c("VALUES wider than the column list", null, null, "INSERT INTO users (id, name) VALUES ('u6', 'Fay', 3)", err("sql_error")),
  c("a column twice in INSERT", null, null, "INSERT INTO users (id, id) VALUES ('u6', 'u7')", err("sql_error")),
  c("two primary keys", null, null, "CREATE TABLE t (a INTEGER PRIMARY KEY, b INTEGER, PRIMARY KEY (b))", err("sql_error")),
  c("two statements", null, null, "SELECT id FROM users; SELECT id FROM users", err("sql_error")),
  c("a syntax error", null, null, "SELEC id FROM users", err("sql_syntax_error")),

  // ---- resolution and types: unknown_column, type_mismatch, table_not_found
  c("unknown column in the select list", (t) => t("users").select("nickname"), sel("users", ["nickname"]), "SELECT nickname FROM users", err("unknown_column")),
  c("unknown column in WHERE", (t) => t("users").select("id").where({ nickname: "x" }), sel("users", ["id"], { where: C("=", "nickname", "x") }),
    "SELECT id FROM users WHERE nickname = 'x'", err("unknown_column")),
  c("unknown column in ORDER BY", (t) => t("users").select("id").orderBy("nickname"), sel("users", ["id"], { orderBy: [{ column: "nickname" }] }),
    "SELECT id FROM users ORDER BY nickname", err("unknown_column")),
  c("a qualifier that is not the table", (t) => t("users").select("orders.id"), sel("users", ["orders.id"]), "SELECT orders.id FROM users", err("unknown_column")),
  c("a qualified name of the one table", (t) => t("users").select("users.name").where({ "users.id": "u1" }),
    sel("users", ["users.name"], { where: C("=", "users.id", "u1") }), "SELECT users.name FROM users WHERE users.id = 'u1'", rows(["users.name"], ["Ada"])),
  c("integer column against text", (t) => t("users").select("id").where(eq("age", "30")), sel("users", ["id"], { where: C("=", "age", "30") }),
    "SELECT id FROM users WHERE age = '30'", err("type_mismatch")),
  c("text column against a number", (t) => t("users").select("id").where({ name: 5 }), sel("users", ["id"], { where: C("=", "name", 5) }),
    "SELECT id FROM users WHERE name = 5", err("type_mismatch")),
  c("boolean column against text", (t) => t("users").select("id").where({ active: "true" }), sel("users", ["id"], { where: C("=", "active", "true") }),
    "SELECT id FROM users WHERE active = 'true'", err("type_mismatch")),
  c("text column against a boolean", (t) => t("users").select("id").where({ city: true }), sel("users", ["id"], { where: C("=", "city", true) }),
    "SELECT id FROM users WHERE city = TRUE", err("type_mismatch")),
  c("two columns of different types", (t) => t("users").select("id").where(eq("name", { type: "identifier", name: "age" })),
    sel("users", ["id"], { where: C("=", "name", I("age")) }), "SELECT id FROM users WHERE name = age", err("type_mismatch")),
  c("a text parameter against an integer column", (t) => t("users").select("id").where(eq("age", "30")), sel("users", ["id"], { where: C("=", "age", "30") }),
    ["SELECT id FROM users WHERE age = ?", ["30"]], err("type_mismatch")),
  c("a computed (boolean) field against text", (t) => t("users").select("id").where({ adult: "yes" }), sel("users", ["id"], { where: C("=", "adult", "yes") }),
    "SELECT id FROM users WHERE adult = 'yes'", err("type_mismatch")),
  c("select from a missing table", (t) => t("nope").select(), sel("nope", "*"), "SELECT * FROM nope", err("table_not_found")),

  // ---- DDL: create, table_exists, drop, describe
  c("create a table", null, notes, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL, done BOOLEAN DEFAULT FALSE)",
    mut("create-table", "notes", 0), [describeNotes, { kind: "schema", tables: [notesDescribed] }]),
  c("a created table takes rows", null, notes, "CREATE TABLE notes (id INT PRIMARY KEY, body VARCHAR(200) NOT NULL, done BOOL DEFAULT FALSE)",
    mut("create-table", "notes", 0), [{ kind: "insert", table: "notes", rows: [{ id: 1, body: "hi" }] }, mut("insert", "notes", 1)]),
  c("create an existing table", null, { kind: "create-table", schema: { name: "users", columns: { id: "text" } } }, "CREATE TABLE users (id TEXT)",
    err("table_exists")),
  c("create if not exists on an existing table", null, { kind: "create-table", schema: { name: "users", columns: { id: "text" } }, ifNotExists: true },
    "CREATE TABLE IF NOT EXISTS users (id TEXT)", mut("create-table", "users", 0), [sel("users", ["id"], { where: C("=", "id", "u1") }), ids("u1")]),
  c("create with a foreign key and a check", null,
    {
      kind: "create-table",
      schema: {
        name: "tags",
        columns: { id: "integer", user_id: "text", weight: "real" },
        primary_key: { columns: ["id"] },
        foreign_keys: [{ columns: ["user_id"], references: { table: "users", columns: ["id"] }, on_delete: "cascade" }],
        checks: [{ name: "heavy", expr: C(">", "weight", 1) }],
      },
    },
    "CREATE TABLE tags (id INTEGER PRIMARY KEY, user_id TEXT REFERENCES users(id) ON DELETE CASCADE, weight REAL, CONSTRAINT heavy CHECK (weight > 1))",
    mut("create-table", "tags", 0), [{ kind: "insert", table: "tags", rows: [{ id: 1, user_id: "u4", weight: 0.5 }] }, err("validation_failed")]),
  c("a check that reads the clock is refused", null,
    { kind: "create-table", schema: { name: "events", columns: { at: "text" }, checks: [{ expr: C("<", "at", FN("date", L("now"))) }] } },
    "CREATE TABLE events (at TEXT, CHECK (at < date('now')))", err("invalid_request"), [sel("events", "*"), err("table_not_found")]),
  c("a check may read a date from the row", null,
    { kind: "create-table", schema: { name: "events", columns: { at: "text" }, checks: [{ expr: { type: "is-null", expr: FN("date", "at"), not: true } }] } },
    "CREATE TABLE events (at TEXT, CHECK (date(at) IS NOT NULL))", mut("create-table", "events", 0),
    [{ kind: "insert", table: "events", rows: [{ at: "2024-02-30x" }] }, err("validation_failed")]),
  c("create with a composite primary key and unique", null,
    {
      kind: "create-table",
      schema: { name: "kv", columns: { k1: "text", k2: "integer", v: "text" }, primary_key: { columns: ["k1", "k2"] }, unique: [{ columns: ["v"] }] },
    },
    "CREATE TABLE kv (k1 TEXT, k2 INTEGER, v TEXT, PRIMARY KEY (k1, k2), UNIQUE (v))", mut("create-table", "kv", 0),
    [{ kind: "insert", table: "kv", rows: [{ k1: "a", k2: 1, v: "x" }, { k1: "a", k2: 1, v: "y" }] }, err("constraint_violation")]),
  c("drop a table", null, { kind: "drop-table", table: "badges" }, "DROP TABLE badges", mut("drop-table", "badges", 0),
    [sel("badges", "*"), err("table_not_found")]),
  c("drop a missing table", null, { kind: "drop-table", table: "nope" }, "DROP TABLE nope", err("table_not_found")),
  c("drop if exists on a missing table", null, { kind: "drop-table", table: "nope", ifExists: true }, "DROP TABLE IF EXISTS nope", mut("drop-table", "nope", 0)),

  c("validate a valid database", null, { kind: "validate" }, null, { kind: "validation", valid: true, errors: [] }),
  c("describe a missing table", null, { kind: "describe", table: "nope" }, null, err("table_not_found")),

  // ---- explain: the same plan from every surface, with the access path chosen
  c("explain a primary-key lookup", (t) => t("users").select("name").where({ id: "u1" }).explain(),
    { kind: "explain", command: sel("users", ["name"], { where: C("=", "id", "u1") }) }, "EXPLAIN SELECT name FROM users WHERE id = 'u1'",
    access("primary-key-lookup")),
  c("explain an index lookup", (t) => t("users").select("name").where({ city: "Rome" }).explain(),
    { kind: "explain", command: sel("users", ["name"], { where: C("=", "city", "Rome") }) }, "EXPLAIN SELECT name FROM users WHERE city = 'Rome'",
    access("index-lookup")),
  c("explain a scan", (t) => t("users").select("name").where(eq("age", 3)).explain(),
    { kind: "explain", command: sel("users", ["name"], { where: C("=", "age", 3) }) }, "EXPLAIN SELECT name FROM users WHERE age = 3", access("scan")),
  c("explain never executes", (t) => t("orders").delete().all().explain(), { kind: "explain", command: { kind: "delete", table: "orders", where: TRUE } },
    "EXPLAIN DELETE FROM orders", access("scan"), [sel("orders", ["id"], { limit: 1 }), rows(["id"], [1])]),
  c("explain a parameterized SQL command", null, { kind: "explain", command: { kind: "sql", sql: "SELECT name FROM users WHERE id = ?", params: ["u1"] } },
    null, access("primary-key-lookup")),
];
