/**
 * `storedb export <db> <table>` or `storedb export <db> --query "<SELECT>"`:
 * writes rows to stdout as CSV (a header line, then records) or JSON Lines
 * (one object per row, keys in column order).
 *
 * Streaming, with bounded memory, each slice written — waiting for the
 * reader to drain — before the next is made. On a data directory the select
 * runs once, and its answer (a snapshot: rows are values) is projected a
 * slice at a time as it is written (`rowSlices`, as the server streams it);
 * only a query with computed columns is projected whole first. Through a
 * server (`--url`) the rows are fetched a page at a time (a select with
 * `limit`/`offset`, `output: "arrays"`; pages of one query share one cached
 * plan), within the query's own `LIMIT`/`OFFSET`: the HTTP client reads whole
 * answers, so pages bound the memory of both ends — and are not one
 * snapshot: rows written by others between two pages may or may not appear.
 * A table exports its declared columns (not computed ones, which cannot be
 * imported) in insertion order, so an export imports back into the same
 * rows. `--query` takes one SELECT, parsed here into its select command.
 */

import type { Queryable } from "../../api/queryable.js";
import type { SelectCommand, Value } from "../../commands/types.js";
import { StoreError } from "../../errors.js";
import { rowSlices } from "../../executor/index.js";
import { csvLines } from "../csv.js";
import { EXIT, UsageError } from "../failure.js";
import { out, report } from "../io.js";
import { openTarget, type TargetOptions } from "../target.js";

export interface ExportOptions extends TargetOptions {
  readonly query?: string;
  readonly format?: string;
}

const PAGE = 10_000;

type Writer = { header(columns: readonly string[]): string; rows(columns: readonly string[], rows: readonly (readonly Value[])[]): string };

const CSV: Writer = {
  header: (columns) => csvLines([columns]),
  rows: (_columns, rows) => csvLines(rows),
};

const JSONL: Writer = {
  header: () => "",
  rows(columns, rows) {
    const keys = columns.map((c) => `${JSON.stringify(c)}:`);
    let text = "";
    for (const row of rows) {
      let line = "{";
      for (let i = 0; i < keys.length; i++) line += (i === 0 ? "" : ",") + keys[i] + JSON.stringify(row[i] ?? null);
      text += line + "}\n";
    }
    return text;
  },
};

function writerFor(format: string | undefined): Writer {
  if (format === undefined || format === "csv") return CSV;
  if (format === "jsonl") return JSONL;
  throw new UsageError(`--format takes csv or jsonl, not ${format}`);
}

/** The select a table export pages through: its declared columns, in insertion order. */
async function tableSelect(db: Queryable, table: string): Promise<SelectCommand> {
  const result = await db.execute({ kind: "describe", table });
  const schema = result.kind === "schema" ? result.tables[0] : undefined;
  if (schema === undefined) throw new StoreError("table_not_found", `Table "${table}" does not exist.`);
  return { kind: "select", table, columns: Object.keys(schema.columns) };
}

/** The select command a `--query` SELECT stands for (parsed and lowered here, as the engine would). */
async function querySelect(sql: string): Promise<SelectCommand> {
  const [{ parseStatement }, { lowerSql }] = await Promise.all([import("../../parser/index.js"), import("../../planner/lower-sql.js")]);
  const { statement, params } = parseStatement(sql);
  if (params > 0) throw new UsageError("export --query takes no ? parameters; write the values into the query");
  const command = lowerSql(statement);
  if (command.kind !== "select") throw new UsageError("export --query takes a SELECT statement");
  return command;
}

/** One select, its rows written `PAGE` at a time, each slice projected only when it is written. */
async function sliceThrough(db: Queryable, select: SelectCommand, writer: Writer): Promise<void> {
  const result = await db.execute({ ...select, output: "arrays" });
  if (result.kind !== "rows") throw new StoreError("internal_error", `A select answered ${result.kind}.`);
  await out(writer.header(result.columns));
  const slices = rowSlices(result) ?? ((from: number, to: number) => result.rows.slice(from, to));
  for (let from = 0; from < result.rowCount; from += PAGE) {
    await out(writer.rows(result.columns, slices(from, Math.min(result.rowCount, from + PAGE)) as readonly (readonly Value[])[]));
  }
}

async function pageThrough(db: Queryable, select: SelectCommand, writer: Writer): Promise<void> {
  // A query with `?` was refused above, so LIMIT and OFFSET are counts here, never parameter slots.
  if (typeof select.offset === "object" || typeof select.limit === "object") throw new UsageError("export --query takes no ? parameters");
  const start = select.offset ?? 0;
  const end = select.limit === undefined ? Infinity : start + select.limit;
  let columns: readonly string[] | undefined;
  for (let offset = start; offset < end; ) {
    const limit = Math.min(PAGE, end - offset);
    const result = await db.execute({ ...select, output: "arrays", limit, offset });
    if (result.kind !== "rows") throw new StoreError("internal_error", `A select answered ${result.kind}.`);
    if (columns === undefined) {
      columns = result.columns;
      await out(writer.header(columns));
    }
    if (result.rows.length > 0) await out(writer.rows(columns, result.rows as readonly (readonly Value[])[]));
    if (result.rows.length < limit) break;
    offset += result.rows.length;
  }
  // A query with LIMIT 0 still names its columns.
  if (columns === undefined) {
    const result = await db.execute({ ...select, output: "arrays", limit: 0, offset: start });
    if (result.kind === "rows") await out(writer.header(result.columns));
  }
}

export async function exportCommand(name: string, table: string | undefined, options: ExportOptions): Promise<number> {
  const writer = writerFor(options.format);
  if ((table === undefined) === (options.query === undefined)) throw new UsageError("export takes a table or --query, one of them");
  let select: SelectCommand;
  if (options.query !== undefined) {
    try {
      select = await querySelect(options.query);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      return report(error, { sql: options.query });
    }
  }
  const target = await openTarget(name, options);
  try {
    select ??= await tableSelect(target.db, table as string);
    try {
      await (target.remote ? pageThrough : sliceThrough)(target.db, select, writer);
    } catch (error) {
      return report(error, { sql: options.query });
    }
    return EXIT.ok;
  } finally {
    await target.close();
  }
}
