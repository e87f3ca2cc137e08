/**
 * Name resolution across enclosing queries where storedb goes beyond SQL:
 * a table name behind its alias (`FROM b y` answering `b.v`), which SQLite
 * refuses ("no such column"). A name is first looked for exactly (alias,
 * or table name when unaliased) at every level outward, through subqueries
 * and derived tables alike; only then behind an alias — the outermost
 * query first, up to a derived table's select, as storedb did before
 * derived tables read enclosing queries — so each answer here is the one
 * storedb gave then. And what is refused: a table beside a derived or WITH
 * table in FROM (LATERAL), with a message naming what was written.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { ColumnType, Value } from "../../src/commands/types.js";
import { StoreError } from "../../src/errors.js";

const TABLES: { name: string; columns: [string, ColumnType][]; rows: Value[][] }[] = [
  { name: "a", columns: [["id", "integer"], ["name", "text"], ["v", "integer"]], rows: [[1, "x", 10], [2, "y", 20], [3, "x", null], [4, null, 10], [5, "z", 5]] },
  { name: "b", columns: [["id", "integer"], ["a_id", "integer"], ["v", "integer"], ["t", "text"]], rows: [[1, 1, 1, "p"], [2, 1, 2, "q"], [3, 1, 2, "p"], [4, 2, 5, null], [5, 2, null, "r"], [6, 3, 7, "p"], [7, null, 3, "q"], [8, 9, 1, "s"]] },
];

function engine(): Engine {
  const e = Engine.empty();
  for (const t of TABLES) {
    e.execute({ kind: "create-table", schema: { name: t.name, columns: Object.fromEntries(t.columns), primary_key: { columns: ["id"] }, indexes: [] } });
    e.execute({ kind: "insert", table: t.name, rows: t.rows.map((r) => Object.fromEntries(t.columns.map(([name], i) => [name, r[i]!]))) });
  }
  return e;
}

function rows(e: Engine, sql: string): Value[][] {
  const result = e.execute({ kind: "sql", sql }).result;
  if (result.kind !== "rows") throw new Error(`not rows: ${sql}`);
  return result.rows.map((row) => result.columns.map((c) => (row as Record<string, Value>)[c]!));
}

function refusal(e: Engine, sql: string): StoreError {
  try {
    e.execute({ kind: "sql", sql });
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error(`accepted: ${sql}`);
}

// Each answer is the one storedb gave before derived tables read enclosing queries; SQLite refuses every query.
const BEHIND_AN_ALIAS: [sql: string, answer: Value[][]][] = [
  // The enclosing query's `a x` before the subquery's own `a y`.
  ["SELECT x.id FROM a x WHERE EXISTS (SELECT 1 FROM a y WHERE y.id = 1 AND a.v = 10) ORDER BY x.id", [[1], [4]]],
  ["SELECT x.id, (SELECT count(*) FROM b y WHERE b.v > 1) FROM b x ORDER BY x.id", [[1, 0], [2, 8], [3, 8], [4, 8], [5, 0], [6, 8], [7, 8], [8, 0]]],
  ["SELECT x.id, (SELECT count(*) FROM b y WHERE y.a_id = b.a_id) FROM b x ORDER BY x.id", [[1, 3], [2, 3], [3, 3], [4, 2], [5, 2], [6, 1], [7, 0], [8, 1]]],
  ["SELECT x.id, (SELECT count(*) FROM b y JOIN a z ON z.id = y.a_id WHERE b.a_id = a.id) FROM b x ORDER BY x.id", [[1, 3], [2, 3], [3, 3], [4, 2], [5, 2], [6, 1], [7, 0], [8, 0]]],
  // Two subqueries deep: the outermost query's `b x`, not the middle one's `b y` nor the inner one's `b z`.
  ["SELECT x.id, (SELECT (SELECT count(*) FROM b z WHERE z.a_id = b.a_id) FROM b y WHERE y.id = 1) FROM b x ORDER BY x.id", [[1, 3], [2, 3], [3, 3], [4, 2], [5, 2], [6, 1], [7, 0], [8, 1]]],
  ["SELECT x.id FROM a x WHERE x.id IN (SELECT a_id FROM b y WHERE b.v = a.v / 5)", [[1]]],
  // A derived table's select first, then the queries around it: its own `b y`, as when it read no enclosing query.
  ["SELECT x.id, (SELECT count(*) FROM (SELECT 1 FROM b y WHERE y.a_id = b.a_id)) FROM b x ORDER BY x.id", [[1, 7], [2, 7], [3, 7], [4, 7], [5, 7], [6, 7], [7, 7], [8, 7]]],
  ["SELECT id, (SELECT count(*) FROM (SELECT 1 FROM a x WHERE a.id < 3)) FROM a q ORDER BY id", [[1, 2], [2, 2], [3, 2], [4, 2], [5, 2]]],
  ["SELECT * FROM (SELECT b.id FROM b x) ORDER BY 1", [[1], [2], [3], [4], [5], [6], [7], [8]]],
];

for (const [sql, answer] of BEHIND_AN_ALIAS) {
  test(`a table name behind an alias keeps its meaning: ${sql}`, () => {
    assert.equal(rows(engine(), sql), answer);
  });
}

test("a name exactly in an enclosing query wins over a table behind an alias, through a derived table too (as SQLite)", () => {
  const e = engine();
  assert.equal(rows(e, "SELECT a.id, (SELECT count(*) FROM (SELECT 1 FROM a x WHERE a.id < 3)) FROM a ORDER BY a.id"), [[1, 5], [2, 5], [3, 0], [4, 0], [5, 0]]);
  assert.equal(rows(e, "SELECT a.id, (SELECT count(*) FROM (SELECT 1 FROM b x WHERE b.a_id = a.id)) FROM a ORDER BY a.id"), [[1, 3], [2, 2], [3, 1], [4, 0], [5, 0]]);
});

// SQLite refuses each too ("no such column"); storedb read them behind an alias before derived tables read enclosing queries.
test("a table beside a WITH or derived table is refused, the message naming the table as written", () => {
  const e = engine();
  const withTable = refusal(e, "WITH RECURSIVE t(n) AS (SELECT count(*) FROM b x WHERE b.v > 1) SELECT * FROM t JOIN b ON b.id = t.n");
  assert.is(withTable.code, "unknown_column");
  assert.match(withTable.message, `Unknown column "b.v": the WITH table t's select reads "b", which stands beside t in FROM`);
  // A WITH table that neither recurses nor lists its columns is read as a derived table under its name.
  assert.match(refusal(e, "WITH t AS (SELECT count(*) n FROM b x WHERE b.v > 1) SELECT * FROM t JOIN b ON b.id = t.n").message, `the select of t reads "b", which stands beside t in FROM`);
  assert.match(refusal(e, "SELECT * FROM b, (SELECT count(*) n FROM b x WHERE b.v > 1) d").message, `the select of d reads "b", which stands beside d in FROM`);
});

// A WITH table's binding is reused only where the queries around it answer its names alike (`bindWithTable`).
test("a WITH table read where its enclosing query's column is another outer value by number is bound again (SQLite's answer)", () => {
  const e = engine();
  // In the second subquery `d` reads a.v first, so a.id is its second outer value: w bound in the first reads it as the first.
  const answer = [[1, 3, 3], [2, 2, 2], [3, 1, 1], [4, 0, 0], [5, 0, 0]];
  assert.equal(rows(e, "WITH w(n) AS (SELECT count(*) FROM b WHERE b.a_id = a.id) SELECT a.id, (SELECT n FROM w), (SELECT n FROM (SELECT a.v AS q) d, w) FROM a ORDER BY a.id"), answer);
  assert.equal(rows(e, "WITH w(n) AS (SELECT count(*) FROM b WHERE b.a_id = a.id) SELECT a.id, (SELECT n FROM (SELECT a.v AS q) d, w), (SELECT n FROM w) FROM a ORDER BY a.id"), answer);
});

test("a WITH table bound where its table name behind an alias was no LATERAL is refused where it stands beside that table, in either order", () => {
  const e = engine();
  const message = `Unknown column "b.v": the WITH table w's select reads "b", which stands beside w in FROM`;
  assert.match(refusal(e, "WITH w(n) AS (SELECT count(*) FROM b y WHERE b.v > 1) SELECT (SELECT n FROM w), (SELECT count(*) FROM b, w) FROM a").message, message);
  assert.match(refusal(e, "WITH w(n) AS (SELECT count(*) FROM b y WHERE b.v > 1) SELECT (SELECT count(*) FROM b, w), (SELECT n FROM w) FROM a").message, message);
  // u is bound again in the second subquery (a.id is its second outer value there) and reads w's binding kept from the
  // first: what w read behind an alias is u's too, so the third, where b stands beside u, does not reuse u's.
  const through = refusal(e, "WITH w(n) AS (SELECT count(*) FROM b y WHERE b.v > 1), u(m) AS (SELECT n + a.id FROM w) SELECT (SELECT m FROM u), (SELECT m FROM (SELECT a.v) d, u), (SELECT count(*) FROM b, (SELECT a.v) d, u) FROM a");
  assert.match(through.message, `the WITH table u's select reads "b", which stands beside u in FROM`);
});

test("a WITH table read under an alias goes by both names in the no-LATERAL refusal", () => {
  const e = engine();
  assert.match(refusal(e, "WITH w(n) AS (SELECT count(*) FROM b y WHERE b.v > 1) SELECT * FROM b, w AS z").message, `the WITH table w (as z)'s select reads "b", which stands beside w (as z) in FROM`);
  assert.match(refusal(e, "WITH w(n) AS (SELECT count(*) FROM b y WHERE z.n > 1) SELECT * FROM b, w AS z").message, `the WITH table w (as z)'s select reads "z", its own name in FROM`);
});

test.run();
