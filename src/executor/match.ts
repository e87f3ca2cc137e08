/**
 * Finds the rows an update or delete touches: the access path, then the
 * compiled WHERE (less what the path guarantees). Always returns a fresh array (the caller then changes the
 * table, which must not disturb the list it iterates).
 */

import type { Value } from "../commands/types.js";
import type { AccessPath, BoundExpr } from "../planner/plan.js";
import { conjuncts } from "../planner/passes.js";
import { accessRows, impliedByAccess } from "./access.js";
import { compileFilter, type FilterFn } from "./filter.js";
import type { StoredRow, TableStore } from "./table-store.js";

export interface PreparedMatch {
  readonly access: AccessPath;
  readonly filter: FilterFn;
}

/** `positionOf` maps the table's column names to positions. */
export function prepareMatch(access: AccessPath, where: BoundExpr, positionOf: (column: string) => number): PreparedMatch {
  const rest = conjuncts(where).filter((t) => !impliedByAccess(t, access, positionOf));
  const residual: BoundExpr = rest.length === 0 ? { kind: "const", value: true } : rest.length === 1 ? (rest[0] as BoundExpr) : { kind: "and", operands: rest };
  return { access, filter: compileFilter(residual) };
}

export function matchRows(prepared: PreparedMatch, store: TableStore, params: readonly Value[]): StoredRow[] {
  return prepared.filter(accessRows(prepared.access, store, params), params, -1);
}
