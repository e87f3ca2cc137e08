/**
 * The children of a bound expression, and a rebuild with new children, each
 * in one exhaustive switch, so passes and the executor that only need to
 * look inside expressions (which sources they read, whether they hold an
 * aggregate) or rewrite some kind of them do not each repeat every kind.
 *
 * A subquery's children are its `outer` expressions (and an IN's operands):
 * they belong to the enclosing query. Its plan is another query, reached
 * through `subqueries` and `mapSubqueries`.
 */

import { assertNever } from "../errors.js";
import type { BoundExpr, SelectPlan } from "./plan.js";

const NONE: readonly BoundExpr[] = [];

export function children(e: BoundExpr): readonly BoundExpr[] {
  switch (e.kind) {
    case "const":
    case "param":
    case "column":
    case "group-key":
    case "aggregate":
    case "window":
    case "outer":
    case "row-column":
      return NONE;
    case "subquery":
    case "exists":
      return e.outer;
    case "row-subquery":
      return [e.body, ...e.outer];
    case "in-subquery":
      return [...e.exprs, ...e.outer];
    case "row-compare":
      return [...e.left, ...e.right];
    case "row-between":
      return [...e.expr, ...e.low, ...e.high];
    case "row-in":
      return [...e.exprs, ...e.rows.flat()];
    case "compare":
    case "is":
    case "arithmetic":
    case "concat":
      return [e.left, e.right];
    case "is-null":
    case "not":
    case "negate":
    case "cast":
    case "assert-type":
    case "collate":
      return [e.expr];
    case "and":
    case "or":
      return e.operands;
    case "in":
      return [e.expr, ...e.values];
    case "between":
      return [e.expr, e.low, e.high];
    case "like":
      return e.escape === undefined ? [e.expr, e.pattern] : [e.expr, e.pattern, e.escape];
    case "glob":
      return [e.expr, e.pattern];
    case "case": {
      const out: BoundExpr[] = [];
      if (e.operand !== undefined) out.push(e.operand);
      for (const w of e.whens) out.push(w.when, w.then);
      if (e.else !== undefined) out.push(e.else);
      return out;
    }
    case "function":
      return e.args;
    default:
      return assertNever(e, "expression");
  }
}

/** The kinds of expression that hold a subquery's plan. */
export function isSubquery(e: BoundExpr): e is Extract<BoundExpr, { kind: "subquery" | "exists" | "in-subquery" | "row-subquery" }> {
  return e.kind === "subquery" || e.kind === "exists" || e.kind === "in-subquery" || e.kind === "row-subquery";
}

/** Whether `test` holds for `e` or any expression inside it. */
export function some(e: BoundExpr, test: (e: BoundExpr) => boolean): boolean {
  if (test(e)) return true;
  for (const child of children(e)) if (some(child, test)) return true;
  return false;
}

/** The conjuncts of a condition: nested ANDs flattened. */
export function conjuncts(e: BoundExpr | undefined): BoundExpr[] {
  if (e === undefined) return [];
  if (e.kind === "and") return e.operands.flatMap(conjuncts);
  return [e];
}

/** The condition that is always TRUE (a cross join's ON, an empty conjunction). */
export const TRUE: BoundExpr = { kind: "const", value: true };

/** The conjunction of `terms` (their AND; TRUE for none): `conjuncts` undone. */
export function conjunction(terms: readonly BoundExpr[]): BoundExpr {
  if (terms.length === 0) return TRUE;
  return terms.length === 1 ? terms[0]! : { kind: "and", operands: terms };
}

