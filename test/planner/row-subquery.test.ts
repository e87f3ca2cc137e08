/**
 * A row subquery is one node of the plan, however wide: `(a, b, …) op
 * (SELECT x, y, …)` binds as one `row-subquery` whose body reads its
 * columns by index (`row-column`), and `SET (a, b, …) = (SELECT …)` as one
 * of the update's `rows`. So EXPLAIN holds the subquery's plan once and
 * grows with the statement, not with its square (before: one `subquery`
 * node per column, each holding the whole plan — 112 MB of EXPLAIN and 3 s
 * a run at 1,000 columns).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { PlanResult, RowsResult } from "../../src/commands/results.js";
import type { BoundExpr, SelectPlan, UpdatePlan } from "../../src/planner/plan.js";

/** A table `w<width>` of `width` integer columns c0… and one row of 1s. */
function wide(e: Engine, width: number): string[] {
  const columns = Array.from({ length: width }, (_, i) => `c${i}`);
  e.execute({ kind: "create-table", schema: { name: `w${width}`, columns: Object.fromEntries([["id", "integer"], ...columns.map((c) => [c, "integer"])]), primary_key: { columns: ["id"] } } });
  e.execute({ kind: "insert", table: `w${width}`, rows: [Object.fromEntries([["id", 1], ...columns.map((c) => [c, 1])])] });
  return columns;
}

const explain = (e: Engine, sql: string): PlanResult["plan"] => (e.execute({ kind: "sql", sql: `EXPLAIN ${sql}` }).result as PlanResult).plan;
const count = (text: string, part: string): number => text.split(part).length - 1;
const compare = (columns: readonly string[], width: number): string => `SELECT id FROM w${width} WHERE (${columns.join(", ")}) = (SELECT ${columns.join(", ")} FROM w${width} WHERE id = 1)`;

test("(a, b, …) = (SELECT x, y, …) is one row-subquery node, its columns read by index", () => {
  const e = Engine.empty();
  const columns = wide(e, 3);
  const where = (explain(e, compare(columns, 3)).statement as SelectPlan).where as Extract<BoundExpr, { kind: "row-subquery" }>;
  assert.is(where.kind, "row-subquery");
  assert.is(where.plan.columns.length, 3);
  assert.is(where.body.kind, "and");
  const pairs = (where.body as Extract<BoundExpr, { kind: "and" }>).operands as Extract<BoundExpr, { kind: "compare" }>[];
  assert.equal(
    pairs.map((p) => p.right),
    [0, 1, 2].map((column) => ({ kind: "row-column", id: where.id, column, type: "integer" })),
  );
});

test("EXPLAIN of a wide row subquery holds its plan once and grows with the statement", () => {
  const e = Engine.empty();
  const sizes = [250, 500, 1000].map((width) => {
    const columns = wide(e, width);
    const text = JSON.stringify(explain(e, compare(columns, width)));
    // The statement's select and the subquery's: one plan each.
    assert.is(count(text, '"kind":"select"'), 2, `width ${width}`);
    assert.is(count(text, '"kind":"row-subquery"'), 1, `width ${width}`);
    const rows = (e.execute({ kind: "sql", sql: compare(columns, width) }).result as RowsResult).rows;
    assert.equal(rows, [{ id: 1 }]);
    return text.length;
  });
  // Linear: twice the columns, about twice the text (before: 4x).
  assert.ok(sizes[1]! < 2.5 * sizes[0]! && sizes[2]! < 2.5 * sizes[1]!, `EXPLAIN sizes ${sizes.join(", ")}`);
  assert.ok(sizes[2]! < 2_000_000, `EXPLAIN at 1,000 columns is ${sizes[2]} characters`);
});

test("a row subquery on each side, BETWEEN and IN: one node per subquery, each run once", () => {
  const e = Engine.empty();
  const columns = wide(e, 2);
  const sub = `(SELECT ${columns.join(", ")} FROM w2 WHERE id = 1)`;
  for (const [condition, nodes] of [
    [`${sub} = ${sub}`, 2],
    [`(c0, c1) BETWEEN ${sub} AND ${sub}`, 2],
    [`(c0, c1) IN (${sub}, (5, 5))`, 1],
    [`${sub} IN (SELECT c0, c1 FROM w2)`, 1],
  ] as const) {
    const sql = `SELECT id FROM w2 WHERE ${condition}`;
    const text = JSON.stringify(explain(e, sql));
    assert.is(count(text, '"kind":"row-subquery"'), nodes, condition);
    assert.equal((e.execute({ kind: "sql", sql }).result as RowsResult).rows, [{ id: 1 }], condition);
  }
});

test("UPDATE … SET (a, b, …) = (SELECT …) is one of the update's rows, each column a row-column", () => {
  const e = Engine.empty();
  const columns = wide(e, 500);
  const sql = `UPDATE w500 SET (${columns.join(", ")}) = (SELECT ${columns.map((c) => `${c} + 1`).join(", ")} FROM w500 AS o WHERE o.id = w500.id) WHERE id = 1`;
  const plan = explain(e, sql).statement as UpdatePlan;
  assert.is(plan.rows?.length, 1);
  assert.is(plan.set.length, 500);
  assert.ok(plan.set.every((a, i) => a.value.kind === "row-column" && a.value.column === i && a.value.id === plan.rows![0]!.id));
  assert.is(count(JSON.stringify(plan), '"kind":"select"'), 1);
  e.execute({ kind: "sql", sql });
  const row = (e.execute({ kind: "sql", sql: "SELECT c0, c499 FROM w500" }).result as RowsResult).rows;
  assert.equal(row, [{ c0: 2, c499: 2 }]);
});

test("SET (a, b) = (SELECT …) of another width, `*` included, says how many; an upsert's names the row", () => {
  const e = Engine.empty();
  e.execute({ kind: "sql", sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT)" });
  for (const [sql, message] of [
    ["UPDATE t SET (a, b) = (SELECT id FROM t) WHERE id = 1", "SET (a, b) = (SELECT …): 2 columns assigned 1 value; the subquery selects one value per column"],
    ["UPDATE t SET (a, b) = (SELECT * FROM t) WHERE id = 1", "SET (a, b) = (SELECT …): 2 columns assigned 3 values; the subquery selects one value per column"],
    ["UPDATE t SET (a, b) = (1, 'x', 2) WHERE id = 1", "SET (a, b) = … assigns 2 columns 3 values"],
    ["INSERT INTO t VALUES (1, 1, 'x') ON CONFLICT (id) DO UPDATE SET (a, b) = (SELECT a, b FROM t)", "ON CONFLICT … SET (a, b) = (SELECT …) cannot hold a subquery: compute the values in a statement of its own"],
  ] as const) {
    try {
      e.execute({ kind: "sql", sql });
      assert.unreachable(sql);
    } catch (error) {
      assert.is((error as { code?: string }).code, "sql_error", sql);
      assert.is((error as Error).message, message);
    }
  }
  const json = { kind: "update", table: "t", set: {}, setRows: [{ columns: ["a"], select: { kind: "select", table: "t", columns: ["a", "b"] } }], where: { type: "literal", value: true } } as const;
  assert.throws(() => e.execute(json), (error: Error) => (error as { code?: string }).code === "invalid_request" && error.message === "SET (a) = (SELECT …): 1 column assigned 2 values; the subquery selects one value per column");
});

test.run();
