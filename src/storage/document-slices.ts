/**
 * A whole `.store` document written in slices, for a checkpoint that must
 * not hold the event loop: commands keep running between slices.
 *
 * The writer's pieces (a few hundred rows each) are gathered into chunks of
 * about `CHUNK_CHARS`, each encoded and hashed as it fills, and the loop
 * yields to the event loop whenever a slice has run for `budgetMs`. The
 * checksum placeholder starts the first chunk, so hashing the chunks as
 * they come is hashing the file with its digits at `0` — the checksum —
 * which is patched in at the end and is also the document's identity. The
 * tables are a snapshot (rows are values), so the state cannot move under
 * the writer however long it takes.
 */

import { createHash } from "node:crypto";
import type { TableSnapshot } from "../catalog/types.js";
import { writeDigits } from "./checksum.js";
import type { StoreWriter } from "./format.js";

/** Rows per piece the writer hands over: small enough to check the clock often. */
const ROWS_PER_PIECE = 128;
/** Characters per chunk: each chunk is one encode and one hash update. */
const CHUNK_CHARS = 64 * 1024;

export interface SlicedDocument {
  readonly chunks: readonly Buffer[];
  readonly bytes: number;
  /** The checksum: the document's identity. */
  readonly identity: string;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Writes `tables` as a document, giving the event loop a turn every `budgetMs` of work. */
export async function writeInSlices(writer: StoreWriter, tables: readonly TableSnapshot[], budgetMs: number): Promise<SlicedDocument> {
  const hash = createHash("sha256");
  const chunks: Buffer[] = [];
  let bytes = 0;
  let pending: string[] = [];
  let pendingChars = 0;
  const flush = () => {
    const chunk = Buffer.from(pending.join(""), "utf8");
    hash.update(chunk);
    chunks.push(chunk);
    bytes += chunk.length;
    pending = [];
    pendingChars = 0;
  };
  let sliceStart = performance.now();
  for (const piece of writer.pieces(tables, ROWS_PER_PIECE)) {
    pending.push(piece);
    pendingChars += piece.length;
    if (pendingChars >= CHUNK_CHARS) flush();
    if (performance.now() - sliceStart >= budgetMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
  flush();
  const hex = hash.digest("hex");
  writeDigits(chunks[0]!, hex);
  return { chunks, bytes, identity: "sha256:" + hex };
}
