/**
 * `DataDirectory`: the databases of one data directory, as the service sees
 * them (CONTRACT §1, §2).
 *
 * A database name reaches the filesystem only here, and only as
 * `<dir>/<name>.store` after `assertDatabaseName` (the §1 pattern: no
 * separators, no dots, no device names). Databases open lazily on first use
 * and stay in memory, each with its own serial queue, so a slow write to one
 * never holds up another. Opening takes the directory lock, removes temp
 * files left by a crash and starts one `ChangeWatch` on the directory, which
 * tells each database when someone else may have changed its file; closing
 * drains every queue and releases the lock.
 */

import path from "node:path";
import { checkThen, runChecked } from "../checked.js";
import { assertDatabaseName } from "../commands/index.js";
import type { Command } from "../commands/types.js";
import type { Result } from "../commands/results.js";
import { Database } from "../database.js";
import { StoreError } from "../errors.js";
import { nodeFs } from "./fs.js";
import type { FileSystem } from "./fs.js";
import { ChangeWatch } from "./change-watch.js";
import { DatabaseListing, type DatabaseSummary } from "./listing.js";
import { DirectoryLock } from "./lock.js";
import type { CheckpointPolicy } from "./checkpoint-schedule.js";
import { JournaledFile } from "./journaled-file.js";
import type { EngineFactory, StorageEvents } from "./persistence.js";
import { removeLeftovers } from "./temp-files.js";

export interface DataDirectoryOptions {
  /** Storage events (a journal discarded or cut, a checkpoint failed), for the service's log. */
  readonly onEvent?: StorageEvents;
  /** When checkpoints run unbidden (see `CheckpointPolicy` for the defaults). */
  readonly checkpoints?: CheckpointPolicy;
  /** The file-system layer (tests instrument it). */
  readonly fs?: FileSystem;
  readonly engines?: EngineFactory;
}

function directoryFailure(what: string, error: unknown): StoreError {
  const code = (error as NodeJS.ErrnoException | null)?.code ?? "error";
  return new StoreError("storage_error", `The data directory ${what} (${code}).`, { cause: error });
}

export class DataDirectory {
  private readonly databases = new Map<string, Database>();
  private closing: Promise<void> | undefined;
  private readonly listing: DatabaseListing;

  private constructor(
    /** The directory's real path (symlinks resolved): files must resolve inside it. */
    readonly dir: string,
    private readonly fs: FileSystem,
    private readonly lock: DirectoryLock,
    private readonly options: DataDirectoryOptions,
    /** Tells each database when its file may have changed, so commands need not stat it. */
    private readonly watch: ChangeWatch,
  ) {
    this.listing = new DatabaseListing(dir);
  }

  /** Creates `dir` if missing, takes its lock (throws if another live process holds it), removes leftover temp files. */
  static async open(dir: string, options: DataDirectoryOptions = {}): Promise<DataDirectory> {
    const fs = options.fs ?? nodeFs;
    let real: string;
    try {
      await fs.mkdir(dir);
      real = await fs.realpath(dir);
    } catch (error) {
      throw directoryFailure("could not be created", error);
    }
    const lock = await DirectoryLock.acquire(fs, real);
    try {
      await removeLeftovers(fs, real);
    } catch (error) {
      await lock.release();
      throw directoryFailure("could not be cleaned of leftover temp files", error);
    }
    return new DataDirectory(real, fs, lock, options, ChangeWatch.start(fs, real));
  }

  /** Runs a command of CONTRACT §4, given as plain JSON (validated strictly first), on database `database`. */
  execute(database: string, command: unknown): Promise<Result> {
    return checkThen(command, (checked) => this[runChecked](database, checked));
  }

  /** `execute` for a command already validated (the service checks whole envelopes; see `checked.ts`). */
  [runChecked](database: string, command: Command): Promise<Result> {
    if (this.closing) return Promise.reject(new StoreError("shutting_down", "The server is shutting down."));
    // Only checked names are ever kept, so a name found here needs no check.
    let db = this.databases.get(database);
    if (db === undefined) {
      try {
        db = this.open(assertDatabaseName(database));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return db[runChecked](command);
  }

  /** How many databases are open (held in memory, or being loaded). */
  openCount(): number {
    return this.databases.size;
  }

  /** The databases in the directory, sorted by name, without loading any (`listing.ts`). */
  list(): Promise<DatabaseSummary[]> {
    if (this.closing) return Promise.reject(new StoreError("shutting_down", "The server is shutting down."));
    return this.listing.list((name) => this.databases.get(name));
  }

  /** Opens and keeps the database named `name` (checked, not yet open). */
  private open(name: string): Database {
    const file = path.join(this.dir, `${name}.store`);
    const { engines, checkpoints, onEvent } = this.options;
    const db = new Database(new JournaledFile(this.fs, file, { confineTo: this.dir, engines, watch: this.watch, checkpoints, onEvent }), engines);
    this.databases.set(name, db);
    return db;
  }

  /** Stops taking commands, waits for every queued command and write, folds every journal, then releases the lock. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.databases.values()].map((db) => db.close()));
      this.watch.close();
      await this.lock.release();
    })();
    return this.closing;
  }
}
