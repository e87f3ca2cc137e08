/**
 * Re-checks whole tables against their schemas: every row's types,
 * required columns and checks, primary and unique keys across rows, and
 * foreign keys across tables. Used for `validate` and when loading a file,
 * where rows arrive unchecked. Row indexes are positions in the table.
 *
 * A load passes what it already established (`LoadFacts`), so types are not
 * checked twice and duplicates come from building the keys, not a second
 * lookup per row; the problems reported are the same either way.
 */

import type { ProblemEntry } from "../errors.js";
import { linksFrom } from "./foreign-keys.js";
import type { Table } from "./table.js";

export interface LoadFacts {
  /** Every row's values fit their column's type and required rule. */
  readonly valuesChecked: boolean;
  /** Per unique key, in `uniqueKeys()` order: the rows a rebuild could not index because an earlier row holds their key. */
  readonly duplicates: readonly (readonly number[])[];
}

export function checkTables(tables: ReadonlyMap<string, Table>, facts?: ReadonlyMap<Table, LoadFacts>): ProblemEntry[] {
  const problems: ProblemEntry[] = [];
  for (const table of [...tables.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const known = facts?.get(table);
    if (!known?.valuesChecked) table.rows.forEach((row, i) => table.rowProblems(table.values(row), i, problems));
    else if (table.hasChecks) table.rows.forEach((row, i) => table.checkProblems(table.values(row), i, problems));
    table.uniqueKeys().forEach((ix, k) => {
      const code = ix === table.pk ? "duplicate_key" : "unique";
      const column = ix.positions.map((p) => table.columns[p]).join(",");
      // Keys are indexed by their first row (see Table.rebuild), so a row its key does not lead to is a duplicate.
      const duplicates =
        known?.duplicates[k] ??
        table.rows.flatMap((row, i) => {
          const key = table.keyOf(row, ix.positions);
          return key !== undefined && ix.get(key) !== row ? [i] : [];
        });
      for (const i of duplicates) {
        problems.push({ table: table.name, row: i, column, code, message: `Another row has this ${code === "unique" ? "unique key" : "primary key"} (${column})` });
      }
    });
    for (const l of linksFrom(table, tables)) {
      const column = l.childPositions.map((p) => table.columns[p]).join(",");
      table.rows.forEach((row, i) => {
        const k = table.keyOf(row, l.childPositions);
        if (k !== undefined && l.parentKey.get(k) === undefined) {
          problems.push({ table: table.name, row: i, column, code: "foreign_key", message: `No row in "${l.parent.name}" has this key (${column})` });
        }
      });
    }
  }
  return problems;
}
