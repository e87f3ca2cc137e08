/**
 * Where a command-line command sends its commands: a database in a data
 * directory, opened in this process, or a database on a running server.
 *
 * A data directory goes through `Database.open`, the library's own way in,
 * so the tool obeys the same rules as any library user: it takes the
 * database's lock (CONTRACT §10), and a database a running server holds
 * answers `database_locked` — send such commands with `--url` instead. A
 * server goes through the package's HTTP client. Either way the command
 * gets a `Queryable`, so no command knows which one it has.
 */

import path from "node:path";
import type { Queryable } from "../api/queryable.js";
import type { Result } from "../commands/results.js";
import type { Command } from "../commands/types.js";
import { assertDatabaseName } from "../commands/names.js";
import type { CheckpointPolicy } from "../storage/checkpoint-schedule.js";
import { UsageError } from "./failure.js";

export interface TargetOptions {
  /** `--data`: the data directory (default `$STORE_DATA_PATH`, else `./data`). */
  readonly data?: string;
  /** `--url`: a running server. */
  readonly url?: string;
  /** `--api-key` (else `$STORE_API_KEY`), for `--url` only. */
  readonly apiKey?: string;
}

export interface Target {
  readonly db: Queryable;
  /** Where the commands go, for messages: a file path or a URL. */
  readonly where: string;
  /** True for a server: the command cannot read the data directory. */
  readonly remote: boolean;
  /**
   * Runs a command this tool built itself, well-formed by construction (its
   * names checked, its values scalars): in this process without the JSON
   * Schema check `db.execute` does for commands from outside — the engine
   * still checks every value's type and every constraint — as the service
   * does once it has validated a request. A server validates it as always.
   */
  run(command: Command): Promise<Result>;
  /** Waits for queued writes and releases the database (a no-op for a server). */
  close(): Promise<void>;
}

/** `checkpoints`: when a data directory's database checkpoints unbidden while the command runs (a server keeps its own policy). */
export async function openTarget(name: string, options: TargetOptions, checkpoints?: CheckpointPolicy): Promise<Target> {
  if (options.url !== undefined && options.data !== undefined) throw new UsageError("give --data or --url, not both");
  if (options.url === undefined && options.apiKey !== undefined) throw new UsageError("--api-key needs --url");
  if (options.url !== undefined) {
    const { createClient } = await import("../client/index.js");
    let client;
    try {
      client = createClient({ url: options.url, apiKey: options.apiKey ?? process.env.STORE_API_KEY });
    } catch (error) {
      throw new UsageError(`--url ${options.url}: ${error instanceof Error ? error.message.replace(/^createClient: /, "") : String(error)}`);
    }
    const db = client.database(name);
    return { db, where: options.url, remote: true, run: (command) => db.execute(command), close: async () => {} };
  }
  const file = path.join(options.data ?? process.env.STORE_DATA_PATH ?? "./data", `${assertDatabaseName(name)}.store`);
  const { Database } = await import("../database.js");
  const checked = await import("../checked.js");
  const db = await Database.open(file, checkpoints === undefined ? {} : { checkpoints });
  return { db, where: file, remote: false, run: (command) => db[checked.runChecked](command), close: () => db.close() };
}
