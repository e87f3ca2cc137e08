/**
 * The one interface through which a database's state reaches disk.
 *
 * `Database` runs commands on an in-memory engine and hands each group of
 * mutations' `Change`s to `commit`; how the bytes get to disk is this
 * interface's business alone. Today `SnapshotFilePersistence` rewrites the
 * whole `.store` file atomically; a write-ahead journal of the same Changes
 * with periodic checkpoints can replace it without touching anything else.
 */

import { Engine } from "../catalog/engine.js";
import type { Change, EngineApi, LoadedTable } from "../catalog/types.js";
import type { ProblemEntry } from "../errors.js";

/** How engines are made; the real `Engine` unless a test says otherwise. */
export interface EngineFactory {
  empty(): EngineApi;
  load(tables: readonly LoadedTable[]): EngineApi;
}

export const realEngines: EngineFactory = Engine;

export type LoadState =
  /** No database here (its file does not exist). */
  | { readonly kind: "missing" }
  /** An engine holding the stored state; `problems` non-empty means the database is invalid. */
  | { readonly kind: "loaded"; readonly engine: EngineApi; readonly problems: readonly ProblemEntry[] };

export interface Persistence {
  /** Reads the stored state. Throws StorageError when it cannot be read at all. */
  load(): Promise<LoadState>;
  /**
   * True when someone else changed the stored state since we last loaded or
   * committed it. Answers at once (no promise) when it can tell without I/O,
   * which keeps a read that needs no reload free of asynchronous steps.
   */
  changedElsewhere(): boolean | Promise<boolean>;
  /**
   * Makes `changes` (already applied to `engine`, in order) durable. Resolves
   * once they are on disk. On failure it throws StorageError after restoring
   * both `engine` (undoing `changes`) and the disk to the last durable state.
   * `created` says the database did not exist before these changes: a failure
   * then leaves no database behind.
   */
  commit(engine: EngineApi, changes: readonly Change[], created: boolean): Promise<void>;
}

/** `Database.memory()`: nothing is stored, so commits always succeed at once. */
export class MemoryPersistence implements Persistence {
  constructor(private readonly engines: EngineFactory = realEngines) {}
  async load(): Promise<LoadState> {
    return { kind: "loaded", engine: this.engines.empty(), problems: [] };
  }
  changedElsewhere(): boolean {
    return false;
  }
  async commit(): Promise<void> {}
}
