/**
 * Turns Chevrotain's recognition errors into `sql_syntax_error`s a person can
 * act on: "Expected FROM but found 'WHER' at line 1, column 18", with the
 * position of the offending token and the names of the tokens that would
 * have fitted (token labels: "FROM", "Identifier", ")", ...).
 *
 * Chevrotain hands the expected token types only to its message provider, so
 * the provider below records them (`lastExpected`) as it phrases the message;
 * with recovery off, the first error is the only one, and the parse is
 * synchronous, so the recorded list always belongs to the error being
 * reported. Trailing input ("redundant input") carries no expectations, so
 * those are computed with the parser's content assist over the preceding
 * tokens, for inputs small enough that this stays cheap.
 */
import { EOF, type IParserErrorMessageProvider, type IRecognitionException, type IToken, type TokenType } from "chevrotain";
import { SqlError, type SourcePosition } from "../errors.js";
import { describePosition, type LineIndex } from "../lexer/index.js";
import * as T from "../lexer/tokens.js";

/** The expected token labels of the error phrased last (see the header). */
let lastExpected: string[] = [];

/** The reported name of a token type: its label (`FROM`, `)`, `T.Identifier`) or, failing that, its name. */
function label(type: TokenType): string {
  return type === EOF ? "EOF" : (type.LABEL ?? type.name);
}

/** How a token type reads inside a sentence. */
function phrase(type: TokenType): string {
  if (type === T.Identifier) return "an identifier";
  if (type === T.NumberLiteral) return "a number";
  if (type === T.StringLiteral) return "a string";
  if (type === T.ComparisonOperator) return "a comparison operator";
  if (type === T.ArithmeticOperator) return "an arithmetic operator";
  if (type === EOF) return "end of input";
  const text = label(type);
  return /^[A-Z]+$/.test(text) ? text : `'${text}'`;
}

/** How an actual token reads: `'WHER'`, or "end of input". */
function found(token: IToken | undefined): string {
  if (token === undefined || token.tokenType === EOF) return "end of input";
  const image = token.image.length > 40 ? `${token.image.slice(0, 40)}…` : token.image;
  return `'${image}'`;
}

const COMPARISON_LABELS: readonly string[] = [T.Equals, T.NotEquals, T.LessGreater, T.Less, T.LessEquals, T.Greater, T.GreaterEquals].map(label);
const ARITHMETIC_LABELS: readonly string[] = [T.Plus, T.Minus, T.Star, T.Slash, T.Percent, T.Concat].map(label);

/** A category's members by label, as the `expected` list names tokens rather than categories. */
function labels(type: TokenType): readonly string[] {
  if (type === T.ComparisonOperator) return COMPARISON_LABELS;
  if (type === T.ArithmeticOperator) return ARITHMETIC_LABELS;
  return [label(type)];
}

