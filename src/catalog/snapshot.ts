/**
 * Snapshots as values: a `TableSnapshot` of rows given as arrays of values
 * (a document written from rows made elsewhere: benchmarks, tests), and the
 * values of a snapshot's stored rows (to compare two states as data, since
 * equal states may hold their rows under different ids).
 */

import type { ColumnType, TableSchema, Value } from "../commands/types.js";
import { ColumnHeap } from "./row-heap.js";
import type { StoredRows, TableSnapshot } from "./types.js";

/** A snapshot of a table of `schema` (its columns in declaration order) holding `rows`, each a value per column. */
export function tableSnapshot(schema: TableSchema, rows: readonly (readonly Value[])[]): TableSnapshot {
  const columns = Object.keys(schema.columns);
  const heap = new ColumnHeap(columns.map((c) => schema.columns[c] as ColumnType), rows.length);
  return { schema, columns, heap, rows: rows.map((row) => heap.append(row)) };
}

/** Each stored row's values, in table order. */
export function snapshotValues(table: StoredRows): Value[][] {
  return table.rows.map((id) => table.heap.values(id));
}
