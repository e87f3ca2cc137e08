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
import { engines, runDifferential } from "./support/both-engines.js";
import { dataset, generateQuery, querySeed } from "./support/sql-generator.js";

const RUN_SEED = Number(process.env["DIFF_SEED"] ?? 20261122);
const COUNT = Number(process.env["DIFF_QUERIES"] ?? 1200);
const ONLY = process.env["DIFF_QUERY"] === undefined ? undefined : Number(process.env["DIFF_QUERY"]);

const tables = dataset();
const { ours, theirs } = engines(tables);

test(`${ONLY === undefined ? COUNT : 1} random queries agree with SQLite (DIFF_SEED=${RUN_SEED})`, () => {
  const { nonEmpty, ordered } = runDifferential(ours, theirs, {
    indexes: ONLY === undefined ? Array.from({ length: COUNT }, (_, i) => i) : [ONLY],
    generate: (i) => generateQuery(querySeed(RUN_SEED, i), tables),
    replay: (i) => `DIFF_SEED=${RUN_SEED} DIFF_QUERY=${i} npm test -- sql-differential`,
  });
  if (ONLY === undefined) {
    // The generator must produce queries that mean something: most return rows, many in order.
    assert.ok(nonEmpty > COUNT * 0.5, `only ${nonEmpty} of ${COUNT} queries returned rows`);
    assert.ok(ordered > COUNT * 0.3, `only ${ordered} of ${COUNT} queries were ordered`);
  }
});

test.run();
