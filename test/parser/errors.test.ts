/**
 * Invalid statements fail with the right code, at the right place, saying
 * what was expected. One case per line: SQL, code, line, column, and names
 * that must be among `expected` (syntax errors only; `[]` to skip).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { SqlError } from "../../src/errors.js";
import { parseSql } from "../../src/parser/index.js";

type Code = "sql_syntax_error" | "sql_error";
const S: Code = "sql_syntax_error";
const E: Code = "sql_error";

const invalidCorpus: readonly (readonly [sql: string, code: Code, line: number, column: number, expected: readonly string[]])[] = [
  // ---- empty and unknown statements
  ["", S, 1, 1, ["SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "EXPLAIN"]],
  ["   ", S, 1, 4, ["SELECT"]],
  ["-- only a comment", S, 1, 18, ["SELECT"]],
  [";", S, 1, 1, ["SELECT"]],
  ["SELEC a FROM t", S, 1, 1, ["SELECT"]],
  ["GRANT ALL ON t", S, 1, 1, ["SELECT"]],
  ["TRUNCATE t", S, 1, 1, ["DELETE"]],
  ["WITH x AS SELECT a FROM t", S, 1, 11, ["("]],
  ["WITH x AS (SELECT a FROM t)", S, 1, 28, ["SELECT", "INSERT", "UPDATE", "DELETE"]],
  ["WITH x AS (SELECT 1) CREATE TABLE y (a INTEGER)", S, 1, 22, ["SELECT", "INSERT", "UPDATE", "DELETE"]],
  ["WITH x AS (SELECT 1) DROP TABLE t", S, 1, 22, ["SELECT", "DELETE"]],
  ["EXPLAIN WITH x AS (SELECT 1)", S, 1, 29, ["SELECT", "UPDATE"]],
  ["WITH x AS (SELECT 1), DELETE FROM t", S, 1, 23, ["Identifier"]],
  ["INSERT INTO t DEFAULT", S, 1, 22, ["VALUES"]],
  ["INSERT INTO t DEFAULT VALUES ON CONFLICT DO NOTHING", S, 1, 30, ["RETURNING"]],
  ["INSERT INTO t DEFAULT VALUES (1)", S, 1, 30, ["RETURNING"]],
  ["INSERT INTO t (a) DEFAULT VALUES", E, 1, 19, []],
  ["WITH a AS (SELECT 1) WITH b AS (SELECT 2) SELECT 1", E, 1, 22, []],
  ["WITH a AS (SELECT 1) WITH b AS (SELECT 2) DELETE FROM t", E, 1, 22, []],
  ["WITH a AS (SELECT 1)\nWITH b AS (SELECT 2) UPDATE t SET a = 1", E, 2, 1, []],
  ["WITH a AS (SELECT 1) INSERT INTO t WITH b AS (SELECT 2) WITH c AS (SELECT 3) SELECT 1", S, 1, 57, ["SELECT"]],

  // ---- SELECT
  ["SELECT", S, 1, 7, ["*", "Identifier"]],
  ["SELECT FROM t", S, 1, 8, ["*", "Identifier"]],
  ["SELECT id, name WHER x", S, 1, 22, ["FROM", "WHERE"]],
  ["SELECT value FROM json_each('[1]' 'x')", S, 1, 35, [")"]],
  ["SELECT a, FROM t", S, 1, 11, ["Identifier"]],
  ["SELECT a,, b FROM t", S, 1, 10, ["Identifier"]],
  ["SELECT a b c FROM t", S, 1, 12, [",", "FROM"]],
  ["SELECT a AS FROM t", S, 1, 13, ["Identifier"]],
  ["SELECT a + FROM t", S, 1, 12, ["Identifier", "-", "("]],
  ["SELECT f(a,) FROM t", S, 1, 12, ["Identifier"]],
  ["SELECT f(a FROM t", S, 1, 12, [")"]],
  ["SELECT CASE END", S, 1, 13, ["WHEN"]],
  ["SELECT CASE WHEN a THEN b", S, 1, 26, ["END"]],
  ["SELECT CASE a THEN b END", S, 1, 15, ["WHEN"]],
  ["SELECT CAST(a) FROM t", S, 1, 14, ["AS"]],
  ["SELECT CAST(a AS) FROM t", S, 1, 17, ["Identifier"]],
  ["SELECT CAST a AS INT FROM t", S, 1, 13, ["("]],
  ["SELECT count(DISTINCT *) FROM t", S, 1, 23, ["Identifier"]],
  ["SELECT count(* FROM t", S, 1, 16, [")"]],
  ["SELECT count(*) FILTER (a > 1) FROM t", S, 1, 25, ["WHERE"]],
  ["SELECT count(*) FILTER (WHERE) FROM t", S, 1, 30, ["Identifier"]],
  ["SELECT count(*) FILTER (WHERE a FROM t", S, 1, 33, [")"]],
  ["SELECT sum(a) OVER () FILTER (WHERE b) FROM t", S, 1, 30, [","]],
  ["SELECT a FROM t GROUP a", S, 1, 23, ["BY"]],
  ["SELECT a FROM t GROUP BY", S, 1, 25, ["Identifier"]],
  ["SELECT a FROM t HAVING", S, 1, 23, ["Identifier"]],
  ["SELECT a FROM t HAVING a GROUP BY a", S, 1, 26, ["ORDER", "LIMIT"]],
  ["SELECT a DISTINCT FROM t", S, 1, 10, ["FROM"]],
  ["SELECT a FROM", S, 1, 14, ["Identifier"]],
  ["SELECT a FROM t WHERE", S, 1, 22, ["Identifier", "(", "NOT", "?"]],
  ["SELECT a FROM t WHERE a =", S, 1, 26, ["Identifier", "?", "Number"]],
  ["SELECT a FROM t WHERE a NULL", E, 1, 25, []],
  ["SELECT a FROM t WHERE a = = 1", S, 1, 27, ["Identifier"]],
  ["SELECT a FROM t WHERE a = 1 = 2", S, 1, 29, ["AND", "OR"]],
  ["SELECT a FROM t WHERE a < b < c", S, 1, 29, ["AND"]],
  ["SELECT a FROM t WHERE (a = b = c)", S, 1, 30, [")"]],
  ["SELECT a FROM t WHERE a IS", S, 1, 27, ["NULL"]],
  ["SELECT a FROM t WHERE a IS DISTINCT 1", S, 1, 37, ["FROM"]],
  ["SELECT a FROM t WHERE a IS NOT", S, 1, 31, ["NULL"]],
  ["SELECT a FROM t WHERE a NOT", S, 1, 28, ["NULL", "IN", "BETWEEN"]],
  ["SELECT a FROM t WHERE a IN ()", S, 1, 29, ["Identifier"]],
  ["SELECT a FROM t WHERE a IN 1", S, 1, 28, ["("]],
  ["SELECT a FROM t WHERE a IN (1, 2", S, 1, 33, [")"]],
  ["SELECT a FROM t WHERE a BETWEEN 1", S, 1, 34, ["AND"]],
  ["SELECT a FROM t WHERE a BETWEEN 1 OR 2", S, 1, 35, ["AND"]],
  ["SELECT a FROM t WHERE a LIKE", S, 1, 29, ["Identifier"]],
  ["SELECT a FROM t WHERE a LIKE 'x' ESCAPE", S, 1, 40, ["String"]],
  ["SELECT a FROM t WHERE a = - ", S, 1, 29, ["Number"]],
  ["SELECT a FROM t WHERE a = 1 AND", S, 1, 32, ["NOT", "Identifier"]],
  ["SELECT a FROM t WHERE a = 1 OR OR b = 2", S, 1, 32, ["Identifier"]],
  ["SELECT a FROM t WHERE (a = 1", S, 1, 29, [")"]],
  ["SELECT a FROM t WHERE a = 1)", S, 1, 28, ["AND", "OR"]],
  ["SELECT a FROM t WHERE ()", S, 1, 24, ["Identifier"]],
  ["SELECT a FROM t WHERE a = NOT b", S, 1, 27, ["Identifier"]],
  ["SELECT a FROM t WHERE a == 1", S, 1, 26, ["Identifier"]],
  ["SELECT a FROM t WHERE a => 1", S, 1, 26, ["Identifier"]],
  ["SELECT a FROM t.", S, 1, 16, ["JOIN", "WHERE"]],
  ["SELECT t. FROM t", S, 1, 11, ["Identifier"]],
  ["SELECT t.* AS x FROM t", S, 1, 12, ["FROM"]],
  ["SELECT a FROM t WHERE t.* = 1", S, 1, 25, ["Identifier"]],
  ["SELECT count(t.*) FROM t", S, 1, 16, ["Identifier"]],
  ["SELECT a FROM t ORDER a", S, 1, 23, ["BY"]],
  ["SELECT a FROM t ORDER BY", S, 1, 25, ["Identifier"]],
  ["SELECT a FROM t ORDER BY a,", S, 1, 28, ["Identifier"]],
  ["SELECT a FROM t ORDER BY a UP", S, 1, 28, ["ASC", "DESC", "LIMIT"]],
  ["SELECT a FROM t LIMIT", S, 1, 22, ["Number", "?"]],
  ["SELECT a FROM t LIMIT -?", S, 1, 24, ["Number"]],
  ["SELECT a FROM t LIMIT 1 OFFSET", S, 1, 31, ["Number", "?"]],
  ["SELECT a FROM t LIMIT ? OFFSET", S, 1, 31, ["Number", "?"]],
  ["SELECT a FROM t LIMIT a", S, 1, 23, ["Number", "?"]],
  // ---- numbered parameters: ?1 to ?32766, as in SQLite
  ["SELECT ?0", E, 1, 8, []],
  ["SELECT a FROM t\nWHERE b = ?1 OR c = ?32767", E, 2, 21, []],
  ["SELECT a FROM t WHERE b = ?99999999999999999999999", E, 1, 27, []],
  ["SELECT a FROM t WHERE b = ?00", E, 1, 27, []],
  ["SELECT ?32766, ?", E, 1, 16, []],
  ["SELECT a FROM t WHERE b = ?1.5", S, 1, 29, ["AND", "OR"]],
  ["SELECT a FROM t WHERE b = ? 1", S, 1, 29, ["AND", "OR"]],
  ["SELECT a FROM t OFFSET 1", S, 1, 17, ["LIMIT"]],
  ["SELECT a FROM t LIMIT 1 ORDER BY a", S, 1, 25, ["OFFSET"]],
  ["SELECT a FROM t WHERE a = 1 WHERE b = 2", S, 1, 29, ["ORDER", "LIMIT"]],
  ["SELECT a FROM t JOIN u USING ()", S, 1, 31, ["Identifier"]],
  ["SELECT a FROM t JOIN u USING id", S, 1, 30, ["("]],
  ["SELECT a FROM t LEFT RIGHT JOIN u", S, 1, 22, ["JOIN"]],
  ["SELECT a FROM t, u ON a = b", S, 1, 20, ["JOIN", "WHERE"]],
  ["SELECT a FROM t JOIN u ON", S, 1, 26, ["Identifier"]],
  ["SELECT a FROM t LEFT u ON a = b", S, 1, 22, ["JOIN"]],
  // A join word is never an implicit alias (FULL was read as t's alias, and the join ran as an inner one).
  ["SELECT a FROM t OUTER JOIN u ON a = b", S, 1, 17, ["JOIN", "WHERE"]],
  ["SELECT a FROM t AS", S, 1, 19, ["Identifier"]],
  ["SELECT a FROM t AS WHERE", S, 1, 20, ["Identifier"]],
  ["SELECT a FROM t RETURNING", S, 1, 17, ["WHERE"]],

  // ---- INSERT
  ["INSERT t (a) VALUES (1)", S, 1, 8, ["INTO"]],
  ["INSERT INTO t SET a = 1", S, 1, 15, ["VALUES"]],
  ["INSERT INTO t () VALUES (1)", S, 1, 16, ["Identifier"]],
  ["INSERT INTO t (a) VALUES", S, 1, 25, ["("]],
  ["INSERT INTO t (a) VALUES ()", S, 1, 27, ["?", "Number"]],
  ["INSERT INTO t (a) VALUES (1", S, 1, 28, [")"]],
  ["INSERT INTO t (a) VALUES (1),", S, 1, 30, ["("]],
  ["INSERT INTO t (a) VALUES (1 +)", S, 1, 30, ["?"]],
  ["INSERT INTO t (a) VALUES (lower(1)", S, 1, 35, [")"]],
  ["INSERT INTO t (a) VALUES (1 2)", S, 1, 29, [")"]],
  ["INSERT INTO t (a) TABLE u", S, 1, 19, ["VALUES", "SELECT", "WITH"]],
  ["INSERT INTO t (a) VALUES (1) (2)", S, 1, 30, [","]],

  // ---- UPDATE / DELETE
  ["UPDATE t a = 1", S, 1, 12, ["SET"]],
  ["UPDATE t AS SET a = 1", S, 1, 13, ["Identifier"]],
  ["UPDATE t SET a = 1 FROM", S, 1, 24, ["Identifier", "("]],
  ["UPDATE t SET a = 1 FROM WHERE a = 1", S, 1, 25, ["Identifier", "("]],
  ["UPDATE t SET a = 1 FROM f JOIN", S, 1, 31, ["Identifier", "("]],
  ["UPDATE t SET a = 1 WHERE a = 1 FROM f", S, 1, 32, []],
  ["UPDATE t SET a = 1 FROM f, ", S, 1, 28, ["Identifier", "("]],
  ["UPDATE t SET", S, 1, 13, ["Identifier"]],
  ["UPDATE t SET a", S, 1, 15, ["="]],
  ["UPDATE t SET (a, b)", S, 1, 20, ["="]],
  ["UPDATE t SET (a, b = 1", S, 1, 20, [")"]],
  ["UPDATE t SET () = 1", S, 1, 15, ["Identifier"]],
  ["UPDATE t SET (a, 1) = (1, 2)", S, 1, 18, ["Identifier"]],
  ["SELECT (1, ) FROM t", S, 1, 12, []],
  ["SELECT a FROM t WHERE (a, b = 1", S, 1, 32, [")"]],
  ["UPDATE t SET a = ", S, 1, 18, ["?"]],
  ["UPDATE t SET a = 1 RETURNING", S, 1, 29, ["*", "Identifier"]],
  ["INSERT INTO t (a) VALUES (1) ON CONFLICT DO", S, 1, 44, ["NOTHING", "UPDATE"]],
  ["INSERT INTO t (a) VALUES (1) ON CONFLICT (a) DO UPDATE a = 1", S, 1, 56, ["SET"]],
  ["INSERT OR UPSERT INTO t (a) VALUES (1)", S, 1, 11, ["IGNORE", "REPLACE", "ABORT", "FAIL", "ROLLBACK"]],
  ["REPLACE t (a) VALUES (1)", S, 1, 9, ["INTO"]],
  ["INSERT OR FAIL INTO t (a) VALUES (1)", E, 1, 11, []],
  ["insert or rollback into t (a) values (1)", E, 1, 11, []],
  ["DELETE FROM t RETURNING a b c", S, 1, 29, [","]],
  ["UPDATE t SET a <> 1", S, 1, 16, ["="]],
  ["UPDATE t SET a = 1 b = 2", S, 1, 20, [",", "WHERE"]],
  ["UPDATE t SET a = 1 WHERE", S, 1, 25, ["Identifier"]],
  ["DELETE t", S, 1, 8, ["FROM"]],
  ["DELETE FROM", S, 1, 12, ["Identifier"]],
  ["DELETE FROM t WHERE a = 1 LIMIT 1", S, 1, 27, ["AND", "OR"]],
  ["DELETE FROM t AS WHERE a = 1", S, 1, 18, ["Identifier"]],
  ["DELETE FROM t AS x y", S, 1, 20, []],
  ["DELETE FROM t x AS y", S, 1, 17, []],

  // ---- CREATE / DROP
  ["CREATE t (a INT)", S, 1, 8, ["TABLE", "UNIQUE", "INDEX"]],
  ["CREATE TABLE t", S, 1, 15, ["(", "AS"]],
  ["CREATE TABLE t AS", S, 1, 18, ["SELECT"]],
  ["CREATE TABLE t AS (a INT)", S, 1, 19, ["SELECT"]],
  ["CREATE TABLE t ()", S, 1, 17, ["Identifier", "PRIMARY"]],
  ["CREATE TABLE t (a)", S, 1, 18, ["Identifier"]],
  ["CREATE TABLE t (a INT,)", S, 1, 23, ["Identifier"]],
  ["CREATE TABLE t (a INT", S, 1, 22, [")"]],
  ["CREATE TABLE IF EXISTS t (a INT)", S, 1, 17, ["NOT"]],
  ["CREATE TABLE t (a INT PRIMARY)", S, 1, 30, ["KEY"]],
  ["CREATE TABLE t (a INT NOT)", S, 1, 26, ["NULL"]],
  ["CREATE TABLE t (a INT NULL)", S, 1, 23, [")"]],
  ["CREATE TABLE t (a INT DEFAULT)", S, 1, 30, ["String", "Number", "Identifier", "("]],
  ['CREATE TABLE t (a INT DEFAULT "CURRENT_TIME")', E, 1, 31, []],
  ["CREATE TABLE t (a INT DEFAULT (1)", S, 1, 34, [")"]],
  ["CREATE TABLE t (a INT DEFAULT ?)", S, 1, 31, ["Number"]],
  ["CREATE TABLE t (a INT DEFAULT b)", E, 1, 31, []],
  ["CREATE TABLE t (a VARCHAR())", S, 1, 27, ["Number"]],
  ["CREATE TABLE t (a VARCHAR(1, 2, 3))", S, 1, 31, [")"]],
  ["CREATE TABLE t (a INT REFERENCES u)", S, 1, 35, ["("]],
  ["CREATE TABLE t (a INT REFERENCES u(id) ON DELETE SET NULL)", S, 1, 50, ["CASCADE", "RESTRICT"]],
  ["CREATE TABLE t (a INT REFERENCES u(id) ON UPDATE CASCADE)", S, 1, 43, ["DELETE"]],
  ["CREATE TABLE t (a INT, PRIMARY KEY a)", S, 1, 36, ["("]],
  ["CREATE TABLE t (a INT, FOREIGN KEY (a))", S, 1, 39, ["REFERENCES"]],
  ["CREATE TABLE t (a INT, CHECK a > 0)", S, 1, 30, ["("]],
  ["CREATE TABLE t (a INT, CONSTRAINT c)", S, 1, 36, ["PRIMARY", "UNIQUE", "FOREIGN", "CHECK"]],
  ["DROP t", S, 1, 6, ["TABLE", "INDEX"]],
  ["CREATE INDEX i ON t", S, 1, 20, ["("]],
  ["CREATE UNIQUE i ON t (a)", S, 1, 15, ["INDEX"]],
  ["DROP INDEX", S, 1, 11, ["Identifier"]],
  ["ALTER t ADD a INT", S, 1, 7, ["TABLE"]],
  ["ALTER TABLE t", S, 1, 14, ["ADD", "DROP", "RENAME"]],
  ["ALTER TABLE t ADD COLUMN", S, 1, 25, ["Identifier"]],
  ["ALTER TABLE t ADD COLUMN a", S, 1, 27, ["Identifier"]],
  ["ALTER TABLE t RENAME a", S, 1, 23, ["TO"]],
  ["ALTER TABLE t RENAME COLUMN TO b", S, 1, 29, ["Identifier"]],
  ["DROP TABLE", S, 1, 11, ["Identifier"]],
  ["DROP TABLE IF t", S, 1, 15, ["EXISTS"]],
  ["DROP TABLE t, u", S, 1, 13, ["EOF"]],
  ["EXPLAIN", S, 1, 8, ["SELECT", "INSERT", "UPDATE", "DELETE"]],
  ["EXPLAIN CREATE TABLE t (a INT)", S, 1, 9, ["SELECT"]],
  ["EXPLAIN EXPLAIN SELECT a FROM t", S, 1, 9, ["SELECT"]],

  // ---- lexing
  ["SELECT a FROM t WHERE a = 'unterminated", S, 1, 27, []],
  ['SELECT "unterminated FROM t', S, 1, 8, []],
  ['SELECT "" FROM t', S, 1, 8, []],
  ["SELECT a FROM t /* unterminated", S, 1, 17, []],
  ["SELECT a FROM t WHERE a = #1", S, 1, 27, []],
  ["SELECT a FROM t WHERE a = $1", S, 1, 27, []],
  ["SELECT a FROM t WHERE a = 1 & 2", S, 1, 29, []],
  ["SELECT a FROM t WHERE a = `b`", S, 1, 27, []],
  ["SELECT a FROM t WHERE a = :name", S, 1, 27, []],
  ["SELECT a FROM t WHERE a ! = 1", S, 1, 25, []],
  ["SELECT a FROM t WHERE a = 'x' | 'y'", S, 1, 31, []],
  ["SELECT a FROM t WHERE a = 1 ^ 2", S, 1, 29, []],
  ["SELECT a FROM t WHERE a = 1 / /* unterminated", S, 1, 31, []],
  ["SELECT ü FROM t", S, 1, 8, []],
  ["SELECT a FROM t WHERE a = '😀' AND b = é", S, 1, 40, []],

  // ---- multi-line positions
  ["SELECT a\nFROM t\nWHER b = 1", S, 3, 6, ["EOF"]],
  ["SELECT a\r\nFROM\r\n\r\n  t WHERE", S, 4, 10, ["Identifier"]],
  ["SELECT a\rFROM t\r\n  WHERE a = #", S, 3, 13, []],
  ["/* one\ntwo */ SELECT a FROM t WHERE a = 1 = 2", S, 2, 36, ["AND"]],
  ["SELECT a\n  FROM t\n  LIMIT x", S, 3, 9, ["Number"]],
  ["SELECT a +\n  b *\n  FROM t", S, 3, 3, ["Identifier"]],

  // ---- sql_error: fits the grammar, but not allowed
  ["SELECT a FROM t; SELECT b FROM t", E, 1, 18, []],
  ["SELECT 1 FROM t; SELECT 2", E, 1, 18, []],
  ["SELECT a FROM t;;", E, 1, 17, []],
  ["DELETE FROM t;\nDROP TABLE t", E, 2, 1, []],
  ["SELECT a FROM t LIMIT 1.5", E, 1, 23, []],
  ["SELECT a FROM t LIMIT 1e2", E, 1, 23, []],
  ["SELECT a FROM t LIMIT 10 OFFSET 0.5", E, 1, 33, []],
  ["SELECT a FROM t LIMIT 9007199254740992", E, 1, 23, []],
  ["SELECT a FROM t WHERE a = 9007199254740992", E, 1, 27, []],
  ["SELECT a FROM t WHERE a = -9007199254740992", E, 1, 28, []],
  ["SELECT a FROM t WHERE a = 123456789012345678901234567890", E, 1, 27, []],
  ["SELECT a FROM t WHERE a = 1e400", E, 1, 27, []],
  ["SELECT a FROM t WHERE a = -1e309", E, 1, 28, []],
  ["INSERT INTO t (a) VALUES (1e999)", E, 1, 27, []],
  ["CREATE TABLE t (a VARCHAR(2.5))", E, 1, 27, []],
  ["CREATE TABLE t (a INT DEFAULT 1 DEFAULT 2)", E, 1, 33, []],
  ["CREATE TABLE t (a INT REFERENCES u(id) REFERENCES v(id))", E, 1, 40, []],
];

