/**
 * The notation of the conformance cases: one short entry per case stating a
 * query once per surface — fluent builder, JSON command, SQL text — and the
 * outcome all three must produce. `null` for a surface means the query cannot
 * be said there (a JSON-only field typo, SQL-only parameter counting, DDL in
 * the fluent API). JSON commands are written out in wire form with the small
 * helpers below, independent of `src/api`, so the builder is tested against
 * the wire format rather than against itself.
 */

import type { TableQuery } from "../../src/api/table-query.js";
import type { Result } from "../../src/commands/results.js";
import type { Command, Expression, Value } from "../../src/commands/types.js";
import type { AccessPath } from "../../src/planner/plan.js";
import type { ErrorCode } from "../../src/errors.js";
import { ORDER_BIG, ORDER_COLUMNS, ORDERS, USER_ADULT, USER_COLUMNS, USERS } from "./fixture.js";

export type Expect = Result | { readonly error: ErrorCode } | { readonly access: AccessPath["kind"] };
export type Fluent = (t: (table: string) => TableQuery) => TableQuery;
export type Sql = string | readonly [string, readonly Value[]];

export interface Case {
  readonly name: string;
  readonly fluent: Fluent | null;
  readonly json: unknown;
  readonly sql: Sql | null;
  readonly expect: Expect;
  /** A JSON command run after the case on the same database, and what it must return (e.g. to see a rollback). */
  readonly after?: readonly [Command, Expect];
}

export function c(name: string, fluent: Fluent | null, json: unknown, sql: Sql | null, expect: Expect, after?: readonly [Command, Expect]): Case {
  return after ? { name, fluent, json, sql, expect, after } : { name, fluent, json, sql, expect };
}

// ---------------------------------------------------------------- JSON expressions, written out

export const I = (name: string): Expression => ({ type: "identifier", name });
export const L = (value: Value): Expression => ({ type: "literal", value });
/** A comparison: a string on the left is a column, anything not an expression on the right a literal. */
export const C = (op: string, left: string | Expression, right: Value | Expression): Expression =>
  ({
    type: "comparison",
    op,
    left: typeof left === "string" ? I(left) : left,
    right: typeof right === "object" && right !== null ? right : L(right),
  }) as Expression;
export const AND = (...operands: Expression[]): Expression => ({ type: "and", operands });
export const OR = (...operands: Expression[]): Expression => ({ type: "or", operands });
export const NOT = (expr: Expression): Expression => ({ type: "not", expr });
export const NULL = (column: string): Expression => ({ type: "is-null", expr: I(column) });
export const NOTNULL = (column: string): Expression => ({ type: "is-null", expr: I(column), not: true });
export const TRUE = L(true);

export const sel = (table: string, columns: "*" | string[], extra: Record<string, unknown> = {}): Command =>
  ({ kind: "select", table, columns, ...extra }) as Command;
export const ins = (table: string, ...rows: Record<string, Value>[]): Command => ({ kind: "insert", table, rows });
export const upd = (table: string, set: Record<string, Value>, where: Expression): Command => ({ kind: "update", table, set, where });
export const del = (table: string, where: Expression): Command => ({ kind: "delete", table, where });

// ---------------------------------------------------------------- expected results

export function rows(columns: readonly string[], ...data: readonly (readonly Value[])[]): Result {
  return {
    kind: "rows",
    columns,
    rows: data.map((values) => Object.fromEntries(columns.map((column, i) => [column, values[i] as Value]))),
    rowCount: data.length,
  };
}

export function arrays(columns: readonly string[], ...data: readonly (readonly Value[])[]): Result {
  return { kind: "rows", columns, rows: data, rowCount: data.length };
}

export const ids = (...values: string[]): Result => rows(["id"], ...values.map((v) => [v]));
export const names = (...values: string[]): Result => rows(["name"], ...values.map((v) => [v]));

export const USER_STAR = [...USER_COLUMNS, "adult"];
export const userStar = (id: string): Value[] => [...(USERS[id] ?? []), USER_ADULT[id] ?? null];
export const ORDER_STAR = [...ORDER_COLUMNS, "big"];
export const orderStar = (id: number): Value[] => [...(ORDERS[id] ?? []), ORDER_BIG[id] ?? null];

export const mut = (operation: "insert" | "update" | "delete" | "create-table" | "drop-table", table: string, rowsAffected: number): Result => ({
  kind: "mutation",
  operation,
  table,
  rowsAffected,
});

export const err = (code: ErrorCode): Expect => ({ error: code });
export const access = (kind: AccessPath["kind"]): Expect => ({ access: kind });
