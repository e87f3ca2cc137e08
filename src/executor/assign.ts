/**
 * An update's assignments, compiled into one function per plan: it copies
 * the old row's values and writes each assigned column, every expression
 * reading the old row, so `SET a = b, b = a` swaps, as in SQL. Rows are
 * values: the stored row is never written, the copy is the new row. An
 * update runs in row mode (`r` the stored row, `t` its heap's columns); an
 * UPDATE … FROM in tuple mode (`r` a join tuple, `t` its sources' heaps,
 * the copy of the row at `target`); an
 * upsert's update in values-tuple mode: `r` is [the values of the row
 * already there, the proposed row], and the copy is of the first. An
 * update's values may hold subqueries (`context`): they run while the
 * WHERE's do (`matchThen`), before any row changes.
 */

import type { ColumnType, Value } from "../commands/types.js";
import { StoreError } from "../errors.js";
import type { Assignment, RowSubquery } from "../planner/plan.js";
import { Codegen, instantiate, type CompileContext } from "./codegen.js";
import type { StoredRow } from "./table-store.js";

/** `(old row, params, columns) → new row`; in tuple mode a join tuple and its heaps, in values-tuple mode `(old values, proposed values)` as one tuple. */
export type AssignFn = (row: StoredRow | readonly StoredRow[] | readonly (readonly Value[])[], params: readonly Value[], t?: unknown) => Value[];

/**
 * `types`: the table's column types, for row and tuple mode (the old row's values are read from its columns; in a tuple, source `target`'s).
 * `rows`: the row subqueries of `SET (a, b) = (SELECT …)`, each run once before the assignments that read its values.
 */
export function compileAssignments(set: readonly Assignment[], mode: "row" | "tuple" | "values-tuple", types: readonly ColumnType[] = [], context?: CompileContext, target = 0, rows: readonly RowSubquery[] = []): AssignFn {
  const g = new Codegen(mode, context);
  const runs = rows.map((row) => `${g.rowSubquery(row)};`);
  const writes = set.map((a) => {
    if (!Number.isSafeInteger(a.position) || a.position < 0) throw new StoreError("internal_error", "Invalid column position in generated code");
    return `v[${a.position}] = ${g.value(a.value)};`;
  });
  // Row mode: every column of the stored row, read as the values they are.
  const old = mode === "values-tuple" ? "r[0].slice()" : `[${types.map((type, column) => g.value({ kind: "column", source: target, column, name: "", type })).join(", ")}]`;
  return instantiate(`${g.constants()} return function assign(r, p, t) { ${g.declarations()} const v = ${old}; ${runs.join(" ")} ${writes.join(" ")} return v; };`, g.consts);
}
