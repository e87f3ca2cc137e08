/**
 * Conformance cases for column defaults that are expressions: JSON
 * `defaults: {"col": {"expr": …}}`, SQL `DEFAULT CURRENT_TIMESTAMP`,
 * `CURRENT_DATE`, `CURRENT_TIME` (SQLite's text forms, UTC) and `DEFAULT
 * (expr)`. Times are not known in advance, so the cases read what the rows
 * hold through expressions: one time per statement, SQLite's shapes, dates
 * and times of the same instant. A value given (NULL too) wins; describe
 * shows what create-table takes; a default that reads a column, takes a
 * parameter or a subquery, or is of another family than its column is
 * refused, and ADD COLUMN takes none that changes per row (as SQLite).
 */

import type { Expression } from "../../src/commands/types.js";
import { AS, B, C, FN, I, L, c, err, misuse, mut, rows, sel, tx, txr, type Case, type StepForms } from "./dsl.js";

const now = (fn: string): { expr: Expression } => ({ expr: { type: "function", name: fn, args: [L("now")] } });
const EV_SCHEMA = {
  name: "ev",
  columns: { id: "integer", at: "text", d: "text", t: "text", n: "integer" },
  primary_key: { columns: ["id"] },
  defaults: { at: now("datetime"), d: now("date"), t: now("time"), n: { expr: B("+", L(1), L(2)) } },
};
const EV_SQL = "CREATE TABLE ev (id INTEGER PRIMARY KEY, at TEXT DEFAULT CURRENT_TIMESTAMP, d TEXT DEFAULT CURRENT_DATE, t TEXT DEFAULT current_time, n INTEGER DEFAULT (1 + 2))";
const createEv: StepForms = [null, { kind: "create-table", schema: EV_SCHEMA }, EV_SQL];
const AGG = (name: string, arg: Expression, distinct = false): Expression => ({ type: "aggregate", name, arg, ...(distinct ? { distinct } : {}) }) as Expression;
/** What the rows hold: how many distinct times, the stamp's length, whether date and time are the stamp's, the computed number. */
const readEv: StepForms = [null,
  sel("ev", [AS(AGG("count", I("at"), true), "times"), AS(AGG("min", FN("length", "at")), "len"), AS(AGG("min", C("=", "d", FN("date", "at"))), "day"),
    AS(AGG("min", C("=", "t", FN("time", "at"))), "clock"), AS(AGG("min", I("n")), "n")]),
  "SELECT count(DISTINCT at) AS times, min(length(at)) AS len, min(d = date(at)) AS day, min(t = time(at)) AS clock, min(n) AS n FROM ev"];

