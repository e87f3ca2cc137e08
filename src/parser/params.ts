/**
 * Numbers a statement's parameters from its tokens, in text order, by
 * SQLite's rule: `?NNN` is parameter NNN (`?1` takes `params[0]`; one number
 * may stand several times), and a plain `?` is one more than the highest
 * number given so far (`?, ?5, ?` are 1, 5, 6; `?, ?1, ?` are 1, 1, 2). The
 * statement then takes as many parameters as its highest number (`count`:
 * the one place that number is worked out).
 *
 * Numbered from the tokens rather than as the AST is built, so the rule
 * holds whatever order the builder visits clauses in. A number outside 1 to
 * `MAX_PARAMETERS` (SQLite's default limit), or a plain `?` past it, is
 * `sql_error` at the token: a few characters (`?30000`) must not make a
 * plan of thirty thousand slots unbounded.
 */
import type { IToken } from "chevrotain";
import { SqlError } from "../errors.js";
import type { LineIndex } from "../lexer/index.js";
import { Param } from "../lexer/tokens.js";

/** The highest parameter number a statement may use: SQLite's SQLITE_MAX_VARIABLE_NUMBER default. */
export const MAX_PARAMETERS = 32766;

/** Each parameter token's 0-based index (`params[index]`); empty when the statement has none. */
export type ParamNumbers = ReadonlyMap<IToken, number>;

/** A statement's parameters: each token's index, and how many it takes (its highest number; 0 for none). */
export interface Params {
  readonly numbers: ParamNumbers;
  readonly count: number;
}

const NONE: Params = { numbers: new Map(), count: 0 };

export function numberParams(tokens: readonly IToken[], lines: LineIndex): Params {
  let numbers: Map<IToken, number> | undefined;
  let highest = 0;
  for (const token of tokens) {
    if (token.tokenType !== Param) continue;
    let n: number;
    if (token.image.length === 1) {
      n = highest + 1;
      if (n > MAX_PARAMETERS) throw paramError(lines, token, `Too many parameters: a statement takes at most ${MAX_PARAMETERS}`);
    } else {
      // Leading zeros are allowed (`?01` is `?1`); a number of any length past the limit is refused, not rounded.
      n = Number(token.image.slice(1));
      if (n < 1 || n > MAX_PARAMETERS) throw paramError(lines, token, `Parameter ${token.image} is out of range: parameters are numbered ?1 to ?${MAX_PARAMETERS}`);
    }
    highest = Math.max(highest, n);
    (numbers ??= new Map()).set(token, n - 1);
  }
  return numbers === undefined ? NONE : { numbers, count: highest };
}

function paramError(lines: LineIndex, token: IToken, message: string): SqlError {
  const position = lines.position(token.startOffset);
  return new SqlError("sql_error", `${message} at line ${position.line}, column ${position.column}`, { position });
}
