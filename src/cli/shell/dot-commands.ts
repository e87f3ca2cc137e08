/**
 * The shell's dot commands: `.tables`, `.schema [t]`, `.mode`, `.explain`,
 * `.help`, `.quit`. They read the database through the same commands any
 * client sends (`describe`), so they show exactly what the engine holds.
 */

import type { Queryable } from "../../api/queryable.js";
import { schemaText, type OutputMode } from "../render/result.js";
import { UsageError } from "../failure.js";

export interface ShellState {
  mode: OutputMode;
  /** When on, each statement is explained (its plan shown) instead of run. */
  explain: boolean;
}

export const HELP = `Statements end with ; and may span lines.
BEGIN opens a transaction (the prompt shows *): each statement typed after it is
checked now and queued; COMMIT (or END) runs them all as one all-or-nothing write
and prints their results then, SELECTs' too; ROLLBACK discards them.
Dot commands:
  .tables                 list the tables
  .schema [table]         show every table's schema, or one
  .mode [table|json|csv]  how results print (now: %mode%)
  .explain [on|off]       show each statement's plan instead of running it (now: %explain%)
  .help                   this text
  .quit                   leave (Ctrl-D too)
`;

const MODES: readonly OutputMode[] = ["table", "json", "csv"];

/** What a dot command asks of the shell loop. */
export type DotOutcome = { readonly text: string } | { readonly quit: true };

export async function dotCommand(line: string, db: Queryable, state: ShellState): Promise<DotOutcome> {
  const [name = "", ...args] = line.trim().split(/\s+/);
  switch (name) {
    case ".help":
      return { text: HELP.replace("%mode%", state.mode).replace("%explain%", state.explain ? "on" : "off") };
    case ".quit":
    case ".exit":
      return { quit: true };
    case ".tables": {
      const result = await db.execute({ kind: "describe" });
      if (result.kind !== "schema") return { text: "" };
      return { text: result.tables.length === 0 ? "no tables\n" : result.tables.map((t) => `${t.name}\n`).join("") };
    }
    case ".schema": {
      if (args.length > 1) throw new UsageError(".schema takes at most one table name");
      const result = await db.execute(args[0] === undefined ? { kind: "describe" } : { kind: "describe", table: args[0] });
      if (result.kind !== "schema") return { text: "" };
      return { text: result.tables.length === 0 ? "no tables\n" : result.tables.map(schemaText).join("\n") };
    }
    case ".mode": {
      const mode = args[0];
      if (mode === undefined) return { text: `${state.mode}\n` };
      if (args.length > 1 || !MODES.includes(mode as OutputMode)) throw new UsageError(`.mode takes one of ${MODES.join(", ")}`);
      state.mode = mode as OutputMode;
      return { text: "" };
    }
    case ".explain": {
      const setting = args[0];
      if (args.length > 1 || (setting !== undefined && setting !== "on" && setting !== "off")) throw new UsageError(".explain takes on or off");
      state.explain = setting === undefined ? !state.explain : setting === "on";
      return { text: `explain ${state.explain ? "on" : "off"}\n` };
    }
    default:
      throw new UsageError(`unknown command ${name}; .help lists them`);
  }
}
