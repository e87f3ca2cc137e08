/**
 * Which columns of a table function's source a select reads
 * (`json-table.ts` makes only those, as SQLite's virtual table computes a
 * column only when asked). Every expression of the plan is looked through
 * — select list, WHERE, ON, keys, grouping, windows, ORDER BY, a
 * subquery's outer values — but not another select's plan (a subquery's,
 * a derived table's, a compound's step: their sources are their own, and
 * what they read of this one is an outer value listed here). A `value` or
 * `atom` read reads `type` too: the compiled code reads its row's type to
 * know it as JSON (`rowTypeOf`).
 */

import { JSON_TABLE_COLUMNS, ATOM, TYPE, VALUE } from "../planner/table-functions.js";
import type { SelectPlan } from "../planner/plan.js";
import type { ColumnSet } from "./json-table.js";

export function callColumnsRead(plan: SelectPlan, source: number): ColumnSet {
  let read = 0;
  const visit = (x: unknown, top: boolean): void => {
    if (typeof x !== "object" || x === null) return;
    if (Array.isArray(x)) {
      for (const y of x) visit(y, false);
      return;
    }
    const node = x as { readonly kind?: unknown; readonly source?: unknown; readonly column?: unknown };
    if (node.kind === "select" && !top) return;
    if (node.kind === "column" && node.source === source && typeof node.column === "number") read |= 1 << node.column;
    for (const value of Object.values(x)) visit(value, false);
  };
  visit(plan, true);
  // A hash join on the call's columns names them.
  for (const join of plan.joins) {
    const s = join.strategy;
    if (join.source === source && (s.kind === "hash" || s.kind === "index-nested-loop")) for (const c of s.innerColumns) read |= 1 << (JSON_TABLE_COLUMNS as readonly string[]).indexOf(c);
  }
  if ((read & ((1 << VALUE) | (1 << ATOM))) !== 0) read |= 1 << TYPE;
  return read;
}
