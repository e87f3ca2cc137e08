/**
 * A compiled filter loop: the whole scan — loop, predicate and early stop —
 * is one generated function per plan shape, so the predicate is inlined
 * into the loop instead of called per row through a shared call site (which
 * V8 could not inline once several plans ran it), and the columns it reads
 * are taken from the heap once, before the loop.
 */

import type { Value } from "../commands/types.js";
import type { BoundExpr } from "../planner/plan.js";
import { Codegen, instantiate, type CompileContext } from "./codegen.js";
import type { Column, StoredRow } from "./table-store.js";

/** Keeps rows where the condition IS TRUE, in order, stopping after `max` matches (`-1`: no limit); `t` is the rows' heap columns. */
export type FilterFn = (rows: readonly StoredRow[], p: readonly Value[], max: number, t: readonly Column[]) => StoredRow[];

export function compileFilter(where: BoundExpr, context?: CompileContext): FilterFn {
  const g = new Codegen("row", context);
  const cond = g.truth(where);
  return instantiate(
    `${g.constants()}
return function filter(rows, p, max, t) {
  ${g.declarations()}
  const out = [];
  for (let i = 0, n = rows.length; i < n; i++) {
    const r = rows[i];
    if (${cond}) {
      if (out.push(r) === max) break;
    }
  }
  return out;
};`,
    g.consts,
  );
}
