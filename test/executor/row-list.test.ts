/**
 * `(a, b) [NOT] IN ((x1, y1), …)` of constants and parameters is one
 * lookup in a RowSet made once per parameter values (`row-list.ts`), not an
 * OR of every row's `=`: the compiled code stays the same size however long
 * the list (before: about 100 characters per row, 50 s for 20,000 rows over
 * 20,000, and "nests too deeply" at 30,000), and answers as the OR would.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { RowsResult } from "../../src/commands/results.js";
import type { Value } from "../../src/commands/types.js";
import { compileValue } from "../../src/executor/codegen.js";
import type { BoundExpr } from "../../src/planner/plan.js";

const P = (index: number): BoundExpr => ({ kind: "param", index, type: "integer" });
const K = (value: Value): BoundExpr => ({ kind: "const", value });
const rowIn = (rows: BoundExpr[][], not = false): BoundExpr => ({ kind: "row-in", exprs: [P(0), P(1)], rows, not });

test("a list of constant rows compiles to one lookup, whatever its length", () => {
  const rows = Array.from({ length: 5000 }, (_, i) => [K(i), K(i * 2)]);
  const f = compileValue(rowIn(rows), "values");
  assert.ok(f.toString().length < 1000, `${f.toString().length} characters of code for 5,000 rows`);
  assert.is(f([] as never, [10, 20]), true);
  assert.is(f([] as never, [10, 21]), false);
  assert.is(f([] as never, [null, 20]), null);
  assert.is(f([] as never, [99999, null]), false);
  const not = compileValue(rowIn(rows, true), "values");
  assert.equal([not([] as never, [10, 20]), not([] as never, [10, 21]), not([] as never, [10, null])], [false, true, null]);
});

test("NULLs listed answer as the OR of the rows' = does", () => {
  const f = compileValue(rowIn([[K(1), K(null)], [K(2), K(3)]]), "values");
  assert.equal(
    [[2, 3], [1, 5], [4, 5], [null, 3], [null, 9]].map((p) => f([] as never, p)),
    [true, null, false, null, null],
  );
});

test("a list holding parameters is made again for other parameter values", () => {
  const f = compileValue(rowIn([[P(2), P(3)], [K(5), K(6)]]), "values");
  assert.is(f([] as never, [1, 2, 1, 2]), true);
  assert.is(f([] as never, [1, 2, 3, 4]), false);
  assert.is(f([] as never, [5, 6, 3, 4]), true);
  assert.is(f([] as never, [1, 2, null, 2]), null);
});

test("SQL: a list of 30,000 rows over 30,000 rows runs (before: nests too deeply), with parameters too", () => {
  const e = Engine.empty();
  const n = 30_000;
  e.execute({ kind: "create-table", schema: { name: "t", columns: { id: "integer", a: "integer", b: "text" }, primary_key: { columns: ["id"] } } });
  e.execute({ kind: "insert", table: "t", rows: Array.from({ length: n }, (_, i) => ({ id: i, a: i, b: `v${i}` })) });
  const list = Array.from({ length: n }, (_, i) => `(${i * 3}, 'V${i * 3}')`).join(", ");
  const count = (sql: string, params: Value[] = []): Value => ((e.execute({ kind: "sql", sql, params }).result as RowsResult).rows[0] as { n: Value }).n;
  assert.is(count(`SELECT count(*) AS n FROM t WHERE (a, b) IN (${list})`), 0);
  // b's pair in NOCASE, as `=` would compare it: each listed value and the row's by their keys.
  assert.is(count(`SELECT count(*) AS n FROM t WHERE (a, b COLLATE NOCASE) IN (${list})`), n / 3);
  assert.is(count(`SELECT count(*) AS n FROM t WHERE (a, b) NOT IN ((?, ?), (?, ?))`, [3, "v3", 4, "v4"]), n - 2);
  assert.is(count(`SELECT count(*) AS n FROM t WHERE (a, b) NOT IN ((?, ?), (?, ?))`, [3, "v3", 4, null]), n - 2);
  assert.is(count(`SELECT count(*) AS n FROM t WHERE (a, b) IN ((?, ?), (?, ?))`, [5, "v5", 6, "v6"]), 2);
});

test.run();
