/**
 * Binds a select's joins, in order, each condition over the sources joined
 * so far and its own: ON as written; USING (c, …) as `left.c = right.c` per
 * column, where `left.c` is what an unqualified `c` names among the sources
 * before the join; NATURAL as USING of every column of the joined source
 * that those sources have; a cross join as TRUE.
 *
 * A USING column is then one column (`MergedColumn`): an unqualified name
 * reads the left side's value — for a RIGHT or FULL join, the right side's
 * where the left has none, as SQLite's COALESCE does — and `*` shows it
 * once (`bind-select.ts`): named as the left side's column, or by its bare
 * name once a RIGHT or FULL join made it a value of neither side (SQLite's
 * name for every `*` column). Where several sources before the join have `c`
 * (and no USING made them one), SQLite takes the leftmost; storedb refuses
 * with `ambiguous_column`, as PostgreSQL does, rather than pick one.
 *
 * An ON condition binds after the select list (`BoundJoins.steps`), as
 * SQLite resolves it: a name no source has may be a result name. The
 * select list needs the USING columns, so those bind first. An ON reads
 * only the sources joined so far; a name only a later one has is refused
 * (SQLite's ON sees its whole FROM and would read that source's column).
 */

import type { Join } from "../commands/types.js";
import { StoreError } from "../errors.js";
import { ExprBinder, type BindContext, type Enclosing } from "./bind-expr.js";
import type { BoundExpr, JoinStep, OutputColumn } from "./plan.js";
import { Scope, type MergedColumn, type ScopeSource } from "./scope.js";
import { typeOf, unify } from "./static-types.js";
import { conjunction, TRUE } from "./walk.js";

export interface BoundJoins {
  /** The columns USING and NATURAL made one, as the select's scope resolves them. */
  readonly merged: readonly MergedColumn[];
  /** The joins, each ON bound now, reading `results` (the select list) where no source has a name. */
  steps(results?: readonly OutputColumn[]): JoinStep[];
}

const NESTED_LOOP = { kind: "nested-loop" } as const;

/**
 * `sources[0]` is FROM's; `sources[i + 1]` is what `joins[i]` joins.
 * `written`: how many of them the statement's FROM names — an UPDATE's
 * table, joined after its FROM, is not one of them: its ON neither reads it
 * nor is refused for a name it has (SQLite: "no such column").
 */
export function bindJoins(joins: readonly Join[], sources: readonly ScopeSource[], context: BindContext, outer: Enclosing | undefined, written = sources.length): BoundJoins {
  let merged: readonly MergedColumn[] = [];
  const steps = joins.map((j, i): JoinStep | ((results?: readonly OutputColumn[]) => JoinStep) => {
    const source = i + 1;
    const type = j.type === "cross" ? "inner" : j.type;
    const condition = conditionOf(j, i);
    if (condition === "none") return { type, source, strategy: NESTED_LOOP, on: TRUE };
    if (condition === "on") {
      // Over the sources joined so far, and the USING columns made one so far; a name only a later source has is refused (`Scope.laterSource`).
      const scope = new Scope(sources.slice(0, source + 1), false, merged, sources.slice(source + 1, written));
      return (results) => ({ type, source, strategy: NESTED_LOOP, on: new ExprBinder(scope, context, "ON", outer, results).boolean(j.on!, 0, "ON") });
    }
    // Neither side reads the enclosing query: a USING column is a column of the join's own sources.
    const left = new ExprBinder(new Scope(sources.slice(0, source), false, merged), context, "USING");
    const right = new ExprBinder(new Scope([sources[source]!]), context, "USING");
    const columns = condition === "natural" ? commonColumns(left.scope, sources[source]!) : usingColumns(j.using!, context, i);
    const made: MergedColumn[] = [];
    const replaced = new Set<MergedColumn>();
    const terms = columns.map((c) => {
      const l = side(left, c, sources.slice(0, source).map((s) => `"${s.name}"`).join(", "));
      const r = side(right, c, `"${sources[source]!.name}"`);
      // Resolved again (it did above) for which sources the left value stands for.
      const resolved = left.scope.resolve(c);
      const covers = new Set(resolved.kind === "merged" ? resolved.merged.covers : [resolved.source.index]);
      if (resolved.kind === "merged") replaced.add(resolved.merged);
      covers.add(source);
      const padsLeft = type === "right" || type === "full";
      const expr: BoundExpr = padsLeft ? { kind: "function", name: "coalesce", args: [l, r], type: unify([typeOf(l), typeOf(r)], `USING (${c})`) } : l;
      made.push({ name: c, covers, expr, leftmost: !padsLeft && (resolved.kind !== "merged" || resolved.merged.leftmost) });
      return left.equality(l, r);
    });
    merged = [...merged.filter((m) => !replaced.has(m)), ...made];
    const on = conjunction(terms);
    return { type, source, strategy: NESTED_LOOP, on, using: columns };
  });
  return { merged, steps: (results) => steps.map((step) => (typeof step === "function" ? step(results) : step)) };
}

/** Which condition join `i` has: exactly one of on, using and natural, or none for a cross join. Errors name the join, as schema errors do. */
function conditionOf(j: Join, i: number): "on" | "using" | "natural" | "none" {
  const given = (["on", "using", "natural"] as const).filter((k) => (k === "natural" ? j.natural === true : j[k] !== undefined));
  const at = `joins[${i}]`;
  if (j.type === "cross") {
    if (given.length > 0) throw new StoreError("invalid_request", `${at}: a cross join has no condition: make it an inner join to give it ${given[0]}`);
    return "none";
  }
  // A left join of a table function needs none (SQLite's `LEFT JOIN json_each(t.tags)`): each row keeps its document's rows, or one of NULLs.
  if (given.length === 0 && j.type === "left" && j.from?.kind === "function") return "none";
  if (given.length === 0) throw new StoreError("invalid_request", `${at}: a${j.type === "inner" ? "n" : ""} ${j.type} join needs on, using or natural`);
  if (given.length > 1) throw new StoreError("invalid_request", `${at}: a join takes one of on, using and natural, not ${given.join(" and ")}`);
  return given[0]!;
}

function usingColumns(names: readonly string[], context: BindContext, i: number): readonly string[] {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new StoreError(context.misuse, `joins[${i}].using names "${name}" twice`);
    seen.add(name);
  }
  return names;
}

/** NATURAL's columns: the joined source's (in `*`'s order) that an unqualified name finds before it. */
function commonColumns(left: Scope, right: ScopeSource): readonly string[] {
  return [...right.table.columns, ...right.table.computed.keys()].filter((c) => {
    try {
      left.resolve(c);
      return true;
    } catch (error) {
      if (error instanceof StoreError && error.code === "unknown_column") return false;
      throw error;
    }
  });
}

/** One side's value of a USING column; a side without it is `unknown_column`, saying which side. */
function side(binder: ExprBinder, column: string, where: string): BoundExpr {
  try {
    return binder.bind({ type: "identifier", name: column });
  } catch (error) {
    if (error instanceof StoreError && error.code === "unknown_column") throw new StoreError("unknown_column", `USING column "${column}" is not in ${where}`);
    throw error;
  }
}
