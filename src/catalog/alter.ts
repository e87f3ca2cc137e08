/**
 * Schema changes on tables that hold rows — an index created or dropped, a
 * column added, dropped or renamed, a table renamed (and the foreign keys
 * of other tables following it) — as the planner bound them: per table, the
 * new schema and how its rows are reshaped.
 *
 * Every new table is built in full (its rows reshaped, every index built by
 * `Table.holding`, so a new index is whatever kind the schema declares)
 * before any takes an old one's place: a unique key the rows break refuses
 * the whole change, and nothing changed. Rows are values: a reshape
 * copies the rows into a new heap, column by column, and the old rows go
 * into the change record for undo; a change that keeps the columns keeps
 * the heap.
 */

import type { TableSchema, Value } from "../commands/types.js";
import { ConstraintError, StoreError, type ProblemEntry } from "../errors.js";
import type { RowReshape, TableChange } from "../planner/plan.js";
import { Table } from "./table.js";
import type { Change } from "./types.js";

/**
 * `old`'s rows as a table of `schema`, reshaped: the same heap when nothing
 * reshapes them, else a new one (a column appended with a value, or one
 * removed). The new schema's columns must fit (a replay checks the width).
 */
export function reshapeTable(old: Table, schema: TableSchema, reshape: RowReshape | undefined): ReturnType<typeof Table.holding> {
  const shaped = new Table(schema);
  const from: (number | { readonly value: Value })[] = old.columns.map((_, c) => c);
  if (reshape?.kind === "add") from.push({ value: reshape.value });
  else if (reshape?.kind === "drop") from.splice(reshape.position, 1);
  // A schema that does not fit the rows (only a damaged journal has one): no rows, and the caller refuses it by its width.
  if (from.length !== shaped.width) return { table: shaped, duplicates: [] };
  const same = reshape === undefined && shaped.types.every((type, c) => type === old.types[c]);
  if (same) return Table.holding(schema, old.heap, old.rows);
  return Table.holding(schema, old.heap.gather(old.rows, shaped.types, from), old.rows.map((_, i) => i + 1));
}

/**
 * The tables built for `changes`, or the rows a new unique key refuses
 * (`problems`). `rows` checks a reshaped row's width, for a replay.
 */
export function buildTables(
  tables: ReadonlyMap<string, Table>,
  changes: readonly TableChange[],
): { readonly built: readonly { readonly old: Table; readonly table: Table; readonly change: TableChange }[]; readonly problems: readonly ProblemEntry[] } {
  const built: { old: Table; table: Table; change: TableChange }[] = [];
  const problems: ProblemEntry[] = [];
  for (const change of changes) {
    const old = tables.get(change.table);
    if (old === undefined) throw new StoreError("table_not_found", `Table "${change.table}" does not exist`);
    const { table, duplicates } = reshapeTable(old, change.schema, change.rows);
    table.uniqueKeys().forEach((ix, k) => {
      const column = ix.positions.map((p) => table.columns[p]).join(",");
      for (const row of duplicates[k] ?? []) {
        problems.push({ table: table.name, row, column, code: "unique", message: `An earlier row has this key (${column}): a unique index cannot hold both` });
      }
    });
    built.push({ old, table, change });
  }
  return { built, problems };
}

/** Applies `changes` to `tables`, all or none; returns the change records (with what undo needs). */
export function applyTableChanges(tables: Map<string, Table>, changes: readonly TableChange[]): Change[] {
  const { built, problems } = buildTables(tables, changes);
  if (problems.length > 0) {
    throw new ConstraintError(`The rows of "${problems[0]!.table}" break the new unique key (${problems.length} row(s))`, problems);
  }
  for (const { change } of built) tables.delete(change.table);
  for (const { table } of built) tables.set(table.name, table);
  return built.map(({ old, change }): Change => {
    const base = { kind: "alter-table" as const, table: change.table, schema: change.schema, before: old.schema };
    return change.rows === undefined ? base : { ...base, rows: change.rows, beforeRows: { heap: old.heap, rows: old.rows } };
  });
}
