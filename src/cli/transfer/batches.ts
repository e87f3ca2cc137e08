/**
 * Groups imported records into commands: one batch is one command, all or
 * nothing, one durable write (CONTRACT §2, §4).
 *
 * A batch closes at `maxRows` records or about `maxBytes` of JSON, whichever
 * comes first, so memory stays bounded and a batch sent to a server fits
 * its body limit. A server that still answers 413 `payload_too_large`
 * applied nothing, so the batch is split in half and each half sent (and
 * later batches are made smaller). A refused batch stops the import: its
 * error is given back with each `errors` entry's `row` counted from the
 * file's first data record, not from the batch or its statement.
 *
 * The loader appends a record's items to `items` (a CSV record: its values,
 * one per column; a JSON Lines record: its object) and then calls
 * `endRecord`, which says when the batch is full — no promise per record.
 */

import type { Command, SqlCommand, Value } from "../../commands/types.js";
import { StoreError } from "../../errors.js";
import { errorFromProblem } from "../../client/problem.js";

export type Row = Record<string, Value>;

export interface BatchLimits {
  readonly maxRows: number;
  readonly maxBytes: number;
}

/** How a batch's items become one command, and where a refused row of it was in the batch. */
export interface BatchFormat<T> {
  /** Items per record (a CSV record's fields are `width` items; a JSON object is one). */
  readonly perRecord: number;
  /** Records per part of a batch (a CSV batch's statement); a part's items are one array. */
  readonly partRecords: number;
  /** The command inserting the records held in `parts`. */
  command(parts: T[][]): Command;
  /** The record within the batch of `row` of the failing `step` (a transaction's), or of the command. */
  recordOf(step: number | undefined, row: number): number;
}

export class Batches<T> {
  /** The part of the batch under way: records' items, appended by the loader. */
  items: T[] = [];
  /** The batch's parts before it. */
  #parts: T[][] = [];
  #partRecords = 0;
  #records = 0;
  #bytes = 0;
  #first = 0;
  #maxBytes: number;
  /** Rows inserted so far. */
  inserted = 0;

  constructor(
    private readonly limits: BatchLimits,
    private readonly format: BatchFormat<T>,
    private readonly run: (command: Command) => Promise<unknown>,
  ) {
    this.#maxBytes = limits.maxBytes;
  }

  /** One more record is in `items`, of about `bytes` JSON bytes. True when the batch is full: `flush` it. */
  endRecord(bytes: number): boolean {
    this.#bytes += bytes;
    if (++this.#partRecords === this.format.partRecords) {
      this.#parts.push(this.items);
      this.items = [];
      this.#partRecords = 0;
    }
    return ++this.#records >= this.limits.maxRows || this.#bytes >= this.#maxBytes;
  }

  /** Sends what is pending. */
  async flush(): Promise<void> {
    const records = this.#records;
    if (records === 0) return;
    const parts = this.#parts;
    if (this.items.length > 0) parts.push(this.items);
    const first = this.#first;
    this.items = [];
    this.#parts = [];
    this.#partRecords = 0;
    this.#records = 0;
    this.#bytes = 0;
    this.#first += records;
    await this.#send(parts, records, first);
  }

  async #send(parts: T[][], records: number, first: number): Promise<void> {
    try {
      await this.run(this.format.command(parts));
      this.inserted += records;
    } catch (error) {
      if (error instanceof StoreError && error.code === "payload_too_large" && records > 1) {
        this.#maxBytes = Math.max(1024, Math.floor(this.#maxBytes / 2));
        const [head, tail] = this.#halves(parts);
        const headRecords = head.reduce((sum, part) => sum + part.length, 0) / this.format.perRecord;
        await this.#send(head, headRecords, first);
        await this.#send(tail, records - headRecords, first + headRecords);
        return;
      }
      throw this.#located(error, first, records);
    }
  }

  /** A batch of more than one record in two: by parts, or a lone part by records. */
  #halves(parts: T[][]): [T[][], T[][]] {
    if (parts.length > 1) {
      const half = Math.ceil(parts.length / 2);
      return [parts.slice(0, half), parts.slice(half)];
    }
    const items = parts[0] as T[];
    const cut = Math.ceil(items.length / this.format.perRecord / 2) * this.format.perRecord;
    return [[items.slice(0, cut)], [items.slice(cut)]];
  }

  /** `error` with its rows counted from the file's first record, and a message saying which batch failed and what went in before it. */
  #located(error: unknown, first: number, count: number): unknown {
    if (!(error instanceof StoreError)) return error;
    const { step, ...problem } = error.toProblem();
    const at = (row: number): number => first + this.format.recordOf(step, row);
    const errors = problem.errors?.map((entry) => (entry.row === undefined ? entry : { ...entry, row: at(entry.row) }));
    // The statements of a batch are how it is sent, not something the file says: their step is left out.
    const cause = step === undefined ? problem.detail : problem.detail.replace(/^Transaction step \d+: /, "");
    const detail = `The batch of records ${first + 1}–${first + count} was refused (${this.inserted} rows before it were imported): ${cause}`;
    return errorFromProblem({ ...problem, detail, ...(errors ? { errors } : {}) }, problem.code);
  }
}

