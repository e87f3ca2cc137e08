/**
 * In-memory keys over a table's rows (row ids of its `ColumnHeap`):
 * `UniqueIndex` (primary and unique keys: one row per key) and
 * `MultiIndex` (secondary indexes: rows per key, in table order, and
 * ordered by key for ranges and ordered walks).
 *
 * A one-column key is the value itself (integer and real 1 are the same
 * number, text "1" differs from 1); a composite key is the JSON of its
 * values. Rows with a NULL in the key are not found by equality: NULL
 * never equals anything, so unique keys allow several and lookups skip
 * them.
 *
 * An index reads its rows' keys from the table (`IndexedTable`): the heap,
 * and each row's place in table order (`orderOf`, increasing along the
 * table), which places a row whose key changed in its new bucket.
 *
 * `build` fills an index anew from all rows in table order (load, rebuild):
 * one tight loop, no per-row order lookups.
 */

import type { Value } from "../commands/types.js";
import { compareValues } from "../executor/index.js";
import { BTree } from "./btree.js";
import { compareKeys, keyWalk } from "./key-range.js";
import { columnValue, type Column, type KeyRange } from "../executor/table-store.js";
import type { ColumnHeap } from "./row-heap.js";

/** What an index reads of its table. */
export interface IndexedTable {
  readonly heap: ColumnHeap;
  /** Increases along the table. */
  orderOf(id: number): number;
}

const EMPTY: readonly number[] = Object.freeze([]) as readonly number[];

/** The key of `values` (undefined when one is NULL). */
export function keyOfValues(values: readonly Value[]): unknown {
  if (values.length === 1) return values[0] === null ? undefined : values[0];
  for (const v of values) if (v === null) return undefined;
  return JSON.stringify(values);
}

/** The key of a row of values at `positions` (undefined when one is NULL). */
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

/** The key of stored row `id` at `positions` (undefined when one is NULL). */
export function keyOfStored(heap: ColumnHeap, id: number, positions: readonly number[]): unknown {
  if (positions.length === 1) {
    const v = columnValue(heap.columns[positions[0] as number]!, id);
    return v === null ? undefined : v;
  }
  const values: Value[] = [];
  for (const p of positions) {
    const v = columnValue(heap.columns[p]!, id);
    if (v === null) return undefined;
    values.push(v);
  }
  return JSON.stringify(values);
}

/** Slots a UniqueIndex keeps beyond twice its row count when built. */
const SPARE_SLOTS = 1024;

export class UniqueIndex {
  /**
   * Rows by key. Integer keys from 0 below `limit` (most primary keys) sit
   * in typed-array slots (the row's id; 0, the heap's row of NULLs, is
   * "none"), filled about four times as fast as Map entries when a large
   * table loads, and looked up faster; every other key is in `map`.
   * Emptying the index sets `limit` to room for twice the rows; an integer
   * key at or past `limit` that is still below twice the keys held (plus
   * the spare) at least doubles it, moving the Map's keys now below it into
   * slots — so a table filled by inserts of growing ids gets slots too, and
   * the array never outgrows ~4x the keys (far-apart keys never make a huge
   * or sparse array). Which store holds a key depends on the key and
   * `limit` alone, so each operation looks in one place. The slots are
   * allocated when the first such key arrives, so a key of text costs no
   * slots at all.
   */
  private slots: Int32Array | undefined;
  private limit = 0;
  /** Keys held in `slots`. */
  private filled = 0;
  private readonly map = new Map<unknown, number>();

  constructor(
    readonly name: string,
    readonly positions: readonly number[],
    private readonly table: IndexedTable,
  ) {
    this.reset(0);
  }

  /** The row holding `key` (already encoded), if any. */
  get(key: unknown): number | undefined {
    if (this.isSlot(key)) {
      const id = this.slots === undefined ? 0 : (this.slots[key] as number);
      return id === 0 ? undefined : id;
    }
    return key === undefined ? undefined : this.map.get(key);
  }

  lookup(values: readonly Value[]): readonly number[] {
    const id = this.get(keyOfValues(values));
    return id === undefined ? EMPTY : [id];
  }

  keyOf(id: number): unknown {
    return keyOfStored(this.table.heap, id, this.positions);
  }

  /** Adds a row; returns false (and changes nothing) when its key is taken. */
  add(id: number): boolean {
    return this.put(this.keyOf(id), id);
  }

