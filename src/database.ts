/**
 * `Database`: one database, in memory or in a `.store` file with its
 * journal (CONTRACT §2, §10).
 *
 * It owns the database's state (missing, invalid, or an engine), runs every
 * command through one serial queue with group commit (`CommandQueue`), and
 * reaches disk only through its `Persistence`. Before each step it asks the
 * persistence whether the file changed elsewhere and reloads if so. It
 * knows when memory holds exactly the durable state — no group between its
 * apply and the end of its commit — and hands the persistence its engine at
 * such a quiet point for a checkpoint's snapshot. The library
 * (`Database.open`) and the service (`DataDirectory`) share it.
 */

import path from "node:path";
import type { Change, EngineApi } from "./catalog/types.js";
import type { Command, Value } from "./commands/types.js";
import type { Result } from "./commands/results.js";
import type { DerivedInput } from "./api/expressions.js";
import { TableQuery } from "./api/table-query.js";
import { checkThen, runChecked } from "./checked.js";
import { StorageError, StoreError } from "./errors.js";
import type { ProblemEntry } from "./errors.js";
import { CommandQueue } from "./storage/command-queue.js";
import type { Applied } from "./storage/command-queue.js";
import { nodeFs } from "./storage/fs.js";
import type { FileSystem } from "./storage/fs.js";
import type { CheckpointPolicy } from "./storage/checkpoint-schedule.js";
import { JournaledFile } from "./storage/journaled-file.js";
import type { StorageObserver } from "./storage/observer.js";
import { MemoryPersistence, realEngines } from "./storage/persistence.js";
import type { EngineFactory, Persistence, StorageEvents } from "./storage/persistence.js";
import { removeLeftovers } from "./storage/temp-files.js";
import { Transaction, insideTransaction, runCallback, transactionTimeout, type TransactionOptions } from "./transaction.js";

type State =
  | { readonly kind: "unloaded" }
  | { readonly kind: "missing" }
  | { readonly kind: "invalid"; readonly problems: readonly ProblemEntry[] }
  | { readonly kind: "ready"; readonly engine: EngineApi };

export interface DatabaseOptions {
  /** Read beside a writer: take no lock, write nothing, refuse every mutation (`database_locked`). */
  readonly readOnly?: boolean;
  /** Storage events (a journal discarded or cut, a checkpoint failed), for a log; nothing is logged without it. */
  readonly onEvent?: StorageEvents;
  /** Measurements (loads, commits, checkpoints), for metrics; none are taken without it. */
  readonly observer?: StorageObserver;
  /** When checkpoints run unbidden (see `CheckpointPolicy` for the defaults). */
  readonly checkpoints?: CheckpointPolicy;
  /**
   * Make each commit durable with a write on the calling thread, as SQLite's
   * bindings do: the event loop waits for the disk (~0.2 ms here, several
   * under a checkpoint's traffic) instead of handing the write to the thread
   * pool, which costs ~35 µs of CPU and ~60–90 µs of latency per commit on
   * this project's machine. For a script or a single client; leave it off
   * where the process serves others meanwhile (the server does). Default false.
   */
  readonly blockingWrites?: boolean;
  /** The file-system layer (tests instrument it). */
  readonly fs?: FileSystem;
  readonly engines?: EngineFactory;
}

function directoryFailure(error: unknown): StorageError {
  const code = (error as NodeJS.ErrnoException | null)?.code ?? "error";
  return new StorageError("storage_error", `The database's directory could not be prepared (${code}).`, error);
}

