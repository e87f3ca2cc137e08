/**
 * Reaches the rows of a plan's first table by its chosen access path, and
 * says which WHERE terms the path already guarantees (a key lookup matches
 * exactly the rows whose key columns `=` its values: same number, same text,
 * same boolean, never NULL), so the filter need not test them again.
 */

import type { Value } from "../commands/types.js";
import { PRIMARY_KEY_NAME } from "../planner/table-info.js";
import { StoreError, assertNever } from "../errors.js";
import type { AccessPath, BoundExpr } from "../planner/plan.js";
import type { StoredRow, TableStore } from "./table-store.js";

/** A lookup key part: a constant or a parameter's value. */
function keyValue(e: BoundExpr, params: readonly Value[]): Value {
  if (e.kind === "const") return e.value;
  if (e.kind === "param") return params[e.index] ?? null;
  throw new StoreError("internal_error", "A lookup key must be a constant or a parameter");
}

/** The one row of a select without a table: no columns, so the select list is evaluated once. */
const SINGLE_ROW: readonly StoredRow[] = Object.freeze([Object.freeze([])]);

export function accessRows(path: AccessPath, store: TableStore | undefined, params: readonly Value[]): readonly StoredRow[] {
  if (path.kind === "single-row") return SINGLE_ROW;
  if (store === undefined) throw new StoreError("internal_error", "An access path needs a table");
  switch (path.kind) {
    case "scan":
      return store.rows;
    case "primary-key-lookup":
      return store.lookup(PRIMARY_KEY_NAME, path.values.map((v) => keyValue(v, params)));
    case "unique-lookup":
    case "index-lookup":
      return store.lookup(path.index, path.values.map((v) => keyValue(v, params)));
    default:
      return assertNever(path, "access path");
  }
}

/** Whether `term` is one of the equalities the access path looks up (`positionOf` maps the first table's column names). */
export function impliedByAccess(term: BoundExpr, path: AccessPath, positionOf: (column: string) => number): boolean {
  if (path.kind === "scan" || path.kind === "single-row" || term.kind !== "compare" || term.op !== "=") return false;
  const pairs = [
    [term.left, term.right],
    [term.right, term.left],
  ] as const;
  return pairs.some(([col, other]) => {
    if (col.kind !== "column" || col.source !== 0) return false;
    const i = path.columns.findIndex((c) => positionOf(c) === col.column);
    return i >= 0 && JSON.stringify(path.values[i]) === JSON.stringify(other);
  });
}
