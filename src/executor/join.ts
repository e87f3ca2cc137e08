/**
 * Join operators over tuples (one stored row per source so far, each an id
 * in its table's heap; compiled code reads them through the sources' heap
 * columns, `t`). Inner, left, right and full joins; output order is the
 * outer tuples' order, each with its matches in the joined table's order.
 * An unmatched tuple of a left (or full) join gets the heap's row of NULLs
 * for the joined source; a right (or full) join then adds each joined row
 * that matched no tuple, in table order, with NULL rows for every source
 * before it — SQLite's order too, which runs a right join as a left join
 * that marks the rows it matched, then emits the rest.
 *
 * - index nested loop: looks each outer key up in the joined table's key or
 *   index;
 * - hash: builds a map of the joined table on the join columns (or, for an
 *   expression hash, on expressions of its row), once per run — or, when
 *   the outer tuples are fewer, a map of them that one pass over the joined
 *   rows probes;
 * - nested loop: tries every joined row;
 * - lateral: a table function whose arguments read the tuple makes its
 *   rows from each tuple, and every one is tried.
 * The ON condition is evaluated on every candidate pair, less the
 * equalities the key match already guarantees (a Map key matches exactly
 * when `=` is TRUE: same number, same text, same boolean, never NULL). A
 * candidate is tested in a scratch tuple, and a join that streams its
 * tuples into what consumes them (`runJoin`'s `emit`) allocates none; one
 * whose tuples are kept (for a later join, a sort, a window) copies each.
 */

import type { Value } from "../commands/types.js";
import { StoreError, assertNever } from "../errors.js";
import { conjuncts, equalitySides } from "../planner/passes.js";
import type { BoundExpr, JoinStep, TableCall } from "../planner/plan.js";
import { compilePredicate, compileValue, type CompileContext, type PredicateFn, type ValueFn } from "./codegen.js";
import { columnValue, NULL_ROW, type Column, type StoredRow, type TableStore } from "./table-store.js";

export type Tuple = StoredRow[];

/** A compiled expression over a tuple, as `compileValue(…, "tuple")` makes it. */
type TupleFn = (t: Tuple, p: readonly Value[], h: readonly (readonly Column[])[]) => Value;

/** A join that made more tuples than its caller allows (`sourceItems`' bound: one run of a recursive select). */
export class TooManyTuples extends Error {}

export interface PreparedJoin {
  readonly step: JoinStep;
  readonly table: string;
  /** What of ON the key match does not already guarantee; undefined when nothing. */
  readonly on: PredicateFn | undefined;
  readonly outerKeys: readonly ValueFn[];
  readonly innerPositions: readonly number[];
  /** A lateral table function's arguments, over each tuple. */
  readonly lateral: readonly ValueFn[];
  /** An expression hash's keys over the joined row (in a tuple holding it at the join's source). */
  readonly innerKeys: readonly ValueFn[];
}

/** Whether a term (of ON, or a WHERE term decided at an inner join) is an equality the join's key match already guarantees. */
export function impliedByKey(step: JoinStep, positionOf: (column: string) => number): (t: BoundExpr) => boolean {
  const s = step.strategy;
  const keyed = s.kind === "index-nested-loop" || s.kind === "hash";
  const inner = keyed ? s.innerColumns : [];
  const outer = s.kind === "nested-loop" || s.kind === "lateral" ? [] : s.outerKeys.map((k) => JSON.stringify(k));
  const innerKeys = s.kind === "expression-hash" ? s.innerKeys.map((k) => JSON.stringify(k)) : [];
  return (t) => {
    return equalitySides(t).some(([side, other]) => {
      if (s.kind === "expression-hash") {
        const i = innerKeys.indexOf(JSON.stringify(side));
        return i >= 0 && outer[i] === JSON.stringify(other);
      }
      if (side?.kind !== "column" || side.source !== step.source) return false;
      const i = inner.findIndex((c) => positionOf(c) === side.column);
      return i >= 0 && outer[i] === JSON.stringify(other);
    });
  };
}

