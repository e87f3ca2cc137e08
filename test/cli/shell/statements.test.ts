/** The shell's statement splitter: where `;` ends a statement and where it does not. */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { StatementBuffer } from "../../../src/cli/shell/statements.js";

/** Feeds `lines` one by one; returns every statement completed and whether text is left pending. */
function split(...lines: string[]): { statements: string[]; pending: boolean } {
  const buffer = new StatementBuffer();
  const statements = lines.flatMap((line) => buffer.feed(line));
  return { statements, pending: buffer.pending };
}

const cases: [string, string[], string[], boolean][] = [
  ["one line", ["SELECT a FROM t;"], ["SELECT a FROM t"], false],
  ["two on a line", ["SELECT a FROM t; SELECT b FROM u;"], ["SELECT a FROM t", " SELECT b FROM u"], false],
  ["over lines", ["SELECT a", "FROM t", ";"], ["SELECT a\nFROM t"], false],
  ["not yet ended", ["SELECT a", "FROM t"], [], true],
  ["; in a string", ["SELECT a FROM t WHERE b = 'x;y';"], ["SELECT a FROM t WHERE b = 'x;y'"], false],
  ["doubled quote in a string", ["SELECT a FROM t WHERE b = 'it''s;';"], ["SELECT a FROM t WHERE b = 'it''s;'"], false],
  ["; in a quoted name", ['SELECT "a;b" FROM t;'], ['SELECT "a;b" FROM t'], false],
  ["string over lines", ["INSERT INTO t (a) VALUES ('x", ";y');"], ["INSERT INTO t (a) VALUES ('x\n;y')"], false],
  ["; in a line comment", ["SELECT a -- ; no", "FROM t;"], ["SELECT a -- ; no\nFROM t"], false],
  ["; in a block comment", ["SELECT a /* ;", "; */ FROM t;"], ["SELECT a /* ;\n; */ FROM t"], false],
  ["empty statements skipped", [";", "  ;", "-- only a comment;", "/* c */;"], [], false],
  ["blank lines before a statement dropped", ["", "  ", "SELECT a FROM t;"], ["SELECT a FROM t"], false],
  ["text after the last ; pending", ["SELECT a FROM t; SELECT"], ["SELECT a FROM t"], true],
];

for (const [name, lines, statements, pending] of cases) {
  test(name, () => {
    assert.equal(split(...lines), { statements, pending });
  });
}

test("blank: only blanks and comments so far, where a dot command may start", () => {
  const buffer = new StatementBuffer();
  assert.ok(buffer.blank);
  buffer.feed("-- a note");
  assert.ok(buffer.blank);
  buffer.feed("/* open");
  assert.not.ok(buffer.blank, "inside a block comment");
  buffer.feed("*/ SELECT");
  assert.not.ok(buffer.blank);
  buffer.clear();
  assert.ok(buffer.blank);
  assert.not.ok(buffer.pending);
});

test.run();
