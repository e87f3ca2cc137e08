/**
 * Generated differential test of row values against SQLite (better-sqlite3,
 * in memory): the SQL differential's random selects (`support/sql-generator.ts`)
 * with row value tests among their conditions — `(a, b, c) op (x, y, z)` by
 * every operator, BETWEEN, [NOT] IN a list of rows or a subquery of as many columns (often
 * correlated), against a subquery of one row — over the same dataset with
 * its NULLs, must give SQLite's answers.
 *
 * `DIFF_SEED` picks the run, `DIFF_QUERIES` how many queries (default 600),
 * `DIFF_QUERY` replays one query of the run: a failure prints the line that
 * replays it.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { engines, runDifferential } from "./support/both-engines.js";
import { dataset, generateQuery, querySeed } from "./support/sql-generator.js";

const RUN_SEED = Number(process.env["DIFF_SEED"] ?? 20261129);
const COUNT = Number(process.env["DIFF_QUERIES"] ?? 600);
const ONLY = process.env["DIFF_QUERY"] === undefined ? undefined : Number(process.env["DIFF_QUERY"]);

const tables = dataset();
const { ours, theirs } = engines(tables);

test(`${ONLY === undefined ? COUNT : 1} random queries with row values agree with SQLite (DIFF_SEED=${RUN_SEED})`, () => {
  let withRows = 0;
  const { nonEmpty } = runDifferential(ours, theirs, {
    indexes: ONLY === undefined ? Array.from({ length: COUNT }, (_, i) => i) : [ONLY],
    generate: (i) => {
      const query = generateQuery(querySeed(RUN_SEED, i), tables, { rowValues: true });
      if (/\(\([^()]*,/.test(query.sql) || / IN \(SELECT [^()]*,/.test(query.sql)) withRows++;
      return query;
    },
    replay: (i) => `DIFF_SEED=${RUN_SEED} DIFF_QUERY=${i} npm test -- row-value-differential`,
  });
  if (ONLY === undefined) {
    assert.ok(nonEmpty > COUNT * 0.5, `only ${nonEmpty} of ${COUNT} queries returned rows`);
    assert.ok(withRows > COUNT * 0.3, `only ${withRows} of ${COUNT} queries held a row value`);
  }
});

test.run();
