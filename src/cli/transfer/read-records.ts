/**
 * Reads an import file as chunks of records, with bounded memory.
 *
 * CSV: papaparse over the file stream (decoded as UTF-8 by the stream, so a
 * character split across two reads stays whole), a chunk per read (64 kB:
 * papaparse measured fastest there, ~2x faster than with 1 MB reads). The
 * parser is paused while the consumer works on a chunk, so a slow insert
 * holds back the reading. The header comes first, as its own chunk. A blank
 * line is skipped when the header has several columns (it cannot be a
 * record), and is a record of one NULL when it has one.
 *
 * JSON Lines: one JSON object per line; blank lines are skipped.
 *
 *
 * Either way `bytesRead` says how far into the file the reader is, for
 * progress.
 */

import { createReadStream, type ReadStream } from "node:fs";
import { createInterface } from "node:readline";
import Papa from "papaparse";
import { StoreError } from "../../errors.js";

export interface RecordSource<T> {
  readonly chunks: AsyncIterable<readonly T[]>;
  /** Bytes of the file read so far. */
  bytesRead(): number;
}

const READ_SIZE = 64 * 1024;

function open(file: string): ReadStream {
  return createReadStream(file, { encoding: "utf8", highWaterMark: READ_SIZE });
}

/** The CSV records of `file`: the header alone as the first chunk (without a byte-order mark), then the data records. */
export function csvRecords(file: string): RecordSource<string[]> {
  const stream = open(file);
  return { chunks: csvChunks(stream), bytesRead: () => stream.bytesRead };
}

async function* csvChunks(stream: ReadStream): AsyncGenerator<string[][]> {
  const queue: string[][][] = [];
  let parser: Papa.Parser | undefined;
  let finished = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    wake?.();
    wake = undefined;
  };
  // In stream mode papaparse keeps a line until it is complete, and emits no empty record after the final line break.
  Papa.parse<string[]>(stream as unknown as Papa.LocalFile, {
    chunk(results, p) {
      parser = p;
      queue.push(results.data);
      p.pause();
      notify();
    },
    complete() {
      finished = true;
      notify();
    },
    error(error: Error) {
      failure = error;
      notify();
    },
  });
  stream.on("error", (error) => {
    failure = error;
    notify();
  });

  let width: number | undefined;
  try {
    for (;;) {
      if (failure) throw failure;
      let chunk = queue.shift();
      if (chunk === undefined) {
        if (finished) break;
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if (width === undefined && chunk.length > 0) {
        const header = chunk[0] as string[];
        if (header[0]?.startsWith("\ufeff")) header[0] = header[0].slice(1);
        width = header.length;
        yield [header];
        chunk = chunk.slice(1);
      }
      if (width !== undefined && width > 1) chunk = chunk.filter((record) => !(record.length === 1 && record[0] === ""));
      if (chunk.length > 0) yield chunk;
      parser?.resume();
    }
  } finally {
    if (!finished) {
      parser?.abort();
      stream.destroy();
    }
  }
}

/** The JSON Lines records of `file`, each checked to be a JSON object (errors name the line). */
export function jsonlRecords(file: string): RecordSource<Record<string, unknown>> {
  const stream = open(file);
  return { chunks: jsonlChunks(stream), bytesRead: () => stream.bytesRead };
}

const JSONL_CHUNK = 1000;

async function* jsonlChunks(stream: ReadStream): AsyncGenerator<Record<string, unknown>[]> {
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let chunk: Record<string, unknown>[] = [];
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      lineNumber++;
      if (line.trim() === "") continue;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch (error) {
        throw new StoreError("invalid_json", `Line ${lineNumber} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (typeof record !== "object" || record === null || Array.isArray(record)) {
        throw new StoreError("invalid_json", `Line ${lineNumber} is not a JSON object; each line holds one record as an object.`);
      }
      chunk.push(record as Record<string, unknown>);
      if (chunk.length === JSONL_CHUNK) {
        yield chunk;
        chunk = [];
      }
    }
    if (chunk.length > 0) yield chunk;
  } finally {
    lines.close();
    stream.destroy();
  }
}
