/** A script's statement splitter: where `;` ends a statement and where it does not, and where each statement stands in the script. */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { readLines, splitLines } from "../../../src/cli/script/lines.js";
import { splitScript, StatementBuffer } from "../../../src/cli/script/statements.js";

/** Feeds `lines` one by one, each ended by \n; returns every statement completed and whether one is left pending. */
function split(...lines: string[]): { statements: string[]; pending: boolean } {
  const buffer = new StatementBuffer();
  const statements = lines.flatMap((line) => buffer.feed(`${line}\n`)).map((s) => s.text);
  return { statements, pending: buffer.pending };
}

const cases: [string, string[], string[], boolean][] = [
  ["one line", ["SELECT a FROM t;"], ["SELECT a FROM t"], false],
  ["two on a line", ["SELECT a FROM t; SELECT b FROM u;"], ["SELECT a FROM t", "SELECT b FROM u"], false],
  ["over lines", ["SELECT a", "FROM t", ";"], ["SELECT a\nFROM t"], false],
  ["not yet ended", ["SELECT a", "FROM t"], [], true],
  ["; in a string", ["SELECT a FROM t WHERE b = 'x;y';"], ["SELECT a FROM t WHERE b = 'x;y'"], false],
  ["doubled quote in a string", ["SELECT a FROM t WHERE b = 'it''s;';"], ["SELECT a FROM t WHERE b = 'it''s;'"], false],
  ["; in a quoted name", ['SELECT "a;b" FROM t;'], ['SELECT "a;b" FROM t'], false],
  ["string over lines", ["INSERT INTO t (a) VALUES ('x", ";y');"], ["INSERT INTO t (a) VALUES ('x\n;y')"], false],
  ["quoted name over lines", ['SELECT "a', ';b" FROM t; SELECT 2;'], ['SELECT "a\n;b" FROM t', "SELECT 2"], false],
  ["string open over several lines, closed later", ["SELECT 'a", "b;", "c'", "; SELECT 1;"], ["SELECT 'a\nb;\nc'", "SELECT 1"], false],
  ["; in a line comment", ["SELECT a -- ; no", "FROM t;"], ["SELECT a -- ; no\nFROM t"], false],
  ["; in a block comment", ["SELECT a /* ;", "; */ FROM t;"], ["SELECT a /* ;\n; */ FROM t"], false],
  ["a -- inside a string is no comment", ["SELECT '--;' AS a; SELECT 2;"], ["SELECT '--;' AS a", "SELECT 2"], false],
  ["empty statements skipped", [";", "  ;", "-- only a comment;", "/* c */;"], [], false],
  ["blank lines and comments before a statement dropped", ["", "  -- note", "SELECT a FROM t;"], ["SELECT a FROM t"], false],
  ["comments after the last token dropped", ["SELECT a FROM t -- done", ";"], ["SELECT a FROM t"], false],
  ["text after the last ; pending", ["SELECT a FROM t; SELECT"], ["SELECT a FROM t"], true],
  ["a character no token starts with stays in its statement, and the next still ends at its ;", ["SELECT 1 @ 2; SELECT 3;"], ["SELECT 1 @ 2", "SELECT 3"], false],
  ["an empty quoted name is closed", ['SELECT "" FROM t; SELECT 2;'], ['SELECT "" FROM t', "SELECT 2"], false],
  ["an open block comment waits", ["SELECT 1 /* a;"], [], true],
  ["a ; right after a token", ["SELECT 1;SELECT 2;"], ["SELECT 1", "SELECT 2"], false],
  ["a block comment over lines before a statement is not part of it", ["/* header", " * comment", " */", "BEGIN;"], ["BEGIN"], false],
  ["a block comment over lines after a ; is not part of the next statement", ["SELECT 1; /* done,", " commit */ COMMIT;"], ["SELECT 1", "COMMIT"], false],
  ["a block comment over lines inside a statement stays in it", ["SELECT 1 /* a", "b */ + 2;"], ["SELECT 1 /* a\nb */ + 2"], false],
];

for (const [name, lines, statements, pending] of cases) {
  test(name, () => {
    assert.equal(split(...lines), { statements, pending });
  });
}

