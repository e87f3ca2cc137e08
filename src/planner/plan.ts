/**
 * The bound QueryPlan IR: the one form every surface reaches and the one
 * thing the executor runs. `explain` returns it as is.
 *
 * Unlike the wire commands (`src/commands/types.ts`), every name here is
 * resolved: a column is a (source, position) pair with a known type, computed
 * fields are inlined as expressions, insert rows are full-width in column
 * order, and each table access carries the path the planner chose. Parameters
 * stay as slots so a prepared plan is reused with new values; `params` lists
 * the type each slot must have, checked when values are bound.
 *
 * Nodes are readonly, JSON-serializable and discriminated by `kind`; every
 * switch over them ends in `assertNever`. Change a node here and the binder
 * (`bind*.ts`), the executor's compiler and the explain tests change with it.
 */

import type { ColumnType, TableSchema, Value } from "../commands/types.js";

export type CompareOp = "=" | "<>" | "<" | "<=" | ">" | ">=";

/** A bound expression. `type` is the static type where known (`null` for a NULL literal, `unknown` for an untyped parameter). */
export type BoundExpr =
  | { readonly kind: "const"; readonly value: Value }
  | { readonly kind: "param"; readonly index: number }
  /** Column `column` (position in the stored row) of source `source` (position in the FROM/JOIN list). */
  | { readonly kind: "column"; readonly source: number; readonly column: number; readonly name: string; readonly type: ColumnType }
  | { readonly kind: "compare"; readonly op: CompareOp; readonly left: BoundExpr; readonly right: BoundExpr }
  | { readonly kind: "is-null"; readonly expr: BoundExpr; readonly not: boolean }
  | { readonly kind: "and"; readonly operands: readonly BoundExpr[] }
  | { readonly kind: "or"; readonly operands: readonly BoundExpr[] }
  | { readonly kind: "not"; readonly expr: BoundExpr };

/** What a parameter slot must hold when values are bound. */
export type ParamUse =
  /** Compared with a value of this type: a mismatch is 400 `type_mismatch`. */
  | { readonly kind: "compare"; readonly type: ColumnType }
  /** Written into a column: a mismatch is 422 `validation_failed` (code `type`). */
  | { readonly kind: "value"; readonly table: string; readonly column: string; readonly type: ColumnType }
  /** Compared with parameter `with` (e.g. `? = ?`): the two values must be of one family (text, number, boolean). */
  | { readonly kind: "compare-param"; readonly with: number }
  /** Compared only with untyped things (e.g. `? IS NULL`): any value. */
  | { readonly kind: "any" }
  /** A select's limit or offset: an integer ≥ 0, else 400 `invalid_request`. */
  | { readonly kind: "count"; readonly clause: "limit" | "offset" };

/**
 * A limit or offset: as written, or a parameter slot. The JSON plan cache
 * makes them slots, so the pages of one query share a plan.
 */
export type Count = number | { readonly kind: "param"; readonly index: number };

/** A table in the FROM/JOIN list. `name` is the qualifier its columns answer to (alias, else table name). */
export interface Source {
  readonly table: string;
  readonly name: string;
}

/** How rows of one table are reached. `values` are const or param expressions, one per key column. */
export type AccessPath =
  | { readonly kind: "scan" }
  | { readonly kind: "primary-key-lookup"; readonly columns: readonly string[]; readonly values: readonly BoundExpr[] }
  | { readonly kind: "unique-lookup"; readonly index: string; readonly columns: readonly string[]; readonly values: readonly BoundExpr[] }
  | { readonly kind: "index-lookup"; readonly index: string; readonly columns: readonly string[]; readonly values: readonly BoundExpr[] };

/**
 * How a joined source is matched against the rows so far. `outerKeys` are
 * expressions over earlier sources; `innerColumns` the matching columns of the
 * joined table.
 */
export type JoinStrategy =
  | { readonly kind: "index-nested-loop"; readonly index: string; readonly innerColumns: readonly string[]; readonly outerKeys: readonly BoundExpr[] }
  | { readonly kind: "hash"; readonly innerColumns: readonly string[]; readonly outerKeys: readonly BoundExpr[] }
  | { readonly kind: "nested-loop" };

export interface JoinStep {
  readonly type: "inner" | "left";
  readonly source: number;
  readonly strategy: JoinStrategy;
  /** The full ON condition, evaluated on each candidate pair (also after a key match, for residual terms). */
  readonly on: BoundExpr;
}

export interface OutputColumn {
  readonly name: string;
  readonly expr: BoundExpr;
}

export interface SortKey {
  readonly expr: BoundExpr;
  readonly direction: "asc" | "desc";
}

export interface SelectPlan {
  readonly kind: "select";
  readonly sources: readonly Source[];
  /** The path into `sources[0]`. */
  readonly access: AccessPath;
  readonly joins: readonly JoinStep[];
  /** Residual filter after the access path and joins (the whole WHERE; the access path only narrows). */
  readonly where?: BoundExpr;
  readonly orderBy: readonly SortKey[];
  readonly limit?: Count;
  readonly offset?: Count;
  readonly output: "objects" | "arrays";
  readonly columns: readonly OutputColumn[];
}

/** An insert value: a constant, a parameter slot, or the column's default (column omitted). */
export type InsertValue =
  | { readonly kind: "const"; readonly value: Value }
  | { readonly kind: "param"; readonly index: number }
  | { readonly kind: "default" };

export interface InsertPlan {
  readonly kind: "insert";
  readonly table: string;
  /** Full-width rows, in the table's declared column order. */
  readonly rows: readonly (readonly InsertValue[])[];
}

export interface Assignment {
  readonly column: string;
  /** Position of the column in the stored row. */
  readonly position: number;
  readonly value: { readonly kind: "const"; readonly value: Value } | { readonly kind: "param"; readonly index: number };
}

export interface UpdatePlan {
  readonly kind: "update";
  readonly table: string;
  readonly access: AccessPath;
  readonly where: BoundExpr;
  readonly set: readonly Assignment[];
}

export interface DeletePlan {
  readonly kind: "delete";
  readonly table: string;
  readonly access: AccessPath;
  readonly where: BoundExpr;
}

export interface CreateTablePlan {
  readonly kind: "create-table";
  /** The normalized schema, as `describe` will show it. */
  readonly schema: TableSchema;
  readonly ifNotExists: boolean;
}

export interface DropTablePlan {
  readonly kind: "drop-table";
  readonly table: string;
  readonly ifExists: boolean;
}

export type PlanNode = SelectPlan | InsertPlan | UpdatePlan | DeletePlan | CreateTablePlan | DropTablePlan;

/** A prepared plan: the statement and what each parameter slot must hold (`params.length` = placeholders). */
export interface Plan {
  readonly statement: PlanNode;
  readonly params: readonly ParamUse[];
}
