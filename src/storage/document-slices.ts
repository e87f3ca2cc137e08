/**
 * A whole `.store` document written in slices straight into its file, for a
 * checkpoint that must not hold the event loop, the heap or the disk: commands
 * keep running between slices, and journal appends keep being answered.
 *
 * The writer's pieces (a few hundred rows each) are encoded into one of two
 * reused buffers of the largest chunk's size; a full chunk is hashed and written
 * at its place in the file while the other one fills, so at most one write
 * is in flight and the document never sits whole in memory (8 MB of fresh
 * buffers per checkpoint of a 100k-row table had the garbage collector
 * stopping the process for full collections). The file is meant to be
 * opened O_DSYNC: each chunk reaches the disk before the next is written, so
 * a journal append issued meanwhile waits behind one chunk at most, never
 * behind the flush of the whole document (one fsync at the end of 8 MB of
 * plain writes stalled appends for tens of milliseconds).
 *
 * How often it yields and how large its chunks are is the caller's `Pace`.
 * A live checkpoint (`LIVE`) writes 16 KB chunks while its database's
 * appends come in (the caller's `busy`), since each append waits behind the
 * chunk on the disk, and 256 KB chunks while none do. Inserts from one
 * client into 100k rows while checkpoints ran back to back: p99 over the
 * median 5.1–6.4x with 64 KB chunks throughout, 2.6–4.7x with 16 KB (each
 * checkpoint then takes ~3x as long, 0.45 s). A database's last checkpoint,
 * as it closes, has no appends to let through and takes 1 MB chunks
 * (`CLOSING`): a 107 MB document in 64 KB chunks took 3.3 s (1.7 s of CPU,
 * the kernel's share of 1,600 durable writes among it), in 1 MB chunks 0.76 s.
 *
 * The checksum placeholder is the first piece, kept back as chunk 0 and
 * hashed first: hashing the chunks in file order is hashing the file with
 * its digits at `0` — the checksum — which is patched into chunk 0, written
 * last at offset 0. The tables are a snapshot (rows are values), so the
 * state cannot move under the writer however long it takes.
 */

import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { TableSnapshot } from "../catalog/types.js";
import { writeDigits } from "./checksum.js";
import type { StoreWriter } from "./format.js";

/** Rows per piece the writer hands over: small enough to check the clock often. */
const ROWS_PER_PIECE = 128;
/**
 * How the writer shares the process and the disk: a turn for the event loop
 * every `budgetMs` of work, chunks of `chunkBytes` (each one hash update and
 * one durable write), or of `busyChunkBytes` while the sink says appends are
 * waiting.
 */
export interface Pace {
  readonly budgetMs: number;
  readonly chunkBytes: number;
  readonly busyChunkBytes: number;
}

/** Beside the database's own appends: each waits behind one 16 KB chunk at most. */
export const LIVE: Pace = { budgetMs: 0.25, chunkBytes: 256 * 1024, busyChunkBytes: 16 * 1024 };
/** As the database closes: no append of its own waits, other databases' commands still get turns. */
export const CLOSING: Pace = { budgetMs: 0.25, chunkBytes: 1024 * 1024, busyChunkBytes: 1024 * 1024 };

/** Where the document goes: a file written at explicit offsets. */
export interface ChunkSink {
  write(data: Uint8Array, position: number): Promise<void>;
  /** Whether writes of others wait on the same disk now (smaller chunks let them through sooner). */
  busy?(): boolean;
}

export interface SlicedDocument {
  readonly bytes: number;
  /** The checksum: the document's identity. */
  readonly identity: string;
}

/** Writes `tables` as a document into `sink` at `pace`. */
export async function writeInSlices(writer: StoreWriter, tables: readonly TableSnapshot[], pace: Pace, sink: ChunkSink): Promise<SlicedDocument> {
  const { budgetMs, chunkBytes, busyChunkBytes } = pace;
  const limit = () => (sink.busy?.() ? busyChunkBytes : chunkBytes);
  const hash = createHash("sha256");
  const spare = [Buffer.allocUnsafe(chunkBytes), Buffer.allocUnsafe(chunkBytes)];
  let first: Buffer | undefined;
  let buffer = spare[0]!;
  let used = 0;
  let position = 0;
  let writing: Promise<void> = Promise.resolve();
  /** Hashes `bytes` and writes them after the write in flight, at the next place in the file. */
  const emit = async (bytes: Buffer) => {
    hash.update(bytes);
    const at = position;
    position += bytes.length;
    await writing;
    writing = sink.write(bytes, at);
    // Seen at the next chunk or at the end; until then a failure must not count as unhandled.
    writing.catch(() => undefined);
  };
  const flush = async () => {
    if (used === 0) return;
    const full = buffer.subarray(0, used);
    buffer = buffer === spare[0] ? spare[1]! : spare[0]!;
    used = 0;
    await emit(full);
  };
  /** Writes `text` into the buffer if it surely fits under `cap` (a UTF-16 unit takes at most 3 bytes in UTF-8). */
  const fits = (text: string, cap: number): boolean => {
    if (used + text.length * 3 > cap) return false;
    used += buffer.write(text, used, "utf8");
    return true;
  };
  /** Writes `text` that did not fit after flushing the buffer: into it, or as a chunk of its own when it is larger than one. */
  const spill = async (text: string) => {
    await flush();
    if (text.length * 3 > chunkBytes) await emit(Buffer.from(text, "utf8"));
    else used += buffer.write(text, used, "utf8");
  };
  try {
    let sliceStart = performance.now();
    for (const piece of writer.pieces(tables, ROWS_PER_PIECE)) {
      if (first === undefined) {
        if (typeof piece !== "string") throw new Error("a document starts with its checksum placeholder");
        first = Buffer.from(piece, "utf8");
        hash.update(first);
        position = first.length;
        continue;
      }
      if (typeof piece === "string") {
        if (!fits(piece, limit())) await spill(piece);
      } else {
        // Line by line, so no text of the run is ever built (see `LineRun`); a promise only to flush.
        const { lines, start, end } = piece;
        const cap = limit();
        for (let i = start; i < end; i++) {
          if (i > start && !fits(",\n", cap)) await spill(",\n");
          if (!fits(lines[i]!, cap)) await spill(lines[i]!);
        }
      }
      if (performance.now() - sliceStart >= budgetMs) {
        await nextTurn();
        sliceStart = performance.now();
      }
    }
    await flush();
    await writing;
  } catch (error) {
    await writing.catch(() => undefined);
    throw error;
  }
  const hex = hash.digest("hex");
  writeDigits(first!, hex);
  await sink.write(first!, 0);
  return { bytes: position, identity: "sha256:" + hex };
}
