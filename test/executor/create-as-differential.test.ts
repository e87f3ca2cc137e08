/**
 * Differential test of CREATE TABLE … AS SELECT against SQLite: the random
 * selects of the SQL differential (`support/sql-generator.ts`), each made
 * into a table on both engines, must leave tables holding the same rows —
 * in the same order when the select orders them totally (both insert in
 * the select's order). storedb refuses what has no column name or type
 * (a result named by its text, two columns of one name, an always-NULL
 * column: SQLite makes up names and leaves types out), so those are
 * skipped; most selects must go through.
 *
 * `DIFF_SEED` picks the run, `DIFF_QUERIES` how many selects (default 300).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { RowsResult } from "../../src/commands/results.js";
import type { Value } from "../../src/commands/types.js";
import { StoreError } from "../../src/errors.js";
import { engines, sameRows } from "./support/both-engines.js";
import { dataset, generateQuery, querySeed } from "./support/sql-generator.js";
import { normal, sqliteValue } from "./support/sqlite.js";

const RUN_SEED = Number(process.env["DIFF_SEED"] ?? 20261129);
const COUNT = Number(process.env["DIFF_QUERIES"] ?? 300);

const tables = dataset();
const { ours, theirs } = engines(tables);

test(`${COUNT} random selects made into tables agree with SQLite (DIFF_SEED=${RUN_SEED})`, () => {
  let made = 0;
  for (let i = 0; i < COUNT; i++) {
    const query = generateQuery(querySeed(RUN_SEED, i), tables);
    const sql = `CREATE TABLE made_${i} AS ${query.sql}`;
    const replay = `DIFF_SEED=${RUN_SEED} query ${i}\n${sql}\nparams ${JSON.stringify(query.params)}`;
    try {
      ours.execute({ kind: "sql", sql, params: query.params });
    } catch (error) {
      if (error instanceof StoreError && (error.code === "invalid_name" || error.code === "sql_error")) continue;
      throw new Error(`${replay}\nstoredb refused: ${(error as Error).message}`);
    }
    theirs.prepare(sql).run(...query.params.map(sqliteValue));
    made++;
    const result = ours.execute({ kind: "sql", sql: `SELECT * FROM made_${i}` }).result as RowsResult;
    const mine = (result.rows as Record<string, Value>[]).map((row) => result.columns.map((c) => normal(row[c])));
    const other = theirs.prepare(`SELECT * FROM made_${i}`).raw().all().map((row) => row.map(normal));
    assert.ok(sameRows(mine, other, query.ordered), `${replay}\nstoredb ${JSON.stringify(mine.slice(0, 8))}\nsqlite  ${JSON.stringify(other.slice(0, 8))}`);
  }
  assert.ok(made > COUNT * 0.8, `only ${made} of ${COUNT} selects made a table`);
});

test.run();
