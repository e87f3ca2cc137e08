/**
 * The lexer: which token each piece of text becomes, what is skipped, and how
 * a character that fits no token is reported.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { SqlError } from "../../src/errors.js";
import { lex, LineIndex, positionAt } from "../../src/lexer/index.js";
import { keywords } from "../../src/lexer/tokens.js";

/** `name:image` for each token, e.g. `Select:SELECT BareIdentifier:a`. */
const kinds = (text: string) => lex(text).map((t) => `${t.tokenType.name}:${t.image}`);

const cases: readonly (readonly [text: string, tokens: readonly string[]])[] = [
  ["SELECT", ["Select:SELECT"]],
  ["select", ["Select:select"]],
  ["SeLeCt", ["Select:SeLeCt"]],
  ["selected", ["BareIdentifier:selected"]],
  ["select_", ["BareIdentifier:select_"]],
  ["select1", ["BareIdentifier:select1"]],
  ["_select", ["BareIdentifier:_select"]],
  ["or order ordered", ["Or:or", "Order:order", "BareIdentifier:ordered"]],
  ["as asc ascending", ["As:as", "Asc:asc", "BareIdentifier:ascending"]],
  ["in into inner", ["In:in", "Into:into", "Inner:inner"]],
  ["index indexes inn", ["Index:index", "BareIdentifier:indexes", "BareIdentifier:inn"]],
  ["to tom column columns", ["To:to", "BareIdentifier:tom", "Column:column", "BareIdentifier:columns"]],
  ["not null notnull notnulls", ["Not:not", "Null:null", "Notnull:notnull", "BareIdentifier:notnulls"]],
  ['"a"', ["QuotedIdentifier:\"a\""]],
  ['"a ""b"" c"', ['QuotedIdentifier:"a ""b"" c"']],
  ['"select"', ['QuotedIdentifier:"select"']],
  ["'x'", ["StringLiteral:'x'"]],
  ["''", ["StringLiteral:''"]],
  ["'it''s'", ["StringLiteral:'it''s'"]],
  ["'a\nb'", ["StringLiteral:'a\nb'"]],
  ["'x''", []], // unterminated: see the error tests
  ["0 42 1.5 .5 5. 1e3 1E-3 2.5e+10", ["NumberLiteral:0", "NumberLiteral:42", "NumberLiteral:1.5", "NumberLiteral:.5", "NumberLiteral:5.", "NumberLiteral:1e3", "NumberLiteral:1E-3", "NumberLiteral:2.5e+10"]],
  ["-1", ["Minus:-", "NumberLiteral:1"]],
  ["?", ["Param:?"]],
  ["??", ["Param:?", "Param:?"]],
  ["= != <> < <= > >=", ["Equals:=", "NotEquals:!=", "LessGreater:<>", "Less:<", "LessEquals:<=", "Greater:>", "GreaterEquals:>="]],
  ["a<=b", ["BareIdentifier:a", "LessEquals:<=", "BareIdentifier:b"]],
  ["( ) , . * ;", ["LParen:(", "RParen:)", "Comma:,", "Dot:.", "Star:*", "Semicolon:;"]],
  ["+ - * / % ||", ["Plus:+", "Minus:-", "Star:*", "Slash:/", "Percent:%", "Concat:||"]],
  ["a/b-c||d", ["BareIdentifier:a", "Slash:/", "BareIdentifier:b", "Minus:-", "BareIdentifier:c", "Concat:||", "BareIdentifier:d"]],
  ["a--b", ["BareIdentifier:a"]],
  ["t.a", ["BareIdentifier:t", "Dot:.", "BareIdentifier:a"]],
  ["a -- comment\nb", ["BareIdentifier:a", "BareIdentifier:b"]],
  ["a --", ["BareIdentifier:a"]],
  ["a /* x\ny */ b", ["BareIdentifier:a", "BareIdentifier:b"]],
  ["a /* -- */ b", ["BareIdentifier:a", "BareIdentifier:b"]],
  ["a/**/b", ["BareIdentifier:a", "BareIdentifier:b"]],
  [" \t\r\n\f\v", []],
  ["", []],
];

