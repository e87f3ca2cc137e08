/**
 * Reaches the rows of a plan's first table by its chosen access path, and
 * says which WHERE terms the path already guarantees (a key lookup matches
 * exactly the rows whose key columns `=` its values: same number, same text,
 * same boolean, never NULL), so the filter need not test them again. An
 * index range guarantees nothing: a LIKE range holds texts the pattern may
 * still refuse, and a range in table order may turn into a scan; nor does
 * a lookup of an IN subquery's values (it too may turn into a scan).
 *
 * A `key-in-subquery` path reads the subquery's values from the runner the
 * WHERE's IN term compiled to (`keyInRunner`), so the subquery runs once
 * for both.
 */

import type { Value } from "../commands/types.js";
import { PRIMARY_KEY_NAME } from "../planner/table-info.js";
import { StoreError, assertNever } from "../errors.js";
import type { AccessPath, BoundExpr, RangeBound } from "../planner/plan.js";
import { equalitySides } from "../planner/passes.js";
import { conjuncts } from "../planner/walk.js";
import type { CompileContext } from "./codegen.js";
import { likePrefixes } from "./like.js";
import type { SubqueryRunner } from "./subquery.js";
import { NULL_ROW, type KeyBound, type KeyRange, type StoredRow, type TableStore } from "./table-store.js";

/** A lookup key part: a constant or a parameter's value. */
function keyValue(e: BoundExpr, params: readonly Value[]): Value {
  if (e.kind === "const") return e.value;
  if (e.kind === "param") return params[e.index] ?? null;
  throw new StoreError("internal_error", "A lookup key must be a constant or a parameter");
}

/** The one row of a select without a table: it reads no column, so the select list is evaluated once. */
const SINGLE_ROW: readonly StoredRow[] = Object.freeze([NULL_ROW]);

/**
 * The runner of a `key-in-subquery` path's IN term (`where` is the plan's
 * WHERE, `context` what its code is compiled with); undefined for another path.
 */
export function keyInRunner(path: AccessPath, where: BoundExpr | undefined, context: CompileContext): SubqueryRunner | undefined {
  if (path.kind !== "key-in-subquery") return undefined;
  const term = conjuncts(where)[path.term];
  if (term?.kind !== "in-subquery") throw new StoreError("internal_error", "A key-in-subquery path needs its IN term");
  return context.runner(term);
}

/** `keyIn`: the runner of a `key-in-subquery` path (`keyInRunner`), begun for this execution. */
export function accessRows(path: AccessPath, store: TableStore | undefined, params: readonly Value[], keyIn?: SubqueryRunner): readonly StoredRow[] {
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
    case "index-range":
      return store.rangeRows(path.index, keyRanges(path, params), path.order, -1);
    case "key-in-subquery":
      if (keyIn === undefined) throw new StoreError("internal_error", "A key-in-subquery path needs its runner");
      return store.lookupAny(path.index, keyIn.inValues(params));
    default:
      return assertNever(path, "access path");
  }
}

type RangePath = Extract<AccessPath, { kind: "index-range" }>;

/**
 * The key ranges of an index-range path for these parameter values: none
 * when a value it compares with is NULL (no comparison with NULL is true),
 * one per literal start of a LIKE pattern, else one.
 */
export function keyRanges(path: RangePath, params: readonly Value[]): KeyRange[] {
  const equal = path.equal.map((e) => keyValue(e, params));
  if (equal.includes(null)) return [];
  const bound = (b: RangeBound | undefined): KeyBound | null | undefined => {
    if (b === undefined) return undefined;
    const value = keyValue(b.value, params);
    return value === null ? null : { value, inclusive: b.inclusive };
  };
  const lower = bound(path.lower);
  const upper = bound(path.upper);
  if (lower === null || upper === null) return [];
  if (path.like !== undefined) {
    const pattern = keyValue(path.like.pattern, params);
    const escape = path.like.escape === undefined ? undefined : keyValue(path.like.escape, params);
    if (typeof pattern !== "string" || escape === null) return [];
    return likePrefixes(pattern, escape as string | undefined).map((prefix) => ({ equal, prefix }));
  }
  return [{ equal, ...(lower === undefined ? {} : { lower }), ...(upper === undefined ? {} : { upper }) }];
}

/** The rows of an index-range path in its order that pass `test`, at most `max` of them (-1: all). */
export function rangeRows(path: RangePath, store: TableStore, params: readonly Value[], max: number, test: ((row: StoredRow) => boolean) | undefined): StoredRow[] {
  return store.rangeRows(path.index, keyRanges(path, params), path.order, max, test);
}

/** Whether `term` is one of the equalities the access path looks up (`positionOf` maps the first table's column names). */
export function impliedByAccess(term: BoundExpr, path: AccessPath, positionOf: (column: string) => number): boolean {
  // A range may turn into a scan when it finds much of the table (`TableStore.rangeRows`): all its terms stay.
  if (path.kind === "scan" || path.kind === "single-row" || path.kind === "index-range" || path.kind === "key-in-subquery") return false;
  return equalitySides(term).some(([col, other]) => {
    if (col.kind !== "column" || col.source !== 0) return false;
    const i = path.columns.findIndex((c) => positionOf(c) === col.column);
    return i >= 0 && JSON.stringify(path.values[i]) === JSON.stringify(other);
  });
}
