/**
 * Result names read outside the select list, against SQLite (better-sqlite3,
 * in memory): each query, in every clause that reads them (WHERE, ON, a
 * table function's arguments, GROUP BY, HAVING, ORDER BY, and subqueries of
 * those), gives SQLite's rows, and each one SQLite refuses storedb refuses.
 * The one difference storedb keeps (an ON reading a name a source joined
 * after it has, which SQLite reads there) is refused here and labelled in
 * the conformance cases.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { StoreError } from "../../src/errors.js";
import { engines, run, sameRows } from "./support/both-engines.js";
import type { TableDef } from "./support/sql-generator.js";

const tables: readonly TableDef[] = [
  {
    name: "t",
    columns: [{ name: "id", type: "integer" }, { name: "a", type: "integer" }, { name: "b", type: "text" }],
    rows: [[1, 10, "x"], [2, 11, "y"], [3, 12, "x"], [4, null, "z"], [5, 13, null]],
    indexes: [["t_a", "a"]],
  },
  {
    name: "u",
    columns: [{ name: "id", type: "integer" }, { name: "a", type: "integer" }, { name: "c", type: "text" }],
    rows: [[1, 11, "p"], [2, 12, "q"], [3, 13, "r"], [4, 11, null]],
    indexes: [],
  },
];

/** Queries both engines answer alike; `ordered` when ORDER BY orders them totally. */
const ANSWERED: readonly (readonly [sql: string, ordered?: true])[] = [
  ["SELECT a + 1 AS k FROM t WHERE k > 11"],
  ["SELECT a + 1 AS k FROM t WHERE k > 11 AND k < 14"],
  ["SELECT a * 2 AS a FROM t WHERE a > 11"],
  ["SELECT b AS c FROM t JOIN u USING (a) WHERE c = 'p'"],
  ["SELECT b AS k FROM t WHERE k IS NULL"],
  ["SELECT a + 1 AS k FROM t WHERE k IN (SELECT a FROM u)"],
  ["SELECT a AS k FROM t WHERE k IN (SELECT a FROM u WHERE a >= k)"],
  ["SELECT a + 1 AS k FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = k)"],
  ["SELECT a + 1 AS k FROM t WHERE (SELECT count(*) FROM u WHERE u.a < k) > 1"],
  ["SELECT a AS k FROM t WHERE EXISTS (SELECT 1 FROM u AS x WHERE x.a = k + 1 AND EXISTS (SELECT 1 FROM u WHERE k > 10))"],
  ["SELECT t.id FROM t WHERE EXISTS (SELECT u.a AS b FROM u WHERE b = 11)"],
  ["SELECT t.id FROM t WHERE EXISTS (SELECT u.a - 1 AS k FROM u WHERE k = t.a)"],
  ["SELECT (SELECT count(*) FROM u WHERE u.a = t.a) AS n FROM t WHERE n > 0"],
  ["SELECT t.a + 1 AS k, u.c FROM t JOIN u ON u.a = k"],
  ["SELECT t.id AS ti, u.id AS ui FROM t LEFT JOIN u ON u.a = t.a AND ui > 1 ORDER BY ti, ui", true],
  ["SELECT t.b AS k, u.c FROM t LEFT JOIN u ON k = 'x' AND u.c IS NOT NULL ORDER BY t.id, u.id", true],
  ["SELECT '[1,2]' AS doc, value FROM json_each(doc)"],
  ["SELECT t.b AS k, value FROM t, json_each('[1]') WHERE k = 'x'"],
  ["SELECT b AS g, count(*) AS n FROM t GROUP BY g HAVING n > 1"],
  ["SELECT 5 AS d, min(id) AS first, count(*) AS n FROM t GROUP BY a / d ORDER BY first", true],
  ["SELECT sum(a) AS s FROM t GROUP BY b HAVING s > 10 AND (SELECT s) > 0"],
  ["SELECT sum(a) AS s FROM t HAVING (SELECT count(*) FROM u WHERE u.a < s) > 0"],
  ["SELECT a + 1 AS k FROM t ORDER BY (SELECT count(*) FROM u WHERE u.a = k), id", true],
  ["SELECT row_number() OVER (ORDER BY id) AS r FROM t ORDER BY r + 0 DESC", true],
  ["SELECT a + 1 AS k FROM t WHERE k > 11 UNION SELECT a AS k FROM u WHERE k > 12"],
  ["WITH w AS (SELECT a + 1 AS k FROM t WHERE k > 11) SELECT * FROM w"],
  ["SELECT * FROM (SELECT a + 1 AS k FROM t WHERE k > 11) AS d WHERE k < 13"],
];

