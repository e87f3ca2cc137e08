/**
 * The children of a bound expression, in one exhaustive switch, so passes
 * and the executor that only need to look inside expressions (which sources
 * they read, whether they hold an aggregate) do not each repeat every kind.
 */

import { assertNever } from "../errors.js";
import type { BoundExpr } from "./plan.js";

const NONE: readonly BoundExpr[] = [];

export function children(e: BoundExpr): readonly BoundExpr[] {
  switch (e.kind) {
    case "const":
    case "param":
    case "column":
    case "group-key":
    case "aggregate":
      return NONE;
    case "compare":
    case "arithmetic":
    case "concat":
      return [e.left, e.right];
    case "is-null":
    case "not":
    case "negate":
    case "cast":
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

/** Whether `test` holds for `e` or any expression inside it. */
export function some(e: BoundExpr, test: (e: BoundExpr) => boolean): boolean {
  if (test(e)) return true;
  for (const child of children(e)) if (some(child, test)) return true;
  return false;
}
