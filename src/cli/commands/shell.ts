/**
 * `storedb shell <db>`: an interactive SQL shell.
 *
 * On a terminal: a prompt (`shop> `, `  ...> ` inside a statement), line
 * editing and history (readline), the history kept across runs
 * (`shell/history.ts`); Ctrl-C drops the statement being typed, Ctrl-D
 * leaves. Statements end with `;` and may span lines
 * (`shell/statements.ts`); a line that starts with `.` before any statement
 * text is a dot command (`shell/dot-commands.ts`). An error is reported with
 * its position marked, and the shell goes on.
 *
 * Fed from a pipe or a file (`storedb shell shop < script.sql`) it runs the
 * statements without prompts and stops at the first error, exiting with
 * its code, so a script cannot fail half-way unnoticed; a last statement
 * without `;` still runs at the end of input.
 *
 * The database stays open for the whole session (on a data directory, its
 * lock is held until the shell ends).
 */

import { createInterface } from "node:readline";
import { EXIT } from "../failure.js";
import { out, report } from "../io.js";
import { renderResult } from "../render/result.js";
import { dotCommand, type ShellState } from "../shell/dot-commands.js";
import { historyEntry, historyFile, loadHistory, saveHistory } from "../shell/history.js";
import { StatementBuffer } from "../shell/statements.js";
import { openTarget, type TargetOptions } from "../target.js";

export async function shellCommand(name: string, options: TargetOptions): Promise<number> {
  const target = await openTarget(name, options);
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  const file = historyFile();
  // readline keeps this array as its history: the shell adds whole statements itself (historySize 0 stops per-line entries).
  const history = interactive ? loadHistory(file) : [];
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: interactive, history, historySize: 0 });
  const state: ShellState = { mode: "table", explain: false };
  const buffer = new StatementBuffer();
  const prompt = (): void => {
    if (!interactive) return;
    rl.setPrompt(buffer.pending ? `${" ".repeat(Math.max(0, name.length - 3))}...> ` : `${name}> `);
    rl.prompt();
  };
  const remember = (entry: string): void => {
    if (!interactive || entry === "") return;
    const seen = history.indexOf(entry);
    if (seen !== -1) history.splice(seen, 1);
    history.unshift(entry);
    saveHistory(file, history);
  };
  rl.on("SIGINT", () => {
    const had = buffer.pending;
    buffer.clear();
    process.stdout.write(had ? "^C\n" : "^C (Ctrl-D or .quit to leave)\n");
    rl.write(null, { ctrl: true, name: "u" });
    prompt();
  });

  let code: number = EXIT.ok;
  /** Runs one statement; false when the shell must stop (a script's first error). */
  const run = async (statement: string): Promise<boolean> => {
    try {
      const result = state.explain
        ? await target.db.execute({ kind: "explain", command: { kind: "sql", sql: statement, params: [] } })
        : await target.db.sql(statement);
      await out(renderResult(result, state.mode));
      return true;
    } catch (error) {
      code = report(error, { sql: statement });
      return interactive;
    }
  };

  try {
    if (interactive) process.stdout.write(`storedb shell on ${name} (${target.where}). End statements with ; — .help for help.\n`);
    prompt();
    let typed: string[] = [];
    for await (const line of rl) {
      if (buffer.blank && line.trimStart().startsWith(".")) {
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
      typed.push(line);
      const statements = buffer.feed(line);
      if (statements.length > 0 || !buffer.pending) {
        remember(historyEntry(typed.join("\n")));
        typed = buffer.pending ? [line] : [];
      }
      for (const statement of statements) {
        if (!(await run(statement))) return code;
      }
      prompt();
    }
    if (!interactive && buffer.pending) {
      const rest = buffer.feed(";");
      for (const statement of rest) if (!(await run(statement))) return code;
    }
    if (interactive) process.stdout.write("\n");
    return interactive ? EXIT.ok : code;
  } catch (error) {
    return report(error);
  } finally {
    rl.close();
    await target.close();
  }
}