export function prepareJoin(step: JoinStep, table: string, positionOf: (column: string) => number, context?: CompileContext, call?: TableCall): PreparedJoin {
  const s = step.strategy;
  const keyed = s.kind === "index-nested-loop" || s.kind === "hash";
  const implied = impliedByKey(step, positionOf);
  // A cross join's ON is TRUE: nothing to test.
  const rest = conjuncts(step.on).filter((t) => !implied(t) && !(t.kind === "const" && t.value === true));
  return {
    step,
    table,
    on: rest.length === 0 ? undefined : compilePredicate(rest.length === 1 ? (rest[0] as BoundExpr) : { kind: "and", operands: rest }, "tuple", context),
    outerKeys: s.kind === "nested-loop" || s.kind === "lateral" ? [] : s.outerKeys.map((k) => compileValue(k, "tuple", context)),
    innerPositions: keyed ? s.innerColumns.map(positionOf) : [],
    lateral: s.kind === "lateral" && call !== undefined ? call.args.map((a) => compileValue(a, "tuple", context)) : [],
    innerKeys: s.kind === "expression-hash" ? s.innerKeys.map((k) => compileValue(k, "tuple", context)) : [],
  };
}

function hashKey(values: readonly Value[]): unknown {
  return values.length === 1 ? values[0] : JSON.stringify(values);
}

const NO_ROWS: readonly StoredRow[] = Object.freeze([]);

/** A joined row's key on the join columns (null when one is NULL: it matches nothing), as `hashKey` makes an outer tuple's. */
function innerKey(columns: readonly Column[]): (row: StoredRow) => unknown {
  const single = columns.length === 1 ? columns[0] : undefined;
  if (single !== undefined) return (row) => columnValue(single, row);
  return (row) => {
    const values = columns.map((column) => columnValue(column, row));
    return values.includes(null) ? null : hashKey(values);
  };
}

/** A joined row's key on expressions of it (`keys`, over a tuple holding it at `at`), as `hashKey` makes an outer tuple's. */
function expressionKey(keys: readonly TupleFn[], at: number, params: readonly Value[], heaps: readonly (readonly Column[])[]): (row: StoredRow) => unknown {
  const scratch: Tuple = new Array<StoredRow>(at + 1).fill(NULL_ROW);
  const single = keys.length === 1 ? keys[0]! : undefined;
  return (row) => {
    scratch[at] = row;
    if (single !== undefined) return single(scratch, params, heaps);
    const values = keys.map((k) => k(scratch, params, heaps));
    return values.includes(null) ? null : hashKey(values);
  };
}

/** `store`'s rows by their key on the columns at `positions` (a row with a NULL there under none), each key's rows in table order. */
export function hashRows(store: TableStore, positions: readonly number[]): ReadonlyMap<unknown, readonly StoredRow[]> {
  return bucketRows(store.rows, innerKey(positions.map((p) => store.heap.columns[p] as Column)));
}

/** `rows` by `keyOf` (a row keyed null under none), each key's rows in their order. */
function bucketRows(rows: readonly StoredRow[], keyOf: (row: StoredRow) => unknown): ReadonlyMap<unknown, readonly StoredRow[]> {
  const table = new Map<unknown, StoredRow[]>();
  for (const row of rows) {
    const k = keyOf(row);
    if (k === null) continue;
    const bucket = table.get(k);
    if (bucket) bucket.push(row);
    else table.set(k, [row]);
  }
  return table;
}

/** A hash join on the joined rows' `table` (`hashRows`): each outer tuple looks its key up. */
function hashInner(table: ReadonlyMap<unknown, readonly StoredRow[]>, outerKey: (t: Tuple) => unknown): (t: Tuple) => readonly StoredRow[] {
  return (t) => {
    const k = outerKey(t);
    return k === null ? NO_ROWS : (table.get(k) ?? NO_ROWS);
  };
}

