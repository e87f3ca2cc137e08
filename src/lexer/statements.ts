/**
 * `scanStatements(text)`: where the statements of a script begin and end,
 * found with the SQL lexer itself, so a `;` ends a statement exactly where
 * the parser would see one: never inside a '…' string, a "…" name or a
 * comment.
 *
 * It uses its own lexer over the same token list, with error recovery on: a
 * character no token starts with (`@`) is stepped over and stays part of its
 * statement (the engine reports it when the statement runs), and the scan
 * goes on to the next `;`. A quote or a `/*` that never closes is different:
 * the rest of the text belongs to it, so the scan stops there and says so
 * (`open`) — a shell fed line by line waits for the line that closes it.
 *
 * It only finds boundaries; each statement's text still goes to the engine,
 * which alone judges what it means.
 */
import { Lexer, type ILexingResult, type IToken } from "chevrotain";
import { allTokens, Semicolon, UnterminatedComment } from "./tokens.js";

/** Where a piece of a script has tokens: from its first token's start to its last token's end (exclusive). */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface Scan {
  /**
   * The text cut at each `;`: one entry per `;` and one for the text after
   * the last, each its tokens' span or undefined when it holds only blanks
   * and comments. When the text ends `open`, the last piece runs to the end
   * — if it has begun: a comment left open before any token leaves it undefined.
   */
  readonly pieces: readonly (Span | undefined)[];
  /** Where a string, quoted name or block comment that never closes begins, if the text ends inside one. */
  readonly open?: number;
}

let lexer: Lexer | undefined;

/** An empty quoted name `""` fails the name's pattern but is closed: it is a bad token, not an open one. */
const EMPTY_NAME = /""(?!")/y;

/** Whether a lexing error at `offset` is a quote that never closes (rather than one bad character). */
function opensAt(text: string, offset: number): boolean {
  const c = text.charAt(offset);
  if (c === "'") return true;
  if (c !== '"') return false;
  EMPTY_NAME.lastIndex = offset;
  return !EMPTY_NAME.test(text);
}

/**
 * The tokens of `text` and its lexing errors, with error recovery on: a bad
 * character is an error and the tokens after it are still found.
 */
export function lexRecovering(text: string): ILexingResult {
  lexer ??= new Lexer(allTokens as never, { positionTracking: "onlyOffset", recoveryEnabled: true, skipValidations: true });
  return lexer.tokenize(text);
}

export function scanStatements(text: string): Scan {
  const { tokens, errors } = lexRecovering(text);
  const pieces: (Span | undefined)[] = [];
  let start = -1;
  let end = -1;
  let t = 0;
  let e = 0;
  const add = (from: number, to: number): void => {
    if (start < 0) start = from;
    end = to;
  };
  for (;;) {
    const token: IToken | undefined = tokens[t];
    const error = errors[e];
    if (token === undefined && error === undefined) break;
    if (error !== undefined && (token === undefined || error.offset < token.startOffset)) {
      e++;
      if (opensAt(text, error.offset)) return { pieces: [...pieces, { start: start < 0 ? error.offset : start, end: text.length }], open: error.offset };
      add(error.offset, error.offset + error.length);
      continue;
    }
    t++;
    const tokenStart = (token as IToken).startOffset;
    // A comment is no token: an open one before any token leaves its piece empty, so a statement never starts at a comment.
    if ((token as IToken).tokenType === UnterminatedComment) return { pieces: [...pieces, start < 0 ? undefined : { start, end: text.length }], open: tokenStart };
    if ((token as IToken).tokenType === Semicolon) {
      pieces.push(start < 0 ? undefined : { start, end });
      start = -1;
      continue;
    }
    add(tokenStart, tokenStart + (token as IToken).image.length);
  }
  pieces.push(start < 0 ? undefined : { start, end });
  return { pieces };
}
