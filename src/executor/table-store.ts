/**
 * What the executor reads from a table. The catalog's tables implement it;
 * the executor never changes rows (mutations apply in the catalog).
 */

import type { Value } from "../commands/types.js";

/** A stored row: declared columns' values by position. Stores may keep extra trailing slots; code reads by position only. */
export type StoredRow = readonly Value[];

export interface TableStore {
  /** All rows, in insertion order. */
  readonly rows: readonly StoredRow[];
  /** Width of a stored row (declared columns). */
  readonly width: number;
  /**
   * Rows whose key (`key` = a primary key, unique key or index name as the
   * planner names it) equals `values`, in insertion order. A NULL in
   * `values` matches nothing. The array must not be changed by the caller.
   */
  lookup(key: string, values: readonly Value[]): readonly StoredRow[];
  /** `lookup` for a one-column key, resolved once: the function takes the value itself. */
  lookupBy(key: string): (value: Value) => readonly StoredRow[];
}

export interface Stores {
  store(table: string): TableStore;
}
