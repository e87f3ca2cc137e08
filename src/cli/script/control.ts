/**
 * The transaction statements a script may hold: `BEGIN [DEFERRED |
 * IMMEDIATE | EXCLUSIVE] [TRANSACTION [name]]`, `COMMIT | END [TRANSACTION
 * [name]]`, `ROLLBACK [TRANSACTION [name]]` — SQLite's forms (the name
 * ignored, as SQLite ignores it), so the transactions of a script written
 * for sqlite3 read as written. They are the command-line
 * tool's, not the engine's: the wire has one statement per `sql` command
 * and the batch `transaction` command (CONTRACT §4, §11), onto which the
 * runner (`runner.ts`) lowers a BEGIN … COMMIT. No other statement starts
 * with these words, so a statement that does but goes on otherwise is a
 * syntax error here, marked where it goes wrong.
 */

import { tokenMatcher, type IToken } from "chevrotain";
import { SqlError } from "../../errors.js";
import { describePosition, lexRecovering, positionAt } from "../../lexer/index.js";
import { BareIdentifier, End, Identifier, Rollback, StringLiteral } from "../../lexer/tokens.js";

export type Control = "begin" | "commit" | "rollback";

function word(token: IToken | undefined, ...words: string[]): boolean {
  return token !== undefined && words.includes(token.image.toUpperCase());
}

/** A transaction's name, as SQLite takes one: a name (bare or quoted) or a string. */
function isName(token: IToken | undefined): boolean {
  return token !== undefined && (tokenMatcher(token, Identifier) || token.tokenType === StringLiteral);
}

/** Which transaction statement a statement whose first token is `first` is, if any: no other statement starts with these words. */
function leading(first: IToken | undefined): Control | undefined {
  if (first?.tokenType === Rollback) return "rollback";
  if (first?.tokenType === End) return "commit";
  if (first?.tokenType !== BareIdentifier) return undefined;
  if (word(first, "COMMIT")) return "commit";
  if (word(first, "BEGIN")) return "begin";
  return undefined;
}

/** Whether `text` is a transaction statement (well formed or not): its first token says so. */
export function isTransactionStatement(text: string): boolean {
  const { tokens, errors } = lexRecovering(text);
  const first = tokens[0];
  return first !== undefined && (errors[0] === undefined || errors[0].offset > first.startOffset) && leading(first) !== undefined;
}

/**
 * Which transaction statement `text` is, if it is one; a malformed one is a
 * `sql_syntax_error`. Recognised from the lexer's tokens alone (comments are
 * none), with error recovery on, so any other statement — even one the
 * engine will refuse for a bad character — is left to the engine.
 */
export function transactionControl(text: string): Control | undefined {
  const { tokens, errors } = lexRecovering(text);
  const first = tokens[0];
  const bad = errors[0];
  if (first === undefined || (bad !== undefined && bad.offset < first.startOffset)) return undefined;
  const control = leading(first);
  if (control === undefined) return undefined;
  let i = 1;
  if (control === "begin" && word(tokens[i], "DEFERRED", "IMMEDIATE", "EXCLUSIVE")) i++;
  const modes = control === "begin" && i === 1 ? ["DEFERRED", "IMMEDIATE", "EXCLUSIVE"] : [];
  const named = word(tokens[i], "TRANSACTION");
  if (named) i++;
  // SQLite's `TRANSACTION name`: a name or a string, which it ignores, and so does this.
  const label = named && isName(tokens[i]);
  if (label) i++;
  const extra = tokens[i];
  // What goes wrong first: a token past the accepted words, or a character no token starts with.
  const at = bad !== undefined && (extra === undefined || bad.offset < extra.startOffset) ? { offset: bad.offset, image: text.slice(bad.offset, bad.offset + Math.max(1, bad.length)) } : extra === undefined ? undefined : { offset: extra.startOffset, image: extra.image };
  if (at !== undefined) {
    const expected = [...modes, ...(named ? (label ? [] : ["Identifier", "String"]) : ["TRANSACTION"]), "EOF"];
    const position = positionAt(text, at.offset);
    const savepoint = control === "rollback" && word(extra, "TO") && at.offset === extra?.startOffset ? " (savepoints are not supported)" : "";
    const list = expected.map((e) => (e === "EOF" ? "end of input" : e === "Identifier" ? "a name" : e === "String" ? "a string" : e));
    const wanted = list.length === 1 ? list[0] : `${list.slice(0, -1).join(", ")} or ${list.at(-1)}`;
    throw new SqlError("sql_syntax_error", `Expected ${wanted} but found '${at.image}' at ${describePosition(position)}${savepoint}`, { position, expected });
  }
  return control;
}
