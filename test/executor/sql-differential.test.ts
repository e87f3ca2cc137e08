/**
 * Generated differential test against SQLite (better-sqlite3, in memory):
 * random selects mixing every §11 read feature (`support/sql-generator.ts`)
 * over a generated dataset of related tables with NULLs, with the same
 * indexes in both engines, must give the same answers — as multisets, or in
 * order when the query orders them totally; reals to 1e-9 relative.
 *
 * `DIFF_SEED` picks the run (default fixed, so `npm test` is repeatable),
 * `DIFF_QUERIES` how many queries (default 1,200; `npm run soak` runs many
 * more under a random seed), `DIFF_QUERY` replays one query of the run: a
 * failure prints the line that replays it.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { RowsResult } from "../../src/commands/results.js";
import type { Value } from "../../src/commands/types.js";
import { dataset, generateQuery, querySeed, type Query, type TableDef } from "./support/sql-generator.js";
import { Sqlite, normal, sqliteValue, type SqliteDatabase } from "./support/sqlite.js";

const RUN_SEED = Number(process.env["DIFF_SEED"] ?? 20261122);
const COUNT = Number(process.env["DIFF_QUERIES"] ?? 1200);
const ONLY = process.env["DIFF_QUERY"] === undefined ? undefined : Number(process.env["DIFF_QUERY"]);

/** Both engines holding the same tables, rows and indexes. */
function engines(tables: readonly TableDef[]): { ours: Engine; theirs: SqliteDatabase } {
  const ours = Engine.empty();
  const theirs = new Sqlite(":memory:");
  for (const t of tables) {
    const columns = Object.fromEntries(t.columns.map((c) => [c.name, c.type]));
    ours.execute({
      kind: "create-table",
      schema: { name: t.name, columns, primary_key: { columns: ["id"] }, indexes: t.indexes.map(([name, column]) => ({ name, columns: [column] })) },
    });
    const types = t.columns.map((c) => `${c.name} ${c.type === "boolean" ? "INTEGER" : c.type.toUpperCase()}${c.name === "id" ? " PRIMARY KEY" : ""}`);
    theirs.exec(`CREATE TABLE ${t.name} (${types.join(", ")})`);
    for (const [name, column] of t.indexes) theirs.exec(`CREATE INDEX ${name} ON ${t.name} (${column})`);
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

function sameRows(ours: Value[][], theirs: Value[][], ordered: boolean): boolean {
  if (ours.length !== theirs.length) return false;
  const [a, b] = ordered ? [ours, theirs] : [[...ours].sort((x, y) => cmp(key(x), key(y))), [...theirs].sort((x, y) => cmp(key(x), key(y)))];
  return a.every((row, i) => row.length === b[i]!.length && row.every((v, j) => close(v, b[i]![j]!)));
}

const cmp = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

function run(ours: Engine, theirs: SqliteDatabase, query: Query): { ours: Value[][]; theirs: Value[][] } {
  const result = ours.execute({ kind: "sql", sql: query.sql, params: query.params }).result as RowsResult;
  const mine = (result.rows as Record<string, Value>[]).map((row) => result.columns.map((c) => normal(row[c])));
  const other = theirs.prepare(query.sql).raw().all(...query.params.map(sqliteValue)).map((row) => row.map(normal));
  return { ours: mine, theirs: other };
}

const tables = dataset();
const { ours, theirs } = engines(tables);

test(`${ONLY === undefined ? COUNT : 1} random queries agree with SQLite (DIFF_SEED=${RUN_SEED})`, () => {
  let nonEmpty = 0;
  let ordered = 0;
  const indexes = ONLY === undefined ? Array.from({ length: COUNT }, (_, i) => i) : [ONLY];
  for (const i of indexes) {
    const query = generateQuery(querySeed(RUN_SEED, i), tables);
    const replay = `replay: DIFF_SEED=${RUN_SEED} DIFF_QUERY=${i} npm test -- sql-differential\n${query.sql}\nparams ${JSON.stringify(query.params)}`;
    let answers: { ours: Value[][]; theirs: Value[][] };
    try {
      answers = run(ours, theirs, query);
    } catch (error) {
      assert.unreachable(`${replay}\nfailed: ${(error as Error).message}`);
      return;
    }
    const show = (rows: Value[][]): string => JSON.stringify(rows.slice(0, 12)) + (rows.length > 12 ? ` … (${rows.length} rows)` : "");
    assert.ok(sameRows(answers.ours, answers.theirs, query.ordered), `${replay}\nstoredb ${show(answers.ours)}\nsqlite  ${show(answers.theirs)}`);
    if (answers.ours.length > 0) nonEmpty++;
    if (query.ordered) ordered++;
  }
  if (ONLY === undefined) {
    // The generator must produce queries that mean something: most return rows, many in order.
    assert.ok(nonEmpty > COUNT * 0.5, `only ${nonEmpty} of ${COUNT} queries returned rows`);
    assert.ok(ordered > COUNT * 0.3, `only ${ordered} of ${COUNT} queries were ordered`);
  }
});

test.run();
