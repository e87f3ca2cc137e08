/**
 * `DataDirectory`: the databases of one data directory, as the service sees
 * them (CONTRACT §1, §2).
 *
 * A database name reaches the filesystem only here, and only as
 * `<dir>/<name>.store` after `assertDatabaseName` (the §1 pattern: no
 * separators, no dots, no device names). Databases open lazily on first use
 * and stay in memory, each with its own serial queue, so a slow write to one
 * never holds up another; each takes its own lock (`<name>.store-lock`)
 * when it first reads an existing database or creates one, so a library
 * process writing a database here gets `database_locked`, and so does a
 * command here on a database such a process writes. Opening takes the
 * directory lock, removes temp files left by a crash and starts one
 * `ChangeWatch` on the directory, which tells each database when someone
 * else may have changed its file; closing drains every queue, folds every
 * journal and releases the locks.
 */

import path from "node:path";
import { checkThen, runChecked } from "../checked.js";
import { assertDatabaseName } from "../commands/index.js";
import { DATABASE_NAME_PATTERN } from "../commands/names.js";
import type { Command } from "../commands/types.js";
import type { Result } from "../commands/results.js";
import { Database } from "../database.js";
import { StoreError } from "../errors.js";
import { nodeFs } from "./fs.js";
import type { FileSystem } from "./fs.js";
import { ChangeWatch } from "./change-watch.js";
import { DatabaseListing, type DatabaseSummary } from "./listing.js";
import { DirectoryLock, type FileLock } from "./lock.js";
import type { CheckpointPolicy } from "./checkpoint-schedule.js";
import { JournaledFile } from "./journaled-file.js";
import type { EngineFactory, StorageEvents } from "./persistence.js";
import { removeLeftovers } from "./temp-files.js";

const DATABASE_NAME = new RegExp(DATABASE_NAME_PATTERN);

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
  /** By name; a symlinked name maps to its target's database. */
  private readonly databases = new Map<string, Database>();
  /** Names being resolved on their first use. */
  private readonly opening = new Map<string, Promise<Database>>();
  private closing: Promise<void> | undefined;
  private readonly listing: DatabaseListing;

  private constructor(
    /** The directory's real path (symlinks resolved): files must resolve inside it. */
    readonly dir: string,
    private readonly fs: FileSystem,
    private readonly lock: FileLock,
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
    const db = this.databases.get(database);
    if (db !== undefined) return db[runChecked](command);
    let name: string;
    try {
      name = assertDatabaseName(database);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.resolve(name).then((found) => found[runChecked](command));
  }

  /**
   * The database of `name`, opened on its first use. A name whose file is a
   * symlink to another database's file in this directory shares that
   * database — one engine, one journal, one lock — so the link and its
   * target stay one database (two would be two writers of one file).
   */
  private resolve(name: string): Promise<Database> {
    let opening = this.opening.get(name);
    if (opening === undefined) {
      opening = this.linkedName(name)
        .then((target) => {
          const db = this.databases.get(name) ?? (target === undefined ? this.open(name) : (this.databases.get(target) ?? this.open(target)));
          this.databases.set(name, db);
          return db;
        })
        .finally(() => this.opening.delete(name));
      this.opening.set(name, opening);
    }
    return opening;
  }

  /** The name of the database whose file `name`'s file links to, when it is another one in this directory. */
  private async linkedName(name: string): Promise<string | undefined> {
    const file = path.join(this.dir, `${name}.store`);
    const link = await this.fs.lstat(file).catch(() => null);
    if (link === null || !link.isSymbolicLink) return undefined;
    const real = await this.fs.realpath(file).catch(() => null);
    if (real === null || path.dirname(real) !== this.dir || !real.endsWith(".store")) return undefined;
    const target = path.basename(real, ".store");
    return DATABASE_NAME.test(target) && target !== name ? target : undefined;
  }

  /** How many databases are open (held in memory, or being loaded). */
  openCount(): number {
    return new Set(this.databases.values()).size;
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
      await Promise.all([...new Set(this.databases.values())].map((db) => db.close()));
      this.watch.close();
      await this.lock.release();
    })();
    return this.closing;
  }
}
