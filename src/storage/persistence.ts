/**
 * The one interface through which a database's state reaches disk.
 *
 * `Database` runs commands on an in-memory engine and hands each group of
 * mutations' `Change`s to `commit`; how the bytes get to disk is this
 * interface's business alone. `JournaledFile` appends them to the
 * database's journal and folds the journal into the `.store` document in
 * checkpoints; `MemoryPersistence` keeps nothing.
 */

import { Engine } from "../catalog/engine.js";
import type { Change, EngineApi, LoadedTable, LoadOptions } from "../catalog/types.js";
import type { ProblemEntry } from "../errors.js";

/** How engines are made; the real `Engine` unless a test says otherwise. */
export interface EngineFactory {
  empty(): EngineApi;
  load(tables: readonly LoadedTable[], options?: LoadOptions): EngineApi;
}

export const realEngines: EngineFactory = Engine;

export type LoadState =
  /** No database here (its file does not exist). */
  | { readonly kind: "missing" }
  /** An engine holding the stored state; `problems` non-empty means the database is invalid. */
  | { readonly kind: "loaded"; readonly engine: EngineApi; readonly problems: readonly ProblemEntry[] };

/** Something storage tells its owner about, for the service's log (storage itself logs nothing). */
export type StorageEvent =
  /** A journal that does not continue the document (it was replaced from outside) was set aside unreplayed. */
  | { readonly kind: "journal-discarded"; readonly database: string; readonly reason: string }
  /** A torn final entry (an append no answer covered) was cut from the journal. */
  | { readonly kind: "journal-cut"; readonly database: string; readonly bytes: number }
  /** A background checkpoint failed; it is retried later and the journal still holds every change. */
  | { readonly kind: "checkpoint-failed"; readonly database: string; readonly error: unknown };

export type StorageEvents = (event: StorageEvent) => void;

/** What a persistence needs from the database it keeps. */
export interface PersistenceHost {
  /**
   * Calls `take` at the next moment memory holds exactly the durable state —
   * at once when no group is between its apply and the end of its commit —
   * with the engine, or `undefined` when there is no database to snapshot.
   */
  atQuietPoint(take: (engine: EngineApi | undefined) => void): void;
}

/** The journal's size, as `validate` reports it. */
export interface JournalSize {
  /** Change records not yet folded into the document. */
  readonly records: number;
  readonly bytes: number;
}

export interface Persistence {
  /** Called once by the database it keeps, before anything else. */
  attach(host: PersistenceHost): void;
  /** Reads the stored state. Throws StorageError when it cannot be read at all. */
  load(): Promise<LoadState>;
  /**
   * True when someone else changed the stored state since we last loaded or
   * committed it. Answers at once (no promise) when it can tell without I/O,
   * which keeps a read that needs no reload free of asynchronous steps. A
   * read-only follower applies what a writer appended meanwhile here, and
   * answers true only when that cannot be done in place.
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
  /**
   * Folds every change durable when it was called into the document;
   * resolves with how many records that took out of the journal (0: there
   * was nothing to fold). On failure nothing changed.
   */
  checkpoint(): Promise<number>;
  /** The journal's size; undefined where there is none (in memory). */
  journalSize(): JournalSize | undefined;
  /** A checkpoint is under way. */
  busy(): boolean;
  /** Bytes of the stored state held in memory — the document and journal as last read or written; 0 when nothing is. */
  footprint(): number;
  /** Folds the journal one last time (a failure is only reported) and lets go of every file. */
  close(): Promise<void>;
}

/** `Database.memory()`: nothing is stored, so commits always succeed at once. */
export class MemoryPersistence implements Persistence {
  constructor(private readonly engines: EngineFactory = realEngines) {}
  attach(): void {}
  async load(): Promise<LoadState> {
    return { kind: "loaded", engine: this.engines.empty(), problems: [] };
  }
  changedElsewhere(): boolean {
    return false;
  }
  async commit(): Promise<void> {}
  async checkpoint(): Promise<number> {
    return 0;
  }
  journalSize(): undefined {
    return undefined;
  }
  busy(): boolean {
    return false;
  }
  footprint(): number {
    return 0;
  }
  async close(): Promise<void> {}
}
