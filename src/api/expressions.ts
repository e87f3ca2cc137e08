/**
 * Expression helpers for the fluent builder: small functions that build the
 * wire expressions of CONTRACT §5, so a query reads like
 * `and(eq("city", "Paris"), ge("age", 18))`.
 *
 * Convention, as in most query builders: in the first operand of a
 * comparison a string is a column name; in the second it is a value unless
 * wrapped with `col()`. Nothing is checked here — names, types and shapes are
 * the bind step's job, the same one JSON and SQL go through.
 */

import type { ComparisonOp, Expression, Value } from "../commands/types.js";

/** Anything that can stand as an operand: an expression, or a plain value. */
export type Operand = Expression | Value;

/** A column reference: `col("name")` or `col("users.id")`. */
export function col(name: string): Expression {
  return { type: "identifier", name };
}

/** A literal value (string, finite number, boolean or null). */
export function val(value: Value): Expression {
  return { type: "literal", value };
}

function isExpression(operand: Operand): operand is Expression {
  return typeof operand === "object" && operand !== null;
}

/** A left operand: a string names a column. */
export function toLeft(operand: Operand): Expression {
  if (isExpression(operand)) return operand;
  return typeof operand === "string" ? col(operand) : val(operand);
}

/** A right operand: a string is a value. */
export function toRight(operand: Operand): Expression {
  return isExpression(operand) ? operand : val(operand);
}

function compare(op: ComparisonOp) {
  return (left: Operand, right: Operand): Expression => ({ type: "comparison", op, left: toLeft(left), right: toRight(right) });
}

export const eq = compare("=");
export const ne = compare("<>");
export const lt = compare("<");
export const le = compare("<=");
export const gt = compare(">");
export const ge = compare(">=");

/** `x IS NULL`; a string names a column. */
export function isNull(operand: Operand): Expression {
  return { type: "is-null", expr: toLeft(operand) };
}

/** `x IS NOT NULL`; a string names a column. */
export function isNotNull(operand: Operand): Expression {
  return { type: "is-null", expr: toLeft(operand), not: true };
}

export function and(...operands: Expression[]): Expression {
  return { type: "and", operands };
}

export function or(...operands: Expression[]): Expression {
  return { type: "or", operands };
}

export function not(operand: Expression): Expression {
  return { type: "not", expr: operand };
}
