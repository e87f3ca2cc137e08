/**
 * `storedb import <db> <table> <file.csv|file.jsonl>`: loads a file into a
 * table, in batches (`transfer/batches.ts`: one insert — all or nothing,
 * one durable write — per batch).
 *
 * Into an existing table, the file's columns (a CSV header, JSON keys) must
 * be columns of it; CSV fields are converted to the columns' types. Into a
 * missing table, the file is read twice: once to infer the columns and
 * their types (`transfer/values.ts`), creating the table from them, and
 * once to import. If a batch is refused, the import stops; earlier batches
 * stay, and the error says which records failed and how many went in.
 */

import { stat } from "node:fs/promises";
import path from "node:path";
import type { Result } from "../../commands/results.js";
import type { ColumnType, Command, TableSchema, Value } from "../../commands/types.js";
import { isValidIdentifier } from "../../commands/names.js";
import { StoreError } from "../../errors.js";
import { EXIT, UsageError } from "../failure.js";
import { out } from "../io.js";
import { progress, type Progress } from "../progress.js";
import type { CheckpointPolicy } from "../../storage/checkpoint-schedule.js";
import { openTarget, type TargetOptions } from "../target.js";
import { Batches, InsertStatements, objectRows, type BatchLimits, type Row } from "../transfer/batches.js";
import { jsonlRecords, type RecordSource } from "../transfer/read-records.js";
import { readCsv, readCsvHeader, type CsvSink } from "../transfer/csv-reader.js";
import { inferCsvTypes } from "../transfer/csv-types.js";
import { JsonInference } from "../transfer/values.js";

export type Format = "csv" | "jsonl";

export interface ImportOptions extends TargetOptions {
  readonly format?: string;
  readonly batch?: string;
  readonly json?: boolean;
}

/** Rows per batch: a data directory takes large batches (fewer durable writes); a server's body limit (1 MiB by default) bounds its batches by size. */
const LOCAL: BatchLimits = { maxRows: 50_000, maxBytes: 32 * 1024 * 1024 };
const REMOTE: BatchLimits = { maxRows: 50_000, maxBytes: 768 * 1024 };

/**
 * A bulk load checkpoints once, when it closes the database. The default
 * policy folds the journal in whenever it reaches a quarter of the document,
 * which for a table growing from nothing is a rewrite of the whole document
 * every few batches (about five times its final size written in all); the
 * batches stay durable in the journal meanwhile.
 */
const BULK_LOAD: CheckpointPolicy = { journalBytes: Number.POSITIVE_INFINITY, idleMs: 2 ** 31 - 1 };

export function formatOf(file: string, given: string | undefined): Format {
  const name = given ?? { ".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl" }[path.extname(file).toLowerCase()];
  if (name === "csv" || name === "jsonl") return name;
  throw new UsageError(given === undefined ? `cannot tell the format of ${file}; name it .csv or .jsonl, or give --format csv|jsonl` : `--format takes csv or jsonl, not ${given}`);
}

function batchLimits(remote: boolean, batch: string | undefined): BatchLimits {
  const limits = remote ? REMOTE : LOCAL;
  if (batch === undefined) return limits;
  const rows = Number(batch);
  if (!Number.isSafeInteger(rows) || rows < 1) throw new UsageError(`--batch takes a number of rows ≥ 1, not ${batch}`);
  return { ...limits, maxRows: rows };
}

/** The table's schema, or undefined when the table (or the whole database) does not exist yet. */
async function schemaOf(run: (command: Command) => Promise<Result>, table: string): Promise<TableSchema | undefined> {
  try {
    const result = await run({ kind: "describe", table });
    return result.kind === "schema" ? result.tables[0] : undefined;
  } catch (error) {
    if (error instanceof StoreError && (error.code === "table_not_found" || error.code === "database_not_found")) return undefined;
    throw error;
  }
}

function checkColumns(names: readonly string[], schema: TableSchema): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new StoreError("invalid_request", `The file names column "${name}" twice.`);
    seen.add(name);
    if (!Object.prototype.hasOwnProperty.call(schema.columns, name)) {
      throw new StoreError("unknown_column", `The file's column "${name}" is not a column of table ${schema.name} (${Object.keys(schema.columns).join(", ")}).`);
    }
  }
}

/** The header's names (read by the CSV reader, which stops there) and the types of their columns. */
async function inferCsv(file: string): Promise<[string, ColumnType][]> {
  const header = await readCsvHeader(file);
  if (header === undefined) throw emptyCsv();
  const types = await inferCsvTypes(file, header.length);
  return header.map((name, i) => [name, types[i] ?? "text"]);
}

