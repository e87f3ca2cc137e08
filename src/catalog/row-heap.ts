/**
 * A table's stored rows, by column (the executor's `RowHeap`): a row is an
 * id, and column c of row id r is `columns[c][r]`. Integer and real
 * columns are Float64Arrays (8 bytes a value, NaN for NULL), text and
 * boolean columns plain arrays (a pointer a value).
 *
 * Why by column: a row kept as its own array costs a header and a backing
 * store (48 bytes before its values) and every real in it a boxed number
 * (16 bytes more), so an opened database took 2.2x its file; a row here
 * costs its values alone. The executor compiles each column read to one
 * array load (`codegen.ts`), so queries read columns as directly as they
 * read row arrays before, and a scan touches only the columns it tests.
 *
 * Append-only: an id's values are written once, when it is appended, and
 * never again (an update appends its new row under a new id), so an id is
 * a value as a row array was, and a list of ids plus the heap is a
 * snapshot. Id 0 is a row of NULLs (an outer join's missing row), never a
 * table's row, so 0 also means "no row" where ids are kept in typed arrays.
 * The typed columns grow by copying into a larger array (`columns[c]` is
 * then another array: readers take it from `columns` at each call); the
 * plain ones grow in place. Ids no table row uses any more (updated,
 * deleted) stay until the table copies its live rows into a new heap
 * (`Table.compact`).
 *
 * A file can hold a value of the wrong type (a text in a real column): the
 * load keeps it, to report it, so such a column turns into a plain array
 * for that heap. The database is then invalid and runs no query, only
 * `validate`, which reads values (`value`, `values`) the same either way.
 */

import type { ColumnType, Value } from "../commands/types.js";
import { columnValue, isNumericType, type Column, type RowHeap } from "../executor/table-store.js";

/** Growth of the typed columns: half again, and at least this many rows. */
const MIN_GROWTH = 64;

export class ColumnHeap implements RowHeap {
  readonly columns: Column[];
  /** Per column: stored as numbers. */
  readonly numeric: boolean[];
  /** Ids below this are taken (0 is the row of NULLs). */
  count = 1;
  /** Rows the typed columns hold. */
  private capacity: number;

  /** A heap for columns of `types`, with room for `rows` rows. */
  constructor(types: readonly ColumnType[], rows = 0) {
    this.numeric = types.map(isNumericType);
    this.capacity = rows + 1;
    this.columns = this.numeric.map((numeric) => {
      if (!numeric) {
        const column = new Array<string | boolean | null>(this.capacity);
        column[0] = null;
        return column;
      }
      const column = new Float64Array(this.capacity);
      column[0] = NaN;
      return column;
    });
  }

  get width(): number {
    return this.columns.length;
  }

  /** Stores a row of `values` (one per column, each fitting its column) under a new id. */
  append(values: readonly Value[]): number {
    const id = this.count;
    if (id >= this.capacity) this.grow(id + 1);
    const columns = this.columns;
    for (let c = 0; c < columns.length; c++) {
      const v = values[c] as Value;
      if (this.numeric[c] && v !== null && typeof v !== "number") this.toPlain(c);
      if (this.numeric[c]) (columns[c] as Float64Array)[id] = v === null ? NaN : (v as number);
      else (columns[c] as Value[])[id] = v;
    }
    this.count = id + 1;
    return id;
  }

  /** Makes room for `rows` more rows at once, exactly (a load knows how many it reads). */
  reserve(rows: number): void {
    const wanted = this.count + rows;
    if (wanted <= this.capacity) return;
    this.resize(wanted);
    this.columns.forEach((column, c) => {
      if (this.numeric[c]) return;
      // A plain column of exactly the size wanted, rather than grown by steps with room to spare.
      const next = new Array<string | boolean | null>(wanted);
      for (let id = 0; id < this.count; id++) next[id] = (column as Value[])[id] as string | boolean | null;
      this.columns[c] = next;
    });
  }

  private grow(minimum: number): void {
    this.resize(Math.max(minimum, this.capacity + (this.capacity >> 1) + MIN_GROWTH));
  }

  private resize(capacity: number): void {
    this.columns.forEach((column, c) => {
      if (!this.numeric[c]) return;
      const next = new Float64Array(capacity);
      next.set(column as Float64Array);
      this.columns[c] = next;
    });
    this.capacity = capacity;
  }

  /** Column `c` as a plain array, to hold a value that is no number (a damaged file's). */
  private toPlain(c: number): void {
    const column = this.columns[c] as Column;
    const plain = new Array<string | boolean | null>(this.capacity);
    for (let id = 0; id < this.count; id++) plain[id] = columnValue(column, id) as string | boolean | null;
    this.columns[c] = plain;
    this.numeric[c] = false;
  }

  value(id: number, c: number): Value {
    return columnValue(this.columns[c] as Column, id);
  }

  /** A new array of the row's values. */
  values(id: number): Value[] {
    const out = new Array<Value>(this.columns.length);
    for (let c = 0; c < out.length; c++) out[c] = columnValue(this.columns[c] as Column, id);
    return out;
  }

  /**
   * A new heap of the rows `ids` (in that order: they become ids 1, 2, …),
   * its columns taken from this heap's by `from` (a column position here,
   * or a value every row gets), of `types`.
   */
  gather(ids: readonly number[], types: readonly ColumnType[], from: readonly (number | { readonly value: Value })[]): ColumnHeap {
    const heap = new ColumnHeap(types, ids.length);
    const n = ids.length;
    heap.columns.forEach((target, c) => {
      const source = from[c] as number | { readonly value: Value };
      if (typeof source === "number") {
        const column = this.columns[source] as Column;
        if (heap.numeric[c] && this.numeric[source]) for (let k = 0; k < n; k++) (target as Float64Array)[k + 1] = (column as Float64Array)[ids[k] as number] as number;
        else for (let k = 0; k < n; k++) (target as Value[])[k + 1] = column[ids[k] as number] as Value;
      } else {
        const v = heap.numeric[c] && source.value === null ? NaN : source.value;
        for (let k = 0; k < n; k++) (target as Value[])[k + 1] = v as Value;
      }
    });
    heap.count = n + 1;
    return heap;
  }
}
