/**
 * Undo: reverts changes, last first, on the tables they were made on — an
 * append that failed (storage rolls memory back to the last durable state),
 * a transaction step that failed, an upsert that stopped halfway.
 *
 * Every change holds the values it replaced or removed (a dropped or
 * reshaped table: its stored rows), and undo puts those back: the tables
 * end with exactly the rows they had (a row put back is stored anew, under
 * a new id). Rows moved by position, so the keys of each table touched are
 * rebuilt once at the end.
 */

import { StoreError, assertNever } from "../errors.js";
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
        t.insertAt(c.position, c.row);
        touched.add(t);
        break;
      }
      case "update": {
        const t = tableOf(tables, c.table);
        if (!t.rows[c.position]) throw new StoreError("internal_error", `Undo: no row ${c.position} in "${c.table}"`);
        t.rows[c.position] = t.heap.append(c.before);
        touched.add(t);
        break;
      }
      case "create-table":
        tables.delete(c.schema.name);
        schemaChanged = true;
        break;
      case "drop-table": {
        const t = new Table(c.schema, c.rows.heap);
        t.rows = c.rows.rows.slice();
        tables.set(c.table, t);
        touched.add(t);
        schemaChanged = true;
        break;
      }
      case "alter-table": {
        // The table as it was: its schema, under its old name, with its old rows (the same ones, when not reshaped).
        const current = tableOf(tables, c.schema.name);
        const before = c.beforeRows ?? current;
        const t = new Table(c.before, before.heap);
        t.rows = before.rows.slice();
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
