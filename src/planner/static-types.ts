/**
 * Static types of bound expressions (CONTRACT §5, §11): what the binder
 * checks and the executor's compiler specializes on.
 *
 * Values fall into three families that never mix — text, numbers, booleans —
 * and a mix is 400 `type_mismatch`, never a coercion. Within numbers,
 * integer and real compare alike but compute differently (`7 / 2` is 3,
 * `7.0 / 2` is 3.5), so the type of every computed number is tracked:
 * `integer`, `real`, or `number` when it rests on a parameter's value (an
 * integral parameter is an integer, as an integral JSON literal is).
 * Expressions that choose among values (CASE, coalesce, ...) unify their
 * branches: one family, and real if any branch is real.
 */

import type { ColumnType, Value } from "../commands/types.js";
import { StoreError, assertNever } from "../errors.js";
import type { BoundExpr, StaticType } from "./plan.js";

export type Family = "text" | "number" | "boolean";

export function literalType(value: Value): StaticType {
  if (value === null) return "null";
  if (typeof value === "string") return "text";
  if (typeof value === "boolean") return "boolean";
  return Number.isInteger(value) ? "integer" : "real";
}

export function typeOf(e: BoundExpr): StaticType {
  switch (e.kind) {
    case "const":
      return e.type ?? literalType(e.value);
    case "param":
      return e.type ?? "unknown";
    case "column":
    case "arithmetic":
    case "negate":
    case "case":
    case "function":
    case "group-key":
    case "aggregate":
    case "window":
    case "outer":
    case "subquery":
    case "row-column":
    case "assert-type":
      return e.type;
    case "row-subquery":
      return typeOf(e.body);
    case "cast":
      return e.to;
    case "collate":
      return typeOf(e.expr);
    case "concat":
      return "text";
    case "compare":
    case "is":
    case "is-null":
    case "and":
    case "or":
    case "not":
    case "in":
    case "between":
    case "like":
    case "glob":
    case "exists":
    case "in-subquery":
    case "row-compare":
    case "row-between":
    case "row-in":
      return "boolean";
    default:
      return assertNever(e, "expression");
  }
}

/** The family of a known type; `undefined` for `null` and `unknown`, which fit any. */
export function familyOf(t: StaticType): Family | undefined {
  switch (t) {
    case "integer":
    case "real":
    case "number":
      return "number";
    case "text":
    case "boolean":
      return t;
    case "null":
    case "unknown":
      return undefined;
  }
}

export function describeFamily(family: Family): string {
  return family === "number" ? "a number" : family === "text" ? "a text" : "a boolean";
}

/** The numeric type of a computation over numbers of these types: integer only if all are, real if any is. */
export function numericType(types: readonly StaticType[]): "integer" | "real" | "number" {
  if (types.includes("real")) return "real";
  return types.some((t) => t === "number" || t === "unknown") ? "number" : "integer";
}

/**
 * The one type of values that may come from any of `types` (CASE branches,
 * coalesce arguments): one family or `type_mismatch` naming `what`; numbers
 * unify to real if any is real.
 */
export function unify(types: readonly StaticType[], what: string): StaticType {
  let family: Family | undefined;
  for (const t of types) {
    const f = familyOf(t);
    if (f === undefined) continue;
    if (family !== undefined && f !== family) throw new StoreError("type_mismatch", `${what} mixes ${describeFamily(family)} with ${describeFamily(f)}`);
    family = f;
  }
  if (family === undefined) return types.includes("unknown") ? "unknown" : "null";
  if (family === "number") return numericType(types.filter((t) => t !== "null"));
  return family;
}

