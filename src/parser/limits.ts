/**
 * Checks on the token stream made before parsing, so hostile input fails
 * fast and cleanly instead of deep in the parser:
 *
 * - nesting: each open parenthesis, each CASE not yet closed by its END and
 *   each prefix NOT still in force is one level; more than 256 is
 *   `sql_error` (CONTRACT §4). Without this, a megabyte of `(` or of nested
 *   CASEs would exhaust the recursive-descent parser's stack. A NOT stays in
 *   force until its operand ends: at AND, OR, a comma, the `)` or END
 *   closing its level, or any token that cannot sit inside a predicate.
 *   (Runs the grammar keeps flat, such as NOTs, minus signs and operator
 *   chains, are bounded by the AST depth check in `to-ast.ts`; this check
 *   only has to protect the parser.)
 * - one statement: any token after a `;` is a second statement, `sql_error`,
 *   whatever the first one looks like.
 *
 * One linear pass, no allocation per token beyond the paren stack.
 */
import { tokenMatcher, type IToken, type TokenType } from "chevrotain";
import { SqlError } from "../errors.js";
import type { LineIndex } from "../lexer/index.js";
import * as T from "../lexer/tokens.js";

export const MAX_NESTING = 256;

/** Tokens that may occur inside one comparison, so a NOT before them is still in force. */
const PREDICATE_TOKENS: readonly TokenType[] = [
  T.Identifier, T.Dot, T.StringLiteral, T.NumberLiteral, T.ArithmeticOperator, T.Param,
  T.ComparisonOperator, T.Is, T.Null, T.True, T.False, T.In, T.Between, T.Like, T.Escape, T.Glob, T.Collate, T.Cast, T.As,
  T.When, T.Then, T.Else,
];

function insidePredicate(token: IToken): boolean {
  for (const type of PREDICATE_TOKENS) if (tokenMatcher(token, type)) return true;
  return false;
}

function limitError(lines: LineIndex, token: IToken, message: string): SqlError {
  const position = lines.position(token.startOffset);
  return new SqlError("sql_error", `${message} at line ${position.line}, column ${position.column}`, { position });
}

export function checkLimits(tokens: readonly IToken[], lines: LineIndex): void {
  const enclosingNots: number[] = [];
  let nots = 0; // prefix NOTs in force at the current paren level
  let depth = 0; // open parens + all NOTs in force
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const type = token.tokenType;
    if (type === T.LParen || type === T.Case) {
      enclosingNots.push(nots);
      nots = 0;
      depth++;
    } else if (type === T.Not) {
      if (tokens[i - 1]?.tokenType === T.Is) continue;
      nots++;
      depth++;
    } else if (type === T.RParen || type === T.End) {
      if (enclosingNots.length === 0) continue; // unbalanced: the parser reports it
      depth -= nots + 1;
      nots = enclosingNots.pop()!;
      continue;
    } else if (type === T.Semicolon) {
      const next = tokens[i + 1];
      if (next !== undefined) {
        throw limitError(lines, next, "Only one statement is allowed, but another starts");
      }
      continue;
    } else {
      if (nots > 0 && !insidePredicate(token)) {
        depth -= nots;
        nots = 0;
      }
      continue;
    }
    if (depth > MAX_NESTING) {
      throw limitError(lines, token, `Expression nested deeper than ${MAX_NESTING} levels`);
    }
  }
}
