/**
 * Generated code must never carry user text: names, string literals and
 * parameters reach it only as bound constants or validated indexes. These
 * cases try to break out through every door and check both the results and
 * the generated source.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { RowsResult } from "../../src/commands/results.js";
import type { ColumnType, Command, Expression } from "../../src/commands/types.js";
import { Codegen } from "../../src/executor/codegen.js";
import type { BoundExpr } from "../../src/planner/plan.js";

const EVIL = [`"); process.exit(1); ("`, "'); globalThis.__pwned = 1; ('", "`${globalThis.__pwned = 1}`", "\\\"; throw 1; //", "*/ throw 1; /*"];
const id = (name: string): Expression => ({ type: "identifier", name });
const lit = (value: string | number): Expression => ({ type: "literal", value });
const eq = (left: Expression, right: Expression): Expression => ({ type: "comparison", op: "=", left, right });

function rows(e: Engine, c: Command): RowsResult {
  return e.execute(c).result as RowsResult;
}

function setup(): Engine {
  const e = Engine.empty();
  // Names that collide with what generated code uses internally (r, p, h, c0, t0, p0) or with JS builtins.
  e.execute({
    kind: "create-table",
    schema: {
      name: "x__constructor",
      columns: { r: "text", p: "text", h: "integer", c0: "text", t0: "text", p0: "text", constructor: "text", __defineGetter__: "text" } as Record<string, ColumnType>,
      primary_key: { columns: ["r"] },
      computed: { toString: eq(id("h"), lit(1)) },
    },
  });
  e.execute({
    kind: "insert",
    table: "x__constructor",
    rows: EVIL.map((s, i) => ({ r: s, p: s, h: i, c0: s, t0: s, p0: s, constructor: s, __defineGetter__: s })),
  });
  return e;
}

test("string literals with code in them are data", () => {
  const e = setup();
  for (const s of EVIL) {
    const r = rows(e, { kind: "select", table: "x__constructor", columns: ["h", "constructor"], where: eq(id("p"), lit(s)) });
    assert.equal(r.rowCount, 1, s);
    assert.is((r.rows[0] as Record<string, unknown>).constructor, s);
  }
  assert.is((globalThis as Record<string, unknown>).__pwned, undefined);
});

test("parameters with code in them are data", () => {
  const e = setup();
  for (const s of EVIL) {
    const r = rows(e, { kind: "sql", sql: "SELECT h FROM x__constructor WHERE t0 = ? AND r = ?", params: [s, s] });
    assert.equal(r.rows, [{ h: EVIL.indexOf(s) }]);
  }
  assert.is((globalThis as Record<string, unknown>).__pwned, undefined);
});

test("table, column and alias names that shadow generated locals still resolve", () => {
  const e = setup();
  const r = rows(e, {
    kind: "select",
    table: "x__constructor",
    columns: ["c.h", "x__constructor.p0", "c.toString"],
    joins: [{ type: "inner", table: "x__constructor", as: "c", on: eq(id("c.r"), id("x__constructor.c0")) }],
    orderBy: [{ column: "c.h", direction: "desc" }],
    limit: 2,
  });
  assert.equal(r.rows, [
    { "c.h": 4, "x__constructor.p0": EVIL[4], "c.toString": false },
    { "c.h": 3, "x__constructor.p0": EVIL[3], "c.toString": false },
  ]);
  const all = rows(e, { kind: "select", table: "x__constructor", columns: "*", where: eq(id("h"), lit(1)), output: "objects" });
  assert.equal(Object.keys(all.rows[0] as object), ["r", "p", "h", "c0", "t0", "p0", "constructor", "__defineGetter__", "toString"]);
  assert.is((all.rows[0] as Record<string, unknown>).toString, true);
});

test("generated source holds no user text, only indexes", () => {
  const text = (value: string): BoundExpr => ({ kind: "const", value });
  const col: BoundExpr = { kind: "column", source: 0, column: 2, name: "process.exit(1)", type: "text" };
  for (const s of EVIL) {
    const g = new Codegen("row");
    const source = g.truth({ kind: "and", operands: [{ kind: "compare", op: "<", left: col, right: text(s) }, { kind: "compare", op: "=", left: { kind: "param", index: 0 }, right: col }] });
    assert.not.ok(source.includes(s), source);
    assert.not.ok(source.includes("process"), source);
    assert.ok(g.consts.includes(s));
  }
});

test("a non-integer index never reaches generated source", () => {
  const g = new Codegen("row");
  const bad = { kind: "column", source: 0, column: "1]; process.exit(1); r[0" as unknown as number, name: "x", type: "text" } as BoundExpr;
  assert.throws(() => g.value(bad), /Invalid index/);
});

test.run();
