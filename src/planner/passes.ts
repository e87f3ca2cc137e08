/**
 * Optimization passes: a flat, named list of pure plan → plan functions run
 * after bind. Each only rewrites how rows are reached — never what a query
 * means — so any pass can be switched off and results stay the same.
 *
 * - `access-path`: equality on the full primary key (constant or parameter;
 *   `=`, or `IS` a value: `equalitySides`) → primary-key lookup; on a full unique key → unique lookup; on all
 *   columns of a secondary index → index lookup; else an index range when
 *   a secondary index has equality on some leading columns, a bound
 *   (`<`, `<=`, `>`, `>=`, BETWEEN) or a LIKE with a literal start on the
 *   next one, or when its walk gives ORDER BY's order and a LIMIT cuts it
 *   short (see `index-range.ts`); else, when a conjunct is `column IN
 *   (SELECT …)` with an uncorrelated subquery and a key or index is on that
 *   one column, a lookup of each of the subquery's values; otherwise scan.
 *   The WHERE stays whole: the path only narrows the rows it is evaluated
 *   on.
 * - `join-strategy`: an equi-join on a key or index of the joined table →
 *   index nested loop; other equi-joins (a derived table's too) → hash;
 *   an equality whose joined side is an expression of the joined row alone
 *   (`a.k + 0 = b.k`) → a hash on that expression; else nested loop; a lateral table function stays lateral (`bind-call.ts`). An inner join's equalities are its ON's and the
 *   WHERE terms decided at it (`where-placement.ts`), so `FROM a, b WHERE
 *   a.id = b.a_id` hashes as `a JOIN b ON …` does.
 *
 * With a RIGHT or FULL join (one no condition made inner at bind:
 * `outer-joins.ts`) the first table's rows are no longer all kept: the
 * WHERE does not narrow its access path, and the rows do not come in its
 * index's order.
 * - `subquery-strategy` (`subquery-strategy.ts`): how each subquery runs.
 *
 * `optimize` runs the list on a statement, then on each of its subqueries
 * (and derived tables, and UPDATE … FROM's join) as statements of their own.
 */

import { derivedTableInfo } from "./derived-table.js";
import { chooseRange, isSlotOrConst, type OrderWanted } from "./index-range.js";
import type { AccessPath, BoundExpr, DerivedTable, JoinStep, JoinStrategy, Plan, PlanNode, SelectPlan } from "./plan.js";
import { chooseSubqueryStrategies } from "./subquery-strategy.js";
import type { Catalog, KeyInfo, TableInfo } from "./table-info.js";
import { JSON_TABLE_SHAPE } from "./table-functions.js";
import { conjuncts, isSubquery, mapPlanExprs, mapSubqueries, mapSubqueryPlans, some } from "./walk.js";
import { maxSource, wherePlacement } from "./where-placement.js";

export interface Pass {
  readonly name: string;
  readonly run: (plan: Plan, catalog: Catalog) => Plan;
}

export { conjuncts } from "./walk.js";


/** Whether an expression reads source `s`. */
function readsSource(e: BoundExpr, s: number): boolean {
  return some(e, (x) => x.kind === "column" && x.source === s);
}

/**
 * A value no row can make NULL: a constant, or a parameter the plan was
 * bound for a value of a type (`param-types.ts`). This, and `possible()` in
 * `outer-joins.ts`, rely on a typed slot never being run with a value of
 * another type or NULL: the plan cache binds a plan per parameter types.
 */
function neverNull(e: BoundExpr): boolean {
  return (e.kind === "const" && e.value !== null) || (e.kind === "param" && e.type !== undefined && e.type !== "null");
}

/**
 * A term's two sides, each way round, when it holds exactly where they are
 * equal: `a = b`, or `a IS b` with one side never NULL (`a IS 5`, `a IS ?`
 * bound for a value), where IS means `=` but for NULL — a key lookup
 * finds no NULL, and the other side is none. `a IS ?` bound for NULL is
 * `a IS NULL`, and no key. A comparison in a collation other than binary
 * is none of them: keys hash and order texts by code point.
 */
