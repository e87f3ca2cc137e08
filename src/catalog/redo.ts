/**
 * Redo: applies journaled changes to the tables they were first made on,
 * in order (`Engine.redo`, for a journal's replay).
 *
 * A change is trusted as written — its record's checksum says it is what a
 * commit wrote — but it must fit: the table exists, the position is in
 * range, the row is as wide as the table, and no key it adds is taken.
 * Anything else means the journal does not belong to these tables, and
 * redo throws (the caller reports the journal as damaged).
 *
 * Deletes come as a command made them: one per row, each position counted
 * after the deletes before it. A run of them on one table whose rows were
 * in table order is removed in one step (`Table.removeAt`), so replaying a
 * large delete does not move the table once per row.
 */

import type { Value } from "../commands/types.js";
import { StoreError, assertNever } from "../errors.js";
import { reshapeTable } from "./alter.js";
import { keyOfRow } from "./key-index.js";
import { Table } from "./table.js";
import type { Redo, Row } from "./types.js";

function misfit(what: string): StoreError {
  return new StoreError("database_corrupt", `A journal record does not fit the database: ${what}.`);
}

function tableOf(tables: ReadonlyMap<string, Table>, name: string): Table {
  const table = tables.get(name);
  if (table === undefined) throw misfit(`no table "${name}"`);
  return table;
}

function rowFor(table: Table, row: Row): readonly Value[] {
  if (!Array.isArray(row) || row.length !== table.width) throw misfit(`a row of "${table.name}" that is not ${table.width} values wide`);
  return row;
}

function positionIn(table: Table, position: number, end: number): number {
  if (!Number.isInteger(position) || position < 0 || position >= end) throw misfit(`no row ${position} in "${table.name}"`);
  return position;
}

/** Throws when a unique key of `row` is held by a row other than `old`. */
function keysFree(table: Table, row: readonly Value[], old: number | undefined): void {
  for (const ix of table.uniqueKeys()) {
    const holder = ix.get(keyOfRow(row, ix.positions));
    if (holder !== undefined && holder !== old) throw misfit(`a key of "${table.name}" that is taken`);
  }
}

/** Redoes `changes` on `tables`; returns true when a table was created, dropped or changed its schema. */
export function redoChanges(tables: Map<string, Table>, changes: readonly Redo[]): boolean {
  let schemaChanged = false;
  for (let i = 0; i < changes.length; ) {
    const change = changes[i]!;
    switch (change.kind) {
      case "insert": {
        const table = tableOf(tables, change.table);
        const row = rowFor(table, change.row);
        if (change.position !== table.rows.length) throw misfit(`an insert at ${change.position} into "${table.name}" of ${table.rows.length} rows`);
        keysFree(table, row, undefined);
        table.append(row);
        i++;
        break;
      }
      case "update": {
        const table = tableOf(tables, change.table);
        const after = rowFor(table, change.after);
        const old = table.rows[positionIn(table, change.position, table.rows.length)]!;
        keysFree(table, after, old);
        table.replaceRow(old, after);
        i++;
        break;
      }
      case "delete": {
        const table = tableOf(tables, change.table);
        // The run's rows by their positions before any of them went: increasing while the run lasts.
        const positions: number[] = [];
        for (; i < changes.length; i++) {
          const next = changes[i]!;
          if (next.kind !== "delete" || next.table !== change.table) break;
          const original = positionIn(table, next.position, table.rows.length - positions.length) + positions.length;
          if (positions.length > 0 && original <= positions[positions.length - 1]!) break;
          positions.push(original);
        }
        table.removeAt(positions);
        break;
      }
      case "create-table":
        if (tables.has(change.schema.name)) throw misfit(`table "${change.schema.name}" exists already`);
        tables.set(change.schema.name, new Table(change.schema));
        schemaChanged = true;
        i++;
        break;
      case "drop-table":
        tableOf(tables, change.table);
        tables.delete(change.table);
        schemaChanged = true;
        i++;
        break;
      case "alter-table": {
        const old = tableOf(tables, change.table);
        const reshape = change.rows;
        if (reshape?.kind === "drop" && !(Number.isInteger(reshape.position) && reshape.position >= 0 && reshape.position < old.width)) {
          throw misfit(`no column ${reshape.position} in "${old.name}"`);
        }
        if (change.schema.name !== change.table && tables.has(change.schema.name)) throw misfit(`table "${change.schema.name}" exists already`);
        const { table, duplicates } = reshapeTable(old, change.schema, reshape);
        if (table.width !== old.width + (reshape === undefined ? 0 : reshape.kind === "add" ? 1 : -1)) throw misfit(`a schema of "${old.name}" that does not fit its rows`);
        if (duplicates.some((rows) => rows.length > 0)) throw misfit(`a key of "${table.name}" that is taken`);
        tables.delete(change.table);
        tables.set(table.name, table);
        schemaChanged = true;
        i++;
        break;
      }
      default:
        assertNever(change, "change");
    }
  }
  return schemaChanged;
}
