/**
 * Differential test against SQLite (better-sqlite3, in memory): random WHERE
 * clauses over a table full of NULLs must select the same rows in both,
 * in the same order under ORDER BY. SQLite implements the same SQL
 * three-valued logic, compares integer and real numerically, orders text by
 * code point (BINARY collation over UTF-8) and NULL lowest, so any
 * difference is ours. Expressions stay within one type family per
 * comparison, as storedb rejects the rest.
 */
import { createRequire } from "node:module";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { RowsResult } from "../../src/commands/results.js";
import type { Value } from "../../src/commands/types.js";

interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): { all(...params: unknown[]): unknown[]; raw(): { all(...params: unknown[]): unknown[] } };
}
const Sqlite = createRequire(import.meta.url)("better-sqlite3") as new (file: string) => SqliteDatabase;

let seed = 12345;
const rnd = (n: number): number => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)] as T;

const TEXTS = ["", "a", "ab", "b", "B", "é", "\uffff", "\u{1F600}", "it's"];
const quote = (s: string): string => `'${s.replace(/'/g, "''")}'`;
const sqlValue = (v: Value): string => (v === null ? "NULL" : typeof v === "string" ? quote(v) : typeof v === "boolean" ? (v ? "TRUE" : "FALSE") : String(v));

function rows(n: number): Value[][] {
  return Array.from({ length: n }, (_, id) => [
    id,
    rnd(5) === 0 ? null : rnd(7) - 3,
    rnd(5) === 0 ? null : (rnd(9) - 4) / 2,
    rnd(5) === 0 ? null : pick(TEXTS),
    rnd(4) === 0 ? null : rnd(2) === 0,
  ]);
}

type Family = "number" | "text" | "boolean";
const OPS = ["=", "<>", "!=", "<", "<=", ">", ">="];

/** Parameter values of the predicate being generated (a constant becomes `?` half the time). */
let params: Value[] = [];

function constant(v: Value): string {
  if (rnd(2) === 0) return sqlValue(v);
  params.push(v);
  return "?";
}

function operand(family: Family): string {
  switch (family) {
    case "number":
      return rnd(2) === 0 ? pick(["a", "b"]) : constant(pick([null, 0, 1, -2, 1.5, -0.5, 3]));
    case "text":
      return rnd(2) === 0 ? "s" : constant(pick([...TEXTS, null]));
    case "boolean":
      return rnd(2) === 0 ? "f" : constant(pick([true, false, null]));
  }
}

function predicate(depth: number): string {
  const k = depth <= 0 ? rnd(3) : rnd(7);
  switch (k) {
    case 0: {
      const family = pick<Family>(["number", "number", "text", "boolean"]);
      return `(${operand(family)} ${pick(OPS)} ${operand(family)})`;
    }
    case 1:
      return `(${pick(["a", "b", "s", "f"])} IS ${rnd(2) === 0 ? "" : "NOT "}NULL)`;
    case 2:
      return rnd(3) === 0 ? pick(["f", "TRUE", "FALSE", "NULL"]) : `(f = ${pick(["TRUE", "FALSE"])})`;
    case 3:
      return `(NOT ${predicate(depth - 1)})`;
    case 4:
    case 5:
      return `(${predicate(depth - 1)} ${k === 4 ? "AND" : "OR"} ${predicate(depth - 1)})`;
    default:
      return `(${predicate(depth - 1)} = ${predicate(depth - 1)})`;
  }
}

test("random WHERE (literals and parameters) and ORDER BY agree with SQLite", () => {
  const data = rows(120);
  const engine = Engine.empty();
  engine.execute({ kind: "sql", sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b REAL, s TEXT, f BOOLEAN)" });
  engine.execute({ kind: "sql", sql: `INSERT INTO t (id, a, b, s, f) VALUES ${data.map((r) => `(${r.map(sqlValue).join(", ")})`).join(", ")}` });
  const db = new Sqlite(":memory:");
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b REAL, s TEXT, f INTEGER)");
  db.exec(`INSERT INTO t (id, a, b, s, f) VALUES ${data.map((r) => `(${r.map(sqlValue).join(", ")})`).join(", ")}`);

  for (let i = 0; i < 400; i++) {
    params = [];
    const where = predicate(3);
    const order = pick(["id", "a, id", "b DESC, id", "s, id DESC", "s DESC, id", "f, b, id", "f DESC, id"]);
    const limit = rnd(3) === 0 ? ` LIMIT ${rnd(10)} OFFSET ${rnd(5)}` : "";
    const sql = `SELECT id FROM t WHERE ${where} ORDER BY ${order}${limit}`;
    const ours = ((engine.execute({ kind: "sql", sql, params }).result as RowsResult).rows as Record<string, Value>[]).map((r) => r.id);
    // SQLite has no booleans: TRUE is 1.
    const theirs = (db.prepare(sql).all(...params.map((v) => (typeof v === "boolean" ? Number(v) : v))) as { id: number }[]).map((r) => r.id);
    assert.equal(ours, theirs, `${sql} ${JSON.stringify(params)}`);
  }
});

