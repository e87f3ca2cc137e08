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

export function out(text: string): Promise<void> | undefined {
  return write(process.stdout, text);
}

/** Reports `error` on stderr (as JSON with `json`) and returns the exit code it stands for. */
export function report(error: unknown, options: ErrorContext & { readonly json?: boolean } = {}): number {
  process.stderr.write(options.json === true ? renderErrorJson(error, options) : renderError(error, options));
  return exitCodeOf(error);
}
