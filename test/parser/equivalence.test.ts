/**
 * Keyword case, whitespace and comments do not change the AST: every corpus
 * statement is re-spelled token by token (keywords in other cases, other
 * whitespace, comments between tokens) and must parse to the same AST once
 * spans are set aside.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { IToken } from "chevrotain";
import { lex } from "../../src/lexer/index.js";
import { Identifier, keywords } from "../../src/lexer/tokens.js";
import { parseSql } from "../../src/parser/index.js";
import { validCorpus } from "./corpus.js";
import { strip } from "./helpers.js";

/** Keywords to respell; soft keywords are left alone, as they may be names, and names are case-sensitive. */
const keywordTypes = new Set(keywords.filter((type) => !type.CATEGORIES?.includes(Identifier)));

/** A deterministic pseudo-random sequence, so failures reproduce. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

type Respell = (token: IToken, next: () => number) => string;

const variants: readonly (readonly [name: string, keyword: Respell, gap: (next: () => number) => string])[] = [
  ["lower-case keywords, single spaces", (t) => t.image.toLowerCase(), () => " "],
  ["mixed-case keywords, tabs and newlines", (t, r) => [...t.image].map((c) => (r() < 0.5 ? c.toLowerCase() : c.toUpperCase())).join(""), (r) => ["\n", "\t", "\r\n  ", " \n\t "][Math.floor(r() * 4)]!],
  ["line comments between tokens", (t) => t.image.toUpperCase(), () => " -- note ; SELECT 'x'\n"],
  ["block comments between tokens", (t) => t.image.toLowerCase(), (r) => (r() < 0.5 ? "/* c */" : " /* multi\nline */ ")],
];

function respell(sql: string, keyword: Respell, gap: (next: () => number) => string, seed: number): string {
  const next = random(seed);
  return lex(sql)
    .map((token) => (keywordTypes.has(token.tokenType) ? keyword(token, next) : token.image))
    .join(gap(next));
}

for (const [name, keyword, gap] of variants) {
  test(`the corpus parses the same with ${name}`, () => {
    validCorpus.forEach(([sql], i) => {
      const variant = respell(sql, keyword, gap, i + 1);
      assert.equal(strip(parseSql(variant)), strip(parseSql(sql)), `${sql}\n  vs\n${variant}`);
    });
  });
}

test("the respelling really changes the text", () => {
  const variant = respell("SELECT a FROM t WHERE a IS NOT NULL", variants[2]![1], variants[2]![2], 1);
  assert.is(variant, "SELECT -- note ; SELECT 'x'\na -- note ; SELECT 'x'\nFROM -- note ; SELECT 'x'\nt -- note ; SELECT 'x'\nWHERE -- note ; SELECT 'x'\na -- note ; SELECT 'x'\nIS -- note ; SELECT 'x'\nNOT -- note ; SELECT 'x'\nNULL");
});

test.run();
