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
import type { Value } from "../../src/commands/types.js";
import { engines, run, sameRows } from "./support/both-engines.js";
import { dataset, generateQuery, querySeed } from "./support/sql-generator.js";

const RUN_SEED = Number(process.env["DIFF_SEED"] ?? 20261122);
const COUNT = Number(process.env["DIFF_QUERIES"] ?? 1200);
const ONLY = process.env["DIFF_QUERY"] === undefined ? undefined : Number(process.env["DIFF_QUERY"]);

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
