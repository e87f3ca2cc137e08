/**
 * Where the service's log lines go: standard output, gathered and written
 * in batches instead of once per line.
 *
 * Under load every request writes a line. A write call per line measured
 * about 8% of the server's CPU time per request (bench/http.ts), and one
 * write per event-loop turn still ~1 µs of a point select, since a turn
 * answers only a few requests. Lines are written at most `FLUSH_MS` after
 * the first of a batch, or at once when a batch fills its `FLUSH_BYTES`
 * buffer, and the process 'exit' handler writes whatever is pending, so
 * `process.exit`, a failed startup and an uncaught exception lose nothing;
 * only a SIGKILL can drop the last `FLUSH_MS` of lines.
 *
 * Batches go straight to the descriptor (`writeSync`), never through
 * `process.stdout`: to a pipe that stream is asynchronous, and what it
 * queues while the reader is behind is dropped by an exit (a reader
 * stalled at the end lost the last ~100 of 2,000 lines). What the
 * descriptor does not take at once stays in the batch buffer: it is
 * offered again `RETRY_MS` later, a line that does not fit waits for room,
 * and the exit handler waits up to `EXIT_WAIT_MS` for a slow reader. A
 * reader that went away (EPIPE) is not waited for.
 *
 * Each line is encoded into the batch buffer as it arrives, so its string
 * dies young instead of living on in a rope of a few hundred lines through
 * the young generation's collections until the batch is written; the one
 * buffer is reused for every batch (a fresh 64 kB per batch, touched page
 * by page, made each flush ~40% dearer under bench/http's load).
 */

import { writeSync } from "node:fs";

export interface LineSink {
  write(line: string): boolean;
}

/** A line waits at most this long before it is written. */
export const FLUSH_MS = 50;
/** The batch buffer's size: a batch this full is written at once. */
export const FLUSH_BYTES = 64 * 1024;
/** What the reader did not take is offered again this much later. */
export const RETRY_MS = 10;
/** At exit, a reader still behind is waited for this long at most. */
const EXIT_WAIT_MS = 10_000;
/** The most bytes a UTF-16 code unit can take in UTF-8. */
const MAX_BYTES_PER_UNIT = 3;

/**
 * Where batches go: takes what it can of `bytes` without waiting for the
 * reader and says how many it took (0: the reader is behind). Throws when
 * the output is gone for good.
 */
export type LineOutput = (bytes: Uint8Array) => number;

/** A descriptor as a `LineOutput`: a non-blocking pipe's EAGAIN is "took nothing yet". */
export function descriptorOutput(fd: number): LineOutput {
  return (bytes) => {
    try {
      return writeSync(fd, bytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EAGAIN") return 0;
      throw error;
    }
  };
}

const pause = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number) => Atomics.wait(pause, 0, 0, ms);

export function batchedLines(out: LineOutput = descriptorOutput(1)): LineSink {
  const buffer = Buffer.allocUnsafe(FLUSH_BYTES);
  let used = 0;
  let timer: NodeJS.Timeout | undefined;
  /** The output threw (the reader is gone): lines are dropped from then on rather than waited for. */
  let gone = false;

  /** Offers `bytes` once; returns how many were taken. */
  const offer = (bytes: Uint8Array): number => {
    if (gone) return bytes.length;
    try {
      return out(bytes);
    } catch {
      gone = true;
      return bytes.length;
    }
  };
  /** Offers `bytes` until all are taken or `deadline` passes. */
  const drain = (bytes: Uint8Array, deadline: number): void => {
    let at = 0;
    while (at < bytes.length) {
      const taken = offer(at === 0 ? bytes : bytes.subarray(at));
      at += taken;
      if (taken === 0) {
        if (Date.now() >= deadline) return;
        sleep(1);
      }
    }
  };
  /** Writes what the output takes now; keeps the rest at the buffer's start for a retry. */
  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (used === 0) return;
    const taken = offer(buffer.subarray(0, used));
    if (taken < used) buffer.copyWithin(0, taken, used);
    used -= taken;
    if (used > 0) timer = setTimeout(flush, RETRY_MS).unref();
  };
  /** Makes room for `bytes` more, waiting for the reader when it must. */
  const makeRoom = (bytes: number): void => {
    flush();
    if (used + bytes <= FLUSH_BYTES) return;
    drain(buffer.subarray(0, used), Infinity);
    used = 0;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  process.on("exit", () => {
    if (timer !== undefined) clearTimeout(timer);
    if (used > 0) drain(buffer.subarray(0, used), Date.now() + EXIT_WAIT_MS);
    used = 0;
  });
  return {
    write(line: string): boolean {
      const room = line.length * MAX_BYTES_PER_UNIT;
      if (used + room > FLUSH_BYTES) makeRoom(room);
      if (room > FLUSH_BYTES) {
        // Everything before it has gone (makeRoom emptied the buffer): the long line goes alone.
        drain(Buffer.from(line, "utf8"), Infinity);
        return true;
      }
      used += buffer.write(line, used, "utf8");
      if (timer === undefined) timer = setTimeout(flush, FLUSH_MS).unref();
      return true;
    },
  };
}
