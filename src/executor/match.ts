/**
 * Finds the rows an update or delete touches: the access path, then the
 * compiled WHERE. Always returns a fresh array (the caller then changes the
 * table, which must not disturb the list it iterates).
 */

import type { Value } from "../commands/types.js";
import type { AccessPath, BoundExpr } from "../planner/plan.js";
import { accessRows } from "./access.js";
import { compileFilter, type FilterFn } from "./filter.js";
import type { StoredRow, TableStore } from "./table-store.js";

export interface PreparedMatch {
  readonly access: AccessPath;
  readonly filter: FilterFn;
}

export function prepareMatch(access: AccessPath, where: BoundExpr): PreparedMatch {
  return { access, filter: compileFilter(where) };
}

export function matchRows(prepared: PreparedMatch, store: TableStore, params: readonly Value[]): StoredRow[] {
  return prepared.filter(accessRows(prepared.access, store, params), params, -1);
}