test("random joins and mutations agree with SQLite", () => {
  const data = rows(60);
  const other = Array.from({ length: 50 }, (_, k): Value[] => [k, rnd(4) === 0 ? null : rnd(70), rnd(5) === 0 ? null : rnd(7) - 3, pick(TEXTS)]);
  const engine = Engine.empty();
  const db = new Sqlite(":memory:");
  const both = (ours: string, theirs = ours): void => {
    engine.execute({ kind: "sql", sql: ours });
    db.exec(theirs);
  };
  both("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b REAL, s TEXT, f BOOLEAN)", "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b REAL, s TEXT, f INTEGER)");
  both("CREATE TABLE u (k INTEGER PRIMARY KEY, t_id INTEGER, n INTEGER, label TEXT)");
  both(`INSERT INTO t (id, a, b, s, f) VALUES ${data.map((r) => `(${r.map(sqlValue).join(", ")})`).join(", ")}`);
  both(`INSERT INTO u (k, t_id, n, label) VALUES ${other.map((r) => `(${r.map(sqlValue).join(", ")})`).join(", ")}`);
  const compare = (sql: string, ps: Value[]): void => {
    const result = engine.execute({ kind: "sql", sql, params: ps }).result as RowsResult;
    const ours = (result.rows as Record<string, Value>[]).map((r) => result.columns.map((c) => (typeof r[c] === "boolean" ? Number(r[c]) : r[c])));
    const theirs = db.prepare(sql).raw().all(...ps.map((v) => (typeof v === "boolean" ? Number(v) : v)));
    assert.equal(ours, theirs, `${sql} ${JSON.stringify(ps)}`);
    if (ours.length > 0) nonEmpty++;
  };
  let nonEmpty = 0;
  for (let i = 0; i < 150; i++) {
    params = [];
    const on = pick(["u.t_id = t.id", "u.t_id = t.id AND u.n > t.a", "u.n = t.a", "u.label = t.s", "u.n < t.a", "u.t_id = t.id OR u.label = t.s"]);
    const where = rnd(2) === 0 ? "" : ` WHERE ${predicate(2)}`;
    const sql = `SELECT t.id, u.k FROM t ${pick(["JOIN", "LEFT JOIN"])} u ON ${on}${where} ORDER BY t.id, u.k`;
    compare(sql, params);
    // Three sources: WHERE terms over each prefix of the joins.
    params = [];
    const terms = [predicate(1), pick(["v.k IS NULL", "v.n > u.n", "u.n = t.a", "v.label = t.s", "v.k > 10"]), pick(["u.n < 2", "u.label <> 'a'", "t.a IS NOT NULL"])];
    const three = `SELECT t.id, u.k, v.k FROM t ${pick(["JOIN", "LEFT JOIN"])} u ON u.t_id = t.id ${pick(["JOIN", "LEFT JOIN"])} u AS v ON ${pick(["v.t_id = u.k", "v.n = u.n", "v.k = u.t_id"])} WHERE ${terms.join(" AND ")} ORDER BY t.id, u.k, v.k`;
    compare(three, params);
  }
  for (let i = 0; i < 60; i++) {
    params = [];
    const where = predicate(2);
    const ps = params;
    const sql = rnd(3) === 0 ? `DELETE FROM t WHERE ${where}` : `UPDATE t SET ${pick(["a = 1", "b = -0.5", "s = 'zz'", "f = FALSE", "a = NULL"])} WHERE ${where}`;
    const ours = engine.execute({ kind: "sql", sql, params: ps }).result as { rowsAffected: number };
    const theirs = db.prepare(sql.replace("f = FALSE", "f = 0")) as unknown as { run(...p: unknown[]): { changes: number } };
    assert.is(ours.rowsAffected, theirs.run(...ps.map((v) => (typeof v === "boolean" ? Number(v) : v))).changes, sql);
    compare("SELECT id, a, b, s, f FROM t ORDER BY id", []);
  }
  assert.ok(nonEmpty > 80, `many queries should return rows (${nonEmpty})`);
});

test.run();
