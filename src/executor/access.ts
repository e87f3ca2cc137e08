/** Reaches the rows of a plan's first table by its chosen access path. */

import type { Value } from "../commands/types.js";
import { PRIMARY_KEY_NAME } from "../planner/table-info.js";
import { StoreError, assertNever } from "../errors.js";
import type { AccessPath, BoundExpr } from "../planner/plan.js";
import type { StoredRow, TableStore } from "./table-store.js";

/** A lookup key part: a constant or a parameter's value. */
function keyValue(e: BoundExpr, params: readonly Value[]): Value {
  if (e.kind === "const") return e.value;
  if (e.kind === "param") return params[e.index] ?? null;
  throw new StoreError("internal_error", "A lookup key must be a constant or a parameter");
}

export function accessRows(path: AccessPath, store: TableStore, params: readonly Value[]): readonly StoredRow[] {
  switch (path.kind) {
    case "scan":
      return store.rows;
    case "primary-key-lookup":
      return store.lookup(PRIMARY_KEY_NAME, path.values.map((v) => keyValue(v, params)));
    case "unique-lookup":
    case "index-lookup":
      return store.lookup(path.index, path.values.map((v) => keyValue(v, params)));
    default:
      return assertNever(path, "access path");
  }
}