/**
 * A hash join built on the outer tuples' keys, when the tuples are fewer
 * than the joined rows: one pass over the joined rows drops each row into
 * its key's bucket, which every tuple of that key shares, so each tuple's
 * matches stay in the joined table's order, and a large joined side (a
 * derived table's rows, a table without a key on the join columns) is read
 * once instead of copied into a map. `load(i)` puts outer tuple i in
 * `scratch`, which `outerKey` reads.
 */
function hashOuter(
  count: number,
  load: (i: number) => void,
  scratch: Tuple,
  rows: readonly StoredRow[],
  keyOf: (row: StoredRow) => unknown,
  outerKey: (t: Tuple) => unknown,
): (t: Tuple, i: number) => readonly StoredRow[] {
  const byKey = new Map<unknown, StoredRow[]>();
  const bucketOf: (StoredRow[] | undefined)[] = new Array(count);
  for (let i = 0; i < count; i++) {
    load(i);
    const k = outerKey(scratch);
    if (k === null) continue;
    let bucket = byKey.get(k);
    if (bucket === undefined) byKey.set(k, (bucket = []));
    bucketOf[i] = bucket;
  }
  if (byKey.size > 0) {
    for (const row of rows) {
      const k = keyOf(row);
      if (k !== null) byKey.get(k)?.push(row);
    }
  }
  return (_t, i) => bucketOf[i] ?? NO_ROWS;
}

/** What a join reads: the first source's stored rows (the first join), or the tuples the joins before it made. */
export type Outer = { readonly rows: readonly StoredRow[] } | { readonly tuples: readonly Tuple[] };

/** A consumer of joined tuples (`runJoin`'s `emit`): called with a scratch tuple, reused, so it copies what it keeps. */
export type Emit<T> = (t: Tuple, p: readonly Value[], h: readonly (readonly Column[])[]) => T | undefined;

/** Keeps each tuple: a copy of the scratch tuple. */
export const copyTuple: Emit<Tuple> = (t) => t.slice();

/**
 * Joins the `outer` tuples with `store`. With `emit`, each joined tuple is
 * handed to it as it is made and its result kept instead of a copy of the
 * tuple (the last join of a query streams into what consumes it: a
 * projection, an aggregate, DISTINCT, allocating no tuples); undefined
 * from it keeps nothing, nor counts toward `max` (an aggregate keeps its
 * own state; a recursive select's row UNION drops as it is made). `where`, for an
 * inner join only, is a WHERE term tested with ON, before a tuple is made
 * (for an outer join it must wait: a row it rejects still counts as a match).
 * `max`: stop once that many are made (-1: no limit; a right or full join
 * reads every tuple first, its unmatched rows depending on them all, and
 * keeps the first `max`). A store that keeps a hash of its rows
 * (`TableStore.hashOn`: one read again and again by a recursion's steps)
 * is looked up in it rather than hashed again. Each outer tuple is copied
 * into one scratch tuple, which candidates are tried in: only a tuple
 * kept (no `emit`) is allocated. `consumes`: `emit` keeps nothing that
 * reads a tuple's rows after it returns, so a lateral call makes each
 * tuple's rows over the last's (`TableStore.rowsFor`).
 */
