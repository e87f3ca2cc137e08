/** The fluent table API and its expression helpers. */
export { TableQuery, type Runner, type ColumnName, type Match, type Writable, type Assignments } from "./table-query.js";
export type { Queryable } from "./queryable.js";
export {
  abs, add, alias, and, avg, between, binary, caseOf, caseWhen, cast, ceil, char, coalesce, col, concat, count, countDistinct, date, datetime, div, eq, excluded,
  exists, floor, fn, ge, groupConcat, gt, hex, ifnull, iif, inList, inQuery, instr, is, isNot, isNotNull, isNull, julianday, le, length, like, lower, lt, ltrim, max, min,
  mod, mul, ne, neg, not, notExists, nullif, or, replace, round, rtrim, sign, strftime, sub, subquery, substr, sum, time, trim, trunc, typeOf, unicode,
  unixepoch, upper, val, type AggregateOptions, type Aliased, type Cast, type Expr,
  type ExpressionMethods, type Operand, type Subquery,
} from "./expressions.js";
