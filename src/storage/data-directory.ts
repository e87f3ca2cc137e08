/**
 * `DataDirectory`: the databases of one data directory, as the service sees
 * them (CONTRACT §1, §2).
 *
 * A database name reaches the filesystem only here, and only as
 * `<dir>/<name>.store` after `assertDatabaseName` (the §1 pattern: no
 * separators, no dots, no device names). Databases open lazily on first use,
 * each with its own serial queue, so a slow write to one never holds up
 * another; each takes its own lock (`<name>.store-lock`) when it first reads
 * an existing database or creates one, so a library process writing a
 * database here gets `database_locked`, and so does a command here on a
 * database such a process writes. Opening takes the directory lock, removes
 * temp files left by a crash and starts one `ChangeWatch` on the directory,
 * which tells each database when someone else may have changed its file;
 * closing drains every queue, folds every journal and releases the locks.
 *
 * Open databases stay in memory within a budget (`open-budget.ts`): past
 * it, idle ones are closed least recently used first — their journal folded
 * into the document, their lock released — and the next command on one
 * opens it again, after its close has finished. "Idle" is the database's own
 * word (nothing queued, running, on its way to disk or checkpointing) plus
 * no answer streaming from it (`hold`). Recency is a counter stamped on
 * every command, a field write on the hot path; the budget is checked after
 * a database opens or loads, when a held answer ends, and every second.
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
import type { StorageObserver } from "./observer.js";
import { evictions, type OpenBudget } from "./open-budget.js";
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
  /** Measurements (loads, commits, checkpoints, evictions), for metrics. */
  readonly observer?: StorageObserver;
  /** How many databases, and how much of their data, stay open; no limit when omitted. */
  readonly budget?: OpenBudget;
}

/** What the service reports about its open databases (`/metrics` gauges). */
export interface StorageGauges {
  readonly openDatabases: number;
  /** Their journals' bytes. */
  readonly journalBytes: number;
  /** Their stored state's bytes (documents and journals), which the memory budget counts. */
  readonly storedBytes: number;
}

/** An open database and its bookkeeping; a symlinked name shares its target's. */
interface Open {
  readonly db: Database;
  /** The names it answers to: its own, and symlinked names that lead to it. */
  readonly names: string[];
  /** The directory's use counter when it last took a command: larger is more recent. */
  used: number;
  /** Answers streaming from it (`hold`): it stays open until they end. */
  holds: number;
}

/** How often the budget is looked at regardless (a busy database turned idle, a journal grown). */
const BUDGET_CHECK_MS = 1_000;

function directoryFailure(what: string, error: unknown): StoreError {
  const code = (error as NodeJS.ErrnoException | null)?.code ?? "error";
  return new StoreError("storage_error", `The data directory ${what} (${code}).`, { cause: error });
}

export class DataDirectory {
  /** By name; a symlinked name maps to its target's database. */
  private readonly databases = new Map<string, Open>();
  /** Names being resolved on their first use. */
  private readonly opening = new Map<string, Promise<Open>>();
  /** Names of evicted databases still closing: opening one again waits for its lock to be released. */
  private readonly evicting = new Map<string, Promise<void>>();
  private uses = 0;
  private closing: Promise<void> | undefined;
  private readonly listing: DatabaseListing;
  private readonly observer: StorageObserver | undefined;
  private budgetCheck: NodeJS.Immediate | undefined;
  private readonly budgetTimer: NodeJS.Timeout | undefined;

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
    const { budget, observer } = options;
    if (budget?.databases !== undefined || budget?.memoryBytes !== undefined) {
      this.budgetTimer = setInterval(() => this.enforceBudget(), BUDGET_CHECK_MS).unref();
      // A database's size is known once it has loaded: look at the budget then.
      this.observer = { ...forward(observer), loaded: (bytes, seconds) => (observer?.loaded(bytes, seconds), this.checkBudgetSoon()) };
    } else {
      this.observer = observer;
    }
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
    const open = this.databases.get(database);
    if (open !== undefined) {
      open.used = ++this.uses;
      return open.db[runChecked](command);
    }
    let name: string;
    try {
      name = assertDatabaseName(database);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.resolve(name).then((found) => {
      found.used = ++this.uses;
      return found.db[runChecked](command);
    });
  }

