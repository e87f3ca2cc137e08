/**
 * Binds `insert`, `update` and `delete`: row keys and `set` columns resolve
 * to stored positions, insert rows become full-width in declaration order
 * (omitted columns take the default), and WHERE is bound as a boolean.
 *
 * A key that is no column is 422 `unknown_column`, a computed field 422
 * `computed_write`: these are row problems, reported all at once in the
 * error's `errors` list, not name-resolution errors.
 */

import type { DeleteCommand, InsertCommand, UpdateCommand, Value, ValueOrParam } from "../commands/types.js";
import { StoreError, ValidationError, type ProblemEntry } from "../errors.js";
import { ExprBinder, type BindContext } from "./bind-expr.js";
import { requireTable } from "./bind-select.js";
import type { Assignment, InsertValue, Plan } from "./plan.js";
import { tableScope } from "./scope.js";
import type { Catalog, TableInfo } from "./table-info.js";

/** Shared: most insert cells of a wide batch are defaults; one frozen value serves them all. */
const DEFAULT: InsertValue = Object.freeze({ kind: "default" });

/**
 * Whether a written value is a parameter slot. Only lowered SQL (and the
 * fluent builder) carries slots; in a JSON command an object is just a value
 * outside every column type, reported as such when the row is checked.
 */
function isParam(v: ValueOrParam, slots: boolean): v is { readonly type: "param"; readonly index: number } {
  return slots && typeof v === "object" && v !== null && v.type === "param" && Number.isSafeInteger(v.index) && v.index >= 0;
}

/** Checks one written column name; returns its position or records the problem. */
function writable(table: TableInfo, column: string, row: number | undefined, errors: ProblemEntry[]): number | undefined {
  const position = table.position.get(column);
  if (position !== undefined) return position;
  const at = row === undefined ? {} : { row };
  if (table.computed.has(column)) {
    errors.push({ table: table.name, ...at, column, code: "computed_write", message: `"${column}" is a computed field and cannot be written` });
  } else {
    errors.push({ table: table.name, ...at, column, code: "unknown_column", message: `Table "${table.name}" has no column "${column}"` });
  }
  return undefined;
}

export function bindInsert(cmd: InsertCommand, catalog: Catalog, slots: boolean, context: BindContext): Plan {
  const table = requireTable(catalog, cmd.table);
  if (cmd.rows.length === 0) throw new StoreError("invalid_request", "insert needs at least one row");
  const params = context.params;
  const errors: ProblemEntry[] = [];
  const rows = cmd.rows.map((row, r) => {
    const values: InsertValue[] = table.columns.map(() => DEFAULT);
    // Keys, then values by key: no [key, value] pair per cell in a bulk insert.
    for (const column of Object.keys(row)) {
      const value = row[column] as ValueOrParam;
      const position = writable(table, column, r, errors);
      if (position === undefined) continue;
      if (isParam(value, slots)) {
        params.use(value.index, { kind: "value", table: table.name, column, type: table.types[position] ?? "text" });
        values[position] = { kind: "param", index: value.index };
      } else {
        values[position] = { kind: "const", value: value as Value };
      }
    }
    return values;
  });
  if (errors.length > 0) throw new ValidationError(`Insert into "${table.name}" names columns it cannot write`, errors);
  return { statement: { kind: "insert", table: table.name, rows }, params: params.list() };
}

export function bindUpdate(cmd: UpdateCommand, catalog: Catalog, slots: boolean, context: BindContext): Plan {
  const table = requireTable(catalog, cmd.table);
  const params = context.params;
  const errors: ProblemEntry[] = [];
  const set: Assignment[] = [];
  for (const [column, value] of Object.entries(cmd.set)) {
    const position = writable(table, column, undefined, errors);
    if (position === undefined) continue;
    if (isParam(value, slots)) {
      params.use(value.index, { kind: "value", table: table.name, column, type: table.types[position] ?? "text" });
      set.push({ column, position, value: { kind: "param", index: value.index } });
    } else {
      set.push({ column, position, value: { kind: "const", value: value as Value } });
    }
  }
  if (errors.length > 0) throw new ValidationError(`Update of "${table.name}" names columns it cannot write`, errors);
  if (set.length === 0) throw new StoreError("invalid_request", "update needs at least one column in set");
  const where = new ExprBinder(tableScope(table, false), context).boolean(cmd.where, 0, "WHERE");
  return { statement: { kind: "update", table: table.name, access: { kind: "scan" }, where, set }, params: params.list() };
}

export function bindDelete(cmd: DeleteCommand, catalog: Catalog, context: BindContext): Plan {
  const table = requireTable(catalog, cmd.table);
  const where = new ExprBinder(tableScope(table, false), context).boolean(cmd.where, 0, "WHERE");
  return { statement: { kind: "delete", table: table.name, access: { kind: "scan" }, where }, params: context.params.list() };
}