/** `e` with each child replaced by `f(child)` (the same object when nothing changed). */
export function mapChildren(e: BoundExpr, f: (child: BoundExpr) => BoundExpr): BoundExpr {
  const list = (xs: readonly BoundExpr[]): readonly BoundExpr[] => {
    const out = xs.map(f);
    return out.every((x, i) => x === xs[i]) ? xs : out;
  };
  switch (e.kind) {
    case "const":
    case "param":
    case "column":
    case "group-key":
    case "aggregate":
    case "window":
    case "outer":
    case "row-column":
      return e;
    case "compare":
    case "is":
    case "arithmetic":
    case "concat": {
      const [left, right] = [f(e.left), f(e.right)];
      return left === e.left && right === e.right ? e : { ...e, left, right };
    }
    case "is-null":
    case "not":
    case "negate":
    case "cast":
    case "assert-type":
    case "collate": {
      const expr = f(e.expr);
      return expr === e.expr ? e : { ...e, expr };
    }
    case "and":
    case "or": {
      const operands = list(e.operands);
      return operands === e.operands ? e : { ...e, operands };
    }
    case "in": {
      const [expr, values] = [f(e.expr), list(e.values)];
      return expr === e.expr && values === e.values ? e : { ...e, expr, values };
    }
    case "between": {
      const [expr, low, high] = [f(e.expr), f(e.low), f(e.high)];
      return expr === e.expr && low === e.low && high === e.high ? e : { ...e, expr, low, high };
    }
    case "like": {
      const [expr, pattern] = [f(e.expr), f(e.pattern)];
      const escape = e.escape === undefined ? undefined : f(e.escape);
      if (expr === e.expr && pattern === e.pattern && escape === e.escape) return e;
      return escape === undefined ? { ...e, expr, pattern } : { ...e, expr, pattern, escape };
    }
    case "glob": {
      const [expr, pattern] = [f(e.expr), f(e.pattern)];
      return expr === e.expr && pattern === e.pattern ? e : { ...e, expr, pattern };
    }
    case "case": {
      const operand = e.operand === undefined ? undefined : f(e.operand);
      const whens = e.whens.map((w) => ({ ...w, when: f(w.when), then: f(w.then) }));
      const otherwise = e.else === undefined ? undefined : f(e.else);
      const same = operand === e.operand && otherwise === e.else && whens.every((w, i) => w.when === e.whens[i]!.when && w.then === e.whens[i]!.then);
      if (same) return e;
      const out: { -readonly [K in keyof typeof e]: (typeof e)[K] } = { ...e, whens };
      if (operand !== undefined) out.operand = operand;
      if (otherwise !== undefined) out.else = otherwise;
      return out;
    }
    case "function": {
      const args = list(e.args);
      return args === e.args ? e : { ...e, args };
    }
    case "subquery":
    case "exists": {
      const outer = list(e.outer);
      return outer === e.outer ? e : { ...e, outer };
    }
    case "row-subquery": {
      const [body, outer] = [f(e.body), list(e.outer)];
      return body === e.body && outer === e.outer ? e : { ...e, body, outer };
    }
    case "in-subquery": {
      const [exprs, outer] = [list(e.exprs), list(e.outer)];
      return exprs === e.exprs && outer === e.outer ? e : { ...e, exprs, outer };
    }
    case "row-compare": {
      const [left, right] = [list(e.left), list(e.right)];
      return left === e.left && right === e.right ? e : { ...e, left, right };
    }
    case "row-between": {
      const [expr, low, high] = [list(e.expr), list(e.low), list(e.high)];
      return expr === e.expr && low === e.low && high === e.high ? e : { ...e, expr, low, high };
    }
    case "row-in": {
      const exprs = list(e.exprs);
      const rows = e.rows.map(list);
      return exprs === e.exprs && rows.every((r, i) => r === e.rows[i]) ? e : { ...e, exprs, rows };
    }
    default:
      return assertNever(e, "expression");
  }
}

/** `e` rewritten bottom-up: `f` sees each node after its children were rewritten. */
export function mapExpr(e: BoundExpr, f: (e: BoundExpr) => BoundExpr): BoundExpr {
  return f(mapChildren(e, (child) => mapExpr(child, f)));
}

