/**
 * The table functions' plan and bounds: a call reading an earlier source
 * is a lateral join (made per tuple, every pass keeping it so), one reading
 * only parameters a source made once (an equi-join on it may hash); a
 * subquery whose call reads the enclosing row runs per row, never hashed;
 * one call makes at most 1,000,000 rows.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { PlanResult, RowsResult } from "../../src/commands/results.js";
import type { Value } from "../../src/commands/types.js";
import { StoreError } from "../../src/errors.js";
import type { BoundExpr, SelectPlan } from "../../src/planner/plan.js";
import { JsonTable, MAX_CALL_ROWS } from "../../src/executor/json-table.js";
import { keptHashes } from "../../src/executor/kept-hashes.js";
import { callColumnsRead } from "../../src/executor/call-columns.js";

function fixture(): Engine {
  const e = Engine.empty();
  e.execute({ kind: "sql", sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, tags TEXT)" });
  e.execute({ kind: "sql", sql: `INSERT INTO t VALUES (1, '["a","b"]'), (2, '["b"]'), (3, NULL), (4, 'not json')` });
  return e;
}

const explain = (e: Engine, sql: string): SelectPlan => (e.execute({ kind: "sql", sql: `EXPLAIN ${sql}` }).result as PlanResult).plan.statement as SelectPlan;
const values = (e: Engine, sql: string, params: Value[] = []): Value[][] => {
  const r = e.execute({ kind: "sql", sql, params }).result as RowsResult;
  return (r.rows as Record<string, Value>[]).map((row) => r.columns.map((c) => row[c] ?? null));
};

test("a call reading an earlier source is a lateral join; one reading parameters is made once and may be hashed", () => {
  const e = fixture();
  const lateral = explain(e, "SELECT t.id, j.value FROM t, json_each(t.tags) j WHERE t.id < 3");
  assert.equal(lateral.joins[0]?.strategy, { kind: "lateral" });
  assert.equal(lateral.sources[1]?.call?.lateral, true);
  const once = explain(e, "SELECT t.id FROM t JOIN json_each(?) j ON j.fullkey = t.tags");
  assert.is(once.sources[1]?.call?.lateral, false);
  assert.is(once.joins[0]?.strategy.kind, "hash");
});

test("a lateral call makes its rows per tuple, and an error of one tuple's document is the statement's", () => {
  const e = fixture();
  assert.equal(values(e, "SELECT t.id, j.value FROM t, json_each(t.tags) j WHERE t.id < 3 ORDER BY t.id, j.key"), [
    [1, "a"],
    [1, "b"],
    [2, "b"],
  ]);
  assert.throws(() => values(e, "SELECT t.id, j.value FROM t, json_each(t.tags) j"), (error: unknown) => error instanceof StoreError && error.code === "invalid_request" && /json_each\(\): malformed JSON/.test(error.message));
});

test("a subquery whose call reads the enclosing row runs per row, not hashed", () => {
  const e = fixture();
  const plan = explain(e, "SELECT id FROM t WHERE EXISTS (SELECT 1 FROM json_each(t.tags) WHERE value = t.tags)");
  const where = plan.where as Extract<BoundExpr, { kind: "exists" }>;
  assert.is(where.strategy.kind, "per-row");
  assert.equal(values(e, "SELECT id FROM t WHERE id < 4 AND EXISTS (SELECT 1 FROM json_each(t.tags) WHERE value = 'b') ORDER BY id"), [[1], [2]]);
});

test("one call makes at most 1,000,000 rows", () => {
  const e = fixture();
  const doc = `[${"0,".repeat(MAX_CALL_ROWS)}0]`;
  assert.throws(() => values(e, "SELECT count(*) FROM json_each(?)", [doc]), (error: unknown) => error instanceof StoreError && error.code === "invalid_request" && /json_each\(\) would make more than 1,000,000 rows/.test(error.message));
  assert.equal(values(e, "SELECT count(*) FROM json_each(?)", [`[${"0,".repeat(MAX_CALL_ROWS - 1)}0]`]), [[MAX_CALL_ROWS]]);
  // Walked without a pass to validate it first: malformed JSON past the bound is still malformed JSON.
  assert.throws(() => values(e, "SELECT count(*) FROM json_each(?)", [`${doc.slice(0, -1)},]`]), /json_each\(\): malformed JSON/);
});

test("a call makes only the columns its statement reads: type with value or atom, every one under UPDATE … FROM", () => {
  const columns = (sql: string): number => callColumnsRead(explain(fixture(), sql), 1);
  const bits = (...names: string[]): number => names.reduce((m, n) => m | (1 << ["key", "value", "type", "atom", "id", "parent", "fullkey", "path", "json", "root"].indexOf(n)), 0);
  assert.is(columns("SELECT count(*) FROM t, json_each(t.tags)"), 0);
  assert.is(columns("SELECT j.key FROM t, json_each(t.tags) j WHERE j.fullkey <> '$'"), bits("key", "fullkey"));
  assert.is(columns("SELECT j.atom FROM t, json_each(t.tags) j ORDER BY j.id"), bits("atom", "type", "id"));
  assert.is(columns("SELECT (SELECT j.value) FROM t, json_tree(t.tags) j ORDER BY j.path"), bits("value", "type", "path"));
  assert.is(columns("SELECT t.id FROM t, json_each(t.tags) j WHERE EXISTS (SELECT 1 FROM json_each(j.root) k WHERE k.key = j.parent)"), bits("root", "parent"));
  const e = fixture();
  e.execute({ kind: "sql", sql: "CREATE TABLE u (id INTEGER PRIMARY KEY, n INTEGER)" });
  e.execute({ kind: "sql", sql: "INSERT INTO u VALUES (0, 0), (1, 0)" });
  assert.equal(values(e, "UPDATE u SET n = j.id FROM json_each('[5, 6]') j WHERE u.id = j.key RETURNING u.id, u.n"), [[0, 1], [1, 3]]);
});

test("a string value is decoded when it holds an escape and read as written when not, each by its own scan", () => {
  const e = fixture();
  // A plain string after an escaped one and before one, in an array, an object and json_tree's first row under a path (whose names are looked up between).
  const doc = String.raw`{"a":"x\ny","b":"plain\\","c":["p","q\"r","s"],"d":"\u00e9","e":"plain"}`;
  assert.equal(values(e, "SELECT key, value FROM json_each(?)", [doc]), [
    ["a", "x\ny"],
    ["b", "plain\\"],
    ["c", '["p","q\\"r","s"]'],
    ["d", "é"],
    ["e", "plain"],
  ]);
  assert.equal(values(e, "SELECT value FROM json_each(?, '$.c')", [doc]), [["p"], ['q"r'], ["s"]]);
  for (const [path, value] of [["$.a", "x\ny"], ["$.e", "plain"], ["$.c[1]", 'q"r'], ["$.c[2]", "s"], ["$.d", "é"]] as const) {
    assert.equal(values(e, "SELECT value FROM json_tree(?, ?)", [doc, path]), [[value]], path);
  }
});

test("an uncorrelated call's rows keep their hashes across a recursion's steps; a lateral call's store is left as it is", () => {
  // A recursive step hash-joining json_each(?) (ON j.fullkey = …) hashed its rows at every step: 10,000 steps 6.9 s, now 0.9 s.
  const once = new JsonTable("json_each", false);
  once.rows = once.add("[1,2,3]", undefined);
  const kept = keptHashes(once);
  assert.ok(kept.hashOn !== undefined && kept.hashOn([0]) === kept.hashOn([0]));
  const lateral = new JsonTable("json_each", true);
  assert.is(keptHashes(lateral), lateral);
  const e = fixture();
  assert.equal(values(e, "WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT r.n + 1 FROM r JOIN json_each(?) j ON j.fullkey = '$[' || CAST(r.n AS TEXT) || ']') SELECT max(n) FROM r", ["[5,6,7,8]"]), [[4]]);
});

test.run();
