/**
 * Where a WHERE conjunct of a join is decided. SQL applies WHERE after every
 * join; a term may run earlier, on fewer rows, once every source it reads
 * is joined and no later join can still add rows it would judge: a RIGHT or
 * FULL join adds its unmatched rows (NULLs for every source before it), and
 * a row held back before it would make a row of its right side unmatched.
 * So a term runs after the join of the last source it reads, or of the last
 * RIGHT or FULL join, whichever is later — 0 being the first table's rows,
 * before any join (its access path narrows them only with those terms).
 * The executor runs each term there; the join-strategy pass may make an
 * equality placed at an inner join that join's key (a comma join's WHERE).
 */

import type { BoundExpr, JoinStep } from "./plan.js";
import { children } from "./walk.js";

/** The highest source an expression reads (-1 for none). */
export function maxSource(e: BoundExpr): number {
  if (e.kind === "column") return e.source;
  let max = -1;
  for (const child of children(e)) max = Math.max(max, maxSource(child));
  return max;
}

/** The step (a join's source, or 0) after which each WHERE term of a select with these joins runs. */
export function wherePlacement(joins: readonly JoinStep[]): (term: BoundExpr) => number {
  let barrier = 0;
  for (const j of joins) if (j.type === "right" || j.type === "full") barrier = j.source;
  return (term) => Math.max(maxSource(term), barrier);
}