test("the invalid corpus is large enough to mean something", () => {
  assert.ok(invalidCorpus.length >= 60, `only ${invalidCorpus.length} cases`);
});

function failure(sql: string): SqlError {
  try {
    parseSql(sql);
  } catch (error) {
    if (error instanceof SqlError) return error;
    throw error;
  }
  throw new Error(`parsed, but should have failed: ${sql}`);
}

for (const [sql, code, line, column, expected] of invalidCorpus) {
  test(`fails: ${JSON.stringify(sql)}`, () => {
    const error = failure(sql);
    assert.is(error.code, code, error.message);
    assert.equal({ line: error.position?.line, column: error.position?.column }, { line, column }, error.message);
    const offset = error.position!.offset;
    assert.ok(offset >= 0 && offset <= sql.length, `offset ${offset}`);
    assert.match(error.message, `at line ${line}, column ${column}`);
    for (const name of expected) assert.ok(error.expected?.includes(name), `${name} not in ${JSON.stringify(error.expected)}: ${error.message}`);
  });
}

test("a syntax error reads 'Expected X but found Y at line L, column C'", () => {
  const error = failure("INSERT t (a) VALUES (1)");
  assert.is(error.message, "Expected INTO but found 't' at line 1, column 8");
  assert.equal(error.position, { line: 1, column: 8, offset: 7 });
  assert.equal(error.expected, ["INTO"]);
  assert.is(error.status, 400);
});