/** Phrases a list of expected token types ("FROM", "')' or ','", "one of ...") and records their labels in `lastExpected`. */
function expectation(types: readonly TokenType[]): string {
  // COLLATE may follow any operand: named after every one, it would crowd out what was missing (unless it is all that fits).
  const named = types.some((t) => t !== T.Collate) ? types.filter((t) => t !== T.Collate) : types;
  const unique = [...new Map(named.map((t) => [label(t), t])).values()];
  // `expected` names tokens: "a comparison operator" in the message, the operators themselves in the list.
  lastExpected = [...new Set(unique.flatMap(labels))];
  const words = unique.map(phrase);
  if (words.length === 1) return words[0]!;
  const list = `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
  return words.length === 2 ? list : `one of ${list}`;
}

function firstTokens(paths: readonly (readonly TokenType[])[]): TokenType[] {
  const out: TokenType[] = [];
  for (const path of paths) if (path[0] !== undefined) out.push(path[0]);
  return out;
}

/** Rules whose alternatives are better summarized than listed. */
const SUMMARY: Readonly<Record<string, string>> = {
  operand: "an expression",
  selectItem: "an expression",
  value: "a value (a literal or '?')",
  literal: "a literal",
  statement: "a statement (SELECT, INSERT, UPDATE, DELETE, CREATE TABLE, CREATE INDEX, DROP TABLE, DROP INDEX, ALTER TABLE or EXPLAIN)",
};

export const errorMessages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual }) {
    return `Expected ${expectation([expected])} but found ${found(actual)}`;
  },
  buildNotAllInputParsedMessage({ firstRedundant }) {
    lastExpected = [];
    return `Expected end of input but found ${found(firstRedundant)}`;
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, actual, previous, ruleName }) {
    const types = firstTokens(expectedPathsPerAlt.flat());
    // An operand may also be preceded by a minus sign, and one that starts a predicate by NOT (repetitions the failing rule cannot see).
    if (ruleName === "operand") {
      types.unshift(T.Minus);
      if (!takesArithmetic(previous)) types.unshift(T.Not);
    }
    const list = expectation(types);
    return `Expected ${SUMMARY[ruleName] ?? list} but found ${found(actual[0])}`;
  },
  buildEarlyExitMessage({ expectedIterationPaths, actual, ruleName }) {
    const list = expectation(firstTokens(expectedIterationPaths));
    return `Expected ${SUMMARY[ruleName] ?? list} but found ${found(actual[0])}`;
  },
};

/** Tokens after which only an arithmetic operand may come (never NOT). */
const ARITHMETIC_SLOTS: ReadonlySet<TokenType> = new Set([T.Between, T.Like, T.Escape, T.Glob, T.Minus]);

function takesArithmetic(previous: IToken): boolean {
  const categories = previous.tokenType.CATEGORIES;
  return ARITHMETIC_SLOTS.has(previous.tokenType) || categories?.includes(T.ComparisonOperator) === true || categories?.includes(T.ArithmeticOperator) === true;
}

/** What may follow `preceding`, by token label, computed from the grammar; `undefined` when too costly to ask. */
export type ContentAssist = (preceding: IToken[]) => TokenType[] | undefined;

/** The `sql_syntax_error` for the first recognition error of a parse. */
export function syntaxError(
  text: string,
  lines: LineIndex,
  tokens: IToken[],
  error: IRecognitionException,
  assist: ContentAssist,
): SqlError {
  const token = error.token;
  const atEnd = token.tokenType === EOF || Number.isNaN(token.startOffset);
  const position: SourcePosition = lines.position(atEnd ? text.length : token.startOffset);
  let message = error.message;
  let expected = lastExpected;
  if (error.name === "NotAllInputParsedException") {
    const index = tokens.indexOf(token);
    const next = index < 0 ? undefined : assist(tokens.slice(0, index));
    if (next !== undefined) {
      message = `Expected ${expectation([...next, EOF])} but found ${found(token)}`;
      expected = lastExpected;
    } else expected = ["EOF"];
  }
  if (token.tokenType !== EOF && isChainedComparison(tokens, token)) message += " (comparisons do not chain: join them with AND)";
  else message += typoHint(tokens, token, expected, error.name === "NotAllInputParsedException");
  return new SqlError("sql_syntax_error", `${message} at ${describePosition(position)}`, { position, expected });
}

/**
 * " (did you mean WHERE instead of 'WHER'?)" when the offending word, or, for
 * trailing input, the word before it (which the grammar took as an alias),
 * is one typo away from an expected keyword; else "".
 */
function typoHint(tokens: readonly IToken[], token: IToken, expected: readonly string[], trailing: boolean): string {
  const candidates = [token];
  if (trailing) {
    const previous = tokens[tokens.indexOf(token) - 1];
    if (previous !== undefined) candidates.push(previous);
  }
  for (const candidate of candidates) {
    if (candidate.tokenType !== T.BareIdentifier || candidate.image.length < 3) continue;
    const word = candidate.image.toUpperCase();
    const keyword = expected.find((name) => /^[A-Z]+$/.test(name) && oneTypoApart(word, name));
    if (keyword !== undefined) return ` (did you mean ${keyword} instead of '${candidate.image}'?)`;
  }
  return "";
}

/** True when `a` becomes `b` by one substitution, insertion, deletion or swap of neighbours. */
function oneTypoApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const swapped = a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  return swapped || a.slice(i + 1) === b.slice(i + 1) || a.slice(i) === b.slice(i + 1) || a.slice(i + 1) === b.slice(i);
}

/** True when `token` is a comparison operator right after `operand op operand`. */
function isChainedComparison(tokens: readonly IToken[], token: IToken): boolean {
  if (!token.tokenType.CATEGORIES?.includes(T.ComparisonOperator)) return false;
  let i = tokens.indexOf(token) - 1;
  while (i >= 0 && isOperandToken(tokens[i]!)) i--;
  return i >= 0 && tokens[i]!.tokenType.CATEGORIES?.includes(T.ComparisonOperator) === true;
}

/** Tokens that can make up a plain operand. */
const OPERAND_TOKENS: ReadonlySet<TokenType> = new Set([
  T.NumberLiteral, T.StringLiteral, T.BareIdentifier, T.QuotedIdentifier, T.Dot, T.Param, T.True, T.False, T.Null,
]);

function isOperandToken(token: IToken): boolean {
  const categories = token.tokenType.CATEGORIES;
  return OPERAND_TOKENS.has(token.tokenType) || categories?.includes(T.Identifier) === true || categories?.includes(T.ArithmeticOperator) === true;
}
