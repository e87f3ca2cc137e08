/** The fluent table API and its expression helpers. */
export { TableQuery, type Runner, type ColumnName, type Match, type Writable } from "./table-query.js";
export type { Queryable } from "./queryable.js";
export { and, col, eq, ge, gt, isNotNull, isNull, le, lt, ne, not, or, val, type Operand } from "./expressions.js";
