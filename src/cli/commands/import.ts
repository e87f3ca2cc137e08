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
import type { Queryable } from "../../api/queryable.js";
import type { ColumnType, TableSchema, Value } from "../../commands/types.js";
import { StoreError } from "../../errors.js";
import { EXIT, UsageError } from "../failure.js";
import { out } from "../io.js";
import { progress } from "../progress.js";
import type { CheckpointPolicy } from "../../storage/checkpoint-schedule.js";
import { openTarget, type TargetOptions } from "../target.js";
import { Batches, type BatchLimits, type Row } from "../transfer/batches.js";
import { csvRecords, jsonlRecords, type RecordSource } from "../transfer/read-records.js";
import { inferCsvTypes } from "../transfer/csv-types.js";
import { JsonInference, fieldConverter } from "../transfer/values.js";

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
async function schemaOf(db: Queryable, table: string): Promise<TableSchema | undefined> {
  try {
    const result = await db.execute({ kind: "describe", table });
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

/** The header, and the chunks of data records after it. */
async function splitHeader(source: RecordSource<string[]>): Promise<{ header: string[]; rest: AsyncIterator<readonly string[][]> }> {
  const rest = source.chunks[Symbol.asyncIterator]();
  const first = await rest.next();
  if (first.done === true || first.value[0] === undefined) throw new StoreError("invalid_request", "The CSV file is empty: it needs a header line naming the columns.");
  return { header: first.value[0], rest };
}

async function* remaining<T>(iterator: AsyncIterator<T>): AsyncGenerator<T> {
  for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
}

/** The header's names (read by the CSV reader, which stops there) and the types of their columns. */
async function inferCsv(file: string): Promise<[string, ColumnType][]> {
  const { header, rest } = await splitHeader(csvRecords(file));
  await rest.return?.();
  const types = await inferCsvTypes(file, header.length);
  return header.map((name, i) => [name, types[i] ?? "text"]);
}

async function inferJsonl(file: string): Promise<[string, ColumnType][]> {
  const inference = new JsonInference();
  let index = 0;
  for await (const chunk of jsonlRecords(file).chunks) for (const record of chunk) inference.observe(record, index++);
  const columns = inference.columns();
  if (columns.length === 0) throw new StoreError("invalid_request", "The file has no records to take columns from; create the table first.");
  return columns;
}

/** Sends CSV records as rows of `schema`'s types. `record` counts data records, for errors. */
async function loadCsv(source: RecordSource<string[]>, schema: TableSchema, batches: Batches, tick: () => void): Promise<void> {
  const { header, rest } = await splitHeader(source);
  checkColumns(header, schema);
  const converters = header.map((name) => fieldConverter(schema.columns[name] as ColumnType));
  // JSON bytes of a row beyond its values: `"name":` per column, commas, braces.
  const overhead = header.reduce((sum, name) => sum + name.length + 4, 2);
  const width = header.length;
  let record = 0;
  for await (const chunk of remaining(rest)) {
    for (const fields of chunk) {
      if (fields.length !== width) {
        throw new StoreError("validation_failed", `Record ${record + 1} has ${fields.length} fields; the header has ${width}.`, {
          errors: [{ table: schema.name, row: record, code: "type", message: `${fields.length} fields, not ${width}` }],
        });
      }
      const row: Row = {};
      let bytes = overhead;
      for (let i = 0; i < width; i++) {
        const text = fields[i] as string;
        bytes += text.length;
        row[header[i] as string] = (converters[i] as (text: string) => Value)(text);
      }
      record++;
      await batches.add(row, bytes);
    }
    tick();
  }
}

/** Sends JSON Lines records as they are: the engine checks their types. */
async function loadJsonl(source: RecordSource<Record<string, unknown>>, schema: TableSchema, batches: Batches, tick: () => void): Promise<void> {
  const checked = new Set<string>();
  for await (const chunk of source.chunks) {
    for (const record of chunk) {
      for (const key of Object.keys(record)) {
        if (!checked.has(key)) {
          checkColumns([key], schema);
          checked.add(key);
        }
      }
      await batches.add(record as Row, JSON.stringify(record).length);
    }
    tick();
  }
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
    let schema = await schemaOf(target.db, table);
    const created = schema === undefined;
    if (schema === undefined) {
      const columns = format === "csv" ? await inferCsv(file) : await inferJsonl(file);
      const created: TableSchema = { name: table, columns: Object.fromEntries(columns) };
      await target.db.execute({ kind: "create-table", schema: created });
      schema = created;
    }
    const batches = new Batches(limits, async (rows) => {
      await target.db.execute({ kind: "insert", table, rows });
    });
    const bar = progress(`importing ${table}`, size);
    const source = format === "csv" ? csvRecords(file) : jsonlRecords(file);
    const tick = (): void => bar.update(source.bytesRead(), batches.inserted);
    try {
      if (format === "csv") await loadCsv(source as RecordSource<string[]>, schema, batches, tick);
      else await loadJsonl(source as RecordSource<Record<string, unknown>>, schema, batches, tick);
      await batches.flush();
      tick();
    } finally {
      bar.stop();
    }
    const summary = { kind: "import", table, rows: batches.inserted, created };
    await out(options.json === true ? JSON.stringify(summary) + "\n" : `${batches.inserted} rows imported into ${table}${created ? " (table created)" : ""}\n`);
    return EXIT.ok;
  } finally {
    await target.close();
  }
}
