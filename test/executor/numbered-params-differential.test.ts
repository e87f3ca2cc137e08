/**
 * Numbered parameters (`?NNN`) against SQLite (better-sqlite3, in memory):
 * the same statement with the same parameter list gives SQLite's rows,
 * with `?NNN` and plain `?` mixed in every clause. storedb binds
 * `params[N - 1]` to parameter N; better-sqlite3 binds a parameter SQLite
 * named (`?3`) from an object by its number and the unnamed ones from the
 * argument list in order, so each list is split that way for it.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Value } from "../../src/commands/types.js";
import { engines, sameRows } from "./support/both-engines.js";
import { normal, sqliteValue } from "./support/sqlite.js";
import type { RowsResult } from "../../src/commands/results.js";
import type { TableDef } from "./support/sql-generator.js";

const tables: readonly TableDef[] = [
  {
    name: "t",
    columns: [{ name: "id", type: "integer" }, { name: "a", type: "integer" }, { name: "b", type: "text" }, { name: "r", type: "real" }],
    rows: [[1, 10, "x", 0.5], [2, 11, "y", 1.5], [3, 12, "x", null], [4, null, "z", 2.5], [5, 13, null, 0.25]],
    indexes: [["t_a", "a"]],
  },
  {
    name: "u",
    columns: [{ name: "id", type: "integer" }, { name: "a", type: "integer" }, { name: "c", type: "text" }],
    rows: [[1, 11, "p"], [2, 12, "q"], [3, 13, "r"], [4, 11, null]],
    indexes: [],
  },
];

const CASES: readonly (readonly [sql: string, params: readonly Value[], ordered?: true])[] = [
  ["SELECT id FROM t WHERE a = ?1 OR a = ?1 + 2", [10]],
  ["SELECT id FROM t WHERE a > ?2 AND b = ?1", ["x", 10]],
  ["SELECT id, ?1 AS p, ?1 * 2 AS q FROM t WHERE a < ?2", [3, 12]],
  ["SELECT id FROM t WHERE a = ? OR a = ?1 OR b = ?", [10, "z"]],
  ["SELECT id FROM t WHERE a IN (?, ?5, ?) OR b = ?2", [10, "y", 0, 0, 11, 13]],
  ["SELECT ?3 AS x", [1, 2, 3]],
  ["SELECT id FROM t WHERE b = ?2", [null, "x"]],
  ["SELECT id FROM t WHERE r > ?1 AND a > ?1", [0.5]],
  ["SELECT id FROM t WHERE r > ?1 AND a > ?1", [1]],
  ["SELECT id FROM t WHERE b LIKE ?1 || '%' OR b = ?1", ["y"]],
  ["SELECT id FROM t ORDER BY id LIMIT ?1 OFFSET ?1", [2], true],
  ["SELECT id FROM t WHERE a > ? ORDER BY id LIMIT ?2 OFFSET ?", [10, 2, 1], true],
  ["SELECT t.id, u.c FROM t JOIN u ON u.a = t.a AND u.id > ?2 WHERE t.a >= ?1 ORDER BY t.id, u.id", [11, 0], true],
  ["SELECT b, count(*) AS n FROM t WHERE a > ?1 GROUP BY b HAVING count(*) >= ?2", [0, 2]],
  ["SELECT id FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = t.a AND u.c <> ?2) AND t.a < ?1", [13, "p"]],
  ["WITH w AS (SELECT a FROM u WHERE id <= ?2) SELECT t.id FROM t JOIN w ON w.a = t.a WHERE t.b <> ?1", ["x", 3]],
  ["SELECT id, sum(a) OVER (ORDER BY id ROWS ?1 PRECEDING) AS s FROM t WHERE a > ?1 ORDER BY id", [1], true],
  ["SELECT value FROM json_each(?1) WHERE value > ?2", ["[1, 5, 9]", 4]],
  ["SELECT CASE WHEN a > ?1 THEN ?2 ELSE ?3 END AS v FROM t ORDER BY id", [11, "big", "small"], true],
  ["SELECT coalesce(b, ?1) AS v FROM t WHERE coalesce(b, ?1) = ?1", ["none"]],
];

/** The arguments better-sqlite3 takes for `params`: the unnamed parameters in order, then the named ones (`?N` in the text) by number. */
function sqliteArgs(sql: string, params: readonly Value[]): unknown[] {
  const named = new Set([...sql.matchAll(/\?(\d+)/g)].map((m) => Number(m[1])));
  const positional: unknown[] = [];
  const byNumber: Record<string, unknown> = {};
  params.forEach((v, i) => {
    if (named.has(i + 1)) byNumber[String(i + 1)] = sqliteValue(v);
    else positional.push(sqliteValue(v));
  });
  return named.size === 0 ? positional : [...positional, byNumber];
}

const { ours, theirs } = engines(tables);

test(`${CASES.length} statements with numbered parameters answer as SQLite does`, () => {
  for (const [sql, params, ordered] of CASES) {
    const result = ours.execute({ kind: "sql", sql, params }).result as RowsResult;
    const mine = (result.rows as Record<string, Value>[]).map((row) => result.columns.map((c) => normal(row[c])));
    const other = theirs.prepare(sql).raw().all(...sqliteArgs(sql, params)).map((row) => row.map(normal));
    assert.ok(other.length > 0, `SQLite answers no rows: ${sql}`);
    assert.ok(sameRows(mine, other, ordered === true), `${sql} ${JSON.stringify(params)}\nstoredb ${JSON.stringify(mine)}\nsqlite  ${JSON.stringify(other)}`);
  }
});

test.run();
