/**
 * Exit codes scripts can trust, and the one error the tool adds.
 *
 * 0: done. 1: the command failed — the database refused it (any
 * `StoreError`: bad SQL, a constraint, a missing table, a locked database)
 * or, for `validate`, found the database invalid. 2: the invocation is wrong
 * (unknown command or option, missing argument, a file that cannot be
 * read) — nothing was sent anywhere. 3: no answer — the server could not be
 * reached, did not answer in time, or answered with something that is not
 * storedb's; whether a write happened is unknown.
 */

import { ConnectionError } from "../client/connection-error.js";

export const EXIT = { ok: 0, failed: 1, usage: 2, noAnswer: 3 } as const;

/** A wrong invocation: reported with the command's usage, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof ConnectionError) return EXIT.noAnswer;
  return EXIT.failed;
}
