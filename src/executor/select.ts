/**
 * Runs a select plan: access path → filter on the first table → joins, each
 * followed by the WHERE terms it completes → order (top-k with a limit) →
 * offset/limit → projection.
 *
 * `prepareSelect` compiles everything once; the prepared form is cached with
 * the plan, so a repeated statement only binds new parameter values. WHERE
 * conjuncts that read only the first table run before the joins (the first
 * table is the preserved side of every join, so this is exact for left
 * joins too); every other conjunct runs right after the join of the last
 * source it reads (joins after it only add sources, never change them).
 */

import type { RowsResult } from "../commands/results.js";
import type { Value } from "../commands/types.js";
import type { BoundExpr, Count, SelectPlan } from "../planner/plan.js";
import { conjuncts, maxSource } from "../planner/passes.js";
import { accessRows, impliedByAccess } from "./access.js";
import { compilePredicate, compileValue, type PredicateFn, type ValueFn } from "./codegen.js";
import { compileFilter, type FilterFn } from "./filter.js";
import { prepareJoin, runJoin, type PreparedJoin, type Tuple } from "./join.js";
import { orderItems } from "./order.js";
import { compileProjection, type ProjectFn } from "./project.js";
import type { Stores, StoredRow } from "./table-store.js";

export interface PreparedSelect {
  readonly plan: SelectPlan;
  readonly firstFilter: FilterFn | undefined;
  readonly joins: readonly PreparedJoin[];
  /** Per join: the WHERE conjuncts whose last source is the one it joins, run on its output. */
  readonly afterJoin: readonly (PredicateFn | undefined)[];
  readonly sortKeys: readonly ValueFn[];
  readonly project: ProjectFn;
}

function all(terms: readonly BoundExpr[]): BoundExpr | undefined {
  if (terms.length === 0) return undefined;
  return terms.length === 1 ? terms[0] : { kind: "and", operands: terms };
}

/** `positionOf(source, column)` finds a joined table's column position for hash/index joins. */
export function prepareSelect(plan: SelectPlan, positionOf: (table: string, column: string) => number): PreparedSelect {
  const joined = plan.joins.length > 0;
  const mode = joined ? "tuple" : "row";
  const firstTable = plan.sources[0]?.table ?? "";
  const terms = conjuncts(plan.where).filter((t) => !impliedByAccess(t, plan.access, (c) => positionOf(firstTable, c)));
  const first = joined ? terms.filter((t) => maxSource(t) <= 0) : terms;
  const firstWhere = all(first);
  return {
    plan,
    firstFilter: firstWhere === undefined ? undefined : compileFilter(firstWhere),
    joins: plan.joins.map((j) => {
      const table = plan.sources[j.source]?.table ?? "";
      return prepareJoin(j, table, (c) => positionOf(table, c));
    }),
    afterJoin: plan.joins.map((j) => {
      const here = all(terms.filter((t) => maxSource(t) === j.source));
      return here === undefined ? undefined : compilePredicate(here, "tuple");
    }),
    sortKeys: plan.orderBy.map((k) => compileValue(k.expr, mode)),
    project: compileProjection(plan.columns, plan.output, mode),
  };
}

/** A limit or offset's value (`checkParams` saw that a slot holds an integer ≥ 0). */
function count(c: Count, params: readonly Value[]): number {
  return typeof c === "number" ? c : (params[c.index] as number);
}

export function runSelect(prepared: PreparedSelect, stores: Stores, params: readonly Value[]): RowsResult {
  const plan = prepared.plan;
  const offset = plan.offset === undefined ? 0 : count(plan.offset, params);
  const keep = plan.limit === undefined ? undefined : offset + count(plan.limit, params);
  const names = plan.columns.map((c) => c.name);
  if (keep === 0) return { kind: "rows", columns: names, rows: [], rowCount: 0 };

  const first = plan.sources[0];
  const base = accessRows(plan.access, first === undefined ? undefined : stores.store(first.table), params);
  // Without joins, residual or sort, the filter can stop at the last row needed.
  const canStop = plan.joins.length === 0 && plan.orderBy.length === 0 && keep !== undefined;
  let firstRows: readonly StoredRow[] = base;
  if (prepared.firstFilter) firstRows = prepared.firstFilter(base, params, canStop ? (keep as number) : -1);

  const project = prepared.project as unknown as (r: unknown, p: readonly Value[]) => Record<string, Value> | Value[];
  let items: readonly (StoredRow | Tuple)[] = firstRows;
  if (plan.joins.length > 0) {
    let tuples: Tuple[] = firstRows.map((r) => [r]);
    const last = prepared.joins.length - 1;
    // Nothing after the joins (no filter, order, offset or limit): the last join projects as it goes.
    const fused = prepared.sortKeys.length === 0 && keep === undefined && offset === 0;
    for (const [i, join] of prepared.joins.entries()) {
      // A WHERE term is decided once its last source is joined (later joins only add sources):
      // an inner join tests it with ON; after a left join it filters the joined tuples.
      const filter = prepared.afterJoin[i] as unknown as ((t: Tuple, p: readonly Value[]) => boolean) | undefined;
      const inner = join.step.type === "inner";
      if (fused && i === last && (filter === undefined || inner)) {
        const rows = runJoin(join, tuples, stores.store(join.table), params, (t) => project(t, params), filter);
        return { kind: "rows", columns: names, rows, rowCount: rows.length };
      }
      tuples = runJoin(join, tuples, stores.store(join.table), params, undefined, inner ? filter : undefined);
      if (filter && !inner) tuples = tuples.filter((t) => filter(t, params));
    }
    items = tuples;
  }

  if (prepared.sortKeys.length > 0) {
    const specs = prepared.sortKeys.map((key, i) => ({
      key: (item: StoredRow | Tuple) => (key as unknown as (r: unknown, p: readonly Value[]) => Value)(item, params),
      descending: plan.orderBy[i]?.direction === "desc",
    }));
    items = orderItems(items, specs, keep);
  }
  if (offset > 0 || (keep !== undefined && keep < items.length)) items = items.slice(offset, keep);

  const rows = new Array<Record<string, Value> | Value[]>(items.length);
  for (let i = 0; i < items.length; i++) rows[i] = project(items[i], params);
  return { kind: "rows", columns: names, rows, rowCount: rows.length };
}
