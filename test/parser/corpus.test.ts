/**
 * Every statement of the valid corpus parses to its expected AST, and every
 * span in the result points at the text it came from.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { positionAt } from "../../src/lexer/index.js";
import { parseSql } from "../../src/parser/index.js";
import { validCorpus } from "./corpus.js";
import { strip } from "./helpers.js";

test("the corpus is large enough to mean something", () => {
  assert.ok(validCorpus.length >= 150, `only ${validCorpus.length} cases`);
});

for (const [sql, expected] of validCorpus) {
  test(`parses: ${sql}`, () => {
    assert.equal(strip(parseSql(sql)), strip(expected));
  });
}

interface Spanned {
  span: { start: number; end: number; line: number; column: number };
}

function* spanned(value: unknown): Generator<[Spanned, object]> {
  if (Array.isArray(value)) for (const item of value) yield* spanned(item);
  else if (value !== null && typeof value === "object") {
    if ("span" in value) yield [value as Spanned, value];
    for (const [key, child] of Object.entries(value)) if (key !== "span") yield* spanned(child);
  }
}

test("every span lies in the text, starts where its line and column say, and names span their exact source", () => {
  for (const [sql] of validCorpus) {
    for (const [{ span }, node] of spanned(parseSql(sql))) {
      const where = `${sql} @ ${JSON.stringify(span)}`;
      assert.ok(span.start >= 0 && span.start < span.end && span.end <= sql.length, where);
      const position = positionAt(sql, span.start);
      assert.equal([span.line, span.column], [position.line, position.column], where);
      assert.ok(!/\s/.test(sql[span.start]!) && !/\s/.test(sql[span.end - 1]!), `span has outer whitespace: ${where}`);
      if ("quoted" in node && "text" in node) {
        const text = node.text as string;
        const source = node.quoted ? `"${text.replaceAll('"', '""')}"` : text;
        assert.is(sql.slice(span.start, span.end), source, where);
      }
    }
  }
});

test("a statement's span covers the statement without the trailing semicolon", () => {
  const sql = "  SELECT a FROM t WHERE b = 1 ;  ";
  const ast = parseSql(sql);
  assert.equal(sql.slice(ast.span.start, ast.span.end), "SELECT a FROM t WHERE b = 1");
});

test("spans on a later line count lines and columns from 1", () => {
  const ast = parseSql("SELECT a\nFROM t\n  WHERE b = 1");
  assert.is(ast.kind, "select");
  if (ast.kind !== "select") return;
  assert.equal(ast.where?.span, { start: 24, end: 29, line: 3, column: 9 });
  assert.equal(ast.from?.span, { start: 14, end: 15, line: 2, column: 6 });
});

/** The source text of every spanned node, in tree order: what each span covers. */
function covered(sql: string): string[] {
  return [...spanned(parseSql(sql))].map(([{ span }]) => sql.slice(span.start, span.end));
}

test("spans cover exactly their node's text, parentheses belonging to the enclosing node", () => {
  assert.equal(covered("SELECT a FROM t WHERE NOT (a = 1) AND (b)"), [
    "SELECT a FROM t WHERE NOT (a = 1) AND (b)",
    "a", "a", "a", // the select item, its column and the column's name
    "t", "t",
    "NOT (a = 1) AND (b)", "NOT (a = 1)", "a = 1", "a", "a", "1", "b", "b",
  ]);
  assert.equal(covered("DELETE FROM t WHERE (a = -1 OR b IS NOT NULL)").slice(0, 1), ["DELETE FROM t WHERE (a = -1 OR b IS NOT NULL)"]);
  assert.equal(covered("UPDATE t SET a = 'x', b = ?")[0], "UPDATE t SET a = 'x', b = ?");
  assert.equal(covered("SELECT * FROM t AS u LEFT JOIN v w ON (w.x = u.y) ORDER BY u.y DESC LIMIT 3 OFFSET 4").slice(0, 4), [
    "SELECT * FROM t AS u LEFT JOIN v w ON (w.x = u.y) ORDER BY u.y DESC LIMIT 3 OFFSET 4",
    "t AS u", "t", "u",
  ]);
  assert.ok(covered("SELECT * FROM t AS u LEFT JOIN v w ON (w.x = u.y) ORDER BY u.y DESC").includes("LEFT JOIN v w ON (w.x = u.y)"));
  assert.ok(covered("SELECT * FROM t ORDER BY u.y DESC, z").includes("u.y DESC"));
  const create = covered(
    "CREATE TABLE t (a VARCHAR(10) NOT NULL DEFAULT -5 REFERENCES u(id) ON DELETE CASCADE, CONSTRAINT k PRIMARY KEY (a), CHECK (a > 0))",
  );
  for (const part of [
    "a VARCHAR(10) NOT NULL DEFAULT -5 REFERENCES u(id) ON DELETE CASCADE",
    "VARCHAR(10)",
    "-5",
    "REFERENCES u(id) ON DELETE CASCADE",
    "CONSTRAINT k PRIMARY KEY (a)",
    "CHECK (a > 0)",
    "a > 0",
  ]) assert.ok(create.includes(part), `${part} not in ${JSON.stringify(create)}`);
  assert.equal(covered("EXPLAIN DELETE FROM t;").slice(0, 2), ["EXPLAIN DELETE FROM t", "DELETE FROM t"]);
  assert.equal(covered("INSERT INTO t (a) VALUES (1), (?)")[0], "INSERT INTO t (a) VALUES (1), (?)");
  assert.equal(covered("DROP TABLE IF EXISTS t")[0], "DROP TABLE IF EXISTS t");
});

test("placeholders are numbered in text order across clauses", () => {
  const ast = parseSql("SELECT a FROM t JOIN u ON u.x = ? WHERE a = ? AND b = ?");
  const indexes = [...spanned(ast)].map(([, node]) => node).filter((node) => (node as { kind?: string }).kind === "param");
  assert.equal(indexes.map((node) => (node as { index: number }).index), [0, 1, 2]);
});

test.run();