/** Queries both engines refuse. */
const REFUSED: readonly string[] = [
  "SELECT sum(a) AS s FROM t WHERE s > 1",
  "SELECT count(*) AS n FROM t WHERE (SELECT n) > 0",
  "SELECT sum(a) AS s FROM t WHERE (SELECT count(*) FROM u WHERE u.a < s) > 0",
  "SELECT sum(a) AS s FROM t GROUP BY s",
  "SELECT sum(t.a) AS s FROM t JOIN u ON u.a < s",
  "SELECT row_number() OVER () AS r FROM t WHERE r > 1",
  "SELECT max(a) OVER () AS m FROM t GROUP BY m",
  "SELECT row_number() OVER () AS r FROM t ORDER BY (SELECT r)",
  "SELECT a + 1 AS k, (SELECT count(*) FROM u WHERE u.a = k) FROM t",
  "SELECT k + 1 AS k FROM t WHERE k > 1",
  "SELECT a AS k, k + 1 AS j FROM t",
  "SELECT a + 1 AS k FROM t WHERE t.k > 1",
  "SELECT a AS k FROM t UNION SELECT a FROM u WHERE k > 12",
  "DELETE FROM t WHERE k > 100 RETURNING a AS k",
  "UPDATE t SET a = a WHERE k > 100 RETURNING a + 1 AS k",
];

/**
 * An ON next to a table joined after it, on their own tables: SQLite's ON
 * sees every table of its FROM, so a name a later table has is that table's
 * (after an outer join SQLite refuses it), never a result name or an
 * enclosing query's column. storedb's ON reads only the tables before it,
 * so it refuses those (`LATER_REFUSED`), at the name; a result name no later
 * table has reads as SQLite's does (`LATER_ANSWERED`).
 */
const laterTables: readonly TableDef[] = [
  {
    name: "t",
    columns: [{ name: "id", type: "integer" }, { name: "a", type: "integer" }, { name: "b", type: "integer" }, { name: "s", type: "text" }],
    rows: [[1, 1, 5, "x"], [2, 2, 4, "y"], [3, 3, 3, "x"], [4, null, 2, "z"], [5, 5, null, null]],
    indexes: [],
  },
  {
    name: "u",
    columns: [{ name: "id", type: "integer" }, { name: "a", type: "integer" }, { name: "x", type: "integer" }, { name: "t", type: "text" }],
    rows: [[1, 2, 10, "p"], [2, 3, 20, "q"], [3, 5, 30, "r"], [4, 2, null, null]],
    indexes: [],
  },
  {
    name: "v",
    columns: [{ name: "id", type: "integer" }, { name: "k", type: "integer" }, { name: "a", type: "integer" }],
    rows: [[1, 1, 3], [2, 2, 5], [3, 3, 1]],
    indexes: [],
  },
];

const LATER_REFUSED: readonly string[] = [
  "SELECT u.x AS k FROM t JOIN u ON k > 15 JOIN v ON v.a = t.a",
  "SELECT u.x AS k FROM t JOIN u ON k > 15 CROSS JOIN v",
  "SELECT u.x AS k FROM t JOIN u ON k > 15, v",
  "SELECT u.x AS k FROM t JOIN u ON k > 15 LEFT JOIN v ON v.a = t.a",
  "SELECT u.x AS k FROM t LEFT JOIN u ON k > 15 JOIN v ON v.a = t.a",
  "SELECT u.x AS k FROM t JOIN u ON k > 15 RIGHT JOIN v ON v.a = t.a",
  "SELECT u.x AS k FROM t JOIN u ON (SELECT k) > 15 JOIN v ON v.a = t.a",
  "SELECT u.x AS k FROM t JOIN u ON EXISTS (SELECT 1 FROM u AS u2 WHERE u2.x = k) JOIN v ON v.a = t.a",
  "SELECT u.x AS k FROM t JOIN u ON k > 15 JOIN v AS w ON w.id = t.id",
  "SELECT u.x AS k FROM t JOIN u ON k > 15 JOIN (SELECT 1 AS k) AS w",
  "SELECT u.x AS value FROM t JOIN u ON value > 15 JOIN json_each('[1]')",
  "SELECT * FROM (SELECT u.x AS k FROM t JOIN u ON k > 15 JOIN v ON v.a = t.a) AS d",
  "SELECT t.id FROM t WHERE EXISTS (SELECT u.x AS k FROM u JOIN t AS t2 ON k > 15 JOIN v ON v.id = t2.id)",
  "SELECT t.id FROM t JOIN u ON v.k = 1 JOIN v ON v.id = t.id",
  // An enclosing query's column of the name: SQLite reads the later table's.
  "SELECT v.id FROM v WHERE EXISTS (SELECT 1 FROM t JOIN u ON k = 1 JOIN v AS v2 ON v2.id = t.id)",
  "SELECT v.id FROM v WHERE EXISTS (SELECT 1 FROM t JOIN u ON v.k = 1 JOIN v ON v.id = t.id)",
];

