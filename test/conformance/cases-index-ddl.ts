/**
 * Conformance cases: `create-index` and `drop-index` (CONTRACT §11), from
 * JSON and SQL (the builder has no schema commands) — the planner using an
 * index at once and no longer once it is dropped, unique indexes as keys
 * (refused by data that breaks them, referenced by foreign keys), names
 * unique within the database, every refusal and what stays unchanged.
 */

import type { Command, IndexDef } from "../../src/commands/types.js";
import { C, access, atStep, c, err, ins, misuse, mut, rows, sel, tx, txr, type Case, type Expect } from "./dsl.js";

const createIndex = (table: string, index: IndexDef, ifNotExists?: true): Command => ({ kind: "create-index", table, index, ...(ifNotExists ? { ifNotExists } : {}) });
const dropIndex = (name: string, ifExists?: true): Command => ({ kind: "drop-index", name, ...(ifExists ? { ifExists } : {}) });
const indexed = (operation: "create-index" | "drop-index", table: string, index: string): Expect => ({ kind: "mutation", operation, table, index, rowsAffected: 0 });
const explain = (command: Command): Command => ({ kind: "explain", command }) as Command;

const byName = explain(sel("users", ["id"], { where: C("=", "name", "Ada") }));
const byUser = explain(sel("orders", ["id"], { where: C("=", "user_id", "u1") }));
const userIndexes = [byName, explain(sel("users", ["id"], { where: C("=", "city", "Paris") }))] as const;