test("each statement's line, the text before it on that line, and its index in the script", () => {
  const buffer = new StatementBuffer();
  const lines = ["-- setup", "CREATE TABLE t (a INT); INSERT INTO t", "  VALUES (1);", "", "SELECT 'x", "y' FROM t; SELECT"];
  const got = lines.flatMap((line) => buffer.feed(`${line}\n`)).map(({ text, line, lead, index }) => ({ text, line, lead, index }));
  assert.equal(got, [
    { text: "CREATE TABLE t (a INT)", line: 2, lead: "", index: 0 },
    { text: "INSERT INTO t\n  VALUES (1)", line: 2, lead: "CREATE TABLE t (a INT); ", index: 1 },
    { text: "SELECT 'x\ny' FROM t", line: 5, lead: "", index: 2 },
  ]);
  assert.ok(buffer.pending);
  buffer.feed("  2\n");
  assert.equal(buffer.end(), { text: "SELECT\n  2", line: 6, lead: "y' FROM t; ", index: 3 });
  assert.not.ok(buffer.pending);
  assert.is(buffer.end(), undefined);
});

test("end of input: a statement without ; is the rest of the text, an open string included", () => {
  const buffer = new StatementBuffer();
  assert.equal(buffer.feed("SELECT 1; SELECT 'abc;\n"), [{ text: "SELECT 1", line: 1, lead: "", index: 0 }]);
  buffer.feed("def  \n");
  assert.equal(buffer.end(), { text: "SELECT 'abc;\ndef", line: 1, lead: "SELECT 1; ", index: 1 });
});

test("relative: each statement begun on a fresh line is numbered from line 1", () => {
  const buffer = new StatementBuffer({ relative: true });
  buffer.feed("SELECT 1;\n");
  buffer.feed("SELECT a\n");
  assert.equal(buffer.feed("FROM t;\n"), [{ text: "SELECT a\nFROM t", line: 1, lead: "", index: 1 }]);
});

test("an open block comment with no statement before it: pending (a shell waits), but nothing is left at the end", () => {
  const buffer = new StatementBuffer();
  assert.equal(buffer.feed("/* a\n"), []);
  assert.ok(buffer.pending);
  assert.is(buffer.end(), undefined);
  const after = new StatementBuffer();
  after.feed("SELECT 1; /* note\n");
  after.feed("*/\n");
  assert.equal(after.feed("  COMMIT;\n"), [{ text: "COMMIT", line: 3, lead: "  ", index: 1 }], "the statement starts at its first token, not at the comment");
});

test("skip counts a line that is no SQL (a dot command), so the lines after it keep their numbers", () => {
  const buffer = new StatementBuffer();
  buffer.skip();
  buffer.feed("SELECT 1;\n");
  buffer.skip();
  buffer.skip();
  assert.equal(buffer.feed("SELECT 2;\n"), [{ text: "SELECT 2", line: 5, lead: "", index: 1 }]);
});

test("a statement's text is the script's exact text: \\r\\n and a lone \\r in a string are kept, and each counts as a line's end", () => {
  const got = splitScript("SELECT 'a\r\nb';\rSELECT 'x\ry'\r\n  AS c; SELECT nope").map(({ text, line, lead }) => ({ text, line, lead }));
  assert.equal(got, [
    { text: "SELECT 'a\r\nb'", line: 1, lead: "" },
    { text: "SELECT 'x\ry'\r\n  AS c", line: 3, lead: "" },
    { text: "SELECT nope", line: 5, lead: "  AS c; " },
  ]);
});

test("readLines cuts a stream at its line ends, each line keeping its own, a \\r\\n split between chunks too", async () => {
  async function* chunks(): AsyncGenerator<string> {
    yield* ["SELECT 'a\r", "\nb';\rSEL", "ECT 1\n\n", "SELECT 2\r"];
  }
  const lines: string[] = [];
  for await (const line of readLines(chunks())) lines.push(line);
  assert.equal(lines, ["SELECT 'a\r\n", "b';\r", "SELECT 1\n", "\n", "SELECT 2\r"]);
  assert.equal(splitLines("a\r\nb\rc\n\nd"), ["a\r\n", "b\r", "c\n", "\n", "d"]);
});

test("clear forgets the pending statement, an open string too", () => {
  const buffer = new StatementBuffer();
  buffer.feed("SELECT 'abc\n");
  assert.ok(buffer.pending);
  buffer.clear();
  assert.not.ok(buffer.pending);
  assert.equal(buffer.feed("SELECT 2;\n").map((s) => s.text), ["SELECT 2"]);
});

test.run();
