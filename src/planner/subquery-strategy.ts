/**
 * The `subquery-strategy` pass's work: how each subquery of a query runs
 * (`SubqueryStrategy` in `plan.ts`), and what of its plan it can skip.
 *
 * - An uncorrelated subquery runs once per execution (the binder says so).
 * - A correlated EXISTS or IN whose every outer value is read only by
 *   equalities `inner = outer` in its WHERE is decorrelated into a hash
 *   semi-join (`hashed`): the equalities leave the WHERE, their inner sides
 *   become the plan's first columns, the plan runs once and each enclosing
 *   row looks its outer values up. Not when the correlation is served by an
 *   index lookup of the subquery's table: then running it per row costs
 *   only the matching rows, where a hash table costs the whole table; nor
 *   for a compound subquery (UNION and the rest), whose selects each read
 *   the outer values, nor for one whose table function or derived table
 *   reads them (`DerivedTable.correlated`).
 * - Anything else correlated runs per row (the runner keeps each answer by
 *   its outer values).
 * - EXISTS and IN ignore the order of the subquery's rows, and EXISTS needs
 *   one row: without LIMIT/OFFSET, their ORDER BY goes and EXISTS stops at
 *   its first row (LIMIT 1).
 *
 * The pass rewrites the subquery nodes of one statement's expressions;
 * `optimize` runs every pass on each subquery's own plan afterwards.
 */

import type { BoundExpr, OutputColumn, SelectPlan } from "./plan.js";
import { conjuncts, mapExpr, some } from "./walk.js";

type SubqueryNode = Extract<BoundExpr, { kind: "subquery" | "exists" | "in-subquery" }>;

/** The expression with a strategy for each subquery in it; `indexed(sub)`: the subquery's table is reached by an index lookup on its outer values. */
export function chooseSubqueryStrategies(e: BoundExpr, indexed: (sub: SelectPlan) => boolean): BoundExpr {
  return mapExpr(e, (x) => (x.kind === "subquery" || x.kind === "exists" || x.kind === "in-subquery" ? strategize(x, indexed) : x));
}

const readsOuter = (e: BoundExpr): boolean => some(e, (x) => x.kind === "outer");

function strategize(node: SubqueryNode, indexed: (sub: SelectPlan) => boolean): SubqueryNode {
  if (node.kind === "subquery") return node;
  const hashed = node.outer.length > 0 && !indexed(node.plan) ? decorrelate(node) : undefined;
  if (hashed !== undefined) return hashed;
  const p = node.plan;
  if (p.limit !== undefined || p.offset !== undefined) return node;
  const plan: SelectPlan = node.kind === "exists" ? { ...p, orderBy: [], limit: 1 } : { ...p, orderBy: [] };
  return { ...node, plan };
}

/** The equality `inner = outer(i)` a conjunct is, if it is one (`inner` reading no outer value). */
function correlation(term: BoundExpr): { inner: BoundExpr; outer: number } | undefined {
  // A hash table matches values by code point: an equality in another collation stays a per-row test.
  if (term.kind !== "compare" || term.op !== "=" || term.collation !== undefined) return undefined;
  for (const [a, b] of [
    [term.left, term.right],
    [term.right, term.left],
  ] as const) {
    if (b.kind === "outer" && !readsOuter(a)) return { inner: a, outer: b.index };
  }
  return undefined;
}

function decorrelate(node: Extract<SubqueryNode, { kind: "exists" | "in-subquery" }>): SubqueryNode | undefined {
  const p = node.plan;
  if (p.group !== undefined || p.having !== undefined || p.window !== undefined || p.compound !== undefined || p.limit !== undefined || p.offset !== undefined) return undefined;
  const keys: OutputColumn[] = [];
  const outerKeys: number[] = [];
  const rest: BoundExpr[] = [];
  for (const term of conjuncts(p.where)) {
    const pair = correlation(term);
    if (pair === undefined) rest.push(term);
    else {
      keys.push({ name: `key${keys.length}`, expr: pair.inner });
      outerKeys.push(pair.outer);
    }
  }
  // An IN's column, or a row value's columns, after the keys.
  const values = node.kind === "in-subquery" ? p.columns : [];
  const sourceReadsOuter = p.sources.some((s) => s.call?.args.some(readsOuter) === true || s.derived?.correlated === true);
  if (keys.length === 0 || rest.some(readsOuter) || p.joins.some((j) => readsOuter(j.on)) || sourceReadsOuter || values.some((v) => readsOuter(v.expr))) return undefined;
  const { where: _where, ...withoutWhere } = p;
  const plan: SelectPlan = {
    ...withoutWhere,
    ...(rest.length === 0 ? {} : { where: rest.length === 1 ? (rest[0] as BoundExpr) : { kind: "and", operands: rest } }),
    orderBy: [],
    columns: [...keys, ...values],
  };
  return { ...node, plan, strategy: { kind: "hashed", keys: keys.length, outerKeys } };
}