const LATER_ANSWERED: readonly string[] = [
  "SELECT u.x AS k FROM t JOIN u ON k > 15",
  "SELECT u.x AS y FROM t JOIN u ON y > 15 JOIN v ON v.id = t.id",
  "SELECT u.x AS y, v.k FROM t JOIN u ON y > 15 LEFT JOIN v ON v.a = t.a",
  "SELECT u.x AS k FROM t JOIN u ON u.x > 15 JOIN v ON v.k = t.a WHERE k < 3",
  "SELECT v.k AS q FROM t JOIN u ON u.a = t.a JOIN v ON v.a = t.a AND q > 1",
  "SELECT u.x AS k, value FROM t JOIN u ON k > 15 JOIN json_each('[1]')",
  "SELECT v.id FROM v WHERE EXISTS (SELECT 1 FROM t JOIN u ON k = t.a)",
];

const { ours, theirs } = engines(tables);
const later = engines(laterTables);

test(`${ANSWERED.length} queries reading result names answer as SQLite does`, () => {
  for (const [sql, ordered] of ANSWERED) {
    const answers = run(ours, theirs, { sql, params: [], ordered: ordered === true });
    assert.ok(answers.theirs.length > 0, `SQLite answers no rows: ${sql}`);
    assert.ok(sameRows(answers.ours, answers.theirs, ordered === true), `${sql}\nstoredb ${JSON.stringify(answers.ours)}\nsqlite  ${JSON.stringify(answers.theirs)}`);
  }
});

test(`${REFUSED.length} queries SQLite refuses are refused`, () => {
  for (const sql of REFUSED) {
    assert.throws(() => theirs.prepare(sql), undefined, `SQLite ran ${sql}`);
    try {
      ours.execute({ kind: "sql", sql, params: [] });
      assert.unreachable(`storedb ran ${sql}`);
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      assert.ok(error.code === "sql_error" || error.code === "unknown_column", `${sql}: ${error.code} ${error.message}`);
    }
  }
});

test(`${LATER_REFUSED.length} ONs reading a name a table joined after them has are refused at the name`, () => {
  for (const sql of LATER_REFUSED) {
    try {
      later.ours.execute({ kind: "sql", sql, params: [] });
      assert.unreachable(`storedb ran ${sql}`);
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      assert.is(error.code, "sql_error", `${sql}: ${error.message}`);
      assert.match(error.message, "which is joined after this ON", sql);
      const name = /^"([^"]+)"/.exec(error.message)![1]!;
      assert.is(sql.slice(error.position!.offset, error.position!.offset + name.length), name, `${sql}: the error's position`);
    }
  }
});

test(`${LATER_ANSWERED.length} ONs reading names no later table has answer as SQLite does`, () => {
  for (const sql of LATER_ANSWERED) {
    const answers = run(later.ours, later.theirs, { sql, params: [], ordered: false });
    assert.ok(answers.theirs.length > 0, `SQLite answers no rows: ${sql}`);
    assert.ok(sameRows(answers.ours, answers.theirs, false), `${sql}\nstoredb ${JSON.stringify(answers.ours)}\nsqlite  ${JSON.stringify(answers.theirs)}`);
  }
});

test.run();