  remove(id: number): void {
    const key = this.keyOf(id);
    if (this.isSlot(key)) {
      if (this.slots !== undefined && this.slots[key] === id) {
        this.slots[key] = 0;
        this.filled--;
      }
    } else if (key !== undefined && this.map.get(key) === id) {
      this.map.delete(key);
    }
  }

  /** Whether two stored rows have one key here. */
  sameKey(a: number, b: number): boolean {
    return this.keyOf(a) === this.keyOf(b);
  }

  /** Row `next` takes the key `old` holds (their keys are equal). */
  replace(old: number, next: number): void {
    const key = this.keyOf(old);
    if (this.isSlot(key)) {
      if (this.slots !== undefined && this.slots[key] === old) this.slots[key] = next;
    } else if (key !== undefined && this.map.get(key) === old) {
      this.map.set(key, next);
    }
  }

  /** Empties the index and indexes `ids` (table order); returns the positions of rows whose key an earlier row holds. */
  build(ids: readonly number[]): number[] {
    this.reset(ids.length);
    const taken: number[] = [];
    const heap = this.table.heap;
    const single = this.positions.length === 1 ? heap.columns[this.positions[0] as number]! : undefined;
    let i = 0;
    if (single instanceof Float64Array && ids.length > 0 && this.isSlot(single[ids[0] as number])) {
      this.slots = new Int32Array(this.limit);
      [i, this.filled] = fillSlots(single, ids, this.slots, taken);
    }
    for (; i < ids.length; i++) {
      const id = ids[i] as number;
      let key: unknown;
      if (single !== undefined) {
        key = single[id];
        if (key === null || key !== key) key = undefined;
      } else key = keyOfStored(heap, id, this.positions);
      if (!this.put(key, id)) taken.push(i);
    }
    return taken;
  }

  private reset(rows: number): void {
    this.limit = 2 * rows + SPARE_SLOTS;
    this.slots = undefined;
    this.filled = 0;
    this.map.clear();
  }

  /** Raises `limit` past `key` (see `slots`), moving the Map's keys below the new limit into slots. */
  private grow(key: number): void {
    const limit = Math.max(2 * this.limit, key + 1);
    if (this.slots !== undefined) {
      const grown = new Int32Array(limit);
      grown.set(this.slots);
      this.slots = grown;
    }
    this.limit = limit;
    for (const [k, id] of this.map) {
      if (!this.isSlot(k)) continue;
      this.map.delete(k);
      this.put(k, id);
    }
  }

  private isSlot(key: unknown): key is number {
    return typeof key === "number" && (key | 0) === key && key >= 0 && key < this.limit;
  }

  /** Files row `id` under `key` unless the key is taken (false); a NULL key (undefined) is not indexed. */
  private put(key: unknown, id: number): boolean {
    if (typeof key === "number" && key >= this.limit && (key | 0) === key && key < 2 * (this.filled + this.map.size + 1) + SPARE_SLOTS) this.grow(key);
    if (this.isSlot(key)) {
      const slots = (this.slots ??= new Int32Array(this.limit));
      if (slots[key] !== 0) return false;
      slots[key] = id;
      this.filled++;
      return true;
    }
    if (key === undefined) return true;
    if (this.map.has(key)) return false;
    this.map.set(key, id);
    return true;
  }
}

/**
 * Files the rows `ids` under their keys in `column` into `slots` (`UniqueIndex`'s
 * typed-array store, `slots.length` its limit) until a key that is not a
 * slot's: skips NULL (NaN), adds the position of a row whose key is taken to
 * `taken`. Returns where it stopped and how many keys it filed. A function of
 * arrays alone, so its optimized loop outlives the indexes it filled (see
 * `read-rows.ts`): as a loop of `build` it ran in the interpreter again after
 * each close and reopen.
 */
function fillSlots(column: Float64Array, ids: readonly number[], slots: Int32Array, taken: number[]): [stop: number, filled: number] {
  const limit = slots.length;
  let filled = 0;
  let i = 0;
  for (; i < ids.length; i++) {
    const id = ids[i] as number;
    const key = column[id] as number;
    if (key !== key) continue;
    if ((key | 0) !== key || key < 0 || key >= limit) break;
    if (slots[key] !== 0) {
      taken.push(i);
      continue;
    }
    slots[key] = id;
    filled++;
  }
  return [i, filled];
}