export function equalitySides(t: BoundExpr): readonly (readonly [BoundExpr, BoundExpr])[] {
  if (t.kind === "compare" && t.op === "=" && t.collation === undefined) return [[t.left, t.right], [t.right, t.left]];
  if (t.kind !== "is" || t.not || t.collation !== undefined) return [];
  return [...(neverNull(t.right) ? [[t.left, t.right] as const] : []), ...(neverNull(t.left) ? [[t.right, t.left] as const] : [])];
}

/**
 * Equalities `source.column = other` (or `IS` a value: `equalitySides`)
 * among the conjuncts, where `other` may use only what `allowed` accepts.
 * First one per column wins.
 */
function equalities(terms: readonly BoundExpr[], source: number, allowed: (e: BoundExpr) => boolean): Map<number, BoundExpr> {
  const found = new Map<number, BoundExpr>();
  for (const t of terms) {
    for (const [col, other] of equalitySides(t)) {
      if (col.kind === "column" && col.source === source && allowed(other) && !found.has(col.column)) found.set(col.column, other);
    }
  }
  return found;
}

/** The first key of `table` (primary, unique, index order) whose columns are all covered. */
function coveredKey(table: TableInfo, covered: ReadonlyMap<number, BoundExpr>, kinds: readonly KeyInfo["kind"][]): KeyInfo | undefined {
  for (const kind of kinds) {
    const key = table.keys.find((k) => k.kind === kind && k.positions.every((p) => covered.has(p)));
    if (key) return key;
  }
  return undefined;
}

/** The access path for a query's first table; a subquery's outer values are as fixed as parameters while it runs (equalities only). */
export function chooseAccess(table: TableInfo | undefined, where: BoundExpr | undefined, order?: OrderWanted): AccessPath {
  if (!table) return { kind: "scan" };
  const terms = conjuncts(where);
  const eq = equalities(terms, 0, (e) => isSlotOrConst(e) || e.kind === "outer");
  const key = coveredKey(table, eq, ["primary", "unique", "index"]);
  if (!key) return chooseRange(table, terms, eq, order) ?? keyInSubquery(table, terms) ?? { kind: "scan" };
  const values = key.positions.map((p) => eq.get(p) as BoundExpr);
  switch (key.kind) {
    case "primary":
      return { kind: "primary-key-lookup", columns: key.columns, values };
    case "unique":
      return { kind: "unique-lookup", index: key.name, columns: key.columns, values };
    case "index":
      return { kind: "index-lookup", index: key.name, columns: key.columns, values };
  }
}

/** A lookup of an uncorrelated `column IN (SELECT …)` conjunct's values in a key on that column, if one is there. */
function keyInSubquery(table: TableInfo, terms: readonly BoundExpr[]): AccessPath | undefined {
  for (const [term, t] of terms.entries()) {
    if (t.kind !== "in-subquery" || t.not || t.collations !== undefined || t.outer.length > 0 || t.strategy.kind !== "once" || t.exprs.length !== 1) continue;
    const expr = t.exprs[0]!;
    if (expr.kind !== "column" || expr.source !== 0) continue;
    const column = expr.column;
    const key = table.keys.find((k) => k.positions.length === 1 && k.positions[0] === column);
    if (key) return { kind: "key-in-subquery", index: key.name, columns: key.columns, term };
  }
  return undefined;
}

/**
 * The WHERE with the equalities its terms imply for the first table:
 * `first.c = other.d AND other.d = value` gives `first.c = value` (columns
 * of one type, whose `=` is exact and so transitive), so a key fixed on a
 * later source (UPDATE … FROM's table, last: `WHERE a.id = ? AND b.k =
 * a.id`) narrows the first one too. Added after the WHERE's own terms
 * (their numbers stay), for the access path only: the WHERE run is the
 * statement's.
 */
