/**
 * Optimization passes change how rows are reached, never what a query
 * returns: every query here runs with all passes and with none, and must
 * give the same rows, while the optimized plan uses the expected path.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Table } from "../../src/catalog/table.js";
import type { Expression, Join, SelectCommand, TableSchema, Value } from "../../src/commands/types.js";
import { prepareSelect, runSelect } from "../../src/executor/index.js";
import { checkSchema } from "../../src/planner/bind-create.js";
import { bindSelect } from "../../src/planner/bind-select.js";
import { PASSES, optimize } from "../../src/planner/passes.js";
import type { SelectPlan } from "../../src/planner/plan.js";

function table(schema: TableSchema, rows: Value[][]): Table {
  const t = new Table(checkSchema(schema, () => undefined));
  for (const r of rows) t.append(r);
  return t;
}

const tables = new Map<string, Table>([
  [
    "a",
    table(
      { name: "a", columns: { id: "integer", k: "text", v: "integer" }, primary_key: { columns: ["id"] }, unique: [{ columns: ["v"] }], indexes: [{ name: "by_k", columns: ["k"] }] },
      Array.from({ length: 40 }, (_, i) => [i, i % 3 === 0 ? null : `k${i % 5}`, i % 7 === 0 ? null : 100 + i]),
    ),
  ],
  ["b", table({ name: "b", columns: { a_id: "integer", k: "text", w: "real" }, indexes: [{ name: "by_a", columns: ["a_id"] }] }, Array.from({ length: 60 }, (_, i) => [i % 45, `k${i % 4}`, i / 2]))],
]);
const catalog = { table: (n: string) => tables.get(n), tables: () => tables.values() };
const stores = { store: (n: string) => tables.get(n) as Table };

const id = (name: string) => ({ type: "identifier", name }) as const;
const lit = (value: Value) => ({ type: "literal", value }) as const;
const eq = (l: Expression, r: Expression) => ({ type: "comparison", op: "=", left: l, right: r }) as const;

const cmp = (op: "<" | "<=" | ">" | ">=", l: ReturnType<typeof id>, r: ReturnType<typeof lit>) => ({ type: "comparison", op, left: l, right: r }) as const;

const CASES: [SelectCommand, string, string?][] = [
  [{ kind: "select", table: "a", columns: "*", where: cmp(">", id("k"), lit("k1")) }, "index-range"],
  [{ kind: "select", table: "a", columns: "*", where: { type: "like", expr: id("k"), pattern: lit("K2%") } }, "index-range"],
  [{ kind: "select", table: "a", columns: ["id", "k"], orderBy: [{ column: "k", direction: "desc" }], limit: 7 }, "index-range"],
  [{ kind: "select", table: "b", columns: "*", where: { type: "between", expr: id("a_id"), low: lit(3), high: lit(10) } }, "index-range"],
  [{ kind: "select", table: "b", columns: ["b.w", "a.v"], joins: [{ type: "inner", table: "a", on: eq(id("a.id"), id("b.a_id")) }], where: cmp("<", id("b.a_id"), lit(5)), orderBy: [{ column: "b.a_id" }], limit: 4 }, "index-range", "index-nested-loop"],
  [{ kind: "select", table: "a", columns: "*", where: eq(id("id"), lit(7)) }, "primary-key-lookup"],
  [{ kind: "select", table: "a", columns: "*", where: eq(id("id"), lit(7.5)) }, "primary-key-lookup"],
  [{ kind: "select", table: "a", columns: "*", where: eq(id("v"), lit(103)) }, "unique-lookup"],
  [{ kind: "select", table: "a", columns: "*", where: eq(id("v"), lit(null)) }, "unique-lookup"],
  [{ kind: "select", table: "a", columns: ["id"], where: { type: "and", operands: [eq(id("k"), lit("k2")), { type: "comparison", op: ">", left: id("id"), right: lit(10) }] }, orderBy: [{ column: "v", direction: "desc" }], limit: 3 }, "index-lookup"],
  [{ kind: "select", table: "a", columns: "*", where: { type: "or", operands: [eq(id("k"), lit("k2")), eq(id("id"), lit(1))] } }, "scan"],
  [{ kind: "select", table: "a", columns: ["a.id", "b.w"], joins: [{ type: "inner", table: "b", on: eq(id("b.a_id"), id("a.id")) }] }, "scan", "index-nested-loop"],
  [{ kind: "select", table: "a", columns: ["a.id", "b.w"], joins: [{ type: "left", table: "b", on: { type: "and", operands: [eq(id("b.a_id"), id("a.id")), eq(id("b.k"), lit("k1"))] } }] }, "scan", "index-nested-loop"],
  [{ kind: "select", table: "b", columns: ["b.w", "a.v"], joins: [{ type: "left", table: "a", on: eq(id("a.id"), id("b.a_id")) }], where: eq(id("b.k"), lit("k3")) }, "scan", "index-nested-loop"],
  [{ kind: "select", table: "a", columns: ["a.id", "b.w"], joins: [{ type: "inner", table: "b", on: eq(id("b.k"), id("a.k")) }], orderBy: [{ column: "b.w" }, { column: "a.id" }] }, "scan", "hash"],
  [{ kind: "select", table: "a", columns: ["a.id", "b.w"], joins: [{ type: "left", table: "b", on: eq(id("b.k"), id("a.k")) }], where: eq(id("a.id"), lit(3)) }, "primary-key-lookup", "hash"],
  // A comma join matches on the WHERE's equalities as an inner join on its ON's.
  [{ kind: "select", table: "a", columns: ["a.id", "b.w"], joins: [{ type: "cross", table: "b" }], where: eq(id("b.a_id"), id("a.id")) }, "scan", "index-nested-loop"],
  [{ kind: "select", table: "a", columns: ["a.id", "b.w"], joins: [{ type: "cross", table: "b" }], where: { type: "and", operands: [eq(id("b.k"), id("a.k")), eq(id("a.id"), lit(4))] } }, "primary-key-lookup", "hash"],
  [{ kind: "select", table: "a", columns: ["a.id", "b.w"], joins: [{ type: "inner", table: "b", using: ["k"] }] }, "scan", "hash"],
  // A key fixed on a later source fixes the first one's column equal to it (b.a_id = a.id = 4): b looked up by its index, not scanned.
  [{ kind: "select", table: "b", columns: ["b.w", "a.v"], joins: [{ type: "cross", table: "a" }], where: { type: "and", operands: [eq(id("b.a_id"), id("a.id")), eq(id("a.id"), lit(4))] } }, "index-lookup", "index-nested-loop"],
  [{ kind: "select", table: "b", columns: ["b.w", "a.v"], joins: [{ type: "cross", table: "a" }], where: { type: "and", operands: [eq(lit(4), id("a.id")), eq(id("a.id"), id("b.a_id"))] } }, "index-lookup", "index-nested-loop"],
  // The joined side an expression of b's row alone: a hash on it, not a nested loop.
  [{ kind: "select", table: "a", columns: ["a.id", "b.w"], joins: [{ type: "inner", table: "b", on: eq({ type: "binary", op: "+", left: id("b.w"), right: lit(0) }, id("a.v")) }] }, "scan", "expression-hash"],
  [{ kind: "select", table: "a", columns: ["a.id", "b.w"], joins: [{ type: "left", table: "b", on: eq(id("a.v"), { type: "binary", op: "-", left: id("b.w"), right: id("b.a_id") }) }] }, "scan", "expression-hash"],
  // A RIGHT or FULL join keeps rows the first table's WHERE would drop: no lookup, no index order.
  [{ kind: "select", table: "a", columns: ["a.id", "b.w"], joins: [{ type: "right", table: "b", on: eq(id("b.a_id"), id("a.id")) }], where: { type: "or", operands: [eq(id("a.id"), lit(3)), { type: "is-null", expr: id("a.id") }] } }, "scan", "index-nested-loop"],
  // Unless WHERE drops every row it pads with NULLs for a (`outer-joins.ts`): then it is an inner join, and a is looked up.
  [{ kind: "select", table: "a", columns: ["a.id", "b.w"], joins: [{ type: "right", table: "b", on: eq(id("b.a_id"), id("a.id")) }], where: eq(id("a.id"), lit(3)) }, "primary-key-lookup", "index-nested-loop"],
  // IS a value is an equality a key serves (IS NULL is not).
  [{ kind: "select", table: "a", columns: "*", where: { type: "comparison", op: "is", left: id("k"), right: lit("k2") } }, "index-lookup"],
  [{ kind: "select", table: "a", columns: "*", where: { type: "comparison", op: "is", left: lit(7), right: id("id") } }, "primary-key-lookup"],
  [{ kind: "select", table: "a", columns: "*", where: { type: "comparison", op: "is not", left: id("id"), right: lit(7) } }, "scan"],
  [{ kind: "select", table: "a", columns: ["a.k", "b.w"], joins: [{ type: "full", table: "b", on: eq(id("b.k"), id("a.k")) }], orderBy: [{ column: "a.k" }, { column: "b.w" }, { column: "a.id" }], limit: 5 }, "scan", "hash"],
  // A left join's WHERE is never its key: it filters after the join (here it keeps b's NULLs: a.id IS NULL may hold).
  [{ kind: "select", table: "a", columns: ["a.id", "b.w"], joins: [{ type: "left", table: "b", on: lit(true) }], where: { type: "comparison", op: "is", left: id("b.a_id"), right: id("a.id") } }, "scan", "nested-loop"],
  // One that drops b's NULLs makes it an inner join, whose WHERE equality is its key.
  [{ kind: "select", table: "a", columns: ["a.id", "b.w"], joins: [{ type: "left", table: "b", on: lit(true) }], where: eq(id("b.a_id"), id("a.id")) }, "scan", "index-nested-loop"],
];

test("every pass keeps results; the optimized plan takes the expected path", () => {
  for (const [cmd, access, join] of CASES) {
    const plain = bindSelect(cmd, catalog, false);
    const optimized = optimize(plain, catalog);
    const run = (plan: SelectPlan) => runSelect(prepareSelect(plan, (t, c) => tables.get(t)?.position.get(c) ?? -1, 0), stores, []);
    const s = optimized.statement as SelectPlan;
    assert.is(s.access.kind, access, JSON.stringify(cmd));
    if (join) assert.is(s.joins[0]?.strategy.kind, join, JSON.stringify(cmd));
    assert.is((plain.statement as SelectPlan).access.kind, "scan");
    assert.equal(run(s), run(plain.statement as SelectPlan), JSON.stringify(cmd));
    for (const pass of PASSES) {
      const one = optimize(plain, catalog, [pass]).statement as SelectPlan;
      assert.equal(run(one), run(plain.statement as SelectPlan), `${pass.name}: ${JSON.stringify(cmd)}`);
    }
  }
});

test("an index range names its index, equalities, bounds and order", () => {
  const cmd: SelectCommand = {
    kind: "select",
    table: "a",
    columns: ["id"],
    where: { type: "and", operands: [cmp(">=", id("k"), lit("k1")), cmp("<", id("k"), lit("k3")), cmp(">", id("id"), lit(2))] },
    orderBy: [{ column: "k", direction: "desc" }],
  };
  const s = optimize(bindSelect(cmd, catalog, false), catalog).statement as SelectPlan;
  assert.equal(s.access, {
    kind: "index-range",
    index: "by_k",
    columns: ["k"],
    equal: [],
    lower: { value: { kind: "const", value: "k1" }, inclusive: true },
    upper: { value: { kind: "const", value: "k3" }, inclusive: false },
    order: "desc",
  });
});

/** Subqueries: the strategy each gets, and its plan's access path, with the results of every pass alone and none equal. */
const SUBQUERIES: [SelectCommand, string, string][] = [
  // Uncorrelated: once.
  [{ kind: "select", table: "a", columns: ["id"], where: { type: "in", expr: id("id"), select: { kind: "select", table: "b", columns: ["a_id"], where: eq(id("k"), lit("k1")) } } }, "once", "scan"],
  // Correlated on b's index: per row, each an index lookup.
  [{ kind: "select", table: "a", columns: ["id"], where: { type: "exists", select: { kind: "select", table: "b", columns: "*", where: eq(id("b.a_id"), id("a.id")) } } }, "per-row", "index-lookup"],
  // Correlated on a column without an index: a hash semi-join, the correlation out of the subquery's WHERE.
  [{ kind: "select", table: "a", columns: ["id"], where: { type: "exists", select: { kind: "select", table: "b", columns: "*", where: eq(id("b.k"), id("a.k")), orderBy: [{ column: "w" }] } } }, "hashed", "scan"],
  [{ kind: "select", table: "a", columns: ["id"], where: { type: "in", expr: id("v"), not: true, select: { kind: "select", table: "b", columns: [{ expr: { type: "binary", op: "+", left: id("w"), right: lit(100) }, as: "x" }], where: eq(id("b.k"), id("a.k")) } } }, "hashed", "scan"],
  // A correlation that is not an equality: per row.
  [{ kind: "select", table: "a", columns: ["id", { expr: { type: "subquery", select: { kind: "select", table: "b", columns: [{ expr: { type: "aggregate", name: "count" }, as: "n" }], where: { type: "comparison", op: "<", left: id("b.w"), right: id("a.id") } } }, as: "n" }] }, "per-row", "scan"],
];

