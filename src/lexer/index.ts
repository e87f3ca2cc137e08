/**
 * `lex(text)`: SQL text to Chevrotain tokens, or a `sql_syntax_error`.
 *
 * One lexer instance, built once with Chevrotain's first-character
 * optimizations enforced (`ensureOptimizations`) and error recovery off, so a
 * bad character stops lexing at once. The lexer tracks full positions (start
 * and end offsets, line, column), which the parser copies into AST spans.
 * Lines end at `\n`, `\r\n` or a lone `\r`, Chevrotain's default.
 */
import { Lexer, type IToken } from "chevrotain";
import { SqlError, type SourcePosition } from "../errors.js";
import { allTokens } from "./tokens.js";

const lexer = new Lexer(allTokens as never, {
  positionTracking: "full",
  ensureOptimizations: true,
  recoveryEnabled: false,
  skipValidations: process.env["NODE_ENV"] === "production",
});

export function lex(text: string): IToken[] {
  const result = lexer.tokenize(text);
  const error = result.errors[0];
  if (error !== undefined) throw lexError(text, error.offset);
  return result.tokens;
}

/** Where `offset` lies in `text`: 1-based line and column, counted in UTF-16 code units. */
export function positionAt(text: string, offset: number): SourcePosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1, offset };
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
    message = text.charAt(offset + 1) === '"' ? `Empty quoted identifier at ${at}` : `Unterminated quoted identifier starting at ${at}`;
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
