/**
 * Groups imported rows into insert commands: one batch is one insert, all
 * or nothing, one durable write (CONTRACT §2, §4).
 *
 * A batch closes at `maxRows` rows or about `maxBytes` of JSON, whichever
 * comes first, so memory stays bounded and a batch sent to a server fits
 * its body limit. A server that still answers 413 `payload_too_large`
 * applied nothing, so the batch is split in half and each half sent
 * (and later batches are made smaller). A refused batch stops the import:
 * its error is given back with each `errors` entry's `row` counted from
 * the file's first data record, not from the batch.
 */

import type { Value } from "../../commands/types.js";
import { StoreError } from "../../errors.js";
import { errorFromProblem } from "../../client/problem.js";

export type Row = Record<string, Value>;

export interface BatchLimits {
  readonly maxRows: number;
  readonly maxBytes: number;
}

export class Batches {
  #rows: Row[] = [];
  #bytes = 0;
  #first = 0;
  #maxBytes: number;
  /** Rows inserted so far. */
  inserted = 0;

  constructor(
    private readonly limits: BatchLimits,
    private readonly insert: (rows: Row[]) => Promise<void>,
  ) {
    this.#maxBytes = limits.maxBytes;
  }

  /** Adds a row of about `bytes` JSON bytes; sends the batch when it is full. */
  async add(row: Row, bytes: number): Promise<void> {
    this.#rows.push(row);
    this.#bytes += bytes;
    if (this.#rows.length >= this.limits.maxRows || this.#bytes >= this.#maxBytes) await this.flush();
  }

  /** Sends what is pending. */
  async flush(): Promise<void> {
    const rows = this.#rows;
    if (rows.length === 0) return;
    const first = this.#first;
    this.#rows = [];
    this.#bytes = 0;
    this.#first += rows.length;
    await this.#send(rows, first);
  }

  async #send(rows: Row[], first: number): Promise<void> {
    try {
      await this.insert(rows);
      this.inserted += rows.length;
    } catch (error) {
      if (error instanceof StoreError && error.code === "payload_too_large" && rows.length > 1) {
        this.#maxBytes = Math.max(1024, Math.floor(this.#maxBytes / 2));
        const half = Math.ceil(rows.length / 2);
        await this.#send(rows.slice(0, half), first);
        await this.#send(rows.slice(half), first + half);
        return;
      }
      throw located(error, first, rows.length, this.inserted);
    }
  }
}

/** `error` with its rows counted from the file's first record, and a message saying which batch failed and what went in before it. */
function located(error: unknown, first: number, count: number, inserted: number): unknown {
  if (!(error instanceof StoreError)) return error;
  const problem = error.toProblem();
  const errors = problem.errors?.map((entry) => (entry.row === undefined ? entry : { ...entry, row: entry.row + first }));
  const detail = `The batch of records ${first + 1}–${first + count} was refused (${inserted} rows before it were imported): ${problem.detail}`;
  return errorFromProblem({ ...problem, detail, ...(errors ? { errors } : {}) }, problem.code);
}