/** Every expression of a select plan that belongs to it (its table functions' arguments too; not its subqueries', derived tables' or compound's other selects' plans). */
export function planExprs(plan: SelectPlan): BoundExpr[] {
  const out: BoundExpr[] = [];
  for (const s of plan.sources) if (s.call !== undefined) out.push(...s.call.args);
  for (const j of plan.joins) out.push(j.on);
  if (plan.where !== undefined) out.push(plan.where);
  if (plan.group !== undefined) {
    out.push(...plan.group.keys);
    for (const a of plan.group.aggregates) {
      if (a.arg !== undefined) out.push(a.arg);
      if (a.value !== undefined) out.push(a.value);
      if (a.filter !== undefined) out.push(a.filter);
    }
  }
  if (plan.having !== undefined) out.push(plan.having);
  if (plan.window !== undefined) {
    out.push(...plan.window.carried);
    for (const call of plan.window.calls) {
      out.push(...call.args, ...call.partition, ...call.order.map((k) => k.expr));
      if (call.filter !== undefined) out.push(call.filter);
    }
  }
  for (const c of plan.columns) out.push(c.expr);
  for (const k of plan.orderBy) out.push(k.expr);
  return out;
}

/** The plan with every expression that belongs to it (as `planExprs` says) replaced by `f(expression)`. */
export function mapPlanExprs(plan: SelectPlan, f: (e: BoundExpr) => BoundExpr): SelectPlan {
  const out: { -readonly [K in keyof SelectPlan]: SelectPlan[K] } = {
    ...plan,
    sources: plan.sources.map((s) => (s.call === undefined ? s : { ...s, call: { ...s.call, args: s.call.args.map(f) } })),
    joins: plan.joins.map((j) => ({ ...j, on: f(j.on) })),
    columns: plan.columns.map((c) => ({ ...c, expr: f(c.expr) })),
    orderBy: plan.orderBy.map((k) => ({ ...k, expr: f(k.expr) })),
  };
  if (plan.where !== undefined) out.where = f(plan.where);
  if (plan.group !== undefined) {
    const aggregates = plan.group.aggregates.map((a) => ({
      ...a,
      ...(a.arg === undefined ? {} : { arg: f(a.arg) }),
      ...(a.value === undefined ? {} : { value: f(a.value) }),
      ...(a.filter === undefined ? {} : { filter: f(a.filter) }),
    }));
    out.group = { keys: plan.group.keys.map(f), aggregates };
  }
  if (plan.having !== undefined) out.having = f(plan.having);
  if (plan.window !== undefined) {
    out.window = {
      carried: plan.window.carried.map(f),
      calls: plan.window.calls.map((call) => ({
        ...call,
        args: call.args.map(f),
        partition: call.partition.map(f),
        order: call.order.map((k) => ({ ...k, expr: f(k.expr) })),
        ...(call.filter === undefined ? {} : { filter: f(call.filter) }),
      })),
    };
  }
  return out;
}

/** The expression with the plan of each subquery in it (at any depth of the expression, not of nesting) replaced by `f(plan)`. */
export function mapSubqueryPlans(e: BoundExpr, f: (sub: SelectPlan) => SelectPlan): BoundExpr {
  return mapExpr(e, (x) => (isSubquery(x) ? { ...x, plan: f(x.plan) } : x));
}

/** `mapSubqueryPlans` over every expression of a select plan. */
export function mapSubqueries(plan: SelectPlan, f: (sub: SelectPlan) => SelectPlan): SelectPlan {
  return mapPlanExprs(plan, (e) => mapSubqueryPlans(e, f));
}

/**
 * Text that is equal for two expressions that compute the same thing: a
 * column is its source and position, however it was written (`id`, `o.id`),
 * so a grouped or DISTINCT query matches `o.id` in its list with `id` in
 * GROUP BY, as SQL does.
 */
export function sameExprKey(e: BoundExpr): string {
  return JSON.stringify(e, (_key, value: unknown) => {
    const node = value as { kind?: unknown; source?: unknown; column?: unknown } | null;
    return node !== null && typeof node === "object" && node.kind === "column" ? { kind: "column", source: node.source, column: node.column } : value;
  });
}
