/**
 * The rows a recursive table has made so far (`recursive.ts`), stored by
 * column as a table's are — numbers in Float64Arrays with NaN for NULL,
 * id 0 the row of NULLs, row n the n-th made — in one heap that grows as
 * rows are added: its recursive selects read a slice of it as the rows
 * they run over, and its readers a slice as the table, so no row is copied
 * into another table. With `idColumn`, one more numeric column holds each
 * row's own id (the hidden column a tagged recursive select yields).
 *
 * A full numeric column is replaced by a copy twice its size; readers take
 * `heap.columns` afresh at each run (`RowHeap`), and a reader still holding
 * an older copy holds the same values for the rows it knew.
 */

import type { ColumnType, Value } from "../commands/types.js";
import { KeylessStore, isNumericType, type Column, type RowHeap, type StoredRow, type TableStore } from "./table-store.js";

export class MadeRows {
  readonly heap: { readonly columns: Column[] } = { columns: [] };
  /** How many rows are made: ids 1 to `count`. */
  count = 0;
  private capacity = 16;
  private readonly numeric: boolean[];

  constructor(
    private readonly width: number,
    types: readonly ColumnType[],
    idColumn: boolean,
  ) {
    this.numeric = [...types.map(isNumericType), ...(idColumn ? [true] : [])];
    for (const numeric of this.numeric) this.heap.columns.push(numeric ? new Float64Array(this.capacity).fill(NaN, 0, 1) : [null]);
  }

  /** Adds `row` (its first `width` values) as the next id. */
  add(row: readonly Value[]): void {
    const id = ++this.count;
    if (id === this.capacity) this.grow();
    const columns = this.heap.columns;
    for (let c = 0; c < this.width; c++) (columns[c] as Value[])[id] = this.numeric[c] ? ((row[c] as number | null) ?? NaN) : row[c]!;
    if (columns.length > this.width) (columns[this.width] as Float64Array)[id] = id;
  }

  /** The rows `ids` as a table's rows. */
  view(ids: readonly StoredRow[]): TableStore {
    return new MadeView(ids, this.heap, this.width);
  }

  private grow(): void {
    this.capacity *= 2;
    const columns = this.heap.columns;
    for (let c = 0; c < columns.length; c++) {
      const old = columns[c]!;
      if (old instanceof Float64Array) {
        const wider = new Float64Array(this.capacity);
        wider.set(old);
        columns[c] = wider;
      }
    }
  }
}

class MadeView extends KeylessStore {
  protected readonly what = "a recursive table";

  constructor(
    readonly rows: readonly StoredRow[],
    readonly heap: RowHeap,
    readonly width: number,
  ) {
    super();
  }
}
