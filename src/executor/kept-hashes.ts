/**
 * A table as a recursion's steps read it: the same rows, but a hash join on
 * it (`TableStore.hashOn`) builds its hash once and keeps it for the
 * execution, where a step of a few rows would otherwise hash the whole
 * table again — a walk down a 20,000-row chain hashed it 20,000 times.
 * A table's rows do not change while a statement reads them; a derived
 * table's rows (made for one execution, never changed) are kept with
 * their hashes for as long as they live (`keptHashes`).
 */

import type { Value } from "../commands/types.js";
import { hashRows } from "./join.js";
import type { KeyRange, RangeOrder, RowHeap, StoredRow, TableStore } from "./table-store.js";

export class KeptHashes implements TableStore {
  private readonly hashes = new Map<string, ReadonlyMap<unknown, readonly StoredRow[]>>();

  constructor(private readonly store: TableStore) {}

  get rows(): readonly StoredRow[] {
    return this.store.rows;
  }

  get heap(): RowHeap {
    return this.store.heap;
  }

  get width(): number {
    return this.store.width;
  }

  hashOn(positions: readonly number[]): ReadonlyMap<unknown, readonly StoredRow[]> {
    const key = positions.join(",");
    let hash = this.hashes.get(key);
    if (hash === undefined) this.hashes.set(key, (hash = hashRows(this.store, positions)));
    return hash;
  }

  lookup(key: string, values: readonly Value[]): readonly StoredRow[] {
    return this.store.lookup(key, values);
  }

  lookupBy(key: string): (value: Value) => readonly StoredRow[] {
    return this.store.lookupBy(key);
  }

  lookupAny(key: string, values: ReadonlySet<Value>): readonly StoredRow[] {
    return this.store.lookupAny(key, values);
  }

  rangeRows(key: string, ranges: readonly KeyRange[], order: RangeOrder, max: number, test?: (row: StoredRow) => boolean): StoredRow[] {
    return this.store.rangeRows(key, ranges, order, max, test);
  }
}

const kept = new WeakMap<TableStore, KeptHashes>();

/** A derived table's or an uncorrelated table function's rows (never changed once made) that keep their hashes for as long as they live; a lateral call's store as it is (its rows are made per tuple, by `rowsFor`: nothing to keep). */
export function keptHashes(store: TableStore): TableStore {
  if (store.rowsFor !== undefined) return store;
  let out = kept.get(store);
  if (out === undefined) kept.set(store, (out = new KeptHashes(store)));
  return out;
}