export function runJoin<T = Tuple>(
  join: PreparedJoin,
  outer: Outer,
  store: TableStore,
  params: readonly Value[],
  heaps: readonly (readonly Column[])[],
  emit: Emit<T> = copyTuple as Emit<unknown> as Emit<T>,
  where?: (t: Tuple, p: readonly Value[], h: readonly (readonly Column[])[]) => boolean,
  max = -1,
  consumes = false,
): T[] {
  const type = join.step.type;
  if (where && type !== "inner") throw new StoreError("internal_error", `A WHERE term cannot run inside a ${type} join`);
  const out: T[] = [];
  const left = type === "left" || type === "full";
  // The joined rows some tuple matched, for a right or full join's unmatched rows.
  const matchedRows = type === "right" || type === "full" ? new Set<StoredRow>() : undefined;
  const on = join.on as unknown as ((t: Tuple, p: readonly Value[], h: readonly (readonly Column[])[]) => boolean) | undefined;
  const keys = join.outerKeys as unknown as TupleFn[];
  const at = join.step.source;
  const scratch: Tuple = new Array<StoredRow>(at + 1).fill(NULL_ROW);
  const rows = "rows" in outer ? outer.rows : undefined;
  const tuples = "tuples" in outer ? outer.tuples : undefined;
  const count = rows?.length ?? tuples?.length ?? 0;
  // Puts outer tuple i in the scratch tuple (the candidates then go at `at`).
  const load =
    rows !== undefined
      ? (i: number): void => {
          scratch[0] = rows[i]!;
        }
      : (i: number): void => {
          const t = tuples![i]!;
          for (let k = 0; k < t.length; k++) scratch[k] = t[k]!;
        };
  let candidates: (t: Tuple, i: number) => readonly StoredRow[];
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
    case "hash":
    case "expression-hash": {
      const single = keys.length === 1 ? keys[0]! : undefined;
      const outerKey =
        single !== undefined
          ? (t: Tuple): unknown => single(t, params, heaps)
          : (t: Tuple): unknown => {
              const values = keys.map((k) => k(t, params, heaps));
              return values.includes(null) ? null : hashKey(values);
            };
      const kept = s.kind === "hash" ? store.hashOn?.(join.innerPositions) : undefined;
      const rowKey =
        s.kind === "hash"
          ? innerKey(join.innerPositions.map((p) => store.heap.columns[p] as Column))
          : expressionKey(join.innerKeys as unknown as TupleFn[], join.step.source, params, heaps);
      if (kept !== undefined) candidates = hashInner(kept, outerKey);
      else if (count < store.rows.length) candidates = hashOuter(count, load, scratch, store.rows, rowKey, outerKey);
      else candidates = hashInner(bucketRows(store.rows, rowKey), outerKey);
      break;
    }
    case "nested-loop":
      candidates = () => store.rows;
      break;
    case "lateral": {
      // Each tuple's arguments make its rows, into the heap the compiled code reads (`json-table.ts`).
      const rowsFor = store.rowsFor?.bind(store);
      if (rowsFor === undefined) throw new StoreError("internal_error", "A lateral join reads no table function");
      const args = join.lateral as unknown as ((t: Tuple, p: readonly Value[], h: readonly (readonly Column[])[]) => Value)[];
      const values = new Array<Value>(args.length);
      candidates = (t) => {
        for (let k = 0; k < args.length; k++) values[k] = args[k]!(t, params, heaps);
        return rowsFor(values, consumes);
      };
      break;
    }
    default:
      return assertNever(s, "join strategy");
  }
  const stopAt = matchedRows === undefined ? max : -1;
  for (let i = 0; i < count && out.length !== stopAt; i++) {
    load(i);
    let matched = false;
    for (const row of candidates(scratch, i)) {
      scratch[at] = row;
      if ((on === undefined || on(scratch, params, heaps)) && (where === undefined || where(scratch, params, heaps))) {
        matched = true;
        matchedRows?.add(row);
        const made = emit(scratch, params, heaps);
        if (made !== undefined && out.push(made) === stopAt) break;
      }
    }
    if (left && !matched) {
      scratch[at] = NULL_ROW;
      const made = emit(scratch, params, heaps);
      if (made !== undefined) out.push(made);
    }
  }
  if (matchedRows !== undefined) {
    const unmatched: Tuple = new Array<StoredRow>(at + 1).fill(NULL_ROW);
    for (const row of store.rows) {
      if (out.length === max) break;
      if (matchedRows.has(row)) continue;
      unmatched[at] = row;
      const made = emit(unmatched, params, heaps);
      if (made !== undefined) out.push(made);
    }
    if (max >= 0 && out.length > max) out.length = max;
  }
  return out;
}
