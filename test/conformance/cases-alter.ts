/**
 * Conformance cases: `alter-table` (CONTRACT §11) from JSON and SQL (the
 * builder has no schema commands) — columns added (with their default in
 * every row), dropped (the rows lose them; later columns and the indexes on
 * them shift), renamed (keys, indexes, checks, computed fields and the
 * foreign keys of other tables follow), tables renamed (foreign keys
 * follow) — every refusal, and after each refusal the table's schema and
 * rows exactly as the fixture has them.
 */

import type { Result } from "../../src/commands/results.js";
import type { AlterAction, Command } from "../../src/commands/types.js";
import { C, IN, access, atStep, c, del, err, ins, misuse, mut, rows, sel, tx, txr, upd, type After, type Case, type Expect } from "./dsl.js";
import { fixtureEngine } from "./fixture.js";

const alter = (table: string, action: AlterAction): Command => ({ kind: "alter-table", table, action });
const altered = (table: string): Expect => ({ kind: "mutation", operation: "alter-table", table, rowsAffected: 0 });
const describe = (table: string): Command => ({ kind: "describe", table });
const explain = (command: Command): Command => ({ kind: "explain", command }) as Command;

/** What the fixture holds, asked of a fresh fixture: a refused change must leave exactly this. */
const fixture = fixtureEngine();
const asked = (command: Command): Result => fixture.execute(command).result;
/** `table`'s schema and rows as the fixture has them. */
const unchanged = (table: string): After[] => [
  [describe(table), asked(describe(table))],
  [sel(table, "*"), asked(sel(table, "*"))],
];
const add = (column: string, columnType: string, extra: { default?: unknown; required?: boolean } = {}) => ({ type: "add-column", column, columnType, ...extra }) as AlterAction;

