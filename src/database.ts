/**
 * `Database`: one database, in memory or in a `.store` file (CONTRACT §2, §10).
 *
 * It owns the database's state (missing, invalid, or an engine), runs every
 * command through one serial queue with group commit (`CommandQueue`), and
 * reaches disk only through its `Persistence`. Before each step it asks the
 * persistence whether the file changed elsewhere and reloads if so. The
 * library (`Database.open`) and the service (`DataDirectory`) share it.
 */

import path from "node:path";
import type { Change, EngineApi } from "./catalog/types.js";
import type { Command, Value } from "./commands/types.js";
import type { Result } from "./commands/results.js";
import { TableQuery } from "./api/table-query.js";
import { checkThen, runChecked } from "./checked.js";
import { StorageError, StoreError } from "./errors.js";
import type { ProblemEntry } from "./errors.js";
import { CommandQueue } from "./storage/command-queue.js";
import type { Applied } from "./storage/command-queue.js";
import { nodeFs } from "./storage/fs.js";
import type { FileSystem } from "./storage/fs.js";
import { MemoryPersistence, realEngines } from "./storage/persistence.js";
import type { EngineFactory, Persistence } from "./storage/persistence.js";
import { SnapshotFilePersistence } from "./storage/snapshot-file.js";
import { removeLeftovers } from "./storage/temp-files.js";

type State =
  | { readonly kind: "unloaded" }
  | { readonly kind: "missing" }
  | { readonly kind: "invalid"; readonly problems: readonly ProblemEntry[] }
  | { readonly kind: "ready"; readonly engine: EngineApi };

export interface DatabaseOptions {
  /** The file-system layer (tests instrument it). */
  readonly fs?: FileSystem;
  readonly engines?: EngineFactory;
}

function notFound(): StoreError {
  return new StoreError("database_not_found", "The database does not exist.");
}

export class Database {
  private state: State = { kind: "unloaded" };
  private readonly queue: CommandQueue;
  private closed = false;
  /** Set when a group starts on a missing database: its commit creates the file. */
  private creating = false;

  constructor(
    private readonly persistence: Persistence,
    private readonly engines: EngineFactory = realEngines,
  ) {
    this.queue = new CommandQueue({
      prepare: () => this.prepare(),
      apply: (command) => this.apply(command),
      commit: (changes) => this.commit(changes),
    });
  }

  /** A database that lives in memory only. */
  static memory(options: DatabaseOptions = {}): Database {
    return new Database(new MemoryPersistence(options.engines), options.engines);
  }

  /**
   * The database kept in `file` (a `.store` path). The file need not exist:
   * the first `create-table` creates it (and its directory is created now).
   * Leftover temp files of crashed writers of this file are removed.
   */
  static async open(file: string, options: DatabaseOptions = {}): Promise<Database> {
    if (!file.endsWith(".store")) throw new StoreError("invalid_name", "A database file name must end in .store.");
    const fs = options.fs ?? nodeFs;
    const target = path.resolve(file);
    try {
      await fs.mkdir(path.dirname(target));
      await removeLeftovers(fs, path.dirname(target), { targetBase: path.basename(target), onlyDead: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | null)?.code ?? "error";
      throw new StorageError("storage_error", `The database's directory could not be prepared (${code}).`, error);
    }
    return new Database(new SnapshotFilePersistence(fs, target, { engines: options.engines }), options.engines);
  }

  /** Runs a command of CONTRACT §4 given as plain JSON (validated strictly first). */
  execute(command: unknown): Promise<Result> {
    return checkThen(command, (checked) => this[runChecked](checked));
  }

  /** Runs a command already validated by `parseCommand` or `parseEnvelope` (see `checked.ts`). */
  [runChecked](command: Command): Promise<Result> {
    if (this.closed) return Promise.reject(new StoreError("shutting_down", "The database is closed."));
    return this.queue.run(command);
  }

  sql(text: string, params: readonly Value[] = []): Promise<Result> {
    return this.execute({ kind: "sql", sql: text, params });
  }

  table(name: string): TableQuery {
    return new TableQuery(name, (command) => this.execute(command));
  }

  /** Stops taking commands and waits until every queued one is answered and written. */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue.drained();
  }

  /** Nothing to do (`undefined`) unless the database is not loaded yet or its file changed elsewhere. */
  private prepare(): Promise<void> | undefined {
    if (this.state.kind === "unloaded") return this.reload();
    const changed = this.persistence.changedElsewhere();
    if (changed === false) return undefined;
    if (changed === true) return this.reload();
    return changed.then((yes) => (yes ? this.reload() : undefined));
  }

  private async reload(): Promise<void> {
    this.state = { kind: "unloaded" };
    const loaded = await this.persistence.load();
    if (loaded.kind === "missing") this.state = loaded;
    else if (loaded.problems.length > 0) this.state = { kind: "invalid", problems: loaded.problems };
    else this.state = { kind: "ready", engine: loaded.engine };
  }

  private apply(command: Command): Applied {
    const state = this.state;
    switch (state.kind) {
      case "ready":
        return state.engine.execute(command);
      case "invalid":
        if (command.kind === "validate") return { result: { kind: "validation", valid: false, errors: state.problems }, changes: [] };
        throw new StoreError("database_corrupt", "The database file is invalid; run validate to see why. It was left untouched.");
      case "missing":
        return this.applyToMissing(command);
      case "unloaded":
        throw new StoreError("internal_error", "The database was not loaded.");
    }
  }

  /**
   * A missing database: only `create-table` (also as SQL) creates it, and
   * `drop-table` with `ifExists` succeeds without creating it.
   */
  private applyToMissing(command: Command): Applied {
    if (command.kind === "drop-table" && command.ifExists === true) {
      return { result: { kind: "mutation", operation: "drop-table", table: command.table, rowsAffected: 0 }, changes: [] };
    }
    if (command.kind !== "create-table" && command.kind !== "sql") throw notFound();
    const engine = this.engines.empty();
    let applied: Applied;
    try {
      applied = engine.execute(command);
    } catch (error) {
      if (error instanceof StoreError && error.code === "table_not_found") throw notFound();
      throw error;
    }
    const { result } = applied;
    const creates = applied.changes.some((change) => change.kind === "create-table");
    const harmlessDrop = result.kind === "mutation" && result.operation === "drop-table" && applied.changes.length === 0;
    if (!creates && !harmlessDrop) throw notFound();
    if (creates) {
      this.state = { kind: "ready", engine };
      this.creating = true;
    }
    return applied;
  }

  private async commit(changes: readonly Change[]): Promise<void> {
    const state = this.state;
    if (state.kind !== "ready") throw new StoreError("internal_error", "Nothing to commit to.");
    const created = this.creating;
    this.creating = false;
    try {
      await this.persistence.commit(state.engine, changes, created);
    } catch (error) {
      if (created) this.state = { kind: "missing" };
      throw error;
    }
  }
}
