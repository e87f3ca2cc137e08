/**
 * Loading rows from a file: the compiled fast path must report exactly what
 * a row-by-row reading would — the same problems, at the same table, row and
 * column, in the same order — wherever the bad row sits, and leave keys and
 * row order as a mutation would.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { snapshotValues } from "../../src/catalog/snapshot.js";
import { Engine } from "../../src/catalog/engine.js";
import { checkTables } from "../../src/catalog/check-state.js";
import { loadTables } from "../../src/catalog/load.js";
import type { RowsResult } from "../../src/commands/results.js";
import type { TableSchema, Value } from "../../src/commands/types.js";
import type { ProblemEntry } from "../../src/errors.js";

const items: TableSchema = {
  name: "items",
  columns: { id: "integer", name: "text", price: "real", active: "boolean" },
  primary_key: { columns: ["id"] },
  required: ["id"],
};
const N = 100_000;
const clean = (i: number): Record<string, unknown> => ({ id: i, name: `item ${i}`, price: i / 8, active: i % 2 === 0 });

function problemsWithLast(last: unknown): string[] {
  const rows: unknown[] = Array.from({ length: N - 1 }, (_, i) => clean(i));
  rows.push(last);
  const e = Engine.load([{ name: "items", schema: items, rows }]);
  return e.problems.map((p) => `${p.table}:${p.row ?? "-"}:${p.column ?? "-"}:${p.code}`);
}

test("a bad row at the end of 100k clean ones is reported at its table, row and column", () => {
  const at = N - 1;
  assert.equal(problemsWithLast({ ...clean(at), price: "cheap" }), [`items:${at}:price:type`]);
  assert.equal(problemsWithLast({ ...clean(at), colour: "red" }), [`items:${at}:colour:unknown_column`]);
  assert.equal(problemsWithLast({ ...clean(at), id: 17 }), [`items:${at}:id:duplicate_key`]);
  assert.equal(problemsWithLast({ ...clean(at), id: null }), [`items:${at}:id:required`]);
  assert.equal(problemsWithLast({ ...clean(at), name: { first: "x" } }), [`items:${at}:name:type`]);
  assert.equal(problemsWithLast([at, "x", 1, true]), [`items:${at}:-:format`]);
  assert.equal(problemsWithLast(clean(at)), []);
});

test("a file where every one of 150k rows is bad loads, with every problem listed", () => {
  const rows = Array.from({ length: 150_000 }, (_, i) => ({ ...clean(i), price: "x" }));
  const e = Engine.load([{ name: "items", schema: items, rows }]);
  assert.is(e.problems.length, 150_000);
  assert.equal(e.problems[149_999], { table: "items", row: 149_999, column: "price", code: "type", message: '"price" must be real, got "x"' });
});

test("names an object inherits are no columns' values: a missing `constructor` column is NULL", () => {
  // Built from entries: TypeScript types `constructor`, `valueOf` and `toString` members of a literal as Object's.
  const schema = { name: "t", columns: Object.fromEntries([["constructor", "text"], ["valueOf", "integer"], ["toString", "boolean"], ["__proto_", "text"]]) } as TableSchema;
  const e = Engine.load([{ name: "t", schema, rows: [{}, { constructor: "c", valueOf: 1, toString: true, __proto_: "p" }, JSON.parse('{"__proto__":"x"}')] }]);
  assert.equal(
    e.problems.map((p) => `${p.row}:${p.column}:${p.code}`),
    ["2:__proto__:unknown_column"],
  );
  const fine = Engine.load([{ name: "t", schema, rows: [{}, { constructor: "c", valueOf: 1, toString: true, __proto_: "p" }] }]);
  assert.equal(snapshotValues(fine.snapshot()[0]!), [
    [null, null, null, null],
    ["c", 1, true, "p"],
  ]);
});

test("a file's defaults: values and {\"expr\"} load; any other object, or an expression that reads a column, is a format problem", () => {
  const schema = (defaults: unknown): unknown => ({ name: "log", columns: { id: "integer", at: "text" }, defaults });
  const problems = (defaults: unknown): string[] => Engine.load([{ name: "log", schema: schema(defaults), rows: [{ id: 1, at: null }] }]).problems.map((p) => `${p.code}: ${p.message}`);
  assert.equal(problems({ at: "x" }), []);
  assert.equal(problems({ at: { expr: { type: "function", name: "datetime", args: [{ type: "literal", value: "now" }] } } }), []);
  assert.equal(problems({ at: { value: "x" } }), ['format: schema.defaults.at has unknown member "value"']);
  assert.equal(problems({ at: [1] }), ["format: schema.defaults.at must be a JSON scalar or {\"expr\": …}"]);
  assert.equal(problems({ at: { expr: { type: "identifier", name: "id" } } }).length, 1);
  const engine = Engine.load([{ name: "log", schema: schema({ at: { expr: { type: "function", name: "date", args: [{ type: "literal", value: "now" }] } } }), rows: [] }]);
  engine.execute({ kind: "insert", table: "log", rows: [{ id: 1 }] });
  const rows = engine.execute({ kind: "sql", sql: "SELECT at = date('now') AS today FROM log" }).result as RowsResult;
  assert.equal(rows.rows, [{ today: true }]);
});

test("after a load, positions, index order and keys behave as after inserts", () => {
  const schema: TableSchema = { name: "t", columns: { id: "integer", tag: "text" }, primary_key: { columns: ["id"] }, indexes: [{ name: "by_tag", columns: ["tag"] }] };
  const e = Engine.load([{ name: "t", schema, rows: [{ id: 3, tag: "a" }, { id: 1, tag: "b" }, { id: 2, tag: "a" }] }]);
  assert.equal(e.problems, []);
  const out = e.execute({ kind: "sql", sql: "UPDATE t SET tag = 'a' WHERE id = 1", params: [] });
  assert.equal(out.changes.map((c) => (c.kind === "update" ? c.position : -1)), [1]);
  e.execute({ kind: "sql", sql: "INSERT INTO t (id, tag) VALUES (0, 'a')", params: [] });
  const rows = (e.execute({ kind: "sql", sql: "SELECT id FROM t WHERE tag = 'a'", params: [] }).result as RowsResult).rows;
  assert.equal(rows.map((r) => (r as Record<string, Value>).id), [3, 1, 2, 0]);
  assert.throws(() => e.execute({ kind: "sql", sql: "INSERT INTO t (id, tag) VALUES (2, 'z')", params: [] }));
});

test("references in any file order — chain, self-reference, cycle, child of a cycle: keys work and problems are a full re-check's", () => {
  const fk = (column: string, table: string) => ({ columns: [column], references: { table, columns: ["id"] } });
  const table = (name: string, refs: [string, string][]): TableSchema => ({
    name,
    columns: Object.fromEntries([["id", "text"], ...refs.map(([c]) => [c, "text"])]) as TableSchema["columns"],
    primary_key: { columns: ["id"] },
    foreign_keys: refs.map(([c, t]) => fk(c, t)),
  });
  const schemas = [
    table("a", [["b_id", "b"]]), // a → b → c
    table("b", [["c_id", "c"]]),
    table("c", []),
    table("tree", [["parent", "tree"]]), // itself
    table("x", [["y_id", "y"]]), // x ⇄ y
    table("y", [["x_id", "x"]]),
    table("leaf", [["x_id", "x"]]), // a child of the cycle
  ];
  const rows: Record<string, unknown[]> = {
    a: [{ id: "a1", b_id: "b1" }, { id: "a2", b_id: "nope" }, { id: "a1", b_id: null }],
    b: [{ id: "b1", c_id: "c1" }, { id: "b2", c_id: "c2" }],
    c: [{ id: "c1" }, { id: "c2" }],
    tree: [{ id: "root", parent: null }, { id: "kid", parent: "root" }, { id: "orphan", parent: "gone" }],
    x: [{ id: "x1", y_id: "y1" }],
    y: [{ id: "y1", x_id: "x1" }, { id: "y1", x_id: null }],
    leaf: [{ id: "l1", x_id: "x1" }, { id: "l2", x_id: "x9" }],
  };
  const expected = ["a:1:b_id:foreign_key", "a:2:id:duplicate_key", "tree:2:parent:foreign_key", "y:1:id:duplicate_key", "leaf:1:x_id:foreign_key"];
  for (const order of [schemas, [...schemas].reverse()]) {
    const { tables, problems } = loadTables(order.map((schema) => ({ name: schema.name, schema, rows: rows[schema.name] as unknown[] })));
    assert.equal(problems, checkTables(tables), "the load's problems are a full re-check's");
    assert.equal(problems.map((p) => `${p.table}:${p.row}:${p.column}:${p.code}`).sort(), [...expected].sort());
    const e = Engine.load(order.map((schema) => ({ name: schema.name, schema, rows: (rows[schema.name] as unknown[]).filter((_, i) => !expected.some((x) => x.startsWith(`${schema.name}:${i}:`))) })));
    assert.equal(e.problems, []);
    for (const schema of schemas) {
      const snapshot = e.snapshot().find((t) => t.schema.name === schema.name);
      for (const row of snapshot === undefined ? [] : snapshotValues(snapshot)) {
        const found = e.execute({ kind: "sql", sql: `SELECT id FROM ${schema.name} WHERE id = ?`, params: [row[0] as Value] }).result as RowsResult;
        assert.is(found.rowCount, 1, `${schema.name} ${String(row[0])} is in its key index`);
      }
    }
    assert.throws(() => e.execute({ kind: "sql", sql: "DELETE FROM c WHERE id = 'c1'", params: [] }), /constraint|referenc/i);
    assert.throws(() => e.execute({ kind: "sql", sql: "DELETE FROM tree WHERE id = 'root'", params: [] }), /constraint|referenc/i);
  }
});

/** What reading each row on its own finds before the schema checks (the load phase of loadTables). */
function readingProblems(table: string, columns: readonly string[], rows: readonly unknown[]): ProblemEntry[] {
  const problems: ProblemEntry[] = [];
  rows.forEach((raw, row) => {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      problems.push({ table, row, code: "format", message: "A row must be an object" });
      return;
    }
    for (const key of Object.keys(raw)) if (!columns.includes(key)) problems.push({ table, row, column: key, code: "unknown_column", message: `Unknown column "${key}"` });
    for (const column of columns) {
      const v = Object.hasOwn(raw, column) ? (raw as Record<string, unknown>)[column] : null;
      const scalar = v === null || typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));
      if (!scalar) problems.push({ table, row, column, code: "type", message: `"${column}" must be a JSON scalar` });
    }
  });
  return problems;
}

