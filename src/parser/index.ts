/**
 * `parseSql(text)`: one SQL statement to its AST (`ast.ts`), or a `SqlError`.
 *
 * The pipeline is lex → limits (nesting, one statement) → parse (the single
 * grammar instance) → CST-to-AST. Errors carry CONTRACT §7's code
 * (`sql_syntax_error` for text that does not fit the grammar, `sql_error`
 * for text that fits but is not allowed), the position of the offending
 * token and, for syntax errors, the names of the tokens that would fit.
 */
import type { IToken } from "chevrotain";
import { lex, LineIndex } from "../lexer/index.js";
import type { Statement } from "./ast.js";
import { grammar } from "./grammar.js";
import { checkLimits } from "./limits.js";
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

export function parseSql(text: string): Statement {
  const tokens = lex(text);
  const lines = new LineIndex(text);
  checkLimits(tokens, lines);
  grammar.input = tokens;
  const cst = grammar.statement();
  const error = grammar.errors[0];
  grammar.input = NO_TOKENS; // the shared instance must not keep this statement's tokens alive
  if (error !== undefined) throw syntaxError(text, lines, tokens, error, assist);
  return toAst(cst as StatementCstNode, text, lines);
}