  /**
   * Keeps database `name` open — never evicted — until the returned function
   * is called: an answer streaming rows from it. Call it right after the
   * command's answer arrived (in the same turn), and once the answer ends.
   */
  hold(name: string): () => void {
    const open = this.databases.get(name);
    if (open === undefined) return () => {};
    open.holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      open.holds -= 1;
      this.checkBudgetSoon();
    };
  }

  /**
   * The database of `name`, opened on its first use. A name whose file is a
   * symlink to another database's file in this directory shares that
   * database — one engine, one journal, one lock — so the link and its
   * target stay one database (two would be two writers of one file).
   */
  private resolve(name: string): Promise<Open> {
    let opening = this.opening.get(name);
    if (opening === undefined) {
      opening = this.linkedName(name)
        .then(async (target) => {
          const key = target ?? name;
          // An evicted database closing still holds its lock: open it again once it has let go.
          const closing = this.evicting.get(key);
          if (closing !== undefined) await closing;
          const open = this.databases.get(name) ?? this.databases.get(key) ?? this.open(key);
          this.databases.set(name, open);
          if (!open.names.includes(name)) open.names.push(name);
          return open;
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

  /** The open databases (held in memory, or being loaded): how many, and their journals' and stored state's bytes. */
  gauges(): StorageGauges {
    let journalBytes = 0;
    let storedBytes = 0;
    const open = this.openDatabases();
    for (const { db } of open) {
      journalBytes += db.journalBytes();
      storedBytes += db.footprint();
    }
    return { openDatabases: open.length, journalBytes, storedBytes };
  }

  /** The databases in the directory, sorted by name, without loading any (`listing.ts`). */
  list(): Promise<DatabaseSummary[]> {
    if (this.closing) return Promise.reject(new StoreError("shutting_down", "The server is shutting down."));
    return this.listing.list((name) => this.databases.get(name)?.db);
  }

  private openDatabases(): Open[] {
    return [...new Set(this.databases.values())];
  }

  /** Opens and keeps the database named `name` (checked, not yet open). */
  private open(name: string): Open {
    const file = path.join(this.dir, `${name}.store`);
    const { engines, checkpoints, onEvent } = this.options;
    const persistence = new JournaledFile(this.fs, file, { confineTo: this.dir, engines, watch: this.watch, checkpoints, onEvent, observer: this.observer });
    const open: Open = { db: new Database(persistence, engines), names: [name], used: ++this.uses, holds: 0 };
    this.databases.set(name, open);
    this.checkBudgetSoon();
    return open;
  }

  /**
   * Looks at the budget once the current turn is done — never in the middle
   * of one, so a database resolved for a command always has the command
   * queued before anything can judge it idle.
   */
  private checkBudgetSoon(): void {
    if (this.budgetTimer === undefined || this.budgetCheck !== undefined) return;
    this.budgetCheck = setImmediate(() => {
      this.budgetCheck = undefined;
      this.enforceBudget();
    });
  }

  private enforceBudget(): void {
    const { budget } = this.options;
    if (budget === undefined || this.closing) return;
    const candidates = this.openDatabases().map((open) => ({ open, used: open.used, idle: open.holds === 0 && open.db.idle, bytes: open.db.footprint() }));
    for (const { open } of evictions(candidates, budget).close) this.evict(open);
  }

  /** Closes an idle database (folding its journal, releasing its lock); its names open it afresh once that is done. */
  private evict(open: Open): void {
    for (const name of open.names) if (this.databases.get(name) === open) this.databases.delete(name);
    // A failed fold is reported by the database as a storage event; the journal keeps every change.
    const closed: Promise<void> = open.db
      .close()
      .catch(() => undefined)
      .finally(() => {
        for (const name of open.names) if (this.evicting.get(name) === closed) this.evicting.delete(name);
      });
    for (const name of open.names) this.evicting.set(name, closed);
    this.observer?.evicted();
  }

  /** Stops taking commands, waits for every queued command and write, folds every journal, then releases the lock. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearInterval(this.budgetTimer);
      if (this.budgetCheck !== undefined) clearImmediate(this.budgetCheck);
      await Promise.all(this.openDatabases().map(({ db }) => db.close()));
      await Promise.all(this.evicting.values());
      this.watch.close();
      await this.lock.release();
    })();
    return this.closing;
  }
}

/** An observer that passes everything on to `observer` (when there is one). */
function forward(observer: StorageObserver | undefined): StorageObserver {
  return {
    loaded: (bytes, seconds) => observer?.loaded(bytes, seconds),
    persisted: (seconds) => observer?.persisted(seconds),
    checkpointed: (seconds) => observer?.checkpointed(seconds),
    checkpointFailed: () => observer?.checkpointFailed(),
    evicted: () => observer?.evicted(),
  };
}
