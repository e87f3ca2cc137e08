/**
 * `storedb sql <db> "<SQL>" [params…]`: a statement or a script, each
 * result on stdout; `storedb sql <db> -` reads the script from stdin.
 *
 * One statement is sent as written, with the parameters, as before
 * scripts existed — without empty statements (`;;`) or comments around it,
 * which sqlite3 runs as that one statement too. Several (`;` between them, found by the lexer:
 * `script/statements.ts`) run in order, each result printed as it comes,
 * as sqlite3 does; `BEGIN … COMMIT` in them becomes one `transaction`
 * command (`script/runner.ts`). The first refused statement stops the
 * script (sqlite3's `-bail`): its error is printed with its position marked
 * in the whole script, and the command exits 1; the statements before it
 * stay applied unless they were in a transaction not yet committed. `?`
 * parameters go with a single statement only: in a script, which `?` they
 * would fill is a guess.
 */

import { EXIT, UsageError } from "../failure.js";
import { report, stopWhenStdoutCloses } from "../io.js";
import { parseParams } from "../params.js";
import { isTransactionStatement } from "../script/control.js";
import { Refusal, ScriptRunner } from "../script/runner.js";
import { readLines, stdinText } from "../script/lines.js";
import { splitScript, StatementBuffer, type ScriptStatement } from "../script/statements.js";
import { openTarget, type TargetOptions } from "../target.js";

export interface SqlOptions extends TargetOptions {
  readonly json?: boolean;
}

/** Every statement of stdin, a line at a time (its exact text, terminators kept): the script runs as it is read. */
async function* stdinStatements(): AsyncGenerator<ScriptStatement> {
  const buffer = new StatementBuffer();
  for await (const line of readLines(stdinText())) yield* buffer.feed(line);
  const last = buffer.end();
  if (last !== undefined) yield last;
}

export async function sqlCommand(name: string, sql: string, params: readonly string[], options: SqlOptions): Promise<number> {
  stopWhenStdoutCloses();
  const values = parseParams(params);
  const fromStdin = sql === "-";
  if (fromStdin && values.length > 0) throw new UsageError("parameters go with one statement given as an argument, not with a script on stdin");
  let statements: ScriptStatement[] | undefined;
  let script = fromStdin;
  if (!fromStdin) {
    statements = splitScript(sql);
    const first = statements[0];
    if (first === undefined) {
      // No statement: sent as written, for the engine to refuse as it always did.
      statements = [{ text: sql, line: 1, lead: "", index: 0 }];
    } else if (statements.length === 1 && !isTransactionStatement(first.text)) {
      // One statement, empty ones (`;;`) and comments beside it as sqlite3 allows: sent as its own text, with
      // the parameters; its errors are marked where it stands, and said to be a script's when it does not open the text.
      script = first.line !== 1 || first.lead !== "";
    } else {
      if (values.length > 0) {
        throw new UsageError(statements.length === 1 ? "parameters go with one statement that is not a transaction statement (BEGIN, COMMIT, END, ROLLBACK)" : `parameters go with one statement, and this script has ${statements.length}`);
      }
      script = true;
    }
  }
  const target = await openTarget(name, options);
  const runner = new ScriptRunner(target, { mode: options.json === true ? "json" : "table", explain: false });
  try {
    for await (const statement of statements ?? stdinStatements()) await runner.run(statement, values);
    runner.finish();
    return EXIT.ok;
  } catch (error) {
    if (error instanceof Refusal) {
      // Stopping inside a transaction drops it: nothing of it was sent.
      const open = runner.queued === undefined ? undefined : runner.discard();
      return report(error.error, { json: options.json, sql: error.statement, script, discarded: error.discarded ?? open });
    }
    return report(error, { json: options.json });
  } finally {
    await target.close();
  }
}
