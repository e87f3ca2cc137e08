/**
 * A LIMIT over a join stops it once it has the rows (`select.ts`: the last
 * join projects each tuple as it makes it, drops OFFSET's and stops at the
 * limit). The rows must be the first rows of the whole answer, in its
 * order, at every limit and offset, for each join kind and strategy,
 * matches sparse or dense.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { RowsResult } from "../../src/commands/results.js";

const engine = Engine.empty();
engine.execute({ kind: "create-table", schema: { name: "a", columns: { id: "integer", k: "integer" }, primary_key: { columns: ["id"] } } });
engine.execute({ kind: "create-table", schema: { name: "b", columns: { id: "integer", a_id: "integer", k: "integer" }, primary_key: { columns: ["id"] }, indexes: [{ name: "b_a", columns: ["a_id"] }] } });
engine.execute({ kind: "insert", table: "a", rows: Array.from({ length: 3000 }, (_, i) => ({ id: i, k: i % 17 })) });
// Rows of a up to 2,000 have matches, more of them later: a LIMIT finds its rows in the first slices or only in the last.
engine.execute({ kind: "insert", table: "b", rows: Array.from({ length: 2500 }, (_, i) => ({ id: i, a_id: i < 100 ? i * 20 : 1000 + (i % 1000), k: i % 5 })) });

const rows = (sql: string): readonly unknown[] => (engine.execute({ kind: "sql", sql, params: [] }).result as RowsResult).rows;

const JOINS = [
  "a JOIN b ON b.a_id = a.id",
  "a LEFT JOIN b ON b.a_id = a.id",
  "a LEFT JOIN b ON b.a_id = a.id WHERE b.k > 2",
  "a LEFT JOIN b ON b.a_id = a.id WHERE b.k > 2 OR b.id IS NULL",
  "a JOIN b ON b.k = a.k WHERE a.id < 40",
  "a JOIN b ON b.id = a.id + 2400",
  "a RIGHT JOIN b ON b.a_id = a.id",
  "a FULL JOIN b ON b.a_id = a.id AND a.k = 3",
];

test("a LIMIT over a join keeps the first rows of the whole answer", () => {
  for (const join of JOINS) {
    const all = rows(`SELECT a.id, b.id AS b FROM ${join}`);
    for (const [limit, offset] of [[0, 0], [1, 0], [20, 0], [63, 1], [64, 0], [65, 0], [200, 30], [1000, 500], [all.length + 5, 0]] as const) {
      assert.equal(rows(`SELECT a.id, b.id AS b FROM ${join} LIMIT ${limit} OFFSET ${offset}`), all.slice(offset, offset + limit), `${join} LIMIT ${limit} OFFSET ${offset}`);
    }
  }
});

test.run();
