/**
 * An update's assignments, compiled into one function per plan: it copies
 * the old row and writes each assigned column, every expression reading the
 * old row, so `SET a = b, b = a` swaps, as in SQL. Rows are values: the
 * old array is never written, the copy is the new row. An upsert's update
 * runs in tuple mode: `r` is [the row already there, the proposed row], and
 * the copy is of the first.
 */

import type { Value } from "../commands/types.js";
import { StoreError } from "../errors.js";
import type { Assignment } from "../planner/plan.js";
import { Codegen, instantiate, type RowMode } from "./codegen.js";
import type { StoredRow } from "./table-store.js";

/** `(old row, params) → new row`; in tuple mode `(old row, proposed row)` come as one tuple. */
export type AssignFn = (row: StoredRow | readonly StoredRow[], params: readonly Value[]) => Value[];

export function compileAssignments(set: readonly Assignment[], mode: RowMode = "row"): AssignFn {
  const g = new Codegen(mode);
  const writes = set.map((a) => {
    if (!Number.isSafeInteger(a.position) || a.position < 0) throw new StoreError("internal_error", "Invalid column position in generated code");
    return `v[${a.position}] = ${g.value(a.value)};`;
  });
  const old = mode === "row" ? "r" : "r[0]";
  return instantiate(`${g.constants()} return function assign(r, p) { ${g.declarations()} const v = ${old}.slice(); ${writes.join(" ")} return v; };`, g.consts);
}
