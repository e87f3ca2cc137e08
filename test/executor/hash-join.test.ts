/**
 * Hash joins built either way — on the joined table's rows, or on the outer
 * tuples when they are fewer — answer as SQLite does and in the same order:
 * outer tuples in their order, each with its matches in the joined table's
 * order. Tables without an index on the join columns, keys of one and two
 * columns with NULLs and repeats, inner and left joins, a WHERE on the
 * outer table that makes the outer side larger or smaller than the joined
 * one, and derived tables (which have no keys, so always hash).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { RowsResult } from "../../src/commands/results.js";
import type { Value } from "../../src/commands/types.js";
import { Sqlite, normal, sqliteValue } from "./support/sqlite.js";

/** Small seeded generator: the same rows every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = rng(7);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
const KEYS: readonly Value[] = [null, 1, 2, 3, 4, 5, 6];
const TEXTS: readonly Value[] = [null, "a", "b", "c"];
const rowsOf = (n: number): Value[][] => Array.from({ length: n }, (_, id) => [id + 1, pick(KEYS), pick(TEXTS)]);
const tables = { a: rowsOf(60), b: rowsOf(200) };

const ours = Engine.empty();
const theirs = new Sqlite(":memory:");
for (const [name, rows] of Object.entries(tables)) {
  ours.execute({ kind: "create-table", schema: { name, columns: { id: "integer", k: "integer", t: "text" }, primary_key: { columns: ["id"] } } });
  ours.execute({ kind: "insert", table: name, rows: rows.map(([id, k, t]) => ({ id: id ?? null, k: k ?? null, t: t ?? null })) });
  theirs.exec(`CREATE TABLE ${name} (id INTEGER PRIMARY KEY, k INTEGER, t TEXT)`);
  const insert = theirs.prepare(`INSERT INTO ${name} VALUES (?, ?, ?)`);
  for (const row of rows) insert.run(...row.map(sqliteValue));
}

function answers(sql: string, params: readonly Value[]): { ours: Value[][]; theirs: Value[][] } {
  const result = ours.execute({ kind: "sql", sql, params }).result as RowsResult;
  const mine = (result.rows as Record<string, Value>[]).map((row) => result.columns.map((c) => normal(row[c])));
  return { ours: mine, theirs: theirs.prepare(sql).raw().all(...params.map(sqliteValue)).map((row) => row.map(normal)) };
}

test("hash joins either way match SQLite, in outer order then joined order", () => {
  let checked = 0;
  for (const join of ["JOIN", "LEFT JOIN"]) {
    for (const on of ["b.k = a.k", "b.k = a.k AND b.t = a.t", "b.t = a.t AND b.id > a.id"]) {
      // 5 outer rows (fewer than b's 200: built on them), then all 60 (still fewer), then b joined to a (more outer than joined).
      for (const limit of [5, 60]) {
        const sql = `SELECT a.id, b.id FROM a ${join} b ON ${on} WHERE a.id <= ? ORDER BY a.id, b.id`;
        const { ours: mine, theirs: other } = answers(sql, [limit]);
        assert.equal(mine, other, sql);
        // Unordered, storedb's own order: outer order, then the joined table's.
        const plain = answers(sql.replace(" ORDER BY a.id, b.id", ""), [limit]).ours;
        assert.equal(plain, mine, `${sql}: outer order, then joined order`);
        checked++;
      }
      const flipped = `SELECT b.id, a.id FROM b ${join} a ON ${on} ORDER BY b.id, a.id`;
      assert.equal(answers(flipped, []).ours, answers(flipped, []).theirs, flipped);
      const derived = `SELECT a.id, d.id FROM a ${join} (SELECT id, k, t FROM b) AS d ON ${on.replaceAll("b.", "d.")} WHERE a.id <= ? ORDER BY a.id, d.id`;
      assert.equal(answers(derived, [10]).ours, answers(derived, [10]).theirs, derived);
    }
  }
  const plan = ours.execute({ kind: "sql", sql: "EXPLAIN SELECT a.id FROM a JOIN b ON b.k = a.k", params: [] }).result as unknown as { plan: { statement: { joins: { strategy: { kind: string } }[] } } };
  assert.is(plan.plan.statement.joins[0]?.strategy.kind, "hash");
  assert.is(checked, 12);
});

test("a hash on an expression of the joined row matches SQLite, in outer order then joined order", () => {
  for (const join of ["JOIN", "LEFT JOIN"]) {
    for (const on of ["b.k + 0 = a.k", "a.k = b.k * 2 - 1", "upper(b.t) = upper(a.t) AND b.k - 1 = a.k", "b.id % 7 = a.k AND b.k + a.k > 3"]) {
      for (const limit of [5, 60]) {
        const sql = `SELECT a.id, b.id FROM a ${join} b ON ${on} WHERE a.id <= ? ORDER BY a.id, b.id`;
        const { ours: mine, theirs: other } = answers(sql, [limit]);
        assert.equal(mine, other, sql);
        assert.equal(answers(sql.replace(" ORDER BY a.id, b.id", ""), [limit]).ours, mine, `${sql}: outer order, then joined order`);
      }
    }
  }
  const explain = (sql: string) => (ours.execute({ kind: "sql", sql: `EXPLAIN ${sql}`, params: [] }).result as unknown as { plan: { statement: { joins: { strategy: { kind: string } }[]; from?: { joins: { strategy: { kind: string } }[] } } } }).plan.statement;
  assert.is(explain("SELECT a.id FROM a JOIN b ON b.k + 0 = a.k").joins[0]?.strategy.kind, "expression-hash");
  // UPDATE … FROM joins the table last: an equality whose table side is an expression still hashes (not a nested loop).
  assert.is(explain("UPDATE a SET k = b.k FROM b WHERE b.id = a.k + 7").from?.joins[0]?.strategy.kind, "expression-hash");
  assert.is(explain("UPDATE a SET k = b.k FROM b WHERE lower(a.t) = b.t").from?.joins[0]?.strategy.kind, "expression-hash");
  // A key fixed on the table fixes FROM's column equal to it: the source is looked up, not scanned.
  const keyed = explain("UPDATE a SET k = b.k FROM b WHERE a.id = 3 AND b.id = a.id") as unknown as { from: { access: { kind: string }; joins: { strategy: { kind: string } }[] } };
  assert.is(keyed.from.access.kind, "primary-key-lookup");
  assert.is(keyed.from.joins[0]?.strategy.kind, "index-nested-loop");
});

test.run();
