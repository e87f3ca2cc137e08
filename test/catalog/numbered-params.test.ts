/**
 * Numbered parameters through the engine: the parameter count is the
 * highest number; a number used several times is one slot, typed once per
 * value (one plan per combination of its slots' types, as for `?`), whose
 * uses all hold (a LIMIT's count is still checked beside a comparison);
 * uses no value meets are refused at bind.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { RowsResult } from "../../src/commands/results.js";
import type { Value } from "../../src/commands/types.js";
import { StoreError } from "../../src/errors.js";
import type { Plan } from "../../src/planner/plan.js";

function engine(): Engine {
  const e = Engine.empty();
  e.execute({ kind: "sql", sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT)" });
  e.execute({ kind: "sql", sql: "INSERT INTO t VALUES (1, 10, 'x'), (2, 11, 'y'), (3, 12, 'x')" });
  return e;
}

const rows = (e: Engine, sql: string, params: Value[]): Value[][] => {
  const r = e.execute({ kind: "sql", sql, params }).result as RowsResult;
  return (r.rows as Record<string, Value>[]).map((row) => r.columns.map((c) => row[c] ?? null));
};
const planOf = (e: Engine, sql: string, params: Value[] = []): Plan => (e.execute({ kind: "explain", command: { kind: "sql", sql, params } }).result as { plan: Plan }).plan;

function failure(e: Engine, sql: string, params: Value[]): StoreError {
  try {
    e.execute({ kind: "sql", sql, params });
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error(`no error: ${sql}`);
}

test("the statement takes as many parameters as its highest number", () => {
  const e = engine();
  assert.equal(rows(e, "SELECT ?3 AS v", [1, 2, 3]), [[3]]);
  const short = failure(e, "SELECT ?3 AS v", [3]);
  assert.is(short.code, "sql_error");
  assert.is(short.message, "The statement takes 3 parameters (?1 to ?3) but 1 was given");
  const twice = failure(e, "SELECT ?1 AS v, ?1 AS w", [1, 1]);
  assert.is(twice.code, "sql_error");
  assert.is(twice.message, "The statement takes 1 parameter (?1) but 2 were given");
  assert.is(failure(e, "SELECT ?, ? AS w", []).message, "The statement takes 2 parameters (?1 to ?2) but 0 were given");
  assert.is(failure(e, "SELECT 1 AS v", [1]).message, "The statement takes no parameters but 1 was given");
  assert.equal(rows(e, "SELECT ?1 AS v, ?1 AS w", [7]), [[7, 7]]);
  // A slot no expression reads takes any value, as SQLite leaves it unread.
  assert.equal(planOf(e, "SELECT id FROM t WHERE a = ?2").params, [{ kind: "any" }, { kind: "compare", type: "integer" }]);
  assert.equal(rows(e, "SELECT id FROM t WHERE a = ?2", ["unread", 11]), [[2]]);
});

test("a number used twice is one slot: one plan per type of its value, the same plan for values of one type", () => {
  const e = engine();
  const sql = "SELECT id FROM t WHERE a = ?1 OR a + 1 = ?1";
  const integer = planOf(e, sql, [11]);
  assert.ok(planOf(e, sql, [12]) === integer, "one plan for every integer");
  assert.ok(planOf(e, sql, [11.5]) !== integer, "another for a real");
  assert.equal(integer.params, [{ kind: "compare", type: "integer" }]);
  assert.equal(rows(e, sql, [11]), [[1], [2]]);
  // Explain without parameters binds it untyped: still one slot.
  assert.equal(planOf(e, sql).params.length, 1);
});

test("a slot's value is typed once: a use it does not fit fails as a literal of its type would, where that use stands", () => {
  const e = engine();
  const sql = "SELECT id FROM t WHERE b = ?1 OR a = ?1";
  const error = failure(e, sql, ["x"]);
  assert.is(error.code, "type_mismatch");
  assert.equal(error.position, { line: 1, column: sql.indexOf("a = ?1") + 1, offset: sql.indexOf("a = ?1") });
  assert.equal(rows(e, sql, [null]), []);
});

test("a count or an ESCAPE sharing its slot with a comparison is still checked", () => {
  const e = engine();
  const limit = failure(e, "SELECT id FROM t WHERE b = ?1 LIMIT ?1", ["x"]);
  assert.is(limit.code, "invalid_request");
  assert.match(limit.message, "limit");
  assert.is(failure(e, "SELECT id FROM t WHERE a > ?1 LIMIT ?1", [-1]).code, "invalid_request");
  assert.equal(rows(e, "SELECT id FROM t WHERE a > ?1 ORDER BY id LIMIT ?2 OFFSET ?2", [0, 1]), [[2]]);
  assert.is(failure(e, "SELECT id FROM t WHERE b LIKE ?1 ESCAPE ?1", ["ab"]).code, "invalid_request");
  assert.equal(rows(e, "SELECT id FROM t WHERE b LIKE ?1 ESCAPE ?1", ["x"]), []);
});

test("uses no one value meets are refused at bind, at the later use", () => {
  const e = engine();
  const sql = "SELECT id FROM t WHERE b LIKE 'x' ESCAPE ?1 LIMIT ?1";
  for (const params of [["!"], [1]] as Value[][]) {
    const error = failure(e, sql, params);
    assert.is(error.code, "sql_error");
    assert.match(error.message, "Parameter ?1 is both an ESCAPE character and a LIMIT count");
    assert.equal(error.position, { line: 1, column: sql.lastIndexOf("?1") + 1, offset: sql.lastIndexOf("?1") });
  }
});

test.run();
