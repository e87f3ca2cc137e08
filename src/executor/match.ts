/**
 * Finds the rows an update or delete touches: the access path, then the
 * compiled WHERE (less what the path guarantees). Always returns a fresh array (the caller then changes the
 * table, which must not disturb the list it iterates). Every row is matched
 * before any changes, so subqueries in the WHERE read the table as it was.
 */

import type { Value } from "../commands/types.js";
import type { AccessPath, BoundExpr } from "../planner/plan.js";
import { conjuncts } from "../planner/passes.js";
import { accessRows, impliedByAccess, keyInRunner } from "./access.js";
import { compileFilter, type FilterFn } from "./filter.js";
import type { SubqueryScope } from "./select.js";
import type { SubqueryRunner } from "./subquery.js";
import type { StoredRow, Stores, TableStore } from "./table-store.js";

export interface PreparedMatch {
  readonly access: AccessPath;
  /** A `key-in-subquery` path's runner (the WHERE's IN term's). */
  readonly keyIn: SubqueryRunner | undefined;
  readonly filter: FilterFn;
  readonly subqueries: SubqueryScope;
  /** The tables the WHERE's subqueries read. */
  readonly stores: Stores;
}

/** `positionOf` maps the table's column names to positions; `subqueries` compiles the WHERE's subqueries, over `stores`. */
export function prepareMatch(access: AccessPath, where: BoundExpr, positionOf: (column: string) => number, subqueries: SubqueryScope, stores: Stores): PreparedMatch {
  const rest = conjuncts(where).filter((t) => !impliedByAccess(t, access, positionOf));
  const residual: BoundExpr = rest.length === 0 ? { kind: "const", value: true } : rest.length === 1 ? (rest[0] as BoundExpr) : { kind: "and", operands: rest };
  const filter = compileFilter(residual, subqueries.context);
  return { access, keyIn: keyInRunner(access, where, subqueries.context), filter, subqueries, stores };
}

export function matchRows(prepared: PreparedMatch, store: TableStore, params: readonly Value[]): StoredRow[] {
  return matchThen(prepared, store, params, (rows) => rows);
}

/**
 * The matched rows, and `then` of them while the subqueries are still live:
 * an update computes its new rows there, so subqueries compiled into its
 * SET (in the same `SubqueryScope`) read the tables as the WHERE's do,
 * before any row changes.
 */
export function matchThen<T>(prepared: PreparedMatch, store: TableStore, params: readonly Value[], then: (rows: StoredRow[]) => T): T {
  const runners = prepared.subqueries.runners;
  for (const runner of runners) runner.begin?.(prepared.stores);
  try {
    return then(prepared.filter(accessRows(prepared.access, store, params, prepared.keyIn), params, -1, store.heap.columns));
  } finally {
    for (const runner of runners) runner.end();
  }
}
