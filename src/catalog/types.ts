/**
 * The seam between the in-memory engine and everything that keeps it:
 * storage loads tables into an `Engine`, runs commands on it, and writes
 * what it holds back out; the engine never touches a file.
 *
 * Every mutation reports its effects as row-level `Change`s. They are the
 * unit of undo (an append that fails rolls memory back to the last durable
 * state) and, as the `Redo` part of each, what the journal appends and a
 * replay applies, so keep them complete: a change must be enough to redo or
 * undo itself.
 */

import type { Command, TableSchema, Value } from "../commands/types.js";
import type { Result } from "../commands/results.js";
import type { ProblemEntry } from "../errors.js";
import type { RowReshape } from "../planner/plan.js";
import type { ColumnHeap } from "./row-heap.js";

export type { RowReshape } from "../planner/plan.js";

/** A row's values: the declared columns' in declaration order (computed fields are not stored). */
export type Row = readonly Value[];

/**
 * A table's stored rows at one moment: their ids, in table order, in a heap
 * that never changes a row it holds (`row-heap.ts`), so they stay exactly
 * these rows however long they are kept.
 */
export interface StoredRows {
  readonly heap: ColumnHeap;
  readonly rows: readonly number[];
}

export type Change =
  /** `position` is the row's index in the table after the insert (rows keep insertion order). */
  | { readonly kind: "insert"; readonly table: string; readonly row: Row; readonly position: number }
  /** `position` is the row's index before the delete. */
  | { readonly kind: "delete"; readonly table: string; readonly row: Row; readonly position: number }
  | { readonly kind: "update"; readonly table: string; readonly before: Row; readonly after: Row; readonly position: number }
  | { readonly kind: "create-table"; readonly schema: TableSchema }
  /** Carries the dropped table whole, so the drop can be undone. */
  | { readonly kind: "drop-table"; readonly table: string; readonly schema: TableSchema; readonly rows: StoredRows }
  /**
   * A table (named `table` before) takes `schema` — an index created or
   * dropped, a column added, dropped or renamed, the table renamed, or
   * another table's foreign key following a rename — and its rows are
   * reshaped by `rows`. Carries what was there for undo: the schema, and the
   * stored rows when they were reshaped.
   */
  | {
      readonly kind: "alter-table";
      readonly table: string;
      readonly schema: TableSchema;
      readonly rows?: RowReshape;
      readonly before: TableSchema;
      readonly beforeRows?: StoredRows;
    };

/**
 * What redoing a change needs — the journal's record of it. Every `Change`
 * is one; a position is valid for the state the change was made on.
 */
export type Redo =
  | { readonly kind: "insert"; readonly table: string; readonly row: Row; readonly position: number }
  | { readonly kind: "delete"; readonly table: string; readonly position: number }
  | { readonly kind: "update"; readonly table: string; readonly after: Row; readonly position: number }
  | { readonly kind: "create-table"; readonly schema: TableSchema }
  | { readonly kind: "drop-table"; readonly table: string }
  | { readonly kind: "alter-table"; readonly table: string; readonly schema: TableSchema; readonly rows?: RowReshape };

/** A table as read from a file, before any checking: `schema` and `rows` are raw JSON. */
export interface LoadedTable {
  readonly name: string;
  readonly schema: unknown;
  readonly rows: readonly unknown[];
}

/** How loaded tables will be used. */
export interface LoadOptions {
  /** Rows are added right away (a journal's replay follows): keep room for them (see `load.ts`). */
  readonly growing?: boolean;
}

/** A table as the writer sees it: the normalized schema, column order, and stored rows in insertion order. */
export interface TableSnapshot extends StoredRows {
  readonly schema: TableSchema;
  readonly columns: readonly string[];
}

export interface Outcome {
  readonly result: Result;
  /** Empty for reads; for a mutation, what it did, in order. */
  readonly changes: readonly Change[];
}

/**
 * The in-memory database. Synchronous: one command runs to completion, and a
 * command that fails (validation, constraint, type) leaves no change behind.
 */
export interface EngineApi {
  /** Problems found when the tables were loaded (empty for a valid database). */
  readonly problems: readonly ProblemEntry[];
  /**
   * Runs any command of CONTRACT §4 except that `validate` only re-checks the
   * in-memory state. Throws StoreError; on an invalid database every kind but
   * `validate` throws `database_corrupt`; with `readOnly`, every mutation
   * throws `database_locked` before it is checked.
   */
  execute(command: Command, readOnly?: boolean): Outcome;
  /** Reverts changes (in reverse order) made by earlier `execute` calls. */
  undo(changes: readonly Change[]): void;
  /**
   * Applies changes again, in order, on the state they were first made on
   * (a journal's replay). Throws when one does not fit that state — no such
   * table, a position out of range, a row of the wrong width, a key taken —
   * which means the journal does not belong to these tables.
   */
  redo(changes: readonly Redo[]): void;
  /** The tables, sorted by name, for the writer. */
  snapshot(): readonly TableSnapshot[];
}
