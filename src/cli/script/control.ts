/**
 * The transaction statements a script may hold: `BEGIN [DEFERRED |
 * IMMEDIATE | EXCLUSIVE] [TRANSACTION]`, `COMMIT | END [TRANSACTION]`,
 * `ROLLBACK [TRANSACTION]` — SQLite's forms, so a script written for
 * sqlite3 (or its `.dump`) reads as written. They are the command-line
 * tool's, not the engine's: the wire has one statement per `sql` command
 * and the batch `transaction` command (CONTRACT §4, §11), onto which the
 * runner (`runner.ts`) lowers a BEGIN … COMMIT. No other statement starts
 * with these words, so a statement that does but goes on otherwise is a
 * syntax error here, marked where it goes wrong.
 */

import type { IToken } from "chevrotain";
import { SqlError } from "../../errors.js";
import { describePosition, lex, positionAt } from "../../lexer/index.js";
import { BareIdentifier, End, Rollback } from "../../lexer/tokens.js";

export type Control = "begin" | "commit" | "rollback";

const LEAD = /^(?:begin|commit|end|rollback)(?![A-Za-z0-9_])/i;

/** Whether `text` (a statement from its first token) starts with a transaction statement's word — a statement no other begins with. */
export function isTransactionStatement(text: string): boolean {
  return LEAD.test(text);
}

function word(token: IToken | undefined, ...words: string[]): boolean {
  return token !== undefined && words.includes(token.image.toUpperCase());
}

/** Which transaction statement `text` is, if it is one; a malformed one is a `sql_syntax_error`. */
export function transactionControl(text: string): Control | undefined {
  if (!isTransactionStatement(text)) return undefined;
  const tokens = lex(text);
  const first = tokens[0];
  let control: Control;
  let i = 1;
  if (first?.tokenType === Rollback) control = "rollback";
  else if (first?.tokenType === End) control = "commit";
  else if (first?.tokenType === BareIdentifier && word(first, "COMMIT")) control = "commit";
  else if (first?.tokenType === BareIdentifier && word(first, "BEGIN")) {
    control = "begin";
    if (word(tokens[i], "DEFERRED", "IMMEDIATE", "EXCLUSIVE")) i++;
  } else return undefined;
  const modes = control === "begin" && i === 1 ? ["DEFERRED", "IMMEDIATE", "EXCLUSIVE"] : [];
  const named = word(tokens[i], "TRANSACTION");
  if (named) i++;
  const extra = tokens[i];
  if (extra !== undefined) {
    const expected = [...modes, ...(named ? [] : ["TRANSACTION"]), "EOF"];
    const position = positionAt(text, extra.startOffset);
    const savepoint = control === "rollback" && word(extra, "TO") ? " (savepoints are not supported)" : "";
    const list = expected.map((e) => (e === "EOF" ? "end of input" : e));
    const wanted = list.length === 1 ? list[0] : `${list.slice(0, -1).join(", ")} or ${list.at(-1)}`;
    throw new SqlError("sql_syntax_error", `Expected ${wanted} but found '${extra.image}' at ${describePosition(position)}${savepoint}`, { position, expected });
  }
  return control;
}