function heldByCaller(): StoreError {
  return new StoreError(
    "invalid_request",
    "This database is held by the transaction whose callback is calling it: run the command on tx, not on the database (it would wait for the callback).",
  );
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
  /** A group is applied in memory and not yet durable (or undone). */
  private pending = false;
  /** Waiting for the end of that group: see `PersistenceHost.atQuietPoint`. */
  private quiet: ((engine: EngineApi | undefined) => void)[] = [];
  /** The hold of the library transaction running now, if one is. */
  private held: object | undefined;

  constructor(
    private readonly persistence: Persistence,
    private readonly engines: EngineFactory = realEngines,
    private readonly readOnly = false,
  ) {
    this.queue = new CommandQueue({
      prepare: () => this.prepare(),
      apply: (command) => this.apply(command),
      commit: (changes) => this.commit(changes),
      rollback: (changes) => this.rollback(changes),
    });
    persistence.attach({
      atQuietPoint: (take) => {
        if (this.pending) this.quiet.push(take);
        else take(this.engine());
      },
    });
  }

  /** A database that lives in memory only. */
  static memory(options: DatabaseOptions = {}): Database {
    return new Database(new MemoryPersistence(options.engines), options.engines);
  }

  /**
   * The database kept in `file` (a `.store` path) and its journal beside it.
   * The file need not exist: the first `create-table` creates it (and its
   * directory is created now). It takes the database's lock until `close`
   * (`database_locked` when another process writes the database) and removes
   * leftover temp files of crashed writers. With `readOnly` it takes no lock,
   * creates and removes nothing, follows a writer's progress and refuses
   * every mutation.
   */
  static async open(file: string, options: DatabaseOptions = {}): Promise<Database> {
    if (!file.endsWith(".store")) throw new StoreError("invalid_name", "A database file name must end in .store.");
    const fs = options.fs ?? nodeFs;
    const target = path.resolve(file);
    const readOnly = options.readOnly === true;
    const persistence = new JournaledFile(fs, target, {
      engines: options.engines,
      readOnly,
      blockingWrites: options.blockingWrites,
      checkpoints: options.checkpoints,
      onEvent: options.onEvent,
      observer: options.observer,
    });
    if (!readOnly) {
      try {
        await fs.mkdir(path.dirname(target));
      } catch (error) {
        throw directoryFailure(error);
      }
      // One writer per database file (CONTRACT §10): refused here, at once, when another process writes it.
      await persistence.takeLock();
      try {
        const base = path.basename(target);
        await removeLeftovers(fs, path.dirname(target), { targetBases: [base, `${base}-journal`], onlyDead: true });
      } catch (error) {
        await persistence.close();
        throw directoryFailure(error);
      }
    }
    return new Database(persistence, options.engines, readOnly);
  }

  /** Runs a command of CONTRACT §4 given as plain JSON (validated strictly first). */
  execute(command: unknown): Promise<Result> {
    return checkThen(command, (checked) => this[runChecked](checked));
  }

  /** Runs a command already validated by `parseCommand` or `parseEnvelope` (see `checked.ts`). */
  [runChecked](command: Command): Promise<Result> {
    if (this.closed) return Promise.reject(new StoreError("shutting_down", "The database is closed."));
    if (insideTransaction(this.held)) return Promise.reject(heldByCaller());
    const answer = this.queue.run(command);
    if (command.kind !== "checkpoint") return answer;
    // The queue answers once every command before it is durable (and says 404 or database_corrupt when it must):
    // then the checkpoint folds all of that into the document.
    return answer.then(() => this.persistence.checkpoint()).then((journalRecords) => ({ kind: "checkpoint", journalRecords }));
  }

  sql(text: string, params: readonly Value[] = []): Promise<Result> {
    return this.execute({ kind: "sql", sql: text, params });
  }

  table(name: string | DerivedInput): TableQuery {
    return new TableQuery(name, (command) => this.execute(command));
  }

  /**
   * Runs `fn` with the database to itself (CONTRACT §11): the commands of
   * `tx` run in order, each seeing the ones before; when `fn` resolves they
   * are made durable together, as one journal record, and `transaction()`
   * resolves with its value; when it throws (or runs past `timeoutMs`) none
   * is kept and `transaction()` rejects with that error. A command `fn`
   * catches does not end the transaction: it changed nothing, the others
   * stand. Other callers of this database wait until the transaction ends;
   * calling the database itself (not `tx`) from inside `fn` is refused, as
   * it would wait for `fn`.
   */
  async transaction<T>(fn: (tx: Transaction) => T | Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const timeoutMs = transactionTimeout(options);
    if (this.closed) throw new StoreError("shutting_down", "The database is closed.");
    if (insideTransaction(this.held)) throw heldByCaller();
    const lease = await this.queue.hold();
    const hold = {};
    this.held = hold;
    const tx = new Transaction(lease);
    let value: T;
    try {
      value = await runCallback(fn, tx, hold, timeoutMs);
    } catch (error) {
      this.held = undefined;
      await tx.finish(false);
      throw error;
    }
    this.held = undefined;
    await tx.finish(true);
    return value;
  }

  /**
   * Nothing queued, running or on its way to disk, and no checkpoint under
   * way: closing it now keeps nobody waiting (the service's eviction).
   */
  get idle(): boolean {
    return !this.closed && !this.queue.busy && !this.pending && !this.persistence.busy();
  }

  /** Bytes of its stored state held in memory (document and journal as last read or written); 0 when not loaded. */
  footprint(): number {
    return this.persistence.footprint();
  }

  /** Its journal's length in bytes (0 without one). */
  journalBytes(): number {
    return this.persistence.journalSize()?.bytes ?? 0;
  }

  /**
   * Stops taking commands, waits until every queued one is answered and
   * written, folds the journal into the document and lets go of the files.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue.drained();
    await this.persistence.close();
  }

  private engine(): EngineApi | undefined {
    return this.state.kind === "ready" ? this.state.engine : undefined;
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
      case "ready": {
        const applied = state.engine.execute(command, this.readOnly);
        if (applied.changes.length > 0) this.pending = true;
        const { result } = applied;
        const journal = result.kind === "validation" ? this.persistence.journalSize() : undefined;
        return result.kind === "validation" && journal !== undefined ? { result: { ...result, journal }, changes: applied.changes } : applied;
      }
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
   * A missing database: only `create-table` (also as SQL, or as a step of a
   * transaction) creates it, and `drop-table` with `ifExists` succeeds
   * without creating it.
   */
  private applyToMissing(command: Command): Applied {
    if (command.kind === "drop-table" && command.ifExists === true) {
      return { result: { kind: "mutation", operation: "drop-table", table: command.table, rowsAffected: 0 }, changes: [] };
    }
    if (command.kind !== "create-table" && command.kind !== "sql" && command.kind !== "transaction") throw notFound();
    const engine = this.engines.empty();
    let applied: Applied;
    try {
      applied = engine.execute(command, this.readOnly);
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
      this.pending = true;
    }
    return applied;
  }

  /** Changes applied under a lease that was given up: undone; a database they were creating is missing again. */
  private rollback(changes: readonly Change[]): void {
    const state = this.state;
    try {
      if (state.kind === "ready") state.engine.undo(changes);
    } finally {
      if (this.creating) {
        this.creating = false;
        this.state = { kind: "missing" };
      }
      this.pending = false;
      for (const take of this.quiet.splice(0)) take(this.engine());
    }
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
    } finally {
      // Memory is the durable state again (the group is on disk, or undone): a checkpoint may snapshot it now.
      this.pending = false;
      for (const take of this.quiet.splice(0)) take(this.engine());
    }
  }
}
