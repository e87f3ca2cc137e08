/**
 * Binding errors of SQL text point into it (CONTRACT §7 `position`): the
 * lowering records where each expression and table name stands
 * (`source-spans.ts`) and the binder gives an error the innermost one.
 * JSON commands have no text, and their errors no position.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { Database } from "../../src/database.js";
import { StoreError, type SourcePosition } from "../../src/errors.js";

async function seeded(): Promise<Database> {
  const db = Database.memory();
  await db.execute({ kind: "sql", sql: "CREATE TABLE users (id TEXT PRIMARY KEY, name TEXT, age INTEGER)" });
  await db.execute({ kind: "sql", sql: "CREATE TABLE orders (id TEXT PRIMARY KEY, user_id TEXT, total REAL, name TEXT)" });
  return db;
}

async function failure(db: Database, command: unknown): Promise<StoreError> {
  try {
    await db.execute(command);
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error(`no error: ${JSON.stringify(command)}`);
}

/** The position of the first `marker` in `sql` (after `from`, when given). */
function at(sql: string, marker: string, from = 0): SourcePosition {
  const offset = sql.indexOf(marker, from);
  if (offset < 0) throw new Error(`${marker} not in ${sql}`);
  const before = sql.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1]!.length + 1, offset };
}

const CASES: readonly (readonly [what: string, sql: string, code: string, marker: string, from?: number])[] = [
  ["unknown column in the select list", "SELECT nmae FROM users", "unknown_column", "nmae"],
  ["unknown column after others", "SELECT id, name,\n  u.nmae FROM users u", "unknown_column", "u.nmae"],
  ["unknown column inside an expression", "SELECT id, upper(nmae) || 'x' FROM users", "unknown_column", "nmae"],
  ["unknown column in WHERE", "SELECT id FROM users WHERE age > 3 AND nmae = 'a'", "unknown_column", "nmae"],
  ["unknown qualified column in WHERE", "SELECT id FROM users\nWHERE users.agee > 3", "unknown_column", "users.agee"],
  ["unknown column in ORDER BY", "SELECT id FROM users ORDER BY nmae", "unknown_column", "nmae"],
  ["unknown column in an ORDER BY expression", "SELECT id FROM users ORDER BY age + nmae DESC", "unknown_column", "nmae"],
  ["unknown column in GROUP BY", "SELECT count(*) FROM users GROUP BY nmae", "unknown_column", "nmae"],
  ["unknown column in JOIN ON", "SELECT u.id FROM users u JOIN orders o ON o.userid = u.id", "unknown_column", "o.userid"],
  ["unknown column in a subquery", "SELECT id FROM users WHERE id IN (SELECT user_id FROM orders WHERE totl > 1)", "unknown_column", "totl"],
  ["unknown column with a parameter beside it", "SELECT id FROM users WHERE age = ? AND nmae = ?", "unknown_column", "nmae"],
  ["unknown column in RETURNING", "DELETE FROM users WHERE id = 'x' RETURNING id, nmae", "unknown_column", "nmae"],
  ["unknown column in UPDATE SET", "UPDATE users SET age = agee + 1", "unknown_column", "agee"],
  ["ambiguous column", "SELECT id FROM users u JOIN orders o ON o.user_id = u.id", "ambiguous_column", "id"],
  ["ambiguous column in WHERE", "SELECT u.id FROM users u JOIN orders o ON o.user_id = u.id WHERE name = 'a'", "ambiguous_column", "name"],
  ["unknown table in FROM", "SELECT id FROM userz", "table_not_found", "userz"],
  ["unknown table in JOIN", "SELECT u.id FROM users u\n  JOIN ordrs o ON o.user_id = u.id", "table_not_found", "ordrs"],
  ["unknown table in a subquery", "SELECT id FROM users WHERE EXISTS (SELECT 1 FROM nothere)", "table_not_found", "nothere"],
  ["unknown table of INSERT", "INSERT INTO userz (id) VALUES ('1')", "table_not_found", "userz"],
  ["unknown table of INSERT without a column list", "INSERT INTO userz VALUES ('1')", "table_not_found", "userz"],
  ["unknown table of UPDATE", "UPDATE userz SET age = 1", "table_not_found", "userz"],
  ["unknown table of UPDATE … FROM", "UPDATE users SET age = 1 FROM ordrs WHERE ordrs.user_id = users.id", "table_not_found", "ordrs"],
  ["unknown table of DELETE", "DELETE FROM userz WHERE id = ?", "table_not_found", "userz"],
  ["unknown function", "SELECT id, frobnicate(name) FROM users", "sql_error", "frobnicate"],
  ["wrong argument count", "SELECT id FROM users WHERE upper(name, 2) = 'A'", "sql_error", "upper"],
  ["aggregate in WHERE", "SELECT id FROM users WHERE count(*) > 1", "sql_error", "count"],
  ["ungrouped column", "SELECT name, count(*) FROM users GROUP BY age", "sql_error", "name"],
  ["ungrouped column in an expression", "SELECT age, count(*), upper(name) FROM users GROUP BY age", "sql_error", "upper"],
  ["ungrouped column in HAVING", "SELECT age FROM users GROUP BY age HAVING name = 'a'", "sql_error", "name ="],
  ["ungrouped column in ORDER BY", "SELECT age FROM users GROUP BY age ORDER BY age, name", "sql_error", "name"],
  ["GROUP BY column number out of range", "SELECT age FROM users GROUP BY 2", "sql_error", "2"],
  ["FILTER on a scalar function", "SELECT lower(name) FILTER (WHERE age > 1) FROM users", "sql_error", "FILTER"],
  ["FILTER on a window function", "SELECT id,\n  row_number() FILTER (WHERE age > 1) OVER () FROM users", "sql_error", "FILTER"],
  ["a FILTER that is not boolean", "SELECT sum(age) FILTER (WHERE age) FROM users", "type_mismatch", "age) FROM"],
  ["a FILTER comparing text and a number", "SELECT count(*) FILTER (WHERE name > 1) FROM users", "type_mismatch", "name"],
  ["an aggregate in a FILTER", "SELECT sum(age) FILTER (WHERE count(*) > 1) FROM users", "sql_error", "count"],
  ["a window function in a FILTER", "SELECT count(*) FILTER (WHERE row_number() OVER () > 1) FROM users", "sql_error", "row_number"],
  ["unknown column in a FILTER", "SELECT age, count(*) FILTER (WHERE nmae = 'a') FROM users GROUP BY age", "unknown_column", "nmae"],
  ["type mismatch of an operator", "SELECT id FROM users WHERE age = 'old'", "type_mismatch", "age"],
  ["type mismatch of arithmetic", "SELECT id, age + name FROM users", "type_mismatch", "age"],
  ["row values of different sizes", "SELECT id FROM users WHERE age > 1 AND (id, age) = ('a', 1, 2)", "sql_error", "(id, age) ="],
  ["a row value compared with one value", "SELECT id FROM users WHERE (id, age) < 1", "sql_error", "(id"],
  ["a row value in the select list", "SELECT id,\n  (name, age) FROM users", "sql_error", "(name"],
  ["a row value in arithmetic", "SELECT id FROM users WHERE (age, age) + 1 > 2", "sql_error", "(age"],
  ["a row value in a function call", "SELECT id FROM users WHERE coalesce((age, age), 1) > 2", "sql_error", "(age"],
  ["a row value inside a row value", "SELECT id FROM users WHERE ((age, age), 1) = ((1, 2), 1)", "sql_error", "(age, age)"],
  ["a row value IN a subquery of another width", "SELECT id FROM users WHERE age > 1 AND (id, age) IN (SELECT id FROM orders)", "sql_error", "(id, age) IN"],
  ["a row value IN a list of another width", "SELECT id FROM users WHERE (id, age) IN (('a', 1), ('b', 2, 3))", "sql_error", "('b'"],
  ["a subquery of two columns as one value", "SELECT id, (SELECT id, name FROM orders) FROM users", "sql_error", "(SELECT"],
  ["type mismatch in a row value's pair", "SELECT id FROM users WHERE (id, age) < ('a', 'b')", "type_mismatch", "(id, age) <"],
  ["SET (a, b) = a row value of another size", "UPDATE users SET age = 1, (name, id) = ('a', 1, 2)", "sql_error", "('a'"],
  ["SET (a, b) = one value", "UPDATE users SET (name, age) = 1", "sql_error", "1"],
  ["SET (a, b) = a subquery of another width", "UPDATE users SET (name, age) = (SELECT name FROM orders)", "sql_error", "(SELECT"],
  ["SET (a, b, c) = a subquery whose * gives too few", "UPDATE users SET (name, age, id) = (SELECT * FROM (SELECT 'a' AS x, 1 AS y))", "sql_error", "(SELECT"],
  ["SET (a, b) = a subquery whose * gives too many", "UPDATE users SET age = 1,\n  (name, id) = (SELECT * FROM users)", "sql_error", "(SELECT"],
  ["ON CONFLICT … SET (a, b) = (SELECT …)", "INSERT INTO users (id) VALUES ('a') ON CONFLICT (id) DO UPDATE SET (name, age) = (SELECT name, age FROM users)", "sql_error", "(SELECT"],
  ["SET (a, a) = …", "UPDATE users SET (age, name, age) = (1, 'a', 2)", "sql_error", "age)"],
  ["result name holding an aggregate in WHERE", "SELECT count(*) AS n FROM users WHERE age > 1 AND n > 1", "sql_error", "n > 1"],
  ["result name holding an aggregate in a WHERE subquery", "SELECT count(*) AS n FROM users\nWHERE EXISTS (SELECT 1 FROM orders WHERE total > n)", "sql_error", "n)"],
  ["result name holding an aggregate in GROUP BY", "SELECT sum(total) AS spent FROM orders GROUP BY user_id, spent", "sql_error", "spent", 40],
  ["result name holding a window function in WHERE", "SELECT id, row_number() OVER () AS r FROM users WHERE r > 1", "sql_error", "r > 1"],
  ["result name reading a source joined after the ON", "SELECT o2.id AS later FROM users u JOIN orders o ON o.id = later JOIN orders o2 ON o2.user_id = u.id", "sql_error", "later JOIN"],
  ["result name a source joined after the ON has", "SELECT u.age AS total FROM users u JOIN users v ON v.id = u.id\n  AND total > 1 JOIN orders o ON o.user_id = u.id", "sql_error", "total >"],
  ["name of a source joined after the ON, in its subquery", "SELECT u.id FROM users u JOIN users v ON EXISTS (SELECT 1 FROM users w WHERE w.age < total) JOIN orders o ON o.user_id = u.id", "sql_error", "total)"],
  ["type mismatch through a result name", "SELECT upper(name) AS shout FROM users WHERE shout > 1", "type_mismatch", "shout >"],
];