/** The bucket of rows whose one key column is NULL (never found by equality: no lookup asks for it). */
const NULL_BUCKET = Symbol("NULL");

/**
 * Files the rows `ids` (table order) into `MultiIndex` buckets: `map` from
 * each key to its bucket's first row, `next` and `prev` linking its rows. A
 * row's key is its value in `single` (NULL under `NULL_BUCKET`), or, for a
 * composite key, `composite(id)`. A function of arrays alone, as
 * `fillSlots` is.
 */
function fillBuckets(ids: readonly number[], single: Column | undefined, composite: (id: number) => unknown, map: Map<unknown, number>, next: Int32Array, prev: Int32Array): void {
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    let key: unknown;
    if (single !== undefined) {
      key = single[id];
      if (key === null || key !== key) key = NULL_BUCKET;
    } else key = composite(id);
    const head = map.get(key);
    if (head === undefined) {
      next[id] = id;
      prev[id] = id;
      map.set(key, id);
    } else {
      const last = prev[head] as number;
      next[last] = id;
      prev[id] = last;
      next[id] = head;
      prev[head] = id;
    }
  }
}

/**
 * A secondary index: rows by key, each key's rows (its bucket) in table
 * order. A bucket is a circular doubly linked list threaded through two
 * typed arrays indexed by row id (`next`, `prev`: 8 bytes a row, against
 * an array per bucket that cost ~70 bytes a key before its rows), and the
 * Map holds each bucket's first row (its last is that row's `prev`), so
 * appending, removing, and a new row taking an old one's place are O(1),
 * and a row placed by its table order walks back from the bucket's end.
 *
 * Every row is in a bucket, NULL keys too (ORDER BY walks every row): a
 * one-column NULL under `NULL_BUCKET`, a composite key with a NULL under
 * its JSON, which no equality lookup builds (`keyOfValues` stops at a
 * NULL). Equality goes through the Map; ranges, prefixes and ordered walks
 * through a B+tree from each key (the column value, or an array of them)
 * to its bucket's first row, as the Map has it. The tree is built on first
 * ordered use and kept in step from then on, so loading a table and
 * equality-only workloads pay nothing for it; `build` drops it.
 */
export class MultiIndex {
  private readonly map = new Map<unknown, number>();
  private next = new Int32Array(0);
  private prev = new Int32Array(0);
  private tree: BTree<unknown, number> | undefined;

  constructor(
    readonly name: string,
    readonly positions: readonly number[],
    private readonly table: IndexedTable,
  ) {}

  lookup(values: readonly Value[]): readonly number[] {
    return this.get(keyOfValues(values));
  }

  /** Rows whose key equals `key` (already encoded), in table order: a new array. */
  get(key: unknown): readonly number[] {
    const head = key === undefined ? undefined : this.map.get(key);
    return head === undefined ? EMPTY : this.bucket(head);
  }

  private bucket(head: number): number[] {
    const out = [head];
    const next = this.next;
    for (let id = next[head] as number; id !== head; id = next[id] as number) out.push(id);
    return out;
  }

  /** The Map key of a row's bucket. */
  private bucketKey(id: number): unknown {
    const heap = this.table.heap;
    if (this.positions.length === 1) return columnValue(heap.columns[this.positions[0] as number]!, id) ?? NULL_BUCKET;
    return JSON.stringify(this.positions.map((p) => columnValue(heap.columns[p]!, id)));
  }

  /** The tree key of a row: its one key column's value, or an array of them. */
  private treeKey(id: number): unknown {
    const heap = this.table.heap;
    if (this.positions.length === 1) return columnValue(heap.columns[this.positions[0] as number]!, id);
    return this.positions.map((p) => columnValue(heap.columns[p]!, id));
  }

  /** Room in `next` and `prev` for ids below the heap's count. */
  private fit(): void {
    const count = this.table.heap.count;
    if (count <= this.next.length) return;
    const size = Math.max(count, this.next.length + (this.next.length >> 1) + 64);
    const next = new Int32Array(size);
    next.set(this.next);
    const prev = new Int32Array(size);
    prev.set(this.prev);
    this.next = next;
    this.prev = prev;
  }