export const alterCases: readonly Case[] = [
  // ---- add-column
  c("add-column: every row holds NULL in it", null, alter("users", add("email", "text")), "ALTER TABLE users ADD COLUMN email TEXT", altered("users"), [
    [sel("users", ["id", "email"], { where: IN("id", ["u1", "u4"]) }), rows(["id", "email"], ["u1", null], ["u4", null])],
    [ins("users", { id: "u6", name: "Fay", email: "f@x" }), mut("insert", "users", 1)],
    [sel("users", ["email"], { where: C("=", "id", "u6") }), rows(["email"], ["f@x"])],
  ]),
  c("add-column with a default: the rows there take it, and so do later inserts", null, alter("users", add("tier", "integer", { default: 1 })),
    "ALTER TABLE users ADD tier INTEGER DEFAULT 1", altered("users"), [
      [sel("users", ["tier"], { where: C("=", "id", "u2") }), rows(["tier"], [1])],
      [ins("users", { id: "u6", name: "Fay" }), mut("insert", "users", 1)],
      [sel("users", ["tier"], { where: C("=", "id", "u6") }), rows(["tier"], [1])],
    ]),
  c("add-column required with a default refuses a NULL from then on", null, alter("orders", add("region", "text", { default: "eu", required: true })),
    "ALTER TABLE orders ADD COLUMN region TEXT NOT NULL DEFAULT 'eu'", altered("orders"), [
      [sel("orders", ["region"], { where: C("=", "id", 1) }), rows(["region"], ["eu"])],
      [ins("orders", { id: 7, user_id: "u1", amount: 1, region: null }), err("validation_failed")],
    ]),
  c("add-column: a new column comes after the others in *", null, alter("teams", add("color", "text", { default: "grey" })),
    "ALTER TABLE teams ADD COLUMN color TEXT DEFAULT 'grey'", altered("teams"),
    [sel("teams", "*", { where: C("=", "id", 1) }), rows(["id", "name", "color"], [1, "red", "grey"])]),
  c("add-column of a boolean with a default", null, alter("pairs", add("flag", "boolean", { default: false })),
    "ALTER TABLE pairs ADD COLUMN flag BOOLEAN DEFAULT FALSE", altered("pairs"),
    [sel("pairs", ["flag"], { where: C("=", "a", 1), limit: 1 }), rows(["flag"], [false])]),
  c("add-column required without a default is refused, and nothing changes", null, alter("users", add("email", "text", { required: true })),
    "ALTER TABLE users ADD COLUMN email TEXT NOT NULL", err("invalid_request"), unchanged("users")),
  c("add-column of a name in use is refused, and nothing changes", null, alter("users", add("city", "text")), "ALTER TABLE users ADD COLUMN city TEXT",
    err("invalid_request"), unchanged("users")),
  c("add-column of a computed field's name is refused", null, alter("users", add("adult", "boolean")), "ALTER TABLE users ADD COLUMN adult BOOLEAN",
    err("invalid_request"), unchanged("users")),
  c("add-column with a default of another type is refused", null, alter("users", add("tier", "integer", { default: "high" })),
    "ALTER TABLE users ADD COLUMN tier INTEGER DEFAULT 'high'", err("invalid_request"), unchanged("users")),
  c("add-column of an unknown type", null, alter("users", add("blob", "blob")), "ALTER TABLE users ADD COLUMN data BLOB", misuse, unchanged("users")),
  c("ADD COLUMN may not declare a key or a reference", null, null, "ALTER TABLE users ADD COLUMN code TEXT UNIQUE", err("sql_error"), unchanged("users")),
  c("add-column on a missing table", null, alter("nope", add("a", "text")), "ALTER TABLE nope ADD COLUMN a TEXT", err("table_not_found")),
  c("add-column with an invalid name", null, alter("users", add("bad name", "text")), 'ALTER TABLE users ADD COLUMN "bad name" TEXT', err("invalid_name"),
    unchanged("users")),

  // ---- drop-column
  c("drop-column: the rows lose it", null, alter("users", { type: "drop-column", column: "note" }), "ALTER TABLE users DROP COLUMN note", altered("users"), [
    [sel("users", "*", { where: C("=", "id", "u1") }), rows(["id", "name", "age", "city", "score", "active", "adult"], ["u1", "Ada", 36, "Paris", 9.5, true, true])],
    [sel("users", ["note"]), err("unknown_column")],
  ]),
  c("drop-column shifts the later columns, and their index still finds them", null, alter("users", { type: "drop-column", column: "name" }),
    "ALTER TABLE users DROP name", altered("users"), [
      [explain(sel("users", ["id"], { where: C("=", "city", "Paris") })), access("index-lookup")],
      [sel("users", ["id", "city"], { where: C("=", "city", "Paris") }), rows(["id", "city"], ["u1", "Paris"], ["u3", "Paris"])],
      [ins("users", { id: "u6", city: "Paris" }), mut("insert", "users", 1)],
      [sel("users", ["id"], { where: C("=", "city", "Paris") }), rows(["id"], ["u1"], ["u3"], ["u6"])],
    ]),
  c("drop-column of a column with a default", null, alter("orders", { type: "drop-column", column: "status" }), "ALTER TABLE orders DROP COLUMN status",
    altered("orders"), [
      [ins("orders", { id: 7, user_id: "u2", amount: 3 }), mut("insert", "orders", 1)],
      [sel("orders", "*", { where: C("=", "id", 7) }), rows(["id", "user_id", "amount", "paid", "big"], [7, "u2", 3, false, false])],
    ]),
  c("drop-column of a computed field", null, alter("users", { type: "drop-column", column: "adult" }), "ALTER TABLE users DROP COLUMN adult", altered("users"),
    [sel("users", ["adult"]), err("unknown_column")]),
  c("drop-column of a primary key column is refused, and nothing changes", null, alter("users", { type: "drop-column", column: "id" }),
    "ALTER TABLE users DROP COLUMN id", err("invalid_request"), unchanged("users")),
  c("drop-column of an indexed column is refused", null, alter("users", { type: "drop-column", column: "city" }), "ALTER TABLE users DROP COLUMN city",
    err("invalid_request"), unchanged("users")),
  c("drop-column of a column a computed field reads is refused", null, alter("users", { type: "drop-column", column: "age" }),
    "ALTER TABLE users DROP COLUMN age", err("invalid_request"), unchanged("users")),
  c("drop-column of a column a check reads is refused", null, alter("orders", { type: "drop-column", column: "amount" }),
    "ALTER TABLE orders DROP COLUMN amount", err("invalid_request"), unchanged("orders")),
  c("drop-column of a foreign key's column is refused", null, alter("members", { type: "drop-column", column: "team_id" }),
    "ALTER TABLE members DROP COLUMN team_id", err("invalid_request"), unchanged("members")),
  c("drop-column of a unique key's column is refused", null, alter("pairs", { type: "drop-column", column: "code" }), "ALTER TABLE pairs DROP COLUMN code",
    err("invalid_request"), unchanged("pairs")),
  c("drop-column of a column a foreign key references is refused", null, alter("teams", { type: "drop-column", column: "id" }),
    "ALTER TABLE teams DROP COLUMN id", err("invalid_request"), [...unchanged("teams"), ...unchanged("members")]),
  c("drop-column of a missing column", null, alter("users", { type: "drop-column", column: "nope" }), "ALTER TABLE users DROP COLUMN nope",
    err("unknown_column"), unchanged("users")),
  tx("drop-column of a table's only column is refused", [
    [null, { kind: "create-table", schema: { name: "solo", columns: { a: "text" } } }, "CREATE TABLE solo (a TEXT)"],
    [null, alter("solo", { type: "drop-column", column: "a" }), "ALTER TABLE solo DROP COLUMN a"]],
    atStep(1, "invalid_request"), [sel("solo", ["a"]), err("table_not_found")]),

  // ---- rename-column
  c("rename-column: the column answers to its new name only", null, alter("users", { type: "rename-column", from: "note", to: "memo" }),
    "ALTER TABLE users RENAME COLUMN note TO memo", altered("users"), [
      [sel("users", ["memo"], { where: C("=", "id", "u1") }), rows(["memo"], ["first"])],
      [sel("users", ["note"]), err("unknown_column")],
    ]),
  c("rename-column of a referenced key: the other table's foreign key follows", null, alter("users", { type: "rename-column", from: "id", to: "uid" }),
    "ALTER TABLE users RENAME id TO uid", altered("users"), [
      [sel("users", ["uid"], { where: C("=", "uid", "u2") }), rows(["uid"], ["u2"])],
      [explain(sel("users", ["name"], { where: C("=", "uid", "u2") })), access("primary-key-lookup")],
      [ins("orders", { id: 7, user_id: "zz", amount: 1 }), err("constraint_violation")],
      [del("users", C("=", "uid", "u1")), err("constraint_violation")],
      [ins("orders", { id: 7, user_id: "u4", amount: 1 }), mut("insert", "orders", 1)],
    ]),
  c("rename-column read by a check and a computed field: both follow", null, alter("orders", { type: "rename-column", from: "amount", to: "total" }),
    "ALTER TABLE orders RENAME COLUMN amount TO total", altered("orders"), [
      [ins("orders", { id: 7, user_id: "u1", total: -1 }), err("validation_failed")],
      [sel("orders", ["total", "big"], { where: C("=", "id", 1) }), rows(["total", "big"], [250, true])],
    ]),
  c("rename-column of an indexed column: the index follows", null, alter("users", { type: "rename-column", from: "city", to: "town" }),
    "ALTER TABLE users RENAME COLUMN city TO town", altered("users"), [
      [explain(sel("users", ["id"], { where: C("=", "town", "Paris") })), access("index-lookup")],
      [sel("users", ["id"], { where: C("=", "town", "Paris") }), rows(["id"], ["u1"], ["u3"])],
    ]),
  c("rename-column of a unique key's column: the key follows", null, alter("pairs", { type: "rename-column", from: "code", to: "tag" }),
    "ALTER TABLE pairs RENAME COLUMN code TO tag", altered("pairs"), [
      [explain(sel("pairs", ["a"], { where: C("=", "tag", "x") })), access("unique-lookup")],
    ]),
  c("rename-column of a column with a default: the default follows", null, alter("orders", { type: "rename-column", from: "status", to: "state" }),
    "ALTER TABLE orders RENAME COLUMN status TO state", altered("orders"), [
      [ins("orders", { id: 7, user_id: "u1", amount: 1 }), mut("insert", "orders", 1)],
      [sel("orders", ["state"], { where: C("=", "id", 7) }), rows(["state"], ["new"])],
    ]),
  c("rename-column of a foreign key's own column", null, alter("members", { type: "rename-column", from: "team_id", to: "team" }),
    "ALTER TABLE members RENAME COLUMN team_id TO team", altered("members"), [
      [ins("members", { id: 20, team: 9, name: "x" }), err("constraint_violation")],
      [del("teams", C("=", "id", 1)), mut("delete", "teams", 1)],
      [sel("members", ["id"], { where: C("=", "team", 1) }), rows(["id"])],
    ]),
  c("rename-column of a computed field", null, alter("users", { type: "rename-column", from: "adult", to: "grown" }),
    "ALTER TABLE users RENAME COLUMN adult TO grown", altered("users"), [sel("users", ["grown"], { where: C("=", "id", "u2") }), rows(["grown"], [false])]),
  c("rename-column to a name in use is refused, and nothing changes", null, alter("users", { type: "rename-column", from: "note", to: "city" }),
    "ALTER TABLE users RENAME COLUMN note TO city", err("invalid_request"), unchanged("users")),
  c("rename-column to a computed field's name is refused", null, alter("users", { type: "rename-column", from: "note", to: "adult" }),
    "ALTER TABLE users RENAME note TO adult", err("invalid_request"), unchanged("users")),
  c("rename-column of a missing column", null, alter("users", { type: "rename-column", from: "nope", to: "x" }), "ALTER TABLE users RENAME nope TO x",
    err("unknown_column"), unchanged("users")),
  c("rename-column to an invalid name", null, alter("users", { type: "rename-column", from: "note", to: "bad name" }),
    'ALTER TABLE users RENAME note TO "bad name"', err("invalid_name"), unchanged("users")),

  // ---- rename-table
  c("rename-table: the table answers to its new name, foreign keys follow", null, alter("users", { type: "rename-table", to: "people" }),
    "ALTER TABLE users RENAME TO people", altered("people"), [
      [sel("people", ["id"], { where: C("=", "city", "Rome") }), rows(["id"], ["u5"])],
      [sel("users", ["id"]), err("table_not_found")],
      [ins("orders", { id: 7, user_id: "zz", amount: 1 }), err("constraint_violation")],
      [del("people", C("=", "id", "u1")), err("constraint_violation")],
      [explain(sel("people", ["id"], { where: C("=", "city", "Rome") })), access("index-lookup")],
    ]),
  c("rename-table keeps a cascade working", null, alter("teams", { type: "rename-table", to: "squads" }), "ALTER TABLE teams RENAME TO squads",
    altered("squads"), [
      [del("squads", C("=", "id", 1)), mut("delete", "squads", 1)],
      [sel("members", ["id"]), rows(["id"], [12])],
    ]),
  c("rename-table of a table with a foreign key of its own", null, alter("orders", { type: "rename-table", to: "purchases" }),
    "ALTER TABLE orders RENAME TO purchases", altered("purchases"), [
      [ins("purchases", { id: 7, user_id: "zz", amount: 1 }), err("constraint_violation")],
      [del("users", C("=", "id", "u4")), mut("delete", "users", 1)],
    ]),
  c("rename-table to a table that exists is refused, and nothing changes", null, alter("users", { type: "rename-table", to: "orders" }),
    "ALTER TABLE users RENAME TO orders", err("table_exists"), [...unchanged("users"), ...unchanged("orders")]),
  c("rename-table of a missing table", null, alter("nope", { type: "rename-table", to: "x" }), "ALTER TABLE nope RENAME TO x", err("table_not_found")),
  c("rename-table to an invalid name", null, alter("users", { type: "rename-table", to: "bad name" }), 'ALTER TABLE users RENAME TO "bad name"',
    err("invalid_name"), unchanged("users")),

  // ---- the command's shape
  c("alter-table with an unknown action", null, { kind: "alter-table", table: "users", action: { type: "truncate" } }, null, err("invalid_request"),
    unchanged("users")),
  c("add-column without a type", null, { kind: "alter-table", table: "users", action: { type: "add-column", column: "x" } }, null, err("invalid_request")),
  c("ALTER TABLE without an action", null, null, "ALTER TABLE users", err("sql_syntax_error")),

  // ---- in transactions
  tx("schema changes of a failed transaction are undone, rows and all", [
    [null, alter("users", add("email", "text", { default: "?" })), "ALTER TABLE users ADD COLUMN email TEXT DEFAULT '?'"],
    [null, alter("users", { type: "drop-column", column: "note" }), "ALTER TABLE users DROP COLUMN note"],
    [null, alter("users", { type: "rename-table", to: "people" }), "ALTER TABLE users RENAME TO people"],
    [null, upd("people", { email: "a@x" }, C("=", "id", "u1")), "UPDATE people SET email = 'a@x' WHERE id = 'u1'"],
    [null, ins("people", { id: "u1", name: "Dup" }), "INSERT INTO people (id, name) VALUES ('u1', 'Dup')"]],
    atStep(4, "constraint_violation"), [...unchanged("users"), ...unchanged("orders"), [sel("people", ["id"]), err("table_not_found")]]),
  tx("later steps see the altered table", [
    [null, alter("teams", add("size", "integer", { default: 0 })), "ALTER TABLE teams ADD COLUMN size INTEGER DEFAULT 0"],
    [null, upd("teams", { size: 3 }, C("=", "id", 1)), "UPDATE teams SET size = 3 WHERE id = 1"],
    [null, alter("teams", { type: "rename-column", from: "size", to: "headcount" }), "ALTER TABLE teams RENAME size TO headcount"],
    [null, sel("teams", ["id", "headcount"]), "SELECT id, headcount FROM teams"]],
    txr(altered("teams") as Result, { kind: "mutation", operation: "update", table: "teams", rowsAffected: 1 }, altered("teams") as Result,
      rows(["id", "headcount"], [1, 3], [2, 0]))),
  tx("a column renamed back and forth ends as it began", [
    [null, alter("users", { type: "rename-column", from: "name", to: "n" }), "ALTER TABLE users RENAME name TO n"],
    [null, alter("users", { type: "rename-column", from: "n", to: "name" }), "ALTER TABLE users RENAME n TO name"]],
    txr(altered("users") as Result, altered("users") as Result), unchanged("users")),
];
