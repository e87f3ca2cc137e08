/**
 * In-memory keys over a table's rows: `UniqueIndex` (primary and unique
 * keys: one row per key) and `MultiIndex` (secondary indexes: rows per key,
 * kept in insertion order so an index lookup returns rows in table order,
 * and ordered by key for ranges and ordered walks).
 *
 * A one-column key is the value itself (integer and real 1 are the same
 * number, text "1" differs from 1); a composite key is the JSON of its
 * values. Rows with a NULL in the key are not indexed: NULL never
 * equals anything, so unique keys allow several and lookups skip them.
 *
 * A MultiIndex asks the table for each row's order (`orderOf`, increasing
 * in table order) to place a row whose key changed at its table-order
 * position in the new bucket.
 *
 * `build` fills an index anew from all rows in table order (load, rebuild):
 * one tight loop, no per-row order lookups.
 */

import type { Value } from "../commands/types.js";
import { compareValues } from "../executor/index.js";
import type { KeyRange } from "../executor/table-store.js";
import { BTree } from "./btree.js";
import { compareKeys, keyWalk } from "./key-range.js";

export type MutableRow = Value[];

const EMPTY: readonly MutableRow[] = Object.freeze([]) as readonly MutableRow[];

/** The key of `values` (undefined when one is NULL). */
export function keyOfValues(values: readonly Value[]): unknown {
  if (values.length === 1) return values[0] === null ? undefined : values[0];
  for (const v of values) if (v === null) return undefined;
  return JSON.stringify(values);
}

/** The key of a row's columns at `positions` (undefined when one is NULL). */
export function keyOfRow(row: readonly Value[], positions: readonly number[]): unknown {
  if (positions.length === 1) {
    const v = row[positions[0] as number] as Value;
    return v === null ? undefined : v;
  }
  const values: Value[] = [];
  for (const p of positions) {
    const v = row[p] as Value;
    if (v === null) return undefined;
    values.push(v);
  }
  return JSON.stringify(values);
}

/** Slots a UniqueIndex starts with, and keeps beyond twice its row count when rebuilt. */
const SPARE_SLOTS = 1024;

export class UniqueIndex {
  /**
   * Rows by key. Integer keys from 0 below `limit` (most primary keys) sit
   * in array slots, filled about four times as fast as Map entries when a
   * large table loads; every other key is in `map`. `limit` only changes when
   * the index is emptied (room for twice the rows then, so a dense key range
   * fits and far-apart keys never make a huge or sparse array), so which
   * store holds a key depends on the key alone and each operation looks in
   * one place. The slots are allocated when the first such key arrives, so
   * a key of text costs no slots at all.
   */
  private slots: (MutableRow | undefined)[] = [];
  private limit = 0;
  private readonly map = new Map<unknown, MutableRow>();

  constructor(
    readonly name: string,
    readonly positions: readonly number[],
  ) {
    this.reset(0);
  }

  get(key: unknown): MutableRow | undefined {
    if (this.isSlot(key)) return this.slots[key];
    return key === undefined ? undefined : this.map.get(key);
  }

  lookup(values: readonly Value[]): readonly MutableRow[] {
    const row = this.get(keyOfValues(values));
    return row === undefined ? EMPTY : [row];
  }

  /** Adds a row; returns false (and changes nothing) when its key is taken. */
  add(row: MutableRow): boolean {
    return this.put(keyOfRow(row, this.positions), row);
  }

  remove(row: MutableRow): void {
    const key = keyOfRow(row, this.positions);
    if (this.isSlot(key)) {
      if (this.slots[key] === row) this.slots[key] = undefined;
    } else if (key !== undefined && this.map.get(key) === row) {
      this.map.delete(key);
    }
  }

  /** Empties the index and indexes `rows` (table order); returns the positions of rows whose key an earlier row holds. */
  build(rows: readonly MutableRow[]): number[] {
    this.reset(rows.length);
    const taken: number[] = [];
    const single = this.positions.length === 1 ? (this.positions[0] as number) : -1;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as MutableRow;
      const key = single >= 0 ? (row[single] === null ? undefined : row[single]) : keyOfRow(row, this.positions);
      if (!this.put(key, row)) taken.push(i);
    }
    return taken;
  }

  private reset(rows: number): void {
    this.limit = 2 * rows + SPARE_SLOTS;
    this.slots = [];
    this.map.clear();
  }

  private isSlot(key: unknown): key is number {
    return typeof key === "number" && (key | 0) === key && key >= 0 && key < this.limit;
  }

  /** Files `row` under `key` unless the key is taken (false); a NULL key (undefined) is not indexed. */
  private put(key: unknown, row: MutableRow): boolean {
    if (this.isSlot(key)) {
      if (this.slots.length === 0) this.slots = new Array<MutableRow | undefined>(this.limit);
      if (this.slots[key] !== undefined) return false;
      this.slots[key] = row;
      return true;
    }
    if (key === undefined) return true;
    if (this.map.has(key)) return false;
    this.map.set(key, row);
    return true;
  }
}

/**
 * A secondary index: rows by key, each key's rows (its bucket) in table
 * order. Equality goes through a Map; ranges, prefixes and ordered walks
 * through a B+tree over the same buckets, keyed by the column value (an
 * array of them for several columns) and holding NULL keys too (ORDER BY
 * walks every row). The tree is built on first ordered use and kept in
 * step from then on, so loading a table and equality-only workloads pay
 * nothing for it; `build` drops it.
 */