test("property: a load reports what reading row by row and a full re-check report, in order", () => {
  const columns = ["id", "constructor", "n", "ok"];
  const schema: TableSchema = {
    name: "t",
    columns: Object.fromEntries([["id", "integer"], ["constructor", "text"], ["n", "real"], ["ok", "boolean"]]) as TableSchema["columns"],
    primary_key: { columns: ["id"] },
    unique: [{ columns: ["constructor", "ok"] }],
    required: ["ok"],
    checks: [{ expr: { type: "comparison", op: ">=", left: { type: "identifier", name: "n" }, right: { type: "literal", value: 0 } } }],
  };
  const value = fc.oneof(fc.integer({ min: 0, max: 5 }), fc.double({ min: -2, max: 2, noNaN: true }), fc.constantFrom("a", "b"), fc.boolean(), fc.constant(null), fc.constant([1]), fc.constant({}));
  const goodRow = fc.record({ id: fc.integer({ min: 0, max: 40 }), constructor: fc.constantFrom("a", "b", null), n: fc.double({ min: 0, max: 9, noNaN: true }), ok: fc.boolean() });
  const oddRow = fc.oneof(
    goodRow.map((r) => ({ ...r, extra: 1 })),
    goodRow.map((r) => ({ ...r, n: -1 })),
    fc.dictionary(fc.constantFrom(...columns, "extra", "valueOf"), value),
    fc.constantFrom<unknown>("row", 7, null, [], [1, 2]),
    fc.constant(JSON.parse('{"__proto__":1,"ok":true}') as unknown),
  );
  const rows = fc.array(fc.oneof({ arbitrary: goodRow, weight: 4 }, { arbitrary: oddRow, weight: 1 }), { maxLength: 40 });
  fc.assert(
    fc.property(rows, (raw) => {
      const { tables, problems } = loadTables([{ name: "t", schema, rows: raw }]);
      const reading = readingProblems("t", columns, raw);
      assert.equal(problems.slice(0, reading.length), reading);
      assert.equal(problems.slice(reading.length), checkTables(tables));
    }),
    { numRuns: 300 },
  );
});

test.run();
