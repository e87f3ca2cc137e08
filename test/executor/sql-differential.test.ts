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
 * failure prints the line that replays it. A second run lets aggregates take
 * FILTER (WHERE …) (`DIFF_FILTER_SEED`, `DIFF_FILTER_QUERIES`).
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

const FILTER_SEED = Number(process.env["DIFF_FILTER_SEED"] ?? 20261203);
const FILTER_COUNT = Number(process.env["DIFF_FILTER_QUERIES"] ?? 400);

test(`${FILTER_COUNT} random queries whose aggregates may take FILTER (WHERE …) agree with SQLite (DIFF_FILTER_SEED=${FILTER_SEED})`, () => {
  const generate = (i: number) => generateQuery(querySeed(FILTER_SEED, i), tables, { filters: true });
  const indexes = Array.from({ length: FILTER_COUNT }, (_, i) => i);
  // The run must hold filters, in grouped and ungrouped queries alike.
  const filtered = indexes.filter((i) => generate(i).sql.includes("FILTER (WHERE"));
  assert.ok(filtered.length > FILTER_COUNT * 0.15, `only ${filtered.length} of ${FILTER_COUNT} queries hold a FILTER`);
  assert.ok(filtered.some((i) => generate(i).sql.includes("GROUP BY")), "no grouped query holds a FILTER");
  runDifferential(ours, theirs, { indexes, generate, replay: (i) => `DIFF_FILTER_SEED=${FILTER_SEED} (query ${i} of the FILTER run) npm test -- sql-differential` });
});

test.run();