export const defaultCases: readonly Case[] = [
  c("CURRENT_TIMESTAMP, CURRENT_DATE and CURRENT_TIME are the clock in any expression", null, null,
    "SELECT length(CURRENT_TIMESTAMP) AS ts, CURRENT_DATE = date('now') AS d, length(CURRENT_TIME) AS t", rows(["ts", "d", "t"], [19, true, 8])),
  tx("CURRENT_TIMESTAMP, CURRENT_DATE and CURRENT_TIME fill SQLite's text forms, one instant per statement",
    [createEv, [(t) => t("ev").insert([{ id: 1 }, { id: 2 }, { id: 3 }]), { kind: "insert", table: "ev", rows: [{ id: 1 }, { id: 2 }, { id: 3 }] }, "INSERT INTO ev (id) VALUES (1), (2), (3)"], readEv],
    txr(mut("create-table", "ev", 0), mut("insert", "ev", 3), rows(["times", "len", "day", "clock", "n"], [1, 19, true, true, 3]))),
  tx("the clock is read when the row is written: it is no earlier than the statement that reads it",
    [createEv, [(t) => t("ev").insert({ id: 1 }), { kind: "insert", table: "ev", rows: [{ id: 1 }] }, "INSERT INTO ev (id) VALUES (1)"],
      [null, sel("ev", [AS(C("<=", "at", FN("datetime", L("now"))), "past"), AS(C(">", "at", FN("datetime", L("now"), "-1 hour")), "recent")]),
        "SELECT at <= datetime('now') AS past, at > datetime('now', '-1 hour') AS recent FROM ev"]],
    txr(mut("create-table", "ev", 0), mut("insert", "ev", 1), rows(["past", "recent"], [true, true]))),
  tx("a value given, NULL too, takes the default's place; INSERT … SELECT and an upsert's excluded row fill it as well",
    [createEv,
      [(t) => t("ev").insert([{ id: 1, at: "2000-01-01 00:00:00", n: 9 }, { id: 2, at: null }]), { kind: "insert", table: "ev", rows: [{ id: 1, at: "2000-01-01 00:00:00", n: 9 }, { id: 2, at: null }] },
        "INSERT INTO ev (id, at, n) VALUES (1, '2000-01-01 00:00:00', 9), (2, NULL, 3)"],
      [null, { kind: "insert", table: "ev", columns: ["id"], select: { kind: "select", columns: [AS(L(3), "id")] } }, "INSERT INTO ev (id) SELECT 3"],
      [null, { kind: "insert", table: "ev", rows: [{ id: 1 }], onConflict: { target: ["id"], action: "update", set: { t: I("excluded.d") } } },
        "INSERT INTO ev (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET t = excluded.d"],
      [null, sel("ev", ["id", AS({ type: "is-null", expr: I("at") }, "unset"), AS(C("=", "t", I("d")), "dated"), "n"]), "SELECT id, at IS NULL AS unset, t = d AS dated, n FROM ev"]],
    txr(mut("create-table", "ev", 0), mut("insert", "ev", 2), mut("insert", "ev", 1), { kind: "mutation", operation: "insert", table: "ev", rowsAffected: 1, inserted: 0, updated: 1, ignored: 0 },
      rows(["id", "unset", "dated", "n"], [1, false, true, 9], [2, true, false, 3], [3, false, false, 3]))),
  c("describe shows an expression default as create-table takes it", null, { kind: "create-table", schema: EV_SCHEMA }, EV_SQL, mut("create-table", "ev", 0),
    [{ kind: "describe", table: "ev" }, { kind: "schema", tables: [{ ...EV_SCHEMA, required: ["id"] }] } as never]),

  // ---- refused
  c("a default that reads a column is refused", null,
    { kind: "create-table", schema: { name: "bad", columns: { a: "integer", b: "integer" }, defaults: { a: { expr: I("b") } } } }, "CREATE TABLE bad (a INTEGER DEFAULT (b), b INTEGER)", err("unknown_column")),
  c("a default of another family than its column is refused", null,
    { kind: "create-table", schema: { name: "bad", columns: { a: "integer" }, defaults: { a: now("datetime") } } }, "CREATE TABLE bad (a INTEGER DEFAULT CURRENT_TIMESTAMP)", err("invalid_request")),
  c("a default cannot hold a subquery", null,
    { kind: "create-table", schema: { name: "bad", columns: { a: "integer" }, defaults: { a: { expr: { type: "subquery", select: sel("orders", [AS({ type: "aggregate", name: "count" } as Expression, "n")]) } } } } },
    "CREATE TABLE bad (a INTEGER DEFAULT ((SELECT count(*) FROM orders)))", err("invalid_request")),
  c("a default cannot take a parameter", null, null, ["CREATE TABLE bad (a INTEGER DEFAULT (?))", [1]], err("sql_error")),
  c("DEFAULT takes only SQL's three clock names", null, null, "CREATE TABLE bad (a TEXT DEFAULT NOW)", err("sql_error")),
  c("ADD COLUMN takes no default that changes per row, as SQLite", null, null, "ALTER TABLE users ADD COLUMN seen TEXT DEFAULT CURRENT_TIMESTAMP", err("sql_error")),
  c("ADD COLUMN's JSON default is a value", null, { kind: "alter-table", table: "users", action: { type: "add-column", column: "seen", columnType: "text", default: now("datetime") } }, null, misuse),
];
