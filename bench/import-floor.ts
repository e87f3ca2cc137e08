/**
 * The least work from CSV bytes to rows, and to a durable document of the
 * same rows, in this runtime: run by `bench/import.ts` (bundled, a fresh
 * process per run) beside `storedb import` and `sqlite3`.
 *
 * `rows`: read the file and make every record a row array of typed values
 * in memory (storedb's CSV reader, `csv-reader.ts`, with nothing after it)
 * — what any engine in this runtime holding the rows must do at least.
 * `durable`: that, plus what storedb's design writes: one JSON line per
 * 50,000-row batch (CRC, `O_DSYNC` append), then the rows as the
 * document's JSON lines (one `JSON.stringify` of objects keyed in column
 * order per 512 rows, as the writer's bulk path does), encoded into 1 MB
 * chunks, SHA-256, written, fsync'd. No validation, keys, change records,
 * command queue or document header: whatever storedb spends beyond this
 * is its own.
 *
 * Usage: import-floor.js rows|durable <file.csv> <out-dir>
 */

import { createHash } from "node:crypto";
import { closeSync, constants, fsyncSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { readCsv } from "../src/cli/transfer/csv-reader.js";
import type { ColumnType, Value } from "../src/commands/types.js";
import { journalLine } from "../src/storage/journal-format.js";

const BATCH = 50_000;
const TYPES: ColumnType[] = ["integer", "text", "integer", "real", "boolean", "text"];

const [stage, file, out] = process.argv.slice(2) as [string, string, string];
const durable = stage === "durable";
const rows: Value[][] = [];
let row: Value[] = [];
let columns: readonly string[] = [];
let batchStart = 0;
const journal = durable ? openSync(path.join(out, "floor.journal"), constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_DSYNC) : -1;

function appendBatch(): void {
  if (journal === -1 || rows.length === batchStart) return;
  const json = `{"seq":1,"changes":[{"kind":"insert","table":"t","position":${batchStart},"rows":${JSON.stringify(rows.slice(batchStart))}}]}`;
  writeSync(journal, journalLine(json));
  batchStart = rows.length;
}

await readCsv(file, {
  header: (names) => ((columns = names), TYPES.slice(0, names.length)),
  values: () => row,
  endRecord: () => {
    rows.push(row);
    row = [];
    return rows.length - batchStart >= BATCH;
  },
  flush: async () => appendBatch(),
});
/** The rows as JSON lines, hashed and written in 1 MB chunks, then fsync'd. */
function writeDocument(): void {
  const members = columns.map((column, i) => `${JSON.stringify(column)}: r[${i}]`).join(", ");
  const toObject = new Function("r", `return { ${members} };`) as (row: Value[]) => object;
  const hash = createHash("sha256");
  const fd = openSync(path.join(out, "floor.store"), "w");
  let chunk = Buffer.allocUnsafe(1 << 20);
  let used = 0;
  const seal = (): void => {
    hash.update(chunk.subarray(0, used));
    writeSync(fd, chunk, 0, used);
    chunk = Buffer.allocUnsafe(1 << 20);
    used = 0;
  };
  for (let start = 0; start < rows.length; start += 512) {
    const text = JSON.stringify(rows.slice(start, start + 512).map(toObject)).slice(1, -1).replaceAll("},{", "},\n{") + ",\n";
    if (text.length * 3 > chunk.length - used) seal();
    used += chunk.write(text, used, "utf8");
  }
  seal();
  hash.digest("hex");
  fsyncSync(fd);
  closeSync(fd);
}

if (durable) {
  appendBatch();
  closeSync(journal);
  writeDocument();
}
console.log(`${rows.length} rows`);
