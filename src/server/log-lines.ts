/**
 * Where the service's log lines go: standard output, written once per
 * event-loop turn instead of once per line.
 *
 * Under load one turn answers many requests; a write call per request line
 * measured about 8% of the server's CPU time per request (bench/http.ts).
 * Lines are joined and written at `setImmediate`, before the next turn's I/O,
 * and the process 'exit' handler writes whatever is pending, so
 * `process.exit`, a failed startup and an uncaught exception lose nothing;
 * only a SIGKILL can drop the current turn's lines. (stdout to a pipe or a
 * file is synchronous on Linux, so the exit-time write completes.)
 */

export interface LineSink {
  write(line: string): boolean;
}

export function batchedLines(out: { write(text: string): unknown } = process.stdout): LineSink {
  let pending: string[] = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join("");
    pending = [];
    out.write(text);
  };
  process.on("exit", flush);
  return {
    write(line: string): boolean {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      return true;
    },
  };
}
