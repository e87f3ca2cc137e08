/**
 * Which columns of a table function's source a select reads
 * (`json-table.ts` makes only those, as SQLite's virtual table computes a
 * column only when asked): those its expressions read (`planExprs`, which
 * holds a subquery's outer values — what it reads of this select — but
 * not another select's plan), and those a hash join on the call names. A
 * `value` or `atom` read reads `type` too: the compiled code reads its
 * row's type to know it as JSON (`rowTypeOf`).
 */

import { StoreError } from "../errors.js";
import { JSON_TABLE_COLUMNS, ATOM, TYPE, VALUE } from "../planner/table-functions.js";
import type { BoundExpr, SelectPlan } from "../planner/plan.js";
import { planExprs, some } from "../planner/walk.js";
import type { ColumnSet } from "./json-table.js";

export function callColumnsRead(plan: SelectPlan, source: number): ColumnSet {
  let read = 0;
  // `some` as a walk: the test marks each column of the call and never stops it.
  const mark = (x: BoundExpr): boolean => {
    if (x.kind === "column" && x.source === source) read |= 1 << x.column;
    return false;
  };
  for (const e of planExprs(plan)) some(e, mark);
  // A hash join's keys are sides of its ON's (or WHERE's) terms, read above; the call's own columns it names by name.
  for (const join of plan.joins) {
    if (join.source !== source || join.strategy.kind !== "hash") continue;
    for (const name of join.strategy.innerColumns) read |= 1 << columnAt(name);
  }
  if ((read & ((1 << VALUE) | (1 << ATOM))) !== 0) read |= 1 << TYPE;
  return read;
}

function columnAt(name: string): number {
  const at = (JSON_TABLE_COLUMNS as readonly string[]).indexOf(name);
  if (at < 0) throw new StoreError("internal_error", `a hash join names ${name}, no column of a table function`);
  return at;
}
