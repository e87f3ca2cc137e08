/**
 * Result names read outside the select list, against SQLite (better-sqlite3,
 * in memory): each query, in every clause that reads them (WHERE, ON, a
 * table function's arguments, GROUP BY, HAVING, ORDER BY, and subqueries of
 * those), gives SQLite's rows, and each one SQLite refuses storedb refuses.
 * The one difference storedb keeps (an ON reading a source joined after it)
 * is in the conformance cases, labelled.
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

const { ours, theirs } = engines(tables);

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

test.run();
