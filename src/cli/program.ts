/**
 * The `storedb` command line: subcommands, their arguments and options
 * (commander), and how an outcome becomes an exit code (`failure.ts`).
 *
 * Each subcommand's work lives in its own module under `commands/`, loaded
 * only when that subcommand runs: `storedb serve` does not load the
 * client, `--url` commands do not load the engine, and `--help` loads
 * neither. Usage errors (an unknown option, a missing argument) exit 2
 * with commander's message and a pointer to `--help`.
 */

import { Command, CommanderError } from "commander";
import pkg from "../../package.json" with { type: "json" };
import { EXIT, UsageError } from "./failure.js";
import { report } from "./io.js";

interface Outcome {
  code: number;
}

/** `--data`, `--url`, `--api-key`, `--json`: where a database command's commands go, and how it answers. */
function withTarget(command: Command, json = true): Command {
  command
    .option("--data <dir>", "data directory (default: $STORE_DATA_PATH, else ./data)")
    .option("--url <url>", "send the commands to a running server instead, e.g. http://127.0.0.1:3000")
    .option("--api-key <key>", "the server's API key, for --url (default: $STORE_API_KEY)");
  if (json) command.option("--json", "print results (and errors, on stderr) as JSON, for scripts");
  return command;
}

function build(outcome: Outcome): Command {
  const program = new Command("storedb")
    .description("storedb: table databases kept as JSON files, served over HTTP")
    .version(pkg.version, "-v, --version")
    .showHelpAfterError("(run with --help for usage)")
    .configureHelp({ sortSubcommands: false, showGlobalOptions: false })
    .exitOverride();

  /** Runs a subcommand's work and keeps its exit code; errors it did not report itself are reported here. */
  const act =
    <A extends unknown[]>(work: (...args: A) => Promise<number>) =>
    async (...args: A): Promise<void> => {
      try {
        outcome.code = await work(...args);
      } catch (error) {
        const options = args.find((a): a is { json?: boolean } => typeof a === "object" && a !== null && !(a instanceof Command) && !Array.isArray(a));
        outcome.code = report(error, { json: options?.json === true });
      }
    };

  program
    .command("serve")
    .summary("run the HTTP service")
    .description("Run the HTTP service, configured by the STORE_* environment variables (docs/reference/configuration.md).")
    .option("--data <dir>", "data directory (sets STORE_DATA_PATH)")
    .action(
      act(async (options: { data?: string }) => {
        if (options.data !== undefined) process.env.STORE_DATA_PATH = options.data;
        // Resolves once the service listens; it runs until a signal, and its shutdown exits with its own code.
        await import("./commands/serve.js");
        return EXIT.ok;
      }),
    );

  withTarget(
    program
      .command("sql")
      .summary("run a SQL statement or script")
      .description(
        "Run a SQL statement, or a script of statements separated by ; (- reads it from stdin), printing each result; the first refused statement stops the script (exit 1). BEGIN … COMMIT in a script runs its statements as one all-or-nothing transaction. A single statement takes its parameters in order: each ? the next, ?NNN the NNN-th (as in SQLite). JSON numbers, true, false, null and \"strings\" are read as JSON, anything else as text.",
      )
      .argument("<db>", "database name")
      .argument("<sql>", "one SQL statement, a script, or - for a script on stdin")
      .argument("[params...]", "a single statement's parameters, the first for ?1 (put -- before a negative number)"),
  ).action(
    act(async (db: string, statement: string, params: string[], options) => {
      const { sqlCommand } = await import("./commands/sql.js");
      return sqlCommand(db, statement, params, options);
    }),
  );

  withTarget(
    program
      .command("shell")
      .summary("an interactive SQL shell")
      .description(
        "An interactive SQL shell: statements end with ; and may span lines, BEGIN … COMMIT runs the statements between as one transaction, history is kept in ~/.storedb_history, .help lists the dot commands. Fed from a pipe, it runs the statements and stops at the first error.",
      )
      .argument("<db>", "database name"),
    false,
  ).action(
    act(async (db: string, options) => {
      const { shellCommand } = await import("./commands/shell.js");
      return shellCommand(db, options);
    }),
  );

  withTarget(program.command("validate").summary("check a whole database").description("Check a whole database: every row, key and rule. Exits 1 when it is invalid.").argument("<db>", "database name")).action(
    act(async (db: string, options) => {
      const { validateCommand } = await import("./commands/validate.js");
      return validateCommand(db, options);
    }),
  );

  withTarget(
    program
      .command("checkpoint")
      .summary("fold the journal into the .store file")
      .description("Fold the database's journal into its .store file now; afterwards that file alone is the whole database (copy it for a backup).")
      .argument("<db>", "database name"),
  ).action(
    act(async (db: string, options) => {
      const { checkpointCommand } = await import("./commands/checkpoint.js");
      return checkpointCommand(db, options);
    }),
  );

  withTarget(
    program
      .command("import")
      .summary("load a CSV or JSON Lines file into a table")
      .description(
        "Load a CSV file (a header line, then records) or a JSON Lines file (one object per line) into a table, one all-or-nothing insert per batch. A missing table is created from the file's columns, with types inferred from every value. Shows a progress bar on a terminal.",
      )
      .argument("<db>", "database name")
      .argument("<table>", "table to load into (created when missing)")
      .argument("<file>", "file.csv or file.jsonl")
      .option("--format <format>", "csv or jsonl (default: from the file name)")
      .option("--batch <rows>", "rows per insert (default 50000; fewer when a batch would be too large for the server)"),
  ).action(
    act(async (db: string, table: string, file: string, options) => {
      const { importCommand } = await import("./commands/import.js");
      return importCommand(db, table, file, options);
    }),
  );

  withTarget(
    program
      .command("export")
      .summary("write a table or a query's rows as CSV or JSON Lines")
      .description("Write a table's rows (its declared columns, in insertion order) or a SELECT's rows to stdout, as CSV with a header or as JSON Lines, a page at a time.")
      .argument("<db>", "database name")
      .argument("[table]", "table to export")
      .option("--query <sql>", "a SELECT to export instead of a table")
      .option("--format <format>", "csv (default) or jsonl"),
    false,
  ).action(
    act(async (db: string, table: string | undefined, options) => {
      const { exportCommand } = await import("./commands/export.js");
      return exportCommand(db, table, options);
    }),
  );

  return program;
}

/** Runs the command line `argv` (without `node` and the script) and resolves to its exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const outcome: Outcome = { code: EXIT.ok };
  const program = build(outcome);
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; every other commander error is a usage error.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof UsageError) return report(error);
    throw error;
  }
  return outcome.code;
}
