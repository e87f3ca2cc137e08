/**
 * The tool's output: stdout for results, stderr for errors and progress.
 *
 * Writes wait for the stream to drain when its buffer is full, so an export
 * piped into a slow reader holds a bounded amount in memory instead of
 * queueing the whole answer.
 */

import type { Writable } from "node:stream";
import { renderError, renderErrorJson, type ErrorContext } from "./render/problem.js";
import { exitCodeOf } from "./failure.js";

export function write(stream: Writable, text: string): Promise<void> | undefined {
  if (stream.write(text)) return undefined;
  return new Promise((resolve, reject) => {
    const done = (error?: Error): void => {
      stream.off("drain", done);
      stream.off("error", done);
      if (error) reject(error);
      else resolve();
    };
    stream.on("drain", done);
    stream.on("error", done);
  });
}

/**
 * What stdout's reader going away (EPIPE: `storedb … | head`) means. For
 * most commands (`export`), it asked for no more: exit 0 at once. A script
 * (`sql`, `shell`) must not go on applying statements nobody sees, nor end
 * as if it had run whole: it stops before its next statement and exits 1.
 */
let whenClosed: "exit" | "stop" = "exit";
let closed = false;

/** stdout was closed while a script ran: it stops here (exit 1); what ran before stays applied. */
export class OutputClosed extends Error {
  /** `discarded`: the statements of a transaction left open, dropped with it. */
  constructor(discarded?: number) {
    const open = discarded === undefined ? "" : `; the open transaction was discarded: none of its ${discarded === 1 ? "1 statement was" : `${discarded} statements were`} applied`;
    super(`stdout was closed (its reader stopped reading), so the script stopped: the statements before this point stay applied${open}`);
    this.name = "OutputClosed";
  }
}

/** For scripts: a closed stdout stops the command (`OutputClosed`) instead of ending it with exit 0. */
export function stopWhenStdoutCloses(): void {
  whenClosed = "stop";
}

/** Called on stdout's EPIPE: whether the process should end now, quietly (the command asked for no more). */
export function stdoutClosed(): boolean {
  closed = true;
  return whenClosed === "exit";
}

/** Throws `OutputClosed` once stdout has been closed under a script. */
export function checkStdout(): void {
  if (closed) throw new OutputClosed();
}

export function out(text: string): Promise<void> | undefined {
  checkStdout();
  return write(process.stdout, text)?.catch((error: NodeJS.ErrnoException) => {
    throw error.code === "EPIPE" ? new OutputClosed() : error;
  });
}

/** Reports `error` on stderr (as JSON with `json`) and returns the exit code it stands for. */
export function report(error: unknown, options: ErrorContext & { readonly json?: boolean } = {}): number {
  process.stderr.write(options.json === true ? renderErrorJson(error, options) : renderError(error, options));
  return exitCodeOf(error);
}