  add(id: number): void {
    this.fit();
    const key = this.bucketKey(id);
    const head = this.map.get(key);
    const { next, prev } = this;
    if (head === undefined) {
      next[id] = id;
      prev[id] = id;
      this.map.set(key, id);
      this.tree?.set(this.treeKey(id), id);
      return;
    }
    // Before the first row of the bucket that comes after it in table order (usually: at the end).
    const order = this.table.orderOf(id);
    let after = head;
    if (this.table.orderOf(prev[head] as number) > order) {
      after = prev[head] as number;
      while (after !== head && this.table.orderOf(prev[after] as number) > order) after = prev[after] as number;
    }
    const before = prev[after] as number;
    next[before] = id;
    prev[id] = before;
    next[id] = after;
    prev[after] = id;
    if (after === head && this.table.orderOf(head) > order) this.setHead(key, id);
  }

  /** A bucket's first row is now `id`. */
  private setHead(key: unknown, id: number): void {
    this.map.set(key, id);
    this.tree?.set(this.treeKey(id), id);
  }

  remove(id: number): void {
    if (id >= this.next.length) return;
    const key = this.bucketKey(id);
    const head = this.map.get(key);
    if (head === undefined) return;
    const { next, prev } = this;
    if (next[id] === id) {
      if (head !== id) return;
      this.map.delete(key);
      this.tree?.delete(this.treeKey(id));
      return;
    }
    const before = prev[id] as number;
    const after = next[id] as number;
    next[before] = after;
    prev[after] = before;
    if (head === id) this.setHead(key, after);
  }

  /** Whether two stored rows are in one bucket. */
  sameKey(a: number, b: number): boolean {
    return this.bucketKey(a) === this.bucketKey(b);
  }

  /** Row `fresh` takes the place of `old`, whose key and table order it has. */
  replace(old: number, fresh: number): void {
    this.fit();
    const key = this.bucketKey(old);
    const head = this.map.get(key);
    if (head === undefined) return;
    const { next, prev } = this;
    if (next[old] === old) {
      next[fresh] = fresh;
      prev[fresh] = fresh;
    } else {
      const before = prev[old] as number;
      const after = next[old] as number;
      next[before] = fresh;
      prev[fresh] = before;
      next[fresh] = after;
      prev[after] = fresh;
    }
    if (head === old) this.setHead(key, fresh);
  }

  /** Empties the index and indexes `ids` (table order). */
  build(ids: readonly number[]): void {
    this.map.clear();
    this.tree = undefined;
    this.next = new Int32Array(this.table.heap.count);
    this.prev = new Int32Array(this.table.heap.count);
    const single = this.positions.length === 1 ? this.table.heap.columns[this.positions[0] as number]! : undefined;
    fillBuckets(ids, single, (id) => this.bucketKey(id), this.map, this.next, this.prev);
  }

  /**
   * Visits the rows within `ranges` (ascending, disjoint) in key order —
   * descending walks keys down, a key's rows stay in table order — until
   * `visit` returns false.
   */
  walk(ranges: readonly KeyRange[], descending: boolean, visit: (id: number) => boolean): void {
    const tree = this.ordered();
    const width = this.positions.length;
    const next = this.next;
    let going = true;
    const each = (_key: unknown, head: number): boolean => {
      let id = head;
      do {
        if (!visit(id)) return (going = false);
        id = next[id] as number;
      } while (id !== head);
      return true;
    };
    for (let r = 0; r < ranges.length && going; r++) {
      const { before, after } = keyWalk(ranges[descending ? ranges.length - 1 - r : r] as KeyRange, width);
      if (descending) tree.walkDown(after, (key, head) => !before(key) && each(key, head));
      else tree.walkUp(before, (key, head) => !after(key) && each(key, head));
    }
  }

  /** The ordered tree, built now from the Map's buckets if it is not yet. */
  private ordered(): BTree<unknown, number> {
    if (this.tree !== undefined) return this.tree;
    const single = this.positions.length === 1;
    const entries: [unknown, number][] = [];
    for (const head of this.map.values()) entries.push([this.treeKey(head), head]);
    const compare = single ? (compareValues as (a: unknown, b: unknown) => number) : (compareKeys as (a: unknown, b: unknown) => number);
    entries.sort((a, b) => compare(a[0], b[0]));
    const tree = new BTree<unknown, number>(compare);
    tree.build(
      entries.map((e) => e[0]),
      entries.map((e) => e[1]),
    );
    this.tree = tree;
    return tree;
  }
}
