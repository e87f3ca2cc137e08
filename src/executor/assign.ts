/**
 * An update's assignments, compiled into one function per plan: it copies
 * the old row and writes each assigned column, every expression reading the
 * old row (`r`), so `SET a = b, b = a` swaps, as in SQL. Rows are values: the
 * old array is never written, the copy is the new row.
 */

import type { Value } from "../commands/types.js";
import { StoreError } from "../errors.js";
import type { Assignment } from "../planner/plan.js";
import { Codegen, instantiate } from "./codegen.js";
import type { StoredRow } from "./table-store.js";

/** `(old row, params) → new row`. */
export type AssignFn = (row: StoredRow, params: readonly Value[]) => Value[];

export function compileAssignments(set: readonly Assignment[]): AssignFn {
  const g = new Codegen("row");
  const writes = set.map((a) => {
    if (!Number.isSafeInteger(a.position) || a.position < 0) throw new StoreError("internal_error", "Invalid column position in generated code");
    return `v[${a.position}] = ${g.value(a.value)};`;
  });
  return instantiate(`${g.constants()} return function assign(r, p) { ${g.declarations()} const v = r.slice(); ${writes.join(" ")} return v; };`, g.consts);
}
