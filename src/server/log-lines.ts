/**
 * Where the service's log lines go: standard output, gathered and written
 * in batches instead of once per line.
 *
 * Under load every request writes a line; a write call per line measured
 * about 8% of the server's CPU time per request (bench/http.ts), and one
 * write per event-loop turn still ~1 µs of a point select, since a turn
 * answers only a few requests. Lines are written at most `FLUSH_MS` after
 * the first of a batch, or at once when a batch reaches `FLUSH_BYTES`, and
 * the process 'exit' handler writes whatever is pending, so `process.exit`,
 * a failed startup and an uncaught exception lose nothing; only a SIGKILL
 * can drop the last `FLUSH_MS` of lines. (stdout to a pipe or a file is
 * synchronous on Linux, so the exit-time write completes.)
 */

export interface LineSink {
  write(line: string): boolean;
}

/** A line waits at most this long before it is written. */
export const FLUSH_MS = 50;
/** A batch this large is written at once. */
export const FLUSH_BYTES = 64 * 1024;

export function batchedLines(out: { write(text: string): unknown } = process.stdout): LineSink {
  let pending = "";
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending === "") return;
    const text = pending;
    pending = "";
    out.write(text);
  };
  process.on("exit", flush);
  return {
    write(line: string): boolean {
      pending += line;
      if (pending.length >= FLUSH_BYTES) flush();
      else if (timer === undefined) timer = setTimeout(flush, FLUSH_MS).unref();
      return true;
    },
  };
}
