/**
 * Long answers projected when read (`select.ts`): the same rows, keys and
 * JSON text as an answer projected at once; a snapshot that later writes do
 * not change, read whole or a slice at a time; short answers, expression
 * columns, grouped rows, DISTINCT and joins that project as they go
 * projected at once as before.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { Result, RowsResult } from "../../src/commands/results.js";
import type { Command } from "../../src/commands/types.js";
import { LATE_PROJECTION_AT, rowSlices } from "../../src/executor/index.js";

const N = LATE_PROJECTION_AT * 3 + 7;

function fixture(): Engine {
  const e = Engine.empty();
  e.execute({ kind: "sql", sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT, r REAL, b BOOLEAN)" });
  const rows = Array.from({ length: N }, (_, i) => ({ id: i, s: i % 7 === 0 ? null : `r\u00e9${i}\u{1F600}"`, r: i / 4, b: i % 3 === 0 }));
  e.execute({ kind: "insert", table: "t", rows });
  return e;
}

const run = (e: Engine, command: Command): RowsResult => e.execute(command).result as RowsResult;
/** What the answer would be projected at once: a plain object built from its parts. */
const plain = (r: RowsResult) => ({ kind: r.kind, columns: [...r.columns], rows: r.rows.map((row) => (Array.isArray(row) ? [...row] : { ...row })), rowCount: r.rowCount });

test("a long select of plain columns is projected when read: same rows, keys and JSON text", () => {
  const e = fixture();
  for (const command of [
    { kind: "select", table: "t", columns: "*" },
    { kind: "select", table: "t", columns: ["b", "id"], output: "arrays" },
    { kind: "sql", sql: "SELECT id AS k, s, 5 AS five, ? AS p FROM t WHERE id >= 3 ORDER BY r DESC", params: ["x"] },
  ] as Command[]) {
    const late = run(e, command);
    const slices = rowSlices(late);
    assert.ok(slices, `${JSON.stringify(command)} is projected when read`);
    assert.is(Object.keys(late).join(), "kind,columns,rows,rowCount");
    assert.is(JSON.stringify(late), JSON.stringify(plain(late)));
    assert.equal(late, plain(late));
    assert.equal([...slices(0, 10), ...slices(10, late.rowCount)], late.rows);
  }
});

test("the answer is a snapshot: writes after the select change nothing in it, read whole or in slices", () => {
  const e = fixture();
  const late = run(e, { kind: "select", table: "t", columns: ["id", "s"], output: "arrays" });
  const slices = rowSlices(late)!;
  const before = slices(0, N);
  e.execute({ kind: "sql", sql: "UPDATE t SET s = 'changed' WHERE id < 10" });
  e.execute({ kind: "sql", sql: "DELETE FROM t WHERE id >= 20 AND id < 40" });
  e.execute({ kind: "insert", table: "t", rows: [{ id: N, s: "new", r: 0, b: true }] });
  assert.is(late.rowCount, N);
  assert.equal(slices(0, N), before);
  assert.equal(late.rows, before);
  assert.is((late.rows[1] as unknown[])[1], "ré1😀\"");
});

test("short answers, expression columns, grouped rows, DISTINCT and projecting joins are projected at once (plain objects)", () => {
  const e = fixture();
  const short = (sql: string): Result => e.execute({ kind: "sql", sql }).result;
  for (const sql of [
    `SELECT * FROM t WHERE id < ${LATE_PROJECTION_AT - 1}`,
    "SELECT id + 1 AS next FROM t",
    "SELECT a.id FROM t a JOIN t b ON a.id = b.id",
    "SELECT DISTINCT id FROM t",
    "SELECT id, count(*) AS n FROM t GROUP BY id",
    "SELECT id, b FROM t GROUP BY id, b",
  ]) {
    const result = short(sql) as RowsResult;
    assert.is(rowSlices(result), undefined, sql);
    assert.ok(Object.getOwnPropertyDescriptor(result, "rows")?.value !== undefined, `${sql}: rows is a value`);
  }
});

test.run();
