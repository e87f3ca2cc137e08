/**
 * Join operators over tuples (one stored row per source so far). Inner and
 * left joins; output order is the outer tuples' order, each with its matches
 * in the joined table's order. An unmatched tuple of a left join gets a row
 * of NULLs for the joined source.
 *
 * - index nested loop: looks each outer key up in the joined table's key or
 *   index;
 * - hash: builds a map of the joined table on the join columns, once per run;
 * - nested loop: tries every joined row.
 * The full ON condition is evaluated on every candidate pair in all three.
 */

import type { Value } from "../commands/types.js";
import { assertNever } from "../errors.js";
import type { JoinStep } from "../planner/plan.js";
import { compilePredicate, compileValue, type PredicateFn, type ValueFn } from "./codegen.js";
import type { StoredRow, TableStore } from "./table-store.js";

export type Tuple = StoredRow[];

export interface PreparedJoin {
  readonly step: JoinStep;
  readonly table: string;
  readonly on: PredicateFn;
  readonly outerKeys: readonly ValueFn[];
  readonly innerPositions: readonly number[];
}

export function prepareJoin(step: JoinStep, table: string, positionOf: (column: string) => number): PreparedJoin {
  const s = step.strategy;
  const keyed = s.kind === "index-nested-loop" || s.kind === "hash";
  return {
    step,
    table,
    on: compilePredicate(step.on, "tuple"),
    outerKeys: keyed ? s.outerKeys.map((k) => compileValue(k, "tuple")) : [],
    innerPositions: keyed ? s.innerColumns.map(positionOf) : [],
  };
}

function hashKey(values: readonly Value[]): unknown {
  return values.length === 1 ? values[0] : JSON.stringify(values);
}

export function runJoin(join: PreparedJoin, tuples: readonly Tuple[], store: TableStore, params: readonly Value[]): Tuple[] {
  const out: Tuple[] = [];
  const left = join.step.type === "left";
  const nullRow: StoredRow = new Array<Value>(store.width).fill(null);
  const on = join.on as unknown as (t: Tuple, p: readonly Value[]) => boolean;
  const keys = join.outerKeys as unknown as ((t: Tuple, p: readonly Value[]) => Value)[];
  let candidates: (t: Tuple) => readonly StoredRow[];
  const s = join.step.strategy;
  switch (s.kind) {
    case "index-nested-loop":
      candidates = (t) => store.lookup(s.index, keys.map((k) => k(t, params)));
      break;
    case "hash": {
      const table = new Map<unknown, StoredRow[]>();
      for (const row of store.rows) {
        const values = join.innerPositions.map((p) => row[p] as Value);
        if (values.includes(null)) continue;
        const k = hashKey(values);
        const bucket = table.get(k);
        if (bucket) bucket.push(row);
        else table.set(k, [row]);
      }
      candidates = (t) => {
        const values = keys.map((k) => k(t, params));
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
  for (const t of tuples) {
    let matched = false;
    for (const row of candidates(t)) {
      const next = t.slice();
      next.push(row);
      if (on(next, params)) {
        out.push(next);
        matched = true;
      }
    }
    if (left && !matched) {
      const next = t.slice();
      next.push(nullRow);
      out.push(next);
    }
  }
  return out;
}
