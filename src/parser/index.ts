/**
 * `parseSql(text)`: one SQL statement to its AST (`ast.ts`), or a `SqlError`;
 * `parseStatement(text)` also says how many parameters it takes.
 *
 * The pipeline is lex → limits (nesting, one statement) → parse (the single
 * grammar instance) → parameter numbers (`params.ts`) → CST-to-AST. Errors
 * carry CONTRACT §7's code (`sql_syntax_error` for text that does not fit
 * the grammar, `sql_error` for text that fits but is not allowed), the
 * position of the offending token and, for syntax errors, the names of the
 * tokens that would fit.
 */
import type { IToken } from "chevrotain";
import { SqlError } from "../errors.js";
import { lex, LineIndex } from "../lexer/index.js";
import type { Statement } from "./ast.js";
import { grammar } from "./grammar.js";
import { checkLimits } from "./limits.js";
import { numberParams } from "./params.js";
import { syntaxError } from "./syntax-errors.js";
import type { StatementCstNode } from "./cst.generated.js";
import { toAst } from "./to-ast.js";

export type * from "./ast.js";

/** Content assist replays the grammar over the prefix, in time that grows faster than its length: fine for a statement, not for a megabyte. */
const ASSIST_LIMIT = 1000;

function assist(preceding: IToken[]) {
  if (preceding.length > ASSIST_LIMIT) return undefined;
  return grammar.computeContentAssist("statement", preceding).map((path) => path.nextTokenType);
}

const NO_TOKENS: IToken[] = [];

/**
 * The parser spends a few frames per rule, so how deep it can go depends on
 * the stack V8 gives it, and on whether its code is optimized yet: within
 * the nesting limit (`limits.ts`), parentheses fit a fresh process's stack,
 * but function calls or CASEs nested ~200 deep may not until the parser has
 * run for a while. Such a statement is refused as the input it is, never a
 * crash (`RangeError`) or a 500.
 */
function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/** A parsed statement and how many parameters it takes: its highest parameter number (`?3` alone takes 3; `?1` twice, 1). */
export interface ParsedSql {
  readonly statement: Statement;
  readonly params: number;
}

export function parseSql(text: string): Statement {
  return parseStatement(text).statement;
}

export function parseStatement(text: string): ParsedSql {
  const tokens = lex(text);
  const lines = new LineIndex(text);
  checkLimits(tokens, lines);
  grammar.input = tokens;
  let cst;
  let error;
  try {
    cst = grammar.statement();
    error = grammar.errors[0];
  } catch (thrown) {
    if (!isStackOverflow(thrown)) throw thrown;
    throw new SqlError("sql_error", "The statement nests too deeply for the parser's stack: nest fewer function calls, CASEs or subqueries inside each other");
  } finally {
    grammar.input = NO_TOKENS; // the shared instance must not keep this statement's tokens alive
  }
  if (error !== undefined) throw syntaxError(text, lines, tokens, error, assist);
  const params = numberParams(tokens, lines);
  return { statement: toAst(cst as StatementCstNode, text, lines, params.numbers), params: params.count };
}
