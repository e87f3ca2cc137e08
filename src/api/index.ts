/** The fluent table API and its expression helpers. */
export { TableQuery, type Runner, type JoinCondition, type ColumnName, type Match, type Writable, type Assignments } from "./table-query.js";
export type { Queryable } from "./queryable.js";
export {
  abs, add, alias, and, avg, between, binary, caseOf, caseWhen, cast, ceil, char, coalesce, col, collate, concat, count, countDistinct, cumeDist, date, datetime, denseRank, div, eq, excluded,
  exists, exp, filter, firstValue, floor, fn, ge, glob, groupConcat, gt, hex, ifnull, iif, inList, inQuery, instr, is, isNot, isNotNull, isNull, julianday, lag, lastValue, le, lead, length, like, likelihood, likely, ln, log, lower, lt, ltrim, max, maxOf, min, minOf,
  mod, mul, ne, neg, not, notExists, nthValue, ntile, nullif, octetLength, or, over, percentRank, pi, pow, printf, quote, random, rank, replace, round, row, rowNumber, rtrim, sign, sqrt, strftime, sub, subquery, substr, sum, time, total, trim, trunc, typeOf, unicode,
  unixepoch, unlikely, upper, val, withTable, WithTableSource, jsonEach, jsonTree, TableFunctionSource, type DerivedInput, type AggregateOptions, type Aliased, type Cast, type Expr,
  type ExpressionMethods, type Operand, type Subquery, type WindowOptions,
} from "./expressions.js";
