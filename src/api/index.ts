/** The fluent table API and its expression helpers. */
export { TableQuery, type Runner, type ColumnName, type Match, type Writable, type Assignments } from "./table-query.js";
export type { Queryable } from "./queryable.js";
export {
  abs, add, alias, and, avg, between, binary, caseOf, caseWhen, cast, coalesce, col, concat, count, countDistinct, div, eq, excluded, exists, fn, ge, groupConcat,
  gt, ifnull, inList, inQuery, instr, isNotNull, isNull, le, length, like, lower, lt, ltrim, max, min, mod, mul, ne, neg, not, notExists, nullif,
  or, replace, round, rtrim, sub, subquery, substr, sum, trim, upper, val, type AggregateOptions, type Aliased, type Cast, type Expr,
  type ExpressionMethods, type Operand, type Subquery,
} from "./expressions.js";
