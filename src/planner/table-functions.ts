/**
 * The table functions a FROM item may call: SQLite's json_each and
 * json_tree. Both have the same columns, SQLite's: `key`, `value`, `type`,
 * `atom`, `id`, `parent`, `fullkey`, `path`, and the hidden `json` and
 * `root` (their arguments), which a name reads but `*` does not show.
 *
 * `key`, `value` and `atom` hold values read from JSON — an array's key is
 * an integer, an object's a text; a value any JSON value — so they are
 * typed as each row is read (static type `unknown`), as json_extract's
 * answer is. The binder reads this module for names and types, the
 * executor (`executor/json-table.ts`) for where each value goes.
 */

import type { ColumnType, TableFunctionName } from "../commands/types.js";
import type { BoundExpr, TableShape } from "./plan.js";
import type { TableInfo } from "./table-info.js";

export const TABLE_FUNCTIONS: readonly TableFunctionName[] = ["json_each", "json_tree"];

export function isTableFunction(name: string): name is TableFunctionName {
  return (TABLE_FUNCTIONS as readonly string[]).includes(name);
}

/** The columns, in row order; the last two are hidden. */
export const JSON_TABLE_COLUMNS = ["key", "value", "type", "atom", "id", "parent", "fullkey", "path", "json", "root"] as const;

/** Positions the executor writes and the compiler reads. */
export const KEY = 0;
export const VALUE = 1;
export const TYPE = 2;
export const ATOM = 3;

/** The columns `*` shows: every one but `json` and `root`. */
export const VISIBLE_COLUMNS = 8;

/**
 * How each column is held: `key`, `value` and `atom` as any value (a heap's
 * plain array, as a text column's), `id` and `parent` as numbers.
 */
const HELD: readonly ColumnType[] = ["text", "text", "text", "text", "integer", "integer", "text", "text", "text", "text"];

export const JSON_TABLE_SHAPE: TableShape = { columns: JSON_TABLE_COLUMNS, types: HELD };

/** The static type a read of column `column` has: `unknown` for the values read from JSON. */
export function callColumnType(column: number): ColumnType | "unknown" {
  return column === KEY || column === VALUE || column === ATOM ? "unknown" : HELD[column]!;
}

/** The source at `index` that calls a table function, as the binder and the passes see a table (its name in the plan: `name`). */
export function callTableInfo(name: string): TableInfo {
  const columns = JSON_TABLE_COLUMNS;
  const schema = { name, columns: Object.fromEntries(columns.map((c, i) => [c, HELD[i]!])) };
  return { name, schema, columns, types: HELD, position: new Map(columns.map((c, i) => [c, i])), computed: new Map(), keys: [] };
}

/**
 * For a value a table function read (`value`, `atom`; from its source or,
 * in a subquery, from the enclosing row), the expression of its row's
 * `type`, which says what the value is as JSON (an array's text is JSON,
 * a real a real); `undefined` for anything else (`key` too: an integer or
 * a text, as it reads).
 */
export function rowTypeOf(e: BoundExpr): BoundExpr | undefined {
  if (e.kind === "column" && e.type === "unknown" && (e.column === VALUE || e.column === ATOM)) return { kind: "column", source: e.source, column: TYPE, name: "type", type: "text" };
  if (e.kind === "outer" && e.rowType !== undefined) return { kind: "outer", index: e.rowType, type: "text" };
  return undefined;
}

/** Whether `e` is a value a table function read (`key`, `value`, `atom`), from its source or the enclosing row: only those are columns of no type. */
export function isCell(e: BoundExpr): boolean {
  return (e.kind === "column" || e.kind === "outer") && e.type === "unknown";
}

/** `e` where a JSON document is read: a value a table function read as its JSON text (`assert-type`'s `document`), anything else required to be a text. */
export function asDocument(e: BoundExpr, of: string, expect: (e: BoundExpr) => BoundExpr): BoundExpr {
  return isCell(e) ? { kind: "assert-type", expr: e, type: "text", of, document: true } : expect(e);
}
