/**
 * The notation of the conformance cases: one short entry per case stating a
 * query once per surface — fluent builder, JSON command, SQL text — and the
 * outcome all three must produce. `null` for a surface means the query cannot
 * be said there (a JSON-only field typo, SQL-only parameter counting, DDL in
 * the fluent API). JSON commands are written out in wire form with the small
 * helpers below, independent of `src/api`, so the builder is tested against
 * the wire format rather than against itself.
 */

import type { DerivedInput } from "../../src/api/expressions.js";
import type { TableQuery } from "../../src/api/table-query.js";
import type { Result } from "../../src/commands/results.js";
import type { Command, Expression, SelectColumn, Value } from "../../src/commands/types.js";
import type { AccessPath } from "../../src/planner/plan.js";
import type { ErrorCode } from "../../src/errors.js";
import { ORDER_BIG, ORDER_COLUMNS, ORDERS, USER_ADULT, USER_COLUMNS, USERS } from "./fixture.js";

/**
 * What a case must produce: a result; an error code (`sql`, when given, is
 * the code SQL text gets instead — misuse is `sql_error` there and
 * `invalid_request` in JSON, CONTRACT §11); or a plan taking an access path.
 */
export type Expect = Result | { readonly error: ErrorCode; readonly sql?: ErrorCode; readonly step?: number } | { readonly access: AccessPath["kind"] };
export type Fluent = (t: (table: string | DerivedInput) => TableQuery) => TableQuery;
export type Sql = string | readonly [string, readonly Value[]];

export interface Case {
  readonly name: string;
  readonly fluent: Fluent | null;
  readonly json: unknown;
  readonly sql: Sql | null;
  readonly expect: Expect;
  /** JSON commands run after the case on the same database, and what each must return (e.g. to see a rollback). */
  readonly after?: readonly After[];
  /**
   * A transaction case: its steps, each said on the surfaces it can be
   * (`json` always). Each surface runs the transaction command with its own
   * form of every step it has (the JSON form of the others); the library
   * also runs the steps in `db.transaction(async (tx) => …)`.
   */
  readonly steps?: readonly Step[];
  /** A transaction case about the command's own shape (its size, its kinds of step), which the library's callback form does not have. */
  readonly commandOnly?: boolean;
}

export interface Step {
  readonly fluent: Fluent | null;
  readonly json: unknown;
  readonly sql: Sql | null;
}

export type After = readonly [Command, Expect];

/** A transaction step: `[fluent, json, sql]`. */
export type StepForms = readonly [Fluent | null, unknown, Sql | null];

/** A transaction case (see `Case.steps`); `expect` is a transaction result or an error naming its step. */
export function tx(name: string, steps: readonly StepForms[], expect: Expect, after?: After | readonly After[], options: { commandOnly?: boolean } = {}): Case {
  const list = steps.map(([fluent, json, sql]) => ({ fluent, json, sql }));
  const base = c(name, null, { kind: "transaction", commands: steps.map(([, json]) => json) }, null, expect, after);
  return { ...base, steps: list, ...(options.commandOnly ? { commandOnly: true } : {}) };
}

/** A transaction's result: one result per step. */
export const txr = (...results: Result[]): Result => ({ kind: "transaction", results });
/** A transaction refused at step `step` with `code`. */
export const atStep = (step: number, code: ErrorCode): Expect => ({ error: code, step });

