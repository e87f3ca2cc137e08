/**
 * `(a, b) [NOT] IN ((x1, y1), (x2, y2), …)` when every listed value is a
 * constant or a parameter: the list as a `RowSet`, made on the first test
 * and again only for other parameter values (another parameter array: an
 * execution, or a run of the subquery the test is in), so each row value is
 * one lookup instead of an OR of every row's `=` (SQLite's `IN (VALUES …)`
 * is a table it probes too). Values are kept and probed as their collation
 * keys where a pair compares in a collation (`keys[i]`).
 */

import type { Value } from "../commands/types.js";
import type { BoundExpr } from "../planner/plan.js";
import { RowSet } from "./row-set.js";

/** A listed value this lookup takes: a constant or a parameter slot. */
export type ListedValue = Extract<BoundExpr, { kind: "const" | "param" }>;

export class RowList {
  private set: RowSet | undefined;
  /** The parameters `set` was made with (reading any). */
  private params: readonly Value[] | undefined;
  private readonly readsParams: boolean;
  private readonly keyed: (i: number, v: Value) => Value;

  constructor(
    private readonly rows: readonly (readonly ListedValue[])[],
    keys: readonly (((v: Value) => Value) | undefined)[],
  ) {
    this.readsParams = rows.some((row) => row.some((v) => v.kind === "param"));
    this.keyed = (i, v) => {
      const key = keys[i];
      return key === undefined ? v : key(v);
    };
  }

  /** TRUE, FALSE or NULL (`RowSet.test`) for `values`, keyed as the list's. */
  test(params: readonly Value[], values: readonly Value[]): boolean | null {
    let set = this.set;
    if (set === undefined || (this.readsParams && params !== this.params)) {
      set = new RowSet(values.length);
      const row: Value[] = [];
      for (const listed of this.rows) {
        row.length = 0;
        for (const v of listed) row.push(v.kind === "const" ? v.value : (params[v.index] ?? null));
        set.add(row, 0, this.keyed);
      }
      this.set = set;
      this.params = params;
    }
    return set.test(values);
  }
}
