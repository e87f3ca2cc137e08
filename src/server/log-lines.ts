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
 * only a SIGKILL can drop the last `FLUSH_MS` of lines. (stdout to a pipe or
 * a file is synchronous on Linux, so the exit-time write completes.)
 *
 * Each line is encoded into the batch's buffer as it arrives, so its string
 * dies young instead of living on in a rope of a few hundred lines through
 * the young generation's collections until the batch is written. The buffer
 * is reused when the stream took the batch at once (its `writableLength` is
 * back at 0: standard output to a file or pipe on Linux); a stream that still
 * holds it gets it for good and the next batch a fresh one. A fresh 64 kB per
 * batch, touched page by page, made each flush ~40% dearer (measured in the
 * service under bench/http's load).
 */

export interface LineSink {
  write(line: string): boolean;
}

/** A line waits at most this long before it is written. */
export const FLUSH_MS = 50;
/** The batch buffer's size: a batch this full is written at once. */
export const FLUSH_BYTES = 64 * 1024;
/** The most bytes a UTF-16 code unit can take in UTF-8. */
const MAX_BYTES_PER_UNIT = 3;

/** Where batches go: a stream (standard output), or anything with `write`. */
export interface LineOutput {
  write(bytes: Uint8Array): unknown;
  /** Bytes the stream still holds (Node's Writable); without it, every batch gets a fresh buffer. */
  readonly writableLength?: number;
}

export function batchedLines(out: LineOutput = process.stdout): LineSink {
  let buffer = Buffer.allocUnsafe(FLUSH_BYTES);
  let used = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (used === 0) return;
    const batch = buffer.subarray(0, used);
    used = 0;
    out.write(batch);
    if (out.writableLength !== 0) buffer = Buffer.allocUnsafe(FLUSH_BYTES);
  };
  process.on("exit", flush);
  return {
    write(line: string): boolean {
      const room = line.length * MAX_BYTES_PER_UNIT;
      if (used + room > FLUSH_BYTES) flush();
      if (room > FLUSH_BYTES) {
        out.write(Buffer.from(line, "utf8"));
        return true;
      }
      used += buffer.write(line, used, "utf8");
      if (timer === undefined) timer = setTimeout(flush, FLUSH_MS).unref();
      return true;
    },
  };
}