export const indexDdlCases: readonly Case[] = [
  c("create-index: the planner uses it at once", null, createIndex("users", { name: "by_name", columns: ["name"] }), "CREATE INDEX by_name ON users (name)",
    indexed("create-index", "users", "by_name"), [[byName, access("index-lookup")], [sel("users", ["id"], { where: C("=", "name", "Ada") }), rows(["id"], ["u1"])]]),
  c("a unique index is a unique lookup and refuses a duplicate", null, createIndex("users", { name: "by_note", columns: ["note"], unique: true }),
    "CREATE UNIQUE INDEX by_note ON users (note)", indexed("create-index", "users", "by_note"),
    [[explain(sel("users", ["id"], { where: C("=", "note", "x") })), access("unique-lookup")], [ins("users", { id: "u6", name: "Fay", note: "x" }), err("constraint_violation")],
      [ins("users", { id: "u6", name: "Fay", note: null }), mut("insert", "users", 1)]]),
  c("a unique index on rows that break it is refused, and nothing changes", null, createIndex("users", { name: "one_city", columns: ["city"], unique: true }),
    "CREATE UNIQUE INDEX one_city ON users (city)", err("constraint_violation"),
    [[ins("users", { id: "u6", name: "Fay", city: "Paris" }), mut("insert", "users", 1)], [createIndex("users", { name: "one_city", columns: ["name"] }), indexed("create-index", "users", "one_city")]]),
  c("a composite unique index counts rows with a NULL as distinct", null, createIndex("pairs", { name: "a_label", columns: ["a", "label"], unique: true }),
    "CREATE UNIQUE INDEX a_label ON pairs (a, label)", indexed("create-index", "pairs", "a_label"),
    [ins("pairs", { a: 1, b: "z", label: "one" }), err("constraint_violation")]),
  c("a second index on the same columns is allowed", null, createIndex("users", { name: "by_city_again", columns: ["city"] }),
    "CREATE INDEX by_city_again ON users (city)", indexed("create-index", "users", "by_city_again")),
  c("create-index IF NOT EXISTS with a taken name does nothing", null, createIndex("orders", { name: "by_city", columns: ["status"] }, true),
    "CREATE INDEX IF NOT EXISTS by_city ON orders (status)", indexed("create-index", "orders", "by_city"),
    [explain(sel("orders", ["id"], { where: C("=", "status", "new") })), access("scan")]),
  c("index names are unique within a database", null, createIndex("orders", { name: "by_city", columns: ["status"] }), "CREATE INDEX by_city ON orders (status)",
    err("invalid_request"), [explain(sel("orders", ["id"], { where: C("=", "status", "new") })), access("scan")]),
  c("a created table may not take an index name in use", null,
    { kind: "create-table", schema: { name: "t2", columns: { a: "text" }, indexes: [{ name: "by_user", columns: ["a"] }] } }, null, err("invalid_request"),
    [sel("t2", ["a"]), err("table_not_found")]),
  c("create-index on an unknown table", null, createIndex("nope", { name: "ix", columns: ["a"] }), "CREATE INDEX ix ON nope (a)", err("table_not_found")),
  c("create-index on an unknown column", null, createIndex("users", { name: "ix", columns: ["nope"] }), "CREATE INDEX ix ON users (nope)", err("unknown_column")),
  c("create-index on a computed field", null, createIndex("users", { name: "ix", columns: ["adult"] }), "CREATE INDEX ix ON users (adult)", err("invalid_request")),
  c("create-index naming a column twice", null, createIndex("users", { name: "ix", columns: ["name", "name"] }), "CREATE INDEX ix ON users (name, name)", misuse),
  c("an index may not be named primary_key", null, createIndex("users", { name: "primary_key", columns: ["name"] }), "CREATE INDEX primary_key ON users (name)",
    err("invalid_request")),
  c("an index name breaking the name rule", null, createIndex("users", { name: "bad name", columns: ["name"] }), 'CREATE INDEX "bad name" ON users (name)', err("invalid_name")),
  c("drop-index: the planner stops using it at once", null, dropIndex("by_user"), "DROP INDEX by_user", indexed("drop-index", "orders", "by_user"),
    [[byUser, access("scan")], [sel("orders", ["id"], { where: C("=", "user_id", "u1") }), rows(["id"], [1], [2])]]),
  c("drop-index of a missing index", null, dropIndex("nope"), "DROP INDEX nope", err("invalid_request")),
  c("drop-index IF EXISTS of a missing index does nothing", null, dropIndex("nope", true), "DROP INDEX IF EXISTS nope", indexed("drop-index", "", "nope"),
    [...userIndexes.slice(1).map((e) => [e, access("index-lookup")] as const)]),
  c("drop-index leaves the table's keys", null, dropIndex("by_city"), "DROP INDEX by_city", indexed("drop-index", "users", "by_city"),
    [[explain(sel("users", ["id"], { where: C("=", "id", "u1") })), access("primary-key-lookup")], [ins("users", { id: "u1", name: "Dup" }), err("constraint_violation")]]),

  // ---- unique indexes as foreign-key targets; index commands in transactions
  tx("a unique index can be what a foreign key references", [
    [null, createIndex("pairs", { name: "by_label", columns: ["label"], unique: true }), "CREATE UNIQUE INDEX by_label ON pairs (label)"],
    [null, { kind: "create-table", schema: { name: "tags", columns: { label: "text" }, foreign_keys: [{ columns: ["label"], references: { table: "pairs", columns: ["label"] } }] } },
      "CREATE TABLE tags (label TEXT REFERENCES pairs (label))"],
    [null, ins("tags", { label: "two" }), "INSERT INTO tags (label) VALUES ('two')"]],
    txr(indexed("create-index", "pairs", "by_label") as never, mut("create-table", "tags", 0), mut("insert", "tags", 1)),
    [ins("tags", { label: "nine" }), err("constraint_violation")]),
  tx("a unique index a foreign key needs cannot be dropped", [
    [null, createIndex("pairs", { name: "by_label", columns: ["label"], unique: true }), "CREATE UNIQUE INDEX by_label ON pairs (label)"],
    [null, { kind: "create-table", schema: { name: "tags", columns: { label: "text" }, foreign_keys: [{ columns: ["label"], references: { table: "pairs", columns: ["label"] } }] } },
      "CREATE TABLE tags (label TEXT REFERENCES pairs (label))"],
    [null, dropIndex("by_label"), "DROP INDEX by_label"]],
    atStep(2, "invalid_request"), [[sel("tags", ["label"]), err("table_not_found")], [ins("pairs", { a: 7, b: "q", label: "one" }), mut("insert", "pairs", 1)]]),
  tx("index changes of a failed transaction are undone", [
    [null, dropIndex("by_user"), "DROP INDEX by_user"],
    [null, createIndex("orders", { name: "by_status", columns: ["status"] }), "CREATE INDEX by_status ON orders (status)"],
    [null, ins("users", { id: "u1", name: "Dup" }), "INSERT INTO users (id, name) VALUES ('u1', 'Dup')"]],
    atStep(2, "constraint_violation"), [[byUser, access("index-lookup")], [explain(sel("orders", ["id"], { where: C("=", "status", "new") })), access("scan")]]),
];