/** `after` is one check, or a list of them. */
export function c(name: string, fluent: Fluent | null, json: unknown, sql: Sql | null, expect: Expect, after?: After | readonly After[]): Case {
  if (after === undefined) return { name, fluent, json, sql, expect };
  const list = Array.isArray(after[0]) ? (after as readonly After[]) : [after as After];
  return { name, fluent, json, sql, expect, after: list };
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
/**
 * Shorthands of §11 expressions, with the fluent builder's convention: in
 * the first operand a string is a column (`X`), elsewhere a value (`V`);
 * anything not an expression is a literal.
 */
type Arg = Value | Expression;
const X = (a: Arg): Expression => (typeof a === "string" ? I(a) : typeof a === "object" && a !== null ? a : L(a));
const V = (a: Arg): Expression => (typeof a === "object" && a !== null ? a : L(a));
export const B = (op: string, left: Arg, right: Arg): Expression => ({ type: "binary", op, left: X(left), right: V(right) }) as Expression;
export const NEG = (expr: Arg): Expression => ({ type: "negate", expr: X(expr) });
export const IN = (expr: Arg, values: Arg[], not?: true): Expression => ({ type: "in", expr: X(expr), values: values.map(V), ...(not ? { not } : {}) });
export const BETWEEN = (expr: Arg, low: Arg, high: Arg, not?: true): Expression => ({ type: "between", expr: X(expr), low: V(low), high: V(high), ...(not ? { not } : {}) });
export const LIKE = (expr: Arg, pattern: string, extra: { escape?: string; not?: true } = {}): Expression => ({ type: "like", expr: X(expr), pattern: L(pattern), ...extra });
/** Searched CASE (no operand: each `when` a condition, a string a column) or simple CASE (`when` values). */
export const CASE = (when: [Arg, Arg][], otherwise?: Arg, operand?: Arg): Expression => ({
  type: "case",
  ...(operand === undefined ? {} : { operand: X(operand) }),
  when: when.map(([w, t]) => ({ when: operand === undefined ? X(w) : V(w), then: V(t) })),
  ...(otherwise === undefined ? {} : { else: V(otherwise) }),
});
export const CAST = (expr: Arg, as: string): Expression => ({ type: "cast", expr: X(expr), as }) as Expression;
export const FN = (name: string, ...args: Arg[]): Expression => ({ type: "function", name, args: args.map((a, i) => (i === 0 ? X(a) : V(a))) });
/** A select list item: an expression and its result name. */
export const AS = (expr: Expression, as: string) => ({ expr, as });

/** Subquery cases' nested selects, written as loose wire objects (their fields vary case by case). */
export type Select = Record<string, unknown>;
export const Q = (table: string, columns: "*" | unknown[], extra: Select = {}): Select => ({ kind: "select", table, columns, ...extra });
export const SUB = (select: Select): Expression => ({ type: "subquery", select }) as unknown as Expression;
export const EXISTS = (select: Select, not?: true): Expression => ({ type: "exists", select, ...(not ? { not } : {}) }) as unknown as Expression;
export const AGG = (name: string, arg?: string): Expression => ({ type: "aggregate", name, ...(arg === undefined ? {} : { arg: I(arg) }) }) as Expression;

export const sel = (table: string, columns: "*" | SelectColumn[], extra: Record<string, unknown> = {}): Command =>
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

/** An insert with a conflict clause: rows inserted, updated and ignored, and with RETURNING the returned columns and rows. */
export const upserted = (
  table: string,
  [inserted, updated, ignored]: readonly [number, number, number],
  columns?: readonly string[],
  ...data: readonly (readonly Value[])[]
): Result => ({
  kind: "mutation",
  operation: "insert",
  table,
  rowsAffected: inserted + updated,
  inserted,
  updated,
  ignored,
  ...(columns === undefined ? {} : { columns, rows: data.map((values) => Object.fromEntries(columns.map((column, i) => [column, values[i] as Value]))) }),
});

/** A write's result with RETURNING: rows affected, then the returned columns and rows. */
export const ret = (operation: "insert" | "update" | "delete", table: string, rowsAffected: number, columns: readonly string[], ...data: readonly (readonly Value[])[]): Result => ({
  kind: "mutation",
  operation,
  table,
  rowsAffected,
  columns,
  rows: data.map((values) => Object.fromEntries(columns.map((column, i) => [column, values[i] as Value]))),
});

export const err = (code: ErrorCode): Expect => ({ error: code });
/** A misuse of the query language: `invalid_request` from JSON and the builder, `sql_error` from SQL text. */
export const misuse: Expect = { error: "invalid_request", sql: "sql_error" };
export const access = (kind: AccessPath["kind"]): Expect => ({ access: kind });