test("a missing select item reads as a missing expression", () => {
  for (const sql of ["SELECT v, FROM t", "SELECT a, , b FROM t", "UPDATE t SET v = 1 RETURNING v,"]) {
    assert.match(failure(sql).message, /^Expected an expression but found /, sql);
  }
  // Only a name takes .*: after anything else the dot is what is wrong.
  for (const sql of ["SELECT ?.* FROM t", "SELECT 'a'.* FROM t", "SELECT NULL.* FROM t"]) {
    assert.match(failure(sql).message, /but found '\.' at line 1/, sql);
  }
});

test("trailing input lists what could have come instead", () => {
  const error = failure("SELECT id FROM users WHER id = 1");
  assert.match(error.message, /^Expected one of .*WHERE.* or end of input but found 'id' \(did you mean WHERE instead of 'WHER'\?\) at line 1, column 27$/);
  assert.ok(error.expected?.includes("EOF"));
});

test("an expected operator is listed as the operators themselves", () => {
  const error = failure("SELECT a FROM t WHERE a 1");
  assert.match(error.message, "a comparison operator");
  assert.match(error.message, "an arithmetic operator");
  for (const op of ["=", "!=", "<>", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "||"]) assert.ok(error.expected?.includes(op), op);
});

test("end of input is reported as such, at the end of the text", () => {
  const error = failure("SELECT a FROM t WHERE a =\n");
  assert.match(error.message, "found end of input at line 2, column 1");
  assert.equal(error.position, { line: 2, column: 1, offset: 26 });
});

