/**
 * What the executor reads from a table. The catalog's tables implement it;
 * the executor never changes rows (mutations apply in the catalog).
 *
 * Rows are stored by column (`RowHeap`): a stored row is a number, its id,
 * and the value of column c is `heap.columns[c][id]`. Compiled code reads
 * the columns it needs straight from those arrays.
 */

import type { Value } from "../commands/types.js";
import { StoreError } from "../errors.js";

/** A stored row: its id in its table's heap. */
export type StoredRow = number;

/**
 * One column of a heap, indexed by row id: integer and real columns are
 * Float64Arrays holding NaN for NULL (no stored number is NaN: CONTRACT
 * §3 keeps reals finite), text and boolean columns plain arrays.
 */
export type Column = Float64Array | (string | boolean | null)[];

/** Whether a column of this declared type is stored as numbers (NaN for NULL). */
export function isNumericType(type: string): boolean {
  return type === "integer" || type === "real";
}

/**
 * The stored rows of one table, by column. A row id's values are never
 * written again once stored (an update stores a new row under a new id), so
 * whoever holds a heap and some ids holds those rows' values for good: a
 * snapshot is the list of ids. The array at `columns[c]` may be replaced by
 * a longer copy as the heap grows, so code reads it afresh from `columns`
 * at every call rather than keeping it. Id 0 is a row of NULLs (a left
 * join's missing row), never one of the table's rows.
 */
export interface RowHeap {
  readonly columns: readonly Column[];
}

/** The row of NULLs every heap holds. */
export const NULL_ROW = 0;

/** A column's value at `id`, NULL as null. */
export function columnValue(column: Column, id: number): Value {
  const v = column[id] as Value;
  return v !== v ? null : v; // NaN: a NULL number
}

/** One end of a key range: the bound value, and whether a key equal to it is inside. */
export interface KeyBound {
  readonly value: Value;
  readonly inclusive: boolean;
}

/**
 * Keys of an ordered index whose leading columns equal `equal` and whose
 * next column (if any is constrained) lies between `lower` and `upper`
 * (either may be absent), or else is a text starting with `prefix` (exactly:
 * the caller folds case). With a bound or a prefix, NULL in that column is
 * outside (no comparison with NULL is true); with neither, every value of
 * it is inside, NULL too.
 */
export interface KeyRange {
  readonly equal: readonly Value[];
  readonly lower?: KeyBound;
  readonly upper?: KeyBound;
  readonly prefix?: string;
}

/** The order rows come out of a range: the index's (up or down, ties in table order), or the table's. */
export type RangeOrder = "asc" | "desc" | "table";

export interface TableStore {
  /** All rows, in insertion order. */
  readonly rows: readonly StoredRow[];
  /** Their values. */
  readonly heap: RowHeap;
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
  /**
   * Rows whose one-column key `key` equals one of `values` (none NULL), in
   * table order; when they are much of the table, every row instead (a scan
   * is then cheaper than sorting what was found): the caller filters them
   * with the whole WHERE either way.
   */
  lookupAny(key: string, values: ReadonlySet<Value>): readonly StoredRow[];
  /**
   * Rows of the ordered index `key` within `ranges` (ascending and
   * disjoint) that pass `test`, in `order`, at most `max` of them (-1: all).
   * In table order, a range that holds much of the table may give every
   * row instead (a scan is then cheaper than sorting what it found): the
   * caller filters them with the whole WHERE either way.
   */
  rangeRows(key: string, ranges: readonly KeyRange[], order: RangeOrder, max: number, test?: (row: StoredRow) => boolean): StoredRow[];
  /**
   * Its rows hashed on the columns at `positions`, kept for as long as the
   * store lives (`recursive.ts` wraps a table its steps read again and
   * again); absent, a hash join hashes the rows it is given each time.
   */
  hashOn?(positions: readonly number[]): ReadonlyMap<unknown, readonly StoredRow[]>;
  /**
   * A lateral table function's rows for one tuple's arguments, made into
   * its heap (`json-table.ts`); absent for every other store. `reuse`:
   * nothing reads the rows of an earlier call again (each tuple is
   * consumed as its join makes it), so they are made over them.
   */
  rowsFor?(args: readonly Value[], reuse: boolean): readonly StoredRow[];
}

export interface Stores {
  store(table: string): TableStore;
}

/**
 * A store with no keys (a derived table's rows, a recursive table's): the
 * planner never gives it a path that looks one up, so a lookup is a bug.
 */
export abstract class KeylessStore implements TableStore {
  abstract readonly rows: readonly StoredRow[];
  abstract readonly heap: RowHeap;
  abstract readonly width: number;
  /** What it is, for the error: "a derived table". */
  protected abstract readonly what: string;

  lookup(key: string): readonly StoredRow[] {
    throw this.noKey(key);
  }

  lookupBy(key: string): (value: Value) => readonly StoredRow[] {
    throw this.noKey(key);
  }

  lookupAny(key: string): readonly StoredRow[] {
    throw this.noKey(key);
  }

  rangeRows(key: string): StoredRow[] {
    throw this.noKey(key);
  }

  private noKey(key: string): StoreError {
    return new StoreError("internal_error", `${this.what[0]!.toUpperCase()}${this.what.slice(1)} has no key "${key}"`);
  }
}