for (const [text, tokens] of cases) {
  if (tokens.length === 0 && text.includes("'")) continue;
  test(`lexes ${JSON.stringify(text)}`, () => assert.equal(kinds(text), tokens));
}

test("every keyword matches in any case and only as a whole word", () => {
  for (const keyword of keywords) {
    const word = keyword.LABEL!;
    for (const spelling of [word, word.toLowerCase(), word[0] + word.slice(1).toLowerCase()]) {
      assert.equal(kinds(spelling), [`${keyword.name}:${spelling}`]);
      assert.equal(kinds(`${spelling}x`), [`BareIdentifier:${spelling}x`]);
    }
  }
});

test("tokens carry their offset in UTF-16 code units; a LineIndex gives line and column", () => {
  const text = "a\n  'é😀' \r\nc";
  const [a, b, c] = lex(text);
  assert.equal([a!.startOffset, b!.startOffset, c!.startOffset], [0, 4, 12]);
  const lines = new LineIndex(text);
  assert.equal(lines.position(4), { line: 2, column: 3, offset: 4 });
  assert.equal(lines.position(12), { line: 3, column: 1, offset: 12 });
  assert.equal(new LineIndex("one line").position(5), { line: 1, column: 6, offset: 5 });
});

test("positionAt counts \\n, \\r\\n and a lone \\r as one line break each", () => {
  const text = "a\nb\r\nc\rd";
  assert.equal(positionAt(text, 0), { line: 1, column: 1, offset: 0 });
  assert.equal(positionAt(text, 2), { line: 2, column: 1, offset: 2 });
  assert.equal(positionAt(text, 5), { line: 3, column: 1, offset: 5 });
  assert.equal(positionAt(text, 7), { line: 4, column: 1, offset: 7 });
  assert.equal(positionAt(text, 8), { line: 4, column: 2, offset: 8 });
});

function lexFailure(text: string): SqlError {
  try {
    lex(text);
  } catch (error) {
    if (error instanceof SqlError) return error;
    throw error;
  }
  throw new Error(`lexed, but should have failed: ${text}`);
}

const errors: readonly (readonly [text: string, message: string, offset: number])[] = [
  ["a # b", "Unexpected character '#' (U+0023) at line 1, column 3", 2],
  ["a\n  @", "Unexpected character '@' (U+0040) at line 2, column 3", 4],
  ["'abc", "Unterminated string literal starting at line 1, column 1", 0],
  ["x = 'it''s", "Unterminated string literal starting at line 1, column 9", 8], // 'it' is whole; 's is not
  ['"abc', "Unterminated quoted identifier starting at line 1, column 1", 0],
  ['a ""', "Empty quoted identifier at line 1, column 3", 2],
  ['a """b', "Unterminated quoted identifier starting at line 1, column 3", 2],
  ["a /* b", "Unterminated /* comment starting at line 1, column 3", 2],
  ["a / /* b", "Unterminated /* comment starting at line 1, column 5", 4],
  ["a | b", "Unexpected character '|' (U+007C) at line 1, column 3", 2],
  ["a & b", "Unexpected character '&' (U+0026) at line 1, column 3", 2],
  ["a\u0000", "Unexpected character U+0000 at line 1, column 2", 1],
  ["a\u00a0b", "Unexpected character U+00A0 at line 1, column 2", 1],
  ["😀", "Unexpected character '😀' (U+1F600) at line 1, column 1", 0],
  ["é", "Unexpected character 'é' (U+00E9) at line 1, column 1", 0],
  ["a ! b", "Unexpected character '!' (U+0021) at line 1, column 3", 2],
];

for (const [text, message, offset] of errors) {
  test(`lexing error: ${JSON.stringify(text)}`, () => {
    const error = lexFailure(text);
    assert.is(error.code, "sql_syntax_error");
    assert.is(error.message, message);
    assert.is(error.position?.offset, offset);
  });
}

test.run();