export class MultiIndex {
  private readonly map = new Map<unknown, MutableRow[]>();
  private tree: BTree<unknown, MutableRow[]> | undefined;

  constructor(
    readonly name: string,
    readonly positions: readonly number[],
    private readonly orderOf: (row: MutableRow) => number,
    private readonly rowsOf: () => readonly MutableRow[],
  ) {}

  lookup(values: readonly Value[]): readonly MutableRow[] {
    const key = keyOfValues(values);
    return (key === undefined ? undefined : this.map.get(key)) ?? EMPTY;
  }

  /** Rows whose key equals `key` (already encoded). */
  get(key: unknown): readonly MutableRow[] {
    return (key === undefined ? undefined : this.map.get(key)) ?? EMPTY;
  }

  add(row: MutableRow): void {
    const key = keyOfRow(row, this.positions);
    if (key === undefined) {
      if (this.tree === undefined) return;
      const treeKey = this.treeKey(row);
      const bucket = this.tree.get(treeKey);
      if (bucket) this.place(bucket, row);
      else this.tree.set(treeKey, [row]);
      return;
    }
    const bucket = this.map.get(key);
    if (bucket) return this.place(bucket, row);
    const fresh = [row];
    this.map.set(key, fresh);
    this.tree?.set(this.treeKey(row), fresh);
  }

  remove(row: MutableRow): void {
    const key = keyOfRow(row, this.positions);
    const bucket = key === undefined ? this.tree?.get(this.treeKey(row)) : this.map.get(key);
    if (!bucket) return;
    const at = bucket.indexOf(row);
    if (at < 0) return;
    if (bucket.length > 1) {
      bucket.splice(at, 1);
      return;
    }
    if (key !== undefined) this.map.delete(key);
    this.tree?.delete(this.treeKey(row));
  }

  /**
   * Empties the index and indexes `rows` (table order). Buckets grown by
   * push keep V8's spare capacity (a bucket of 3 rows holds room for 19),
   * so each is then copied to its exact size: at three rows a key that
   * halved the index's memory.
   */
  build(rows: readonly MutableRow[]): void {
    this.map.clear();
    this.tree = undefined;
    for (const row of rows) {
      const key = keyOfRow(row, this.positions);
      if (key === undefined) continue;
      const bucket = this.map.get(key);
      if (bucket) bucket.push(row);
      else this.map.set(key, [row]);
    }
    for (const [key, bucket] of this.map) if (bucket.length > 1) this.map.set(key, bucket.slice());
  }

  /**
   * Visits the rows within `ranges` (ascending, disjoint) in key order —
   * descending walks keys down, a key's rows stay in table order — until
   * `visit` returns false.
   */
  walk(ranges: readonly KeyRange[], descending: boolean, visit: (row: MutableRow) => boolean): void {
    const tree = this.ordered();
    const width = this.positions.length;
    let going = true;
    const each = (_key: unknown, bucket: MutableRow[]): boolean => {
      for (let i = 0; i < bucket.length; i++) if (!visit(bucket[i] as MutableRow)) return (going = false);
      return true;
    };
    for (let r = 0; r < ranges.length && going; r++) {
      const { before, after } = keyWalk(ranges[descending ? ranges.length - 1 - r : r] as KeyRange, width);
      if (descending) tree.walkDown(after, (key, bucket) => !before(key) && each(key, bucket));
      else tree.walkUp(before, (key, bucket) => !after(key) && each(key, bucket));
    }
  }

  /** The tree key of a row: its one key column's value, or an array of them. */
  private treeKey(row: readonly Value[]): unknown {
    const positions = this.positions;
    if (positions.length === 1) return row[positions[0] as number] as Value;
    return positions.map((p) => row[p] as Value);
  }

  /** The ordered tree, built now from the Map's buckets and the rows with a NULL key if it is not yet. */
  private ordered(): BTree<unknown, MutableRow[]> {
    if (this.tree !== undefined) return this.tree;
    const single = this.positions.length === 1;
    const entries: [unknown, MutableRow[]][] = [];
    for (const bucket of this.map.values()) entries.push([this.treeKey(bucket[0] as MutableRow), bucket]);
    const nulls = new Map<unknown, MutableRow[]>();
    for (const row of this.rowsOf()) {
      if (keyOfRow(row, this.positions) !== undefined) continue;
      const treeKey = this.treeKey(row);
      const group = single ? null : JSON.stringify(treeKey);
      const bucket = nulls.get(group);
      if (bucket) bucket.push(row);
      else {
        const fresh = [row];
        nulls.set(group, fresh);
        entries.push([treeKey, fresh]);
      }
    }
    const compare = single ? (compareValues as (a: unknown, b: unknown) => number) : (compareKeys as (a: unknown, b: unknown) => number);
    entries.sort((a, b) => compare(a[0], b[0]));
    const tree = new BTree<unknown, MutableRow[]>(compare);
    tree.build(
      entries.map((e) => e[0]),
      entries.map((e) => e[1]),
    );
    this.tree = tree;
    return tree;
  }

  /** Puts `row` into a non-empty bucket at its table-order place. */
  private place(bucket: MutableRow[], row: MutableRow): void {
    const seq = this.orderOf(row);
    if (this.orderOf(bucket[bucket.length - 1] as MutableRow) < seq) {
      bucket.push(row);
      return;
    }
    let lo = 0;
    let hi = bucket.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.orderOf(bucket[mid] as MutableRow) < seq) lo = mid + 1;
      else hi = mid;
    }
    bucket.splice(lo, 0, row);
  }
}
