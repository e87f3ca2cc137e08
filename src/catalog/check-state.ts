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
    table.rows.forEach((row, i) => table.rowProblems(row, i, problems));
    // Keys are indexed by their first row (see Table.rebuild), so a row its key does not lead to is a duplicate.
    for (const ix of table.uniqueKeys()) {
      const code = ix === table.pk ? "duplicate_key" : "unique";
      const column = ix.positions.map((p) => table.columns[p]).join(",");
      table.rows.forEach((row, i) => {
        const k = keyOfRow(row, ix.positions);
        if (k !== undefined && ix.get(k) !== row) {
          problems.push({ table: table.name, row: i, column, code, message: `Another row has this ${code === "unique" ? "unique key" : "primary key"} (${column})` });
        }
      });
    }
    for (const l of linksFrom(table, tables)) {
      const column = l.childPositions.map((p) => table.columns[p]).join(",");
      table.rows.forEach((row, i) => {
        const k = keyOfRow(row, l.childPositions);
        if (k !== undefined && l.parentKey.get(k) === undefined) {
          problems.push({ table: table.name, row: i, column, code: "foreign_key", message: `No row in "${l.parent.name}" has this key (${column})` });
        }
      });
    }
  }
  return problems;
}
