/** The fluent table API and its expression helpers. */
export { TableQuery, type Runner, type ColumnName, type Match, type Writable } from "./table-query.js";
export type { Queryable } from "./queryable.js";
export {
  abs, add, alias, and, between, binary, caseOf, caseWhen, cast, coalesce, col, concat, div, eq, fn, ge, gt, ifnull, inList, instr, isNotNull,
  isNull, le, length, like, lower, lt, ltrim, mod, mul, ne, neg, not, nullif, or, replace, round, rtrim, sub, substr, trim, upper, val,
  type Aliased, type Cast, type Expr, type ExpressionMethods, type Operand,
} from "./expressions.js";