test("subqueries: each gets its strategy, and every pass keeps results", () => {
  for (const [cmd, strategy, access] of SUBQUERIES) {
    const plain = bindSelect(cmd, catalog, false);
    const run = (plan: SelectPlan) => runSelect(prepareSelect(plan, (t, c) => tables.get(t)?.position.get(c) ?? -1, 0), stores, []);
    const s = optimize(plain, catalog).statement as SelectPlan;
    const node = JSON.stringify(s).match(/"strategy":\{"kind":"([a-z-]+)"/)?.[1];
    assert.is(node, strategy, JSON.stringify(cmd));
    const sub = (s.where ?? s.columns[1]?.expr) as { plan: SelectPlan };
    assert.is(sub.plan.access.kind, access, JSON.stringify(cmd));
    const expected = run(plain.statement as SelectPlan);
    assert.ok(expected.rowCount > 0, JSON.stringify(cmd));
    assert.equal(run(s), expected, JSON.stringify(cmd));
    for (const pass of PASSES) assert.equal(run(optimize(plain, catalog, [pass]).statement as SelectPlan), expected, `${pass.name}: ${JSON.stringify(cmd)}`);
  }
});

// A recursive select's join condition written in WHERE: moved into the join's ON (`recursive-drive.ts`), it is looked up, not a nested loop per step.
/** `WITH RECURSIVE r(n) AS (SELECT 0 UNION SELECT <key> + 1 FROM <table> <joins> [WHERE …]) SELECT * FROM r`. */
function recursiveWalk(joins: readonly Join[], where?: SelectCommand["where"], table = "b", key = "b.a_id"): SelectCommand {
  const step = { kind: "select", table, columns: [{ expr: { type: "binary", op: "+", left: id(key), right: lit(1) }, as: "n" }], joins, ...(where === undefined ? {} : { where }) };
  return {
    kind: "select",
    from: { kind: "with", name: "r", columns: ["n"], select: { kind: "select", columns: [{ expr: lit(0), as: "n" }], compound: [{ op: "union", select: step }] } },
    columns: "*",
  } as SelectCommand;
}

const runPlan = (plan: SelectPlan) => runSelect(prepareSelect(plan, (t, c) => tables.get(t)?.position.get(c) ?? -1, 0), stores, []);

test("a recursive select's join equality written in WHERE gets the join's strategy", () => {
  const walk = (where: SelectCommand["where"], table = "b", key = "b.a_id"): SelectCommand => recursiveWalk([{ type: "inner", table: "r", on: lit(true) }], where, table, key);
  for (const [cmd, strategy] of [
    [walk(eq(id("b.a_id"), id("r.n"))), "index-nested-loop"],
    [walk({ type: "and", operands: [eq(id("r.n"), id("b.a_id")), cmp("<", id("b.w"), lit(20))] }), "index-nested-loop"],
    [walk(eq(id("b.w"), id("r.n")), "b", "b.w"), "hash"],
  ] as const) {
    const plain = bindSelect(cmd, catalog, false);
    const s = optimize(plain, catalog).statement as SelectPlan;
    const step = s.sources[0]!.derived!.recursion!.steps[0]!;
    assert.is(step.joins[0]?.strategy.kind, strategy, JSON.stringify(cmd));
    const expected = runPlan(plain.statement as SelectPlan);
    assert.ok(expected.rowCount > 1, JSON.stringify(cmd));
    assert.equal(runPlan(s), expected, JSON.stringify(cmd));
  }
});

// A LEFT JOIN before the recursive table: the table moves first past it, so each step looks its rows up (it scanned b per step).
test("a recursive select with a LEFT JOIN before its table is driven from it", () => {
  const cmd = recursiveWalk([
    { type: "left", table: "a", on: eq(id("a.id"), id("b.a_id")) },
    { type: "inner", table: "r", on: eq(id("b.a_id"), id("r.n")) },
  ]);
  const plain = bindSelect(cmd, catalog, false);
  const s = optimize(plain, catalog).statement as SelectPlan;
  const recursion = s.sources[0]!.derived!.recursion!;
  const step = recursion.steps[0]!;
  assert.ok(step.sources[0]!.working !== undefined && !recursion.tagged);
  assert.equal(step.joins.map((j) => [j.type, j.strategy.kind]), [["inner", "index-nested-loop"], ["left", "index-nested-loop"]]);
  const expected = runPlan(plain.statement as SelectPlan);
  assert.ok(expected.rowCount > 1);
  assert.equal(runPlan(s), expected);
});

test("passes are pure: the input plan is not changed", () => {
  const plain = bindSelect(CASES[0]?.[0] as SelectCommand, catalog, false);
  const before = JSON.stringify(plain);
  optimize(plain, catalog);
  assert.is(JSON.stringify(plain), before);
});

test.run();
