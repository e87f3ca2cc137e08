/** The result shapes of CONTRACT §6: what every surface returns for a command. */

import type { ProblemEntry } from "../errors.js";
import type { Plan } from "../planner/plan.js";
import type { TableSchema, Value } from "./types.js";

export interface RowsResult {
  readonly kind: "rows";
  readonly columns: readonly string[];
  /** Objects keyed in `columns` order, or arrays in `columns` order (`output: "arrays"`). */
  readonly rows: readonly (Readonly<Record<string, Value>> | readonly Value[])[];
  readonly rowCount: number;
}

export interface MutationResult {
  readonly kind: "mutation";
  readonly operation: "insert" | "update" | "delete" | "create-table" | "drop-table" | "create-index" | "drop-index" | "alter-table";
  /** The table written (its name after the command); empty for a drop-index `ifExists` that found no index. */
  readonly table: string;
  /** create-index and drop-index: the index. */
  readonly index?: string;
  readonly rowsAffected: number;
  /**
   * An insert with `onConflict`: rows inserted, rows updated instead, rows
   * skipped (`rowsAffected` is inserted + updated); with action `replace`,
   * `inserted` and `replaced` instead: rows inserted in place of the rows
   * they conflicted with (`rowsAffected` is inserted + replaced).
   */
  readonly inserted?: number;
  readonly updated?: number;
  readonly ignored?: number;
  readonly replaced?: number;
  /** With `returning`: the result columns, and one object per written row (new values; a delete's deleted rows). */
  readonly columns?: readonly string[];
  readonly rows?: readonly Readonly<Record<string, Value>>[];
}

export interface ValidationResult {
  readonly kind: "validation";
  readonly valid: boolean;
  readonly errors: readonly ProblemEntry[];
  /** A database on disk: its journal's change records not yet in the `.store` file, and its length in bytes. */
  readonly journal?: { readonly records: number; readonly bytes: number };
}

export interface SchemaResult {
  readonly kind: "schema";
  readonly tables: readonly TableSchema[];
}

export interface PlanResult {
  readonly kind: "plan";
  readonly plan: Plan;
}

export interface CheckpointResult {
  readonly kind: "checkpoint";
  /** Journal records folded into the `.store` file (0: there was nothing to fold). */
  readonly journalRecords: number;
}

/** A transaction's answer: one result per step, in order. */
export interface TransactionResult {
  readonly kind: "transaction";
  readonly results: readonly Result[];
}

export type Result = RowsResult | MutationResult | ValidationResult | SchemaResult | PlanResult | CheckpointResult | TransactionResult;
