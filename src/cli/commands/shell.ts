/**
 * `storedb shell <db>`: an interactive SQL shell.
 *
 * On a terminal: a prompt (`shop> `, `  ...> ` inside a statement, `shop*> `
 * while a transaction is open), line editing and history (readline), the
 * history kept across runs (`shell/history.ts`); Ctrl-C drops the statement
 * being typed, Ctrl-D leaves. Statements end with `;` and may span lines
 * (`script/statements.ts`); a line that starts with `.` before any statement
 * text is a dot command (`shell/dot-commands.ts`). An error is reported with
 * its position marked, and the shell goes on.
 *
 * `BEGIN` opens a transaction (`script/runner.ts`): each statement typed
 * after it is checked for syntax at once and queued, and `COMMIT` runs them
 * all as one all-or-nothing write, printing their results then — SELECTs'
 * too, since they run in the transaction, after the writes before them;
 * `ROLLBACK` discards them. Leaving the shell with a transaction open warns
 * and discards it.
 *
 * Fed from a pipe or a file (`storedb shell shop < script.sql`) it runs the
 * statements without prompts and stops at the first error, exiting with
 * its code, so a script cannot fail half-way unnoticed (sqlite3's `-bail`,
 * psql's `ON_ERROR_STOP`); errors are marked at their line in the whole
 * input; a last statement without `;` still runs at the end of input, and
 * input that ends inside a transaction is an error, the transaction not
 * applied.
 *
 * The database stays open for the whole session (on a data directory, its
 * lock is held until the shell ends).
 */

import { createInterface, type Interface } from "node:readline";
import { EXIT } from "../failure.js";
import { out, report, stopWhenStdoutCloses } from "../io.js";
import { renderResult } from "../render/result.js";
import { dotCommand, type ShellState } from "../shell/dot-commands.js";
import { historyEntry, historyFile, loadHistory, saveHistory } from "../shell/history.js";
import { bare, readLines, stdinText } from "../script/lines.js";
import { Refusal, ScriptRunner, type Ran } from "../script/runner.js";
import { StatementBuffer, type ScriptStatement } from "../script/statements.js";
import { openTarget, type TargetOptions } from "../target.js";

/** What the shell says on a terminal after a statement: results print themselves; a transaction's moves are said. */
function note(ran: Ran): string {
  switch (ran.kind) {
    case "begin":
      return "transaction open: each statement is checked now and queued; COMMIT runs them all as one all-or-nothing write and prints their results then (SELECTs' too); ROLLBACK discards them\n";
    case "queued":
      return "queued\n";
    case "rollback":
      return `rolled back: ${ran.discarded === 1 ? "1 statement" : `${ran.discarded} statements`} discarded\n`;
    case "ran":
    case "commit":
      return "";
  }
}

/** The lines typed on a terminal, each given back its line end (readline drops it). */
async function* typed(rl: Interface): AsyncGenerator<string> {
  for await (const line of rl) yield `${line}\n`;
}

export async function shellCommand(name: string, options: TargetOptions): Promise<number> {
  stopWhenStdoutCloses();
  const target = await openTarget(name, options);
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  const file = historyFile();
  // readline keeps this array as its history: the shell adds whole statements itself (historySize 0 stops per-line entries).
  const history = interactive ? loadHistory(file) : [];
  // On a terminal, readline edits the lines; from a pipe, lines are read as they are, their terminators kept (a line break in a string is sent as written).
  const rl = interactive ? createInterface({ input: process.stdin, output: process.stdout, terminal: true, history, historySize: 0 }) : undefined;
  const state: ShellState = { mode: "table", explain: false };
  const buffer = new StatementBuffer({ relative: interactive });
  const runner = new ScriptRunner(target, state);
  const prompt = (): void => {
    if (rl === undefined) return;
    const head = runner.queued === undefined ? name : `${name}*`;
    rl.setPrompt(buffer.pending ? `${" ".repeat(Math.max(0, head.length - 3))}...> ` : `${head}> `);
    rl.prompt();
  };
  const remember = (entry: string): void => {
    if (!interactive || entry === "") return;
    const seen = history.indexOf(entry);
    if (seen !== -1) history.splice(seen, 1);
    history.unshift(entry);
    saveHistory(file, history);
  };
  rl?.on("SIGINT", () => {
    const had = buffer.pending;
    buffer.clear();
    process.stdout.write(had ? "^C\n" : "^C (Ctrl-D or .quit to leave)\n");
    rl?.write(null, { ctrl: true, name: "u" });
    prompt();
  });

  let code: number = EXIT.ok;
  /** Runs one statement; false when the shell must stop (a script's first error). */
  const run = async (statement: ScriptStatement): Promise<boolean> => {
    try {
      const ran = await runner.run(statement);
      if (interactive) process.stdout.write(note(ran));
      return true;
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      // A script stops here, and a transaction it had open goes with it.
      const open = interactive || runner.queued === undefined ? undefined : runner.discard();
      code = report(error.error, { sql: error.statement, script: !interactive, discarded: error.discarded ?? open });
      return interactive;
    }
  };

  try {
    if (interactive) process.stdout.write(`storedb shell on ${name} (${target.where}). End statements with ; — .help for help.\n`);
    prompt();
    let entry: string[] = [];
    for await (const line of rl === undefined ? readLines(stdinText()) : typed(rl)) {
      if (!buffer.pending && line.trimStart().startsWith(".")) {
        buffer.skip();
        remember(line.trim());
        try {
          const outcome = await dotCommand(line, target.db, state);
          if ("quit" in outcome) break;
          await out(outcome.text);
        } catch (error) {
          code = report(error);
          if (!interactive) return code;
        }
        prompt();
        continue;
      }
      entry.push(bare(line));
      const statements = buffer.feed(line);
      if (statements.length > 0 || !buffer.pending) {
        remember(historyEntry(entry.join("\n")));
        entry = buffer.pending ? [bare(line)] : [];
      }
      for (const statement of statements) {
        if (!(await run(statement))) return code;
      }
      prompt();
    }
    if (!interactive) {
      const last = buffer.end();
      if (last !== undefined && !(await run(last))) return code;
      try {
        runner.finish();
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        return report(error.error, { sql: error.statement, script: true, discarded: error.discarded });
      }
      return code;
    }
    const discarded = runner.queued === undefined ? undefined : runner.discard();
    process.stdout.write("\n");
    if (discarded !== undefined) process.stderr.write(`warning: the open transaction was discarded: ${discarded === 1 ? "its 1 statement was" : `its ${discarded} statements were`} not applied\n`);
    return EXIT.ok;
  } catch (error) {
    return report(error);
  } finally {
    rl?.close();
    await target.close();
  }
}
