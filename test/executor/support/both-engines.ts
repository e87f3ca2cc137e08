/**
 * storedb and SQLite (better-sqlite3, in memory) holding the same tables,
 * rows and indexes, a query run on both, and their answers compared: as
 * multisets, or in order when the query orders them totally; reals to 1e-9
 * relative. Shared by the differential tests of SQL text.
 */
import * as assert from "uvu/assert";
import { Engine } from "../../../src/catalog/engine.js";
import type { RowsResult } from "../../../src/commands/results.js";
import type { Value } from "../../../src/commands/types.js";
import type { Query, TableDef } from "./sql-generator.js";
import { Sqlite, normal, sqliteValue, type SqliteDatabase } from "./sqlite.js";

/** Both engines holding the same tables, rows and indexes. */
export function engines(tables: readonly TableDef[]): { ours: Engine; theirs: SqliteDatabase } {
  const ours = Engine.empty();
  const theirs = new Sqlite(":memory:");
  for (const t of tables) {
    const columns = Object.fromEntries(t.columns.map((c) => [c.name, c.type]));
    ours.execute({
      kind: "create-table",
      schema: { name: t.name, columns, primary_key: { columns: ["id"] }, indexes: t.indexes.map(([name, ...columns]) => ({ name, columns })) },
    });
    const types = t.columns.map((c) => `${c.name} ${c.type === "boolean" ? "INTEGER" : c.type.toUpperCase()}${c.name === "id" ? " PRIMARY KEY" : ""}`);
    theirs.exec(`CREATE TABLE ${t.name} (${types.join(", ")})`);
    for (const [name, ...columns] of t.indexes) theirs.exec(`CREATE INDEX ${name} ON ${t.name} (${columns.join(", ")})`);
    ours.execute({ kind: "insert", table: t.name, rows: t.rows.map((row) => Object.fromEntries(t.columns.map((c, i) => [c.name, row[i] ?? null]))) });
    const insert = theirs.prepare(`INSERT INTO ${t.name} VALUES (${t.columns.map(() => "?").join(", ")})`);
    for (const row of t.rows) insert.run(...row.map(sqliteValue));
  }
  return { ours, theirs };
}

function close(a: Value, b: Value): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  return a === b;
}

/** A row's sort key for multiset comparison: reals cut to 10 digits, so last-bit differences sort alike. */
function key(row: readonly Value[]): string {
  return JSON.stringify(row.map((v) => (typeof v === "number" ? Number(v.toPrecision(10)) : v)));
}

export function sameRows(ours: Value[][], theirs: Value[][], ordered: boolean): boolean {
  if (ours.length !== theirs.length) return false;
  const [a, b] = ordered ? [ours, theirs] : [[...ours].sort((x, y) => cmp(key(x), key(y))), [...theirs].sort((x, y) => cmp(key(x), key(y)))];
  return a.every((row, i) => row.length === b[i]!.length && row.every((v, j) => close(v, b[i]![j]!)));
}

const cmp = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

export function run(ours: Engine, theirs: SqliteDatabase, query: Query): { ours: Value[][]; theirs: Value[][] } {
  const result = ours.execute({ kind: "sql", sql: query.sql, params: query.params }).result as RowsResult;
  const mine = (result.rows as Record<string, Value>[]).map((row) => result.columns.map((c) => normal(row[c])));
  const other = theirs.prepare(query.sql).raw().all(...query.params.map(sqliteValue)).map((row) => row.map(normal));
  return { ours: mine, theirs: other };
}

/** A generated differential run: which queries, and how a failure says to replay one. */
export interface DifferentialRun<Q extends Query> {
  /** The query numbers to run (all of the run, or the one being replayed). */
  readonly indexes: readonly number[];
  readonly generate: (i: number) => Q;
  /** The line that replays query `i` (its environment and test file). */
  readonly replay: (i: number) => string;
  /** Both answers as compared (as they are, unless the query leaves something open). */
  readonly compared?: (query: Q, answers: { ours: Value[][]; theirs: Value[][] }) => { ours: Value[][]; theirs: Value[][] };
}

/** Runs each query on both engines and asserts their answers agree; returns how many gave rows and how many were ordered. */
export function runDifferential<Q extends Query>(ours: Engine, theirs: SqliteDatabase, spec: DifferentialRun<Q>): { nonEmpty: number; ordered: number } {
  let nonEmpty = 0;
  let ordered = 0;
  for (const i of spec.indexes) {
    const query = spec.generate(i);
    const replay = `replay: ${spec.replay(i)}\n${query.sql}\nparams ${JSON.stringify(query.params)}`;
    let answers: { ours: Value[][]; theirs: Value[][] };
    try {
      answers = run(ours, theirs, query);
    } catch (error) {
      assert.unreachable(`${replay}\nfailed: ${(error as Error).message}`);
      return { nonEmpty, ordered };
    }
    const { ours: a, theirs: b } = spec.compared?.(query, answers) ?? answers;
    const show = (rows: Value[][]): string => JSON.stringify(rows.slice(0, 12)) + (rows.length > 12 ? ` … (${rows.length} rows)` : "");
    assert.ok(sameRows(a, b, query.ordered), `${replay}\nstoredb ${show(answers.ours)}\nsqlite  ${show(answers.theirs)}`);
    if (answers.ours.length > 0) nonEmpty++;
    if (query.ordered) ordered++;
  }
  return { nonEmpty, ordered };
}
