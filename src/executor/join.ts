/**
 * Join operators over tuples (one stored row per source so far, each an id
 * in its table's heap; compiled code reads them through the sources' heap
 * columns, `t`). Inner and left joins; output order is the outer tuples'
 * order, each with its matches in the joined table's order. An unmatched
 * tuple of a left join gets the heap's row of NULLs for the joined source.
 *
 * - index nested loop: looks each outer key up in the joined table's key or
 *   index;
 * - hash: builds a map of the joined table on the join columns, once per run;
 * - nested loop: tries every joined row.
 * The ON condition is evaluated on every candidate pair, less the
 * equalities the key match already guarantees (a Map key matches exactly
 * when `=` is TRUE: same number, same text, same boolean, never NULL). A
 * candidate is tested in a scratch tuple; only a match allocates its own.
 */

import type { Value } from "../commands/types.js";
import { StoreError, assertNever } from "../errors.js";
import { conjuncts } from "../planner/passes.js";
import type { BoundExpr, JoinStep } from "../planner/plan.js";
import { compilePredicate, compileValue, type CompileContext, type PredicateFn, type ValueFn } from "./codegen.js";
import { columnValue, NULL_ROW, type Column, type StoredRow, type TableStore } from "./table-store.js";

export type Tuple = StoredRow[];

export interface PreparedJoin {
  readonly step: JoinStep;
  readonly table: string;
  /** What of ON the key match does not already guarantee; undefined when nothing. */
  readonly on: PredicateFn | undefined;
  readonly outerKeys: readonly ValueFn[];
  readonly innerPositions: readonly number[];
}

export function prepareJoin(step: JoinStep, table: string, positionOf: (column: string) => number, context?: CompileContext): PreparedJoin {
  const s = step.strategy;
  const keyed = s.kind === "index-nested-loop" || s.kind === "hash";
  const inner = keyed ? s.innerColumns : [];
  const outer = keyed ? s.outerKeys.map((k) => JSON.stringify(k)) : [];
  const implied = (t: BoundExpr): boolean => {
    if (t.kind !== "compare" || t.op !== "=") return false;
    return [
      [t.left, t.right],
      [t.right, t.left],
    ].some(([col, other]) => {
      if (col?.kind !== "column" || col.source !== step.source) return false;
      const i = inner.findIndex((c) => positionOf(c) === col.column);
      return i >= 0 && outer[i] === JSON.stringify(other);
    });
  };
  const rest = conjuncts(step.on).filter((t) => !implied(t));
  return {
    step,
    table,
    on: rest.length === 0 ? undefined : compilePredicate(rest.length === 1 ? (rest[0] as BoundExpr) : { kind: "and", operands: rest }, "tuple", context),
    outerKeys: keyed ? s.outerKeys.map((k) => compileValue(k, "tuple", context)) : [],
    innerPositions: keyed ? s.innerColumns.map(positionOf) : [],
  };
}

function hashKey(values: readonly Value[]): unknown {
  return values.length === 1 ? values[0] : JSON.stringify(values);
}

/**
 * Joins `tuples` with `store`. With `emit`, each joined tuple is handed to it
 * and its result kept instead of the tuple (the last join of a query with
 * nothing after it projects in place, allocating no tuples). `where`, for an
 * inner join only, is a WHERE term tested with ON, before a tuple is made
 * (for a left join it must wait: a row it rejects still counts as a match).
 */
export function runJoin<T = Tuple>(
  join: PreparedJoin,
  tuples: readonly Tuple[],
  store: TableStore,
  params: readonly Value[],
  heaps: readonly (readonly Column[])[],
  emit: (t: Tuple) => T = (t) => t.slice() as T,
  where?: (t: Tuple, p: readonly Value[], h: readonly (readonly Column[])[]) => boolean,
): T[] {
  if (where && join.step.type === "left") throw new StoreError("internal_error", "A WHERE term cannot run inside a left join");
  const out: T[] = [];
  const left = join.step.type === "left";
  const on = join.on as unknown as ((t: Tuple, p: readonly Value[], h: readonly (readonly Column[])[]) => boolean) | undefined;
  const keys = join.outerKeys as unknown as ((t: Tuple, p: readonly Value[], h: readonly (readonly Column[])[]) => Value)[];
  let candidates: (t: Tuple) => readonly StoredRow[];
  const s = join.step.strategy;
  switch (s.kind) {
    case "index-nested-loop": {
      const key = keys[0];
      if (keys.length === 1 && key) {
        const find = store.lookupBy(s.index);
        candidates = (t) => find(key(t, params, heaps));
      } else {
        candidates = (t) => store.lookup(s.index, keys.map((k) => k(t, params, heaps)));
      }
      break;
    }
    case "hash": {
      const table = new Map<unknown, StoredRow[]>();
      const columns = join.innerPositions.map((p) => store.heap.columns[p] as Column);
      for (const row of store.rows) {
        const values = columns.map((column) => columnValue(column, row));
        if (values.includes(null)) continue;
        const k = hashKey(values);
        const bucket = table.get(k);
        if (bucket) bucket.push(row);
        else table.set(k, [row]);
      }
      candidates = (t) => {
        const values = keys.map((k) => k(t, params, heaps));
        return values.includes(null) ? [] : (table.get(hashKey(values)) ?? []);
      };
      break;
    }
    case "nested-loop":
      candidates = () => store.rows;
      break;
    default:
      return assertNever(s, "join strategy");
  }
  const at = join.step.source;
  for (const t of tuples) {
    let matched = false;
    const scratch = t.slice();
    for (const row of candidates(t)) {
      scratch[at] = row;
      if ((on === undefined || on(scratch, params, heaps)) && (where === undefined || where(scratch, params, heaps))) {
        out.push(emit(scratch));
        matched = true;
      }
    }
    if (left && !matched) {
      scratch[at] = NULL_ROW;
      out.push(emit(scratch));
    }
  }
  return out;
}
