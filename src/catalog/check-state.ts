/**
 * Re-checks whole tables against their schemas: every row's types,
 * required columns and checks, primary and unique keys across rows, and
 * foreign keys across tables. Used for `validate` and when loading a file,
 * where rows arrive unchecked. Row indexes are positions in the table.
 */

import type { ProblemEntry } from "../errors.js";
import { linksFrom } from "./foreign-keys.js";
import { keyOfRow } from "./key-index.js";
import type { Table } from "./table.js";

export function checkTables(tables: ReadonlyMap<string, Table>): ProblemEntry[] {
  const problems: ProblemEntry[] = [];
  for (const table of [...tables.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    table.rows.forEach((row, i) => problems.push(...table.rowProblems(row, i)));
    for (const ix of table.uniqueKeys()) {
      const seen = new Set<unknown>();
      const code = ix === table.pk ? "duplicate_key" : "unique";
      const column = ix.positions.map((p) => table.columns[p]).join(",");
      table.rows.forEach((row, i) => {
        const k = keyOfRow(row, ix.positions);
        if (k === undefined) return;
        if (seen.has(k)) problems.push({ table: table.name, row: i, column, code, message: `Another row has this ${code === "unique" ? "unique key" : "primary key"} (${column})` });
        seen.add(k);
      });
    }
    for (const l of linksFrom(table, tables)) {
      const column = l.childPositions.map((p) => table.columns[p]).join(",");
      const parentKeys = new Set(l.parent.rows.map((r) => keyOfRow(r, l.parentKey.positions)));
      table.rows.forEach((row, i) => {
        const k = keyOfRow(row, l.childPositions);
        if (k !== undefined && !parentKeys.has(k)) {
          problems.push({ table: table.name, row: i, column, code: "foreign_key", message: `No row in "${l.parent.name}" has this key (${column})` });
        }
      });
    }
  }
  return problems;
}