test("a keyword one typo away is suggested", () => {
  assert.is(failure("INSERT INTI t (a) VALUES (1)").message, "Expected INTO but found 'INTI' (did you mean INTO instead of 'INTI'?) at line 1, column 8");
  // A select item may be followed by its alias, so a misspelt FROM reads as one: the hint looks one word back.
  assert.match(failure("SELECT a FORM t").message, "found 't' (did you mean FROM instead of 'FORM'?) at line 1, column 15");
  assert.match(failure("SELEC a FROM t").message, "(did you mean SELECT instead of 'SELEC'?)");
  assert.match(failure("DELETE FROM t WHER a = 1").message, "(did you mean WHERE instead of 'WHER'?)");
  assert.match(failure("SELECT id FROM users WHER id = 1").message, "found 'id' (did you mean WHERE instead of 'WHER'?)");
  assert.match(failure("UPDATE t SET a = 1 WHEREE b = 2").message, "(did you mean WHERE instead of 'WHEREE'?)");
  assert.match(failure("SELECT a FROM t ORDER BY a DESCC").message, "(did you mean DESC instead of 'DESCC'?)");
  assert.not.match(failure("SELECT a FROM t xyz abc").message, "did you mean");
  assert.not.match(failure("SELECT a FROM t WHERE a = b c").message, "did you mean");
});