function withImplied(where: BoundExpr | undefined): BoundExpr | undefined {
  const terms = conjuncts(where);
  const fixed = new Map<string, BoundExpr>();
  const at = (c: BoundExpr & { kind: "column" }): string => `${c.source}.${c.column}`;
  for (const t of terms) {
    // A collated `=` is no exact equality: it fixes nothing a key could look up.
    if (t.kind !== "compare" || t.op !== "=" || t.collation !== undefined) continue;
    if (t.left.kind === "column" && isSlotOrConst(t.right)) fixed.set(at(t.left), t.right);
    else if (t.right.kind === "column" && isSlotOrConst(t.left)) fixed.set(at(t.right), t.left);
  }
  const implied: BoundExpr[] = [];
  for (const t of terms) {
    if (t.kind !== "compare" || t.op !== "=" || t.collation !== undefined || t.left.kind !== "column" || t.right.kind !== "column" || t.left.type !== t.right.type) continue;
    for (const [first, other] of [
      [t.left, t.right],
      [t.right, t.left],
    ] as const) {
      const value = fixed.get(at(other));
      if (first.source === 0 && other.source !== 0 && value !== undefined && !fixed.has(at(first))) implied.push({ kind: "compare", op: "=", left: first, right: value });
    }
  }
  return implied.length === 0 ? where : { kind: "and", operands: [...terms, ...implied] };
}

const accessPath: Pass = {
  name: "access-path",
  run(plan, catalog) {
    const s: PlanNode = plan.statement;
    switch (s.kind) {
      case "select": {
        const first = s.sources[0];
        if (first === undefined) return plan;
        // A RIGHT or FULL join decides every WHERE term after it (`where-placement.ts`): none narrows the first table.
        const kept = s.joins.every((j) => j.type === "inner" || j.type === "left");
        // After grouping, windows or DISTINCT, ORDER BY sorts groups, window rows or result rows, not the first table's rows; in a compound, the combined rows.
        const order = kept && s.group === undefined && s.window === undefined && !s.distinct && s.compound === undefined ? { orderBy: s.orderBy, limited: s.limit !== undefined } : undefined;
        return { ...plan, statement: { ...s, access: chooseAccess(catalog.table(first.table), kept ? withImplied(s.where) : undefined, order) } };
      }
      case "update":
      case "delete":
        return { ...plan, statement: { ...s, access: chooseAccess(catalog.table(s.table), s.where) } };
      default:
        return plan;
    }
  },
};

/** `placed`: the WHERE terms decided at this join, which an inner join may match on as on its ON. */
function chooseJoin(table: TableInfo | undefined, step: JoinStep, placed: readonly BoundExpr[]): JoinStrategy {
  // A lateral table function's rows are made per tuple: nothing to look up or hash beforehand.
  if (step.strategy.kind === "lateral") return step.strategy;
  if (!table) return { kind: "nested-loop" };
  const terms = step.type === "inner" ? [...conjuncts(step.on), ...placed] : conjuncts(step.on);
  const eq = equalities(terms, step.source, (e) => !readsSource(e, step.source) && maxSource(e) < step.source);
  if (eq.size === 0) return expressionHash(terms, step.source) ?? { kind: "nested-loop" };
  const key = coveredKey(table, eq, ["primary", "unique", "index"]);
  if (key) {
    return { kind: "index-nested-loop", index: key.name, innerColumns: key.columns, outerKeys: key.positions.map((p) => eq.get(p) as BoundExpr) };
  }
  const positions = [...eq.keys()];
  return { kind: "hash", innerColumns: positions.map((p) => table.columns[p] as string), outerKeys: positions.map((p) => eq.get(p) as BoundExpr) };
}

/**
 * A hash on equalities `expression of the joined row = expression of earlier
 * sources` (no subquery on the joined side: its key is computed once per
 * row, where a nested loop would compute it once per pair).
 */
function expressionHash(terms: readonly BoundExpr[], source: number): JoinStrategy | undefined {
  const innerKeys: BoundExpr[] = [];
  const outerKeys: BoundExpr[] = [];
  const rowOnly = (e: BoundExpr): boolean => readsSource(e, source) && !some(e, (x) => (x.kind === "column" && x.source !== source) || isSubquery(x) || x.kind === "outer");
  for (const t of terms) {
    // A Map key matches exactly, never as a collation folds texts.
    if (t.kind !== "compare" || t.op !== "=" || t.collation !== undefined) continue;
    for (const [inner, other] of [
      [t.left, t.right],
      [t.right, t.left],
    ] as const) {
      if (rowOnly(inner) && !readsSource(other, source) && maxSource(other) < source) {
        innerKeys.push(inner);
        outerKeys.push(other);
        break;
      }
    }
  }
  return innerKeys.length === 0 ? undefined : { kind: "expression-hash", innerKeys, outerKeys };
}

