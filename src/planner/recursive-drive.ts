/**
 * A recursive select driven from its working table (the rows it runs
 * over): `FROM t JOIN r ON t.parent = r.n` becomes `FROM r JOIN t ON …`,
 * so each step reads its few working rows first and looks each one's
 * matches up in t (its index, or a hash the executor keeps across steps)
 * instead of scanning t once per step — quadratic over a long chain.
 *
 * The working table moves before inner and LEFT joins (comma, CROSS,
 * USING and NATURAL joins are inner joins in the plan; a LEFT JOIN a later
 * condition drops the padded rows of is one too: `outer-joins.ts`). With
 * only those joins, an inner join's ON is a filter of the joined tuples
 * like WHERE, and a LEFT JOIN's matches depend only on the sources before
 * it and its ON, which never reads the working table (SQLite refuses it
 * there): so `(t ⟕ u) ⋈ r` is `(r ⋈ t) ⟕ u`, the same tuples. Each inner
 * ON conjunct goes to the join of the last source it reads (WHERE, if it
 * reads only the working table or a LEFT-joined source, whose padded rows
 * it must see); a LEFT JOIN keeps its own ON. A RIGHT or FULL join before
 * the working table keeps the select as written (and the executor puts
 * its rows in queue order by their working row); `bind-recursive.ts`
 * refuses one after it. The select list keeps its columns in place (`*`
 * was expanded by the binder), every column read is renumbered.
 *
 * Then an equality in WHERE decided at an inner join (the join of its
 * last source, or of the last RIGHT or FULL join if later:
 * `where-placement.ts`) moves to that join's ON, where the join strategy (`passes.ts`) looks for a key:
 * `FROM r, t WHERE t.parent = r.n` looked t up by a nested loop over all
 * of it per step. An inner join tests ON and a WHERE term alike, once its
 * last source is joined, so the rows are the same.
 */

import { maxSource } from "./where-placement.js";
import { wherePlacement } from "./where-placement.js";
import type { BoundExpr, JoinStep, SelectPlan } from "./plan.js";
import { conjunction, conjuncts, mapExpr, mapPlanExprs } from "./walk.js";

/** `plan` with source `working` first, when only inner joins come before it, and WHERE's equalities in the ON of the inner joins they belong to. */
export function driveFrom(plan: SelectPlan, working: number): SelectPlan {
  return equalitiesIntoOn(workingFirst(plan, working));
}

function workingFirst(plan: SelectPlan, working: number): SelectPlan {
  if (working === 0 || plan.joins.slice(0, working).some((j) => j.type !== "inner" && j.type !== "left")) return plan;
  const renumber = (source: number): number => (source === working ? 0 : source < working ? source + 1 : source);
  const remap = (e: BoundExpr): BoundExpr => mapExpr(e, (x) => (x.kind === "column" ? { ...x, source: renumber(x.source) } : x));
  // Where each source before the working table now stands, and whether a LEFT JOIN adds it there (its ON stays its own).
  const left = new Set(plan.joins.slice(0, working).filter((j) => j.type === "left").map((j) => renumber(j.source)));
  const placed = new Map<number, BoundExpr[]>();
  const where = conjuncts(plan.where).map(remap);
  for (const term of plan.joins.slice(0, working).flatMap((j) => (j.type === "inner" ? conjuncts(j.on) : []))) {
    if (term.kind === "const" && term.value === true) continue;
    const moved = remap(term);
    const last = maxSource(moved);
    // A term reading a LEFT JOIN's source filters its padded rows too: after that join, as WHERE does.
    if (last <= 0 || left.has(last)) where.push(moved);
    else placed.set(last, [...(placed.get(last) ?? []), moved]);
  }
  // A lateral table function stays lateral: it still comes after every source its arguments read.
  const joins: JoinStep[] = plan.sources.slice(1).map((_, i) => {
    const source = i + 1;
    const j = source <= working ? plan.joins[i - 1] : plan.joins[i];
    if (source <= working && !left.has(source)) {
      return { type: "inner", source, strategy: plan.sources[i]!.call?.lateral === true ? { kind: "lateral" } : { kind: "nested-loop" }, on: conjunction(placed.get(source) ?? []) };
    }
    return { ...j!, source, on: remap(j!.on) };
  });
  // Mapped first, so a table function's arguments read the renumbered sources.
  const { where: _where, sources: mapped, ...rest } = mapPlanExprs({ ...plan, joins: [] }, remap);
  const sources = [mapped[working]!, ...mapped.slice(0, working), ...mapped.slice(working + 1)];
  return { ...rest, sources, joins, ...(where.length === 0 ? {} : { where: conjunction(where) }) };
}

/** `plan` with each `=` of WHERE whose last source an inner join adds moved into that join's ON (see the header). */
function equalitiesIntoOn(plan: SelectPlan): SelectPlan {
  if (plan.joins.length === 0 || plan.where === undefined) return plan;
  const where: BoundExpr[] = [];
  const moved = new Map<number, BoundExpr[]>();
  // A term is decided after the last RIGHT or FULL join (`where-placement.ts`): it moves only into an inner join at or past it.
  const place = wherePlacement(plan.joins);
  for (const term of conjuncts(plan.where)) {
    const last = place(term);
    const join = plan.joins.find((j) => j.source === last);
    if (term.kind === "compare" && term.op === "=" && join?.type === "inner") moved.set(last, [...(moved.get(last) ?? []), term]);
    else where.push(term);
  }
  if (moved.size === 0) return plan;
  const joins = plan.joins.map((j) => {
    const terms = moved.get(j.source);
    return terms === undefined ? j : { ...j, on: conjunction([...conjuncts(j.on).filter((t) => !(t.kind === "const" && t.value === true)), ...terms]) };
  });
  const { where: _where, ...rest } = plan;
  return { ...rest, joins, ...(where.length === 0 ? {} : { where: conjunction(where) }) };
}