/** JSON Lines: a batch is one insert of the records as they are (the engine checks their types, a missing key takes its default). */
export function objectRows(table: string): BatchFormat<Row> {
  return {
    perRecord: 1,
    partRecords: Infinity,
    command: (parts) => ({ kind: "insert", table, rows: parts.flat() }),
    recordOf: (_step, row) => row,
  };
}

/** The most a prepared statement's text may be and stay in the engine's plan cache. */
const STATEMENT_CHARS = 65_536;
/**
 * The most values one statement takes: its parameter list stays a regular
 * young object (an array over 128 KB is a large object in the old
 * generation, and every value stored into it a remembered slot the
 * scavenger visits), and its text parses quickly.
 */
const STATEMENT_VALUES = 6_000;
/** A transaction's steps (CONTRACT §11). */
export const MAX_STEPS = 1_000;

function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * CSV: every record names the same columns, so a batch is one transaction
 * of the same prepared statement, `INSERT INTO t (columns) VALUES (?, …),
 * …` of `rowsPerStatement` records, with the records' values as its
 * parameters in one flat array. The engine parses the statement once and
 * binds its plan once; each run takes the values as they are, with no
 * object per record or node per value on the way (a JSON insert binds each
 * value of each row). Every value is still checked against its column's
 * type, and every row against the table's keys and constraints.
 */
export class InsertStatements implements BatchFormat<Value> {
  readonly perRecord: number;
  /** Records per statement; a batch holds at most `MAX_STEPS` statements. */
  readonly rowsPerStatement: number;
  readonly #head: string;
  readonly #texts = new Map<number, string>();

  constructor(table: string, columns: readonly string[]) {
    this.perRecord = columns.length;
    this.#head = `INSERT INTO ${quoteName(table)} (${columns.map(quoteName).join(", ")}) VALUES `;
    const tuple = this.perRecord * 2 + 1;
    this.rowsPerStatement = Math.max(1, Math.min(Math.floor(STATEMENT_VALUES / this.perRecord), Math.floor((STATEMENT_CHARS - this.#head.length) / (tuple + 1))));
  }

  /** The largest batch these statements can send as one transaction. */
  maxRows(rows: number): number {
    return Math.min(rows, this.rowsPerStatement * MAX_STEPS);
  }

  /** The statement for `rows` records (each text is made once, so its hash and plan are looked up, not recomputed). */
  text(rows: number): string {
    let text = this.#texts.get(rows);
    if (text === undefined) {
      const tuple = "(" + new Array<string>(this.perRecord).fill("?").join(",") + ")";
      text = this.#head + new Array<string>(rows).fill(tuple).join(",");
      this.#texts.set(rows, text);
    }
    return text;
  }

  get partRecords(): number {
    return this.rowsPerStatement;
  }

  command(parts: Value[][]): Command {
    const commands = parts.map((params): SqlCommand => ({ kind: "sql", sql: this.text(params.length / this.perRecord), params }));
    return commands.length === 1 ? (commands[0] as SqlCommand) : { kind: "transaction", commands };
  }

  recordOf(step: number | undefined, row: number): number {
    return (step ?? 0) * this.rowsPerStatement + row;
  }
}
