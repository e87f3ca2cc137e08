/**
 * Reads a JSON Lines file as chunks of records, with bounded memory: one
 * JSON object per line; blank lines are skipped. `bytesRead` says how far
 * into the file the reader is, for progress. (CSV has its own reader,
 * `csv-reader.ts`, which makes values straight from the bytes.)
 */

import { createReadStream, type ReadStream } from "node:fs";
import { createInterface } from "node:readline";
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