function emptyCsv(): StoreError {
  return new StoreError("invalid_request", "The CSV file is empty: it needs a header line naming the columns.");
}

async function inferJsonl(file: string): Promise<[string, ColumnType][]> {
  const inference = new JsonInference();
  let index = 0;
  for await (const chunk of jsonlRecords(file).chunks) for (const record of chunk) inference.observe(record, index++);
  const columns = inference.columns();
  if (columns.length === 0) throw new StoreError("invalid_request", "The file has no records to take columns from; create the table first.");
  return columns;
}

/**
 * Sends CSV records as rows of `schema`'s types, as the parameters of
 * prepared inserts (`InsertStatements`), each value made from the file's
 * bytes by the reader. Returns how many rows went in.
 */
async function loadCsv(file: string, schema: TableSchema, limits: BatchLimits, run: (command: Command) => Promise<unknown>, bar: Progress): Promise<number> {
  let batches: Batches<Value> | undefined;
  let overhead = 0;
  const sink: CsvSink = {
    header: (names) => {
      checkColumns(names, schema);
      const statements = new InsertStatements(schema.name, names);
      batches = new Batches<Value>({ ...limits, maxRows: statements.maxRows(limits.maxRows) }, statements, run);
      // JSON bytes of a record beyond its bytes in the file: quotes, and its share of the statement's text.
      overhead = names.length * 5 + 2;
      return names.map((name) => schema.columns[name] as ColumnType);
    },
    values: () => batches!.items,
    endRecord: (bytes) => batches!.endRecord(bytes + overhead),
    flush: () => batches!.flush(),
  };
  const header = await readCsv(file, sink, (read) => bar.update(read, batches?.inserted ?? 0));
  if (header === undefined || batches === undefined) throw emptyCsv();
  await batches.flush();
  return batches.inserted;
}

/** Sends JSON Lines records as they are: the engine checks their types. */
async function loadJsonl(source: RecordSource<Record<string, unknown>>, schema: TableSchema, batches: Batches<Row>, tick: () => void): Promise<void> {
  const checked = new Set<string>();
  for await (const chunk of source.chunks) {
    for (const record of chunk) {
      for (const key of Object.keys(record)) {
        if (!checked.has(key)) {
          checkColumns([key], schema);
          checked.add(key);
        }
      }
      batches.items.push(record as Row);
      if (batches.endRecord(JSON.stringify(record).length)) await batches.flush();
    }
    tick();
  }
}

/** Whether every name a command of this import holds keeps to CONTRACT §1: only then is it sent unchecked (`Target.run`); otherwise the checked way, which answers with the exact error. */
function namesValid(table: string, columns: Iterable<string>): boolean {
  if (!isValidIdentifier(table)) return false;
  for (const column of columns) if (!isValidIdentifier(column)) return false;
  return true;
}

export async function importCommand(name: string, table: string, file: string, options: ImportOptions): Promise<number> {
  const format = formatOf(file, options.format);
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new UsageError(`${file} is not a file`);
    size = info.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const target = await openTarget(name, options, BULK_LOAD);
  try {
    const limits = batchLimits(target.remote, options.batch);
    const checked = (command: Command): Promise<Result> => target.db.execute(command);
    let schema = await schemaOf(isValidIdentifier(table) ? target.run : checked, table);
    const created = schema === undefined;
    if (schema === undefined) {
      const columns = format === "csv" ? await inferCsv(file) : await inferJsonl(file);
      const creating: TableSchema = { name: table, columns: Object.fromEntries(columns) };
      await (namesValid(table, Object.keys(creating.columns)) ? target.run : checked)({ kind: "create-table", schema: creating });
      schema = creating;
    }
    const bar = progress(`importing ${table}`, size);
    let rows = 0;
    try {
      if (format === "csv") {
        rows = await loadCsv(file, schema, limits, target.run, bar);
        bar.update(size, rows);
      } else {
        const source = jsonlRecords(file);
        const batches = new Batches<Row>(limits, objectRows(table), checked);
        const tick = (): void => bar.update(source.bytesRead(), batches.inserted);
        try {
          await loadJsonl(source, schema, batches, tick);
          await batches.flush();
        } finally {
          rows = batches.inserted;
        }
        tick();
      }
    } finally {
      bar.stop();
    }
    const summary = { kind: "import", table, rows, created };
    await out(options.json === true ? JSON.stringify(summary) + "\n" : `${rows} rows imported into ${table}${created ? " (table created)" : ""}\n`);
    return EXIT.ok;
  } finally {
    await target.close();
  }
}
