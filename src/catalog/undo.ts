/**
 * Undo: reverts changes, last first, on the tables they were made on — an
 * append that failed (storage rolls memory back to the last durable state),
 * a transaction step that failed, an upsert that stopped halfway.
 *
 * Rows are values, so every change holds the very arrays it replaced or
 * removed, and undo puts those back: the tables end exactly as they were,
 * row arrays included. Rows moved by position, so the keys of each table
 * touched are rebuilt once at the end.
 */

import { StoreError, assertNever } from "../errors.js";
import type { MutableRow } from "./key-index.js";
import { Table } from "./table.js";
import type { Change } from "./types.js";

function tableOf(tables: ReadonlyMap<string, Table>, name: string): Table {
  const t = tables.get(name);
  if (!t) throw new StoreError("internal_error", `Undo: no table "${name}"`);
  return t;
}

/** Reverts `changes` (made in order) on `tables`; returns true when a table was created, dropped or changed its schema. */
export function undoChanges(tables: Map<string, Table>, changes: readonly Change[]): boolean {
  const touched = new Set<Table>();
  let schemaChanged = false;
  for (let i = changes.length - 1; i >= 0; i--) {
    const c = changes[i] as Change;
    switch (c.kind) {
      case "insert": {
        const t = tableOf(tables, c.table);
        t.rows.splice(c.position, 1);
        touched.add(t);
        break;
      }
      case "delete": {
        const t = tableOf(tables, c.table);
        t.rows.splice(c.position, 0, c.row as MutableRow);
        touched.add(t);
        break;
      }
      case "update": {
        const t = tableOf(tables, c.table);
        if (!t.rows[c.position]) throw new StoreError("internal_error", `Undo: no row ${c.position} in "${c.table}"`);
        t.rows[c.position] = c.before as MutableRow;
        touched.add(t);
        break;
      }
      case "create-table":
        tables.delete(c.schema.name);
        schemaChanged = true;
        break;
      case "drop-table": {
        const t = new Table(c.schema);
        t.rows = c.rows.slice() as MutableRow[];
        tables.set(c.table, t);
        touched.add(t);
        schemaChanged = true;
        break;
      }
      case "alter-table": {
        // The table as it was: its schema, under its old name, with its old row arrays (the same ones, when not reshaped).
        const current = tableOf(tables, c.schema.name);
        const t = new Table(c.before);
        t.rows = (c.beforeRows ?? current.rows).slice() as MutableRow[];
        tables.delete(c.schema.name);
        tables.set(c.table, t);
        touched.add(t);
        schemaChanged = true;
        break;
      }
      default:
        assertNever(c, "change");
    }
  }
  for (const t of touched) if (tables.get(t.name) === t) t.rebuild();
  return schemaChanged;
}