for (const [what, sql, code, marker, from] of CASES) {
  test(`${what}: ${code} at the offending text`, async () => {
    const db = await seeded();
    const params = (sql.match(/\?/g) ?? []).map(() => 1);
    const error = await failure(db, { kind: "sql", sql, params });
    assert.is(error.code, code, error.message);
    assert.equal(error.position, at(sql, marker, from), error.message);
    assert.equal(error.toProblem().position, at(sql, marker, from));
  });
}

test("the position survives the plan cache: a statement failing twice points at its own text both times", async () => {
  const db = await seeded();
  const sql = "SELECT id FROM users WHERE nmae = ?";
  for (const value of [1, "a", 2]) assert.equal((await failure(db, { kind: "sql", sql, params: [value] })).position, at(sql, "nmae"));
  // Another text of the same shape, after the first was cached, points at its own.
  const other = "SELECT id FROM users WHERE  nmae = ?";
  assert.equal((await failure(db, { kind: "sql", sql: other, params: [1] })).position, at(other, "nmae"));
});

test("a transaction's failing SQL step keeps its position beside the step", async () => {
  const db = await seeded();
  const sql = "UPDATE users SET age = 1 WHERE nmae = 'x'";
  const error = await failure(db, { kind: "transaction", commands: [{ kind: "sql", sql: "DELETE FROM users" }, { kind: "sql", sql }] });
  assert.is(error.step, 1);
  assert.equal(error.position, at(sql, "nmae"));
});

test("EXPLAIN points at the statement's text", async () => {
  const db = await seeded();
  const sql = "EXPLAIN SELECT nmae FROM users";
  assert.equal((await failure(db, { kind: "sql", sql })).position, at(sql, "nmae"));
});

test("JSON commands' binding errors have no position", async () => {
  const db = await seeded();
  for (const command of [
    { kind: "select", table: "users", columns: ["nmae"] },
    { kind: "select", table: "users", columns: ["id"], where: { type: "comparison", op: "=", left: { type: "identifier", name: "age" }, right: { type: "literal", value: "old" } } },
    { kind: "select", table: "userz", columns: "*" },
    { kind: "delete", table: "userz", where: { type: "literal", value: true } },
  ]) {
    const error = await failure(db, command);
    assert.ok(["unknown_column", "type_mismatch", "table_not_found"].includes(error.code), error.code);
    assert.is(error.position, undefined);
    assert.not.ok("position" in error.toProblem());
  }
});

test.run();
