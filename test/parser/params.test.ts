/**
 * Parameter numbers (`src/parser/params.ts`), by SQLite's rule: `?NNN` is
 * parameter NNN, a plain `?` one past the highest number before it in the
 * text, whatever clause either stands in; a statement takes as many
 * parameters as its highest number (`parseStatement`'s `params`). Each
 * case lists the 1-based numbers of the statement's placeholders in text
 * order, as SQLite numbers them (checked with sqlite3's `.param set ?N`).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { SqlError } from "../../src/errors.js";
import { parseSql, parseStatement } from "../../src/parser/index.js";
import { MAX_PARAMETERS } from "../../src/parser/params.js";

/** The placeholders of `sql`, 1-based, in text order. */
function numbers(sql: string): number[] {
  const found: { start: number; index: number }[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const record = node as { kind?: unknown; index?: unknown; span?: { start: number } };
    if (record.kind === "param" && typeof record.index === "number") found.push({ start: record.span!.start, index: record.index });
    for (const value of Object.values(record)) walk(value);
  };
  walk(parseSql(sql));
  return found.sort((a, b) => a.start - b.start).map((p) => p.index + 1);
}

const CASES: readonly (readonly [sql: string, numbers: readonly number[], count: number])[] = [
  ["SELECT ?, ?, ?", [1, 2, 3], 3],
  ["SELECT ?1, ?1", [1, 1], 1],
  ["SELECT ?2, ?", [2, 3], 3],
  ["SELECT ?, ?1, ?", [1, 1, 2], 2],
  ["SELECT ?, ?, ?1, ?", [1, 2, 1, 3], 3],
  ["SELECT ?5, ?", [5, 6], 6],
  ["SELECT ?2, ?1, ?", [2, 1, 3], 3],
  ["SELECT ?3", [3], 3],
  ["SELECT ?01, ?007", [1, 7], 7],
  [`SELECT ?${MAX_PARAMETERS}`, [MAX_PARAMETERS], MAX_PARAMETERS],
  // In every clause, in text order: WITH, the list, FROM's subquery, a table function, ON, WHERE, GROUP BY, HAVING, a window's frame, ORDER BY, LIMIT, OFFSET.
  [
    "WITH w AS (SELECT ?2 AS x) SELECT ?, sum(a) OVER (ROWS ?4 PRECEDING) FROM (SELECT ? AS a) AS d JOIN json_each(?) AS j ON j.value = ?1 " +
      "WHERE d.a > ? GROUP BY d.a HAVING count(*) > ?3 ORDER BY ? LIMIT ? OFFSET ?2",
    [2, 3, 4, 5, 6, 1, 7, 3, 8, 9, 2],
    9,
  ],
  ["INSERT INTO t (a, b) VALUES (?2, ?), (?1, ?) RETURNING a + ?", [2, 3, 1, 4, 5], 5],
  ["UPDATE t SET a = ?, b = ?1 WHERE c = ? RETURNING ?3", [1, 1, 2, 3], 3],
  ["DELETE FROM t WHERE a = ?2 OR a IN (SELECT b FROM u WHERE c = ?)", [2, 3], 3],
  ["SELECT ?1e3", [1], 1], // `?1` then the alias e3, as SQLite reads it
];

for (const [sql, expected, count] of CASES) {
  test(`numbers: ${sql.length > 60 ? `${sql.slice(0, 60)}…` : sql}`, () => {
    assert.equal(numbers(sql), expected);
    assert.is(parseStatement(sql).params, count);
  });
}

test("a plain ? past the highest number is refused at that ?", () => {
  const sql = `SELECT ?${MAX_PARAMETERS - 1}, ?, ?`;
  assert.equal(numbers(`SELECT ?${MAX_PARAMETERS - 1}, ?`), [MAX_PARAMETERS - 1, MAX_PARAMETERS]);
  try {
    parseSql(sql);
    assert.unreachable("parsed");
  } catch (error) {
    assert.instance(error, SqlError);
    assert.is((error as SqlError).code, "sql_error");
    assert.equal((error as SqlError).position, { line: 1, column: sql.length, offset: sql.length - 1 });
    assert.match((error as SqlError).message, `at most ${MAX_PARAMETERS}`);
  }
});

test(`${MAX_PARAMETERS} plain ? are numbered 1 to ${MAX_PARAMETERS}, one more is refused`, () => {
  const list = (n: number): string => `SELECT x FROM t WHERE x IN (${new Array<string>(n).fill("?").join(",")})`;
  assert.is(parseStatement(list(MAX_PARAMETERS)).params, MAX_PARAMETERS);
  assert.throws(() => parseSql(list(MAX_PARAMETERS + 1)), (error: unknown) => error instanceof SqlError && error.code === "sql_error");
});

test("a statement of plain ? takes one parameter for each, in every clause", () => {
  const cases: [string, number][] = [
    ["SELECT * FROM t", 0],
    ["SELECT * FROM t JOIN u ON u.a = ? WHERE a = ? OR (b = ? AND NOT c IS NULL)", 3],
    ["INSERT INTO t (a, b) VALUES (?, ?), (?, 1)", 3],
    ["UPDATE t SET a = ? WHERE b = ?", 2],
    ["DELETE FROM t WHERE a = ?", 1],
    ["EXPLAIN SELECT * FROM t WHERE a = ?", 1],
    ["SELECT a FROM t WHERE a = ? UNION SELECT ? FROM u ORDER BY 1 LIMIT ?", 3],
    ["WITH c AS (SELECT ? AS x) SELECT ? FROM (SELECT ? AS y) d JOIN (SELECT ? AS z) e ON ? WHERE x = ?", 6],
    ["DROP TABLE t", 0],
    ["SELECT value FROM json_each(?, ?) j, json_tree(j.value) WHERE key = ?", 3],
    ["CREATE TABLE t (a INT, CHECK (a > 0))", 0],
  ];
  for (const [sql, count] of cases) assert.is(parseStatement(sql).params, count, sql);
});

test.run();