const joinStrategy: Pass = {
  name: "join-strategy",
  run(plan, catalog) {
    const s = plan.statement;
    if (s.kind !== "select" || s.joins.length === 0) return plan;
    const tableOf = (index: number): TableInfo | undefined => {
      const source = s.sources[index];
      // A derived table (or the rows a recursive select runs over) has no keys, but an equi-join on it still hashes.
      const shape = source?.derived ?? source?.working ?? (source?.call === undefined ? undefined : JSON_TABLE_SHAPE);
      return shape === undefined ? catalog.table(source?.table ?? "") : derivedTableInfo(index, shape, source!.table);
    };
    const place = wherePlacement(s.joins);
    const terms = conjuncts(s.where);
    const joins = s.joins.map((j) => ({ ...j, strategy: chooseJoin(tableOf(j.source), j, terms.filter((t) => place(t) === j.source)) }));
    return { ...plan, statement: { ...s, joins } };
  },
};

const subqueryStrategy: Pass = {
  name: "subquery-strategy",
  run(plan, catalog) {
    const indexed = (sub: SelectPlan): boolean => {
      const path = chooseAccess(catalog.table(sub.sources[0]?.table ?? ""), sub.where);
      const values = path.kind === "scan" || path.kind === "single-row" || path.kind === "key-in-subquery" ? [] : path.kind === "index-range" ? path.equal : path.values;
      return values.some((v) => v.kind === "outer");
    };
    const s = plan.statement;
    switch (s.kind) {
      case "select":
        return { ...plan, statement: mapPlanExprs(s, (e) => chooseSubqueryStrategies(e, indexed)) };
      case "update":
      case "delete":
        return { ...plan, statement: { ...s, where: chooseSubqueryStrategies(s.where, indexed) } };
      default:
        return plan;
    }
  },
};

export const PASSES: readonly Pass[] = [subqueryStrategy, accessPath, joinStrategy];

/** Runs the passes on the plan, then on each subquery's plan (at any depth) the same way. */
export function optimize(plan: Plan, catalog: Catalog, passes: readonly Pass[] = PASSES): Plan {
  const out = passes.reduce((p, pass) => pass.run(p, catalog), plan);
  const sub = (select: SelectPlan): SelectPlan => optimize({ ...out, statement: select }, catalog, passes).statement as SelectPlan;
  const s = out.statement;
  switch (s.kind) {
    case "select": {
      // Derived tables (a recursive one's selects too) and a compound's other selects are optimized as statements of their own.
      const derived = (d: DerivedTable): DerivedTable => ({
        ...d,
        select: sub(d.select),
        ...(d.recursion === undefined ? {} : { recursion: { ...d.recursion, steps: d.recursion.steps.map(sub) } }),
      });
      const mapped: SelectPlan = {
        ...mapSubqueries(s, sub),
        sources: s.sources.map((source) => (source.derived === undefined ? source : { ...source, derived: derived(source.derived) })),
      };
      if (s.compound === undefined) return { ...out, statement: mapped };
      return { ...out, statement: { ...mapped, compound: { ...s.compound, steps: s.compound.steps.map((step) => ({ ...step, plan: sub(step.plan) })) } } };
    }
    case "update":
      // UPDATE … FROM's join is optimized as a select of its own: its access path, join strategies and subqueries.
      return { ...out, statement: { ...s, where: mapSubqueryPlans(s.where, sub), ...(s.from === undefined ? {} : { from: sub(s.from) }) } };
    case "delete":
      return { ...out, statement: { ...s, where: mapSubqueryPlans(s.where, sub) } };
    case "insert":
      return s.select === undefined ? out : { ...out, statement: { ...s, select: { ...s.select, plan: sub(s.select.plan) } } };
    case "create-table":
      return s.select === undefined ? out : { ...out, statement: { ...s, select: sub(s.select) } };
    default:
      return out;
  }
}