test("a chained comparison says that comparisons do not chain", () => {
  assert.match(failure("SELECT a FROM t WHERE a = b = c").message, "comparisons do not chain");
});

test("a lexing error names the character, line and column", () => {
  assert.is(failure("SELECT a\nFROM t WHERE a = #").message, "Unexpected character '#' (U+0023) at line 2, column 18");
  assert.is(failure("SELECT a FROM t WHERE a = 'x").message, "Unterminated string literal starting at line 1, column 27");
  assert.match(failure("SELECT a FROM t WHERE a = \u0001").message, "U+0001 at line 1, column 27");
  assert.match(failure("SELECT a FROM t WHERE a = '😀' = 😀").message, "'😀' (U+1F600) at line 1, column 34");
});

test("positions count UTF-16 code units, as JavaScript strings do", () => {
  const error = failure("SELECT a FROM t WHERE a = '😀😀' AND b = #");
  assert.equal(error.position, { line: 1, column: 42, offset: 41 });
});

test("a second statement is sql_error whatever the first one is", () => {
  const error = failure("SELECT a FROM t; DROP TABLE t");
  assert.is(error.code, "sql_error");
  assert.match(error.message, "Only one statement");
});

test("errors from number checks name the number", () => {
  assert.match(failure("SELECT a FROM t WHERE a = 1e400").message, "1e400");
  assert.match(failure("SELECT a FROM t WHERE a = -9007199254740993").message, "-9007199254740993");
  assert.match(failure("SELECT a FROM t LIMIT 2.5").message, "LIMIT");
});

test("long offending tokens are shortened in messages", () => {
  const error = failure(`SELECT a FROM t WHERE a = 1 '${"x".repeat(500)}'`);
  // The list of what may come there is ~170 characters; the 502 of the token are cut to 40.
  assert.ok(error.message.length < 250, error.message);
});

test.run();
