/**
 * `lex(text)`: SQL text to Chevrotain tokens, or a `sql_syntax_error`.
 *
 * One lexer instance, built once with Chevrotain's first-character
 * optimizations enforced (`ensureOptimizations`) and error recovery off, so a
 * bad character stops lexing at once. Tokens carry only their start offset
 * (and image): line and column come from a `LineIndex` when a span or an
 * error needs them, which is cheaper than tracking them for every token.
 */
import { Lexer, type IToken } from "chevrotain";
import { SqlError, type SourcePosition } from "../errors.js";
import { positionAt } from "./lines.js";
import { allTokens, UnterminatedComment } from "./tokens.js";

export { LineIndex, positionAt } from "./lines.js";
export { lexRecovering, scanStatements, type Scan, type Span } from "./statements.js";

const lexer = new Lexer(allTokens as never, {
  positionTracking: "onlyOffset",
  ensureOptimizations: true,
  recoveryEnabled: false,
  skipValidations: process.env["NODE_ENV"] === "production",
});

export function lex(text: string): IToken[] {
  const result = lexer.tokenize(text);
  const error = result.errors[0];
  if (error !== undefined) throw lexError(text, error.offset);
  if (text.includes("/*")) {
    for (const token of result.tokens) if (token.tokenType === UnterminatedComment) throw lexError(text, token.startOffset);
  }
  return result.tokens;
}

export function describePosition(position: SourcePosition): string {
  return `line ${position.line}, column ${position.column}`;
}

function lexError(text: string, offset: number): SqlError {
  const position = positionAt(text, offset);
  const at = describePosition(position);
  const c = text.charAt(offset);
  let message: string;
  if (c === "'") message = `Unterminated string literal starting at ${at}`;
  else if (c === '"') {
    const empty = text.startsWith('""', offset) && text.charAt(offset + 2) !== '"';
    message = empty ? `Empty quoted identifier at ${at}` : `Unterminated quoted identifier starting at ${at}`;
  } else if (c === "/" && text.charAt(offset + 1) === "*") message = `Unterminated /* comment starting at ${at}`;
  else message = `Unexpected character ${showCharacter(text, offset)} at ${at}`;
  return new SqlError("sql_syntax_error", message, { position });
}

/** The character at `offset`, quoted, with invisible ones spelled as `U+XXXX`. */
function showCharacter(text: string, offset: number): string {
  const codePoint = text.codePointAt(offset) ?? 0;
  const char = String.fromCodePoint(codePoint);
  const hex = `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(char) ? `'${char}' (${hex})` : hex;
}
