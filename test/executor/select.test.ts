/**
 * Select semantics, one line per case: three-valued logic, ordering (text by
 * code point, false < true, NULL first ascending and last descending,
 * stable), limit/offset with and without top-k, joins and their order,
 * projection shapes. Every case runs through SQL and JSON.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { RowsResult } from "../../src/commands/results.js";
import type { Value } from "../../src/commands/types.js";

function fixture(): Engine {
  const e = Engine.empty();
  const run = (sql: string): void => void e.execute({ kind: "sql", sql });
  run("CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT, n REAL, b BOOLEAN, g TEXT)");
  run(
    "INSERT INTO t (id, s, n, b, g) VALUES " +
      "(1, 'b', 2.5, TRUE, 'x'), (2, 'a', NULL, FALSE, 'y'), (3, NULL, 1, NULL, 'x'), (4, '\uffff', 10, TRUE, 'y'), (5, '\u{1F600}', -3, FALSE, 'x'), (6, 'a', 2.5, TRUE, NULL)",
  );
  run("CREATE TABLE u (k INTEGER PRIMARY KEY, t_id INTEGER, label TEXT)");
  run("INSERT INTO u (k, t_id, label) VALUES (10, 2, 'p'), (11, 1, 'q'), (12, 2, 'r'), (13, 9, 's')");
  return e;
}

function ids(e: Engine, sql: string, params: Value[] = []): Value[] {
  const r = e.execute({ kind: "sql", sql, params }).result as RowsResult;
  return r.rows.map((row) => (row as Record<string, Value>)[r.columns[0] as string] as Value);
}

const CASES: [sql: string, expected: Value[], params?: Value[]][] = [
  // three-valued logic: a comparison with NULL is NULL, WHERE keeps TRUE
  ["SELECT id FROM t WHERE n > 2", [1, 4, 6]],
  ["SELECT id FROM t WHERE NOT n > 2", [3, 5]],
  ["SELECT id FROM t WHERE n = NULL", []],
  ["SELECT id FROM t WHERE n <> NULL", []],
  ["SELECT id FROM t WHERE NOT (n = NULL)", []],
  ["SELECT id FROM t WHERE n IS NULL", [2]],
  ["SELECT id FROM t WHERE n IS NOT NULL AND b", [1, 4, 6]],
  ["SELECT id FROM t WHERE b OR n > 100", [1, 4, 6]],
  ["SELECT id FROM t WHERE NOT (b OR n > 100)", [5]],
  ["SELECT id FROM t WHERE NOT (b AND n > 2)", [2, 3, 5]],
  ["SELECT id FROM t WHERE b = FALSE", [2, 5]],
  ["SELECT id FROM t WHERE b < TRUE", [2, 5]],
  ["SELECT id FROM t WHERE (n > 2) = FALSE", [3, 5]],
  ["SELECT id FROM t WHERE n >= 1 AND n <= 2.5 AND id <> 6", [1, 3]],
  ["SELECT id FROM t WHERE id = 2.0", [2]],
  ["SELECT id FROM t WHERE id = 2.5", []],
  ["SELECT id FROM t WHERE NULL", []],
  ["SELECT id FROM t WHERE TRUE AND NOT FALSE", [1, 2, 3, 4, 5, 6]],
  // text by code point: U+FFFF < U+1F600 although its UTF-16 unit is larger
  ["SELECT id FROM t WHERE s > 'b'", [4, 5]],
  ["SELECT id FROM t WHERE s > '\uffff'", [5]],
  ["SELECT id FROM t ORDER BY s", [3, 2, 6, 1, 4, 5]],
  ["SELECT id FROM t ORDER BY s DESC", [5, 4, 1, 2, 6, 3]],
  // ordering: NULL first asc, last desc, stable on ties, several keys
  ["SELECT id FROM t ORDER BY n", [2, 5, 3, 1, 6, 4]],
  ["SELECT id FROM t ORDER BY n DESC", [4, 1, 6, 3, 5, 2]],
  ["SELECT id FROM t ORDER BY b", [3, 2, 5, 1, 4, 6]],
  ["SELECT id FROM t ORDER BY g, n DESC", [6, 1, 3, 5, 4, 2]],
  ["SELECT id FROM t ORDER BY g DESC, id DESC", [4, 2, 5, 3, 1, 6]],
  // limit/offset, with top-k (order by) and early stop (no order)
  ["SELECT id FROM t LIMIT 2", [1, 2]],
  ["SELECT id FROM t LIMIT 2 OFFSET 3", [4, 5]],
  ["SELECT id FROM t LIMIT 0", []],
  ["SELECT id FROM t LIMIT 10 OFFSET 5", [6]],
  ["SELECT id FROM t ORDER BY n DESC LIMIT 3", [4, 1, 6]],
  ["SELECT id FROM t ORDER BY n DESC LIMIT 2 OFFSET 1", [1, 6]],
  ["SELECT id FROM t WHERE b ORDER BY n LIMIT 1", [1]],
  ["SELECT id FROM t WHERE n > 0 LIMIT 2 OFFSET 1", [3, 4]],
  // keys and parameters
  ["SELECT id FROM t WHERE id = ?", [4], [4]],
  ["SELECT id FROM t WHERE id = ?", [], [null]],
  ["SELECT id FROM t WHERE s = ? AND n >= ?", [6], ["a", 1]],
  ["SELECT id FROM t WHERE ? = ?", [1, 2, 3, 4, 5, 6], [1, 1]],
  ["SELECT id FROM t WHERE ? = ?", [], ["a", "b"]],
  ["SELECT id FROM t WHERE ? = ?", [], [null, null]],
  ["SELECT id FROM t WHERE n > ?", [], [null]],
  ["SELECT id FROM t WHERE ? < n", [], [null]],
  ["SELECT id FROM t WHERE n <> ?", [], [null]],
  ["SELECT id FROM t WHERE NOT (n > ?)", [], [null]],
  ["SELECT id FROM t WHERE n > ? OR b", [1, 4, 6], [null]],
  ["SELECT id FROM t WHERE n < ?", [5], [0]],
  ["SELECT id FROM t WHERE ? >= n", [3, 5], [1]],
  ["SELECT id FROM t WHERE s < ?", [2, 6], ["b"]],
  ["SELECT id FROM t WHERE s < ?", [], [null]],
  ["SELECT id FROM t WHERE b = ?", [2, 5], [false]],
  // joins: left-table order, each with its matches in right-table order
  ["SELECT t.id FROM t JOIN u ON u.t_id = t.id", [1, 2, 2]],
  ["SELECT u.k FROM t JOIN u ON u.t_id = t.id", [11, 10, 12]],
  ["SELECT u.k FROM t LEFT JOIN u ON u.t_id = t.id", [11, 10, 12, null, null, null, null]],
  ["SELECT t.id FROM t LEFT JOIN u ON u.t_id = t.id AND u.label = 'r' WHERE u.k IS NULL", [1, 3, 4, 5, 6]],
  ["SELECT u.k FROM u JOIN t ON t.id = u.t_id", [10, 11, 12]],
  ["SELECT u.k FROM u LEFT JOIN t ON t.id = u.t_id WHERE t.id IS NULL", [13]],
  ["SELECT x.id FROM t JOIN t AS x ON x.n > t.n WHERE t.id = 5", [1, 3, 4, 6]],
  ["SELECT u.k FROM u JOIN t ON t.s = u.label", []],
  ["SELECT u.k FROM t JOIN u ON u.t_id = t.id ORDER BY u.label DESC", [12, 11, 10]],
  ["SELECT u.k FROM t JOIN u ON u.t_id = t.id AND t.id = 2 LIMIT 1", [10]],
];

test("select cases", () => {
  const e = fixture();
  for (const [sql, expected, params] of CASES) assert.equal(ids(e, sql, params), expected, sql);
});

test("two parameters compared with each other are type-checked when they arrive", () => {
  const e = fixture();
  for (const params of [["a", 1], [true, 1], ["1", 1]] as Value[][]) {
    assert.throws(() => e.execute({ kind: "sql", sql: "SELECT id FROM t WHERE ? < ?", params }), (err: { code?: string }) => err.code === "type_mismatch");
    assert.throws(() => e.execute({ kind: "sql", sql: "SELECT id FROM t WHERE ? = ?", params }), (err: { code?: string }) => err.code === "type_mismatch");
  }
  assert.equal(ids(e, "SELECT id FROM t WHERE ? < ? AND id < 3", [1, 2.5]), [1, 2]);
  assert.equal(ids(e, "SELECT id FROM t WHERE ? <> ? AND id < 3", [false, true]), [1, 2]);
  assert.equal(ids(e, "SELECT id FROM t WHERE ? = ?", [null, "x"]), []);
});

test("projection: objects keyed in column order, arrays, *, rowCount", () => {
  const e = fixture();
  const objects = e.execute({ kind: "select", table: "t", columns: ["s", "id"], where: { type: "literal", value: true }, limit: 1 }).result as RowsResult;
  assert.equal(objects, { kind: "rows", columns: ["s", "id"], rows: [{ s: "b", id: 1 }], rowCount: 1 });
  assert.equal(Object.keys(objects.rows[0] as object), ["s", "id"]);
  const arrays = e.execute({ kind: "select", table: "u", columns: "*", output: "arrays", orderBy: [{ column: "k", direction: "desc" }], limit: 2 }).result;
  assert.equal(arrays, { kind: "rows", columns: ["k", "t_id", "label"], rows: [[13, 9, "s"], [12, 2, "r"]], rowCount: 2 });
  const joined = e.execute({ kind: "sql", sql: "SELECT * FROM u JOIN t AS a ON a.id = u.t_id WHERE u.k = 11" }).result as RowsResult;
  assert.equal(joined.columns, ["u.k", "u.t_id", "u.label", "a.id", "a.s", "a.n", "a.b", "a.g"]);
  assert.equal(joined.rows, [{ "u.k": 11, "u.t_id": 1, "u.label": "q", "a.id": 1, "a.s": "b", "a.n": 2.5, "a.b": true, "a.g": "x" }]);
});

test("top-k agrees with a full sort on a larger table", () => {
  const e = Engine.empty();
  e.execute({ kind: "sql", sql: "CREATE TABLE big (id INTEGER PRIMARY KEY, v INTEGER, w TEXT)" });
  const values = Array.from({ length: 500 }, (_, i) => `(${i}, ${(i * 37) % 50}, ${i % 7 === 0 ? "NULL" : `'w${(i * 11) % 13}'`})`);
  e.execute({ kind: "sql", sql: `INSERT INTO big (id, v, w) VALUES ${values.join(", ")}` });
  for (const order of ["v", "v DESC", "w, v DESC", "w DESC, v"]) {
    const full = ids(e, `SELECT id FROM big ORDER BY ${order}`);
    for (const [limit, offset] of [[1, 0], [10, 0], [10, 25], [499, 1], [600, 0]] as const) {
      assert.equal(ids(e, `SELECT id FROM big ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`), full.slice(offset, offset + limit), `${order} ${limit} ${offset}`);
    }
  }
});

test("a key IN a subquery finds the rows a scan finds, in table order, however many the subquery holds", () => {
  const e = Engine.empty();
  e.execute({ kind: "sql", sql: "CREATE TABLE big (id INTEGER PRIMARY KEY, v INTEGER, w TEXT)" });
  e.execute({ kind: "sql", sql: "CREATE INDEX by_v ON big (v)" });
  // Ids out of order, so table order is not key order; v repeats, so an index lookup finds several rows per value.
  const values = Array.from({ length: 2000 }, (_, i) => `(${(i * 7919) % 2000}, ${(i * 37) % 300}, ${i % 7 === 0 ? "NULL" : `'w${i % 13}'`})`);
  e.execute({ kind: "sql", sql: `INSERT INTO big (id, v, w) VALUES ${values.join(", ")}` });
  const plan = (sql: string): string => (e.execute({ kind: "sql", sql: `EXPLAIN ${sql}` }).result as { plan: { statement: { access: { kind: string } } } }).plan.statement.access.kind;
  // Few values, then more values (or rows) than a lookup is worth: the path gives every row and the WHERE decides.
  for (const below of [3, 40, 400, 1900]) {
    for (const [column, sub] of [["id", "SELECT id FROM big WHERE v < ?"], ["v", "SELECT v FROM big WHERE id < ?"], ["id", "SELECT CASE WHEN v < ? THEN id END FROM big"]] as const) {
      const sql = `SELECT id FROM big WHERE ${column} IN (${sub})`;
      assert.is(plan(sql), "key-in-subquery");
      const scan = `SELECT id FROM big WHERE ${column} + 0 IN (${sub})`;
      assert.is(plan(scan), "scan");
      assert.equal(ids(e, sql, [below]), ids(e, scan, [below]), `${sql} with ${below}`);
    }
  }
});

test.run();
