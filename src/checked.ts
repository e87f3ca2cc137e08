/**
 * The entry the service uses for commands it has already validated.
 *
 * The public surfaces (`Database.execute`, `DataDirectory.execute`) check
 * every command, since a JavaScript caller's types are not enforced and a
 * malformed command must answer `invalid_request`, not fail inside the
 * engine. The HTTP route validates the whole envelope against the same
 * schemas before it runs a command; checking again would cost ~1 µs per
 * request. It reaches the unchecked entry through this symbol, which the
 * package root does not export.
 */

import { parseCommand } from "./commands/index.js";
import type { Command } from "./commands/types.js";

export const runChecked: unique symbol = Symbol("storedb.runChecked");

/** `run` on `command` once `parseCommand` accepts it; a refused command is a rejection, like every other failure. */
export function checkThen<T>(command: unknown, run: (command: Command) => Promise<T>): Promise<T> {
  let parsed: Command;
  try {
    parsed = parseCommand(command);
  } catch (error) {
    return Promise.reject(error);
  }
  return run(parsed);
}
