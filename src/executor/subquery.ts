/**
 * Running subqueries (CONTRACT §11): a scalar `(SELECT …)`, `EXISTS` and
 * `IN (SELECT …)`, by the strategy the planner chose (`SubqueryStrategy`).
 *
 * A runner sits in the compiled code's constants: the enclosing query's code
 * calls it with the statement's parameters and the subquery's outer values
 * for the row at hand. The subquery's plan reads those outer values as
 * parameters after the statement's own (`base` onwards), so it is compiled
 * and run like any select. Answers are kept for one execution of the
 * enclosing statement, between `begin` and `end` (the data may change
 * between executions, and a cached plan should not hold a large answer):
 * `once` computes its answer on first use, `per-row` keeps one
 * answer per distinct combination of outer values, `hashed` runs its
 * decorrelated plan once into a hash table the outer values are looked up
 * in (a semi-join).
 *
 * IN follows SQL's three-valued logic: TRUE when the value is among the
 * subquery's, else NULL when the value is NULL (and the subquery not empty)
 * or a subquery value is NULL, else FALSE. An IN with a collation keeps
 * and looks up the collation keys of the values. A row value's IN keeps its
 * rows in a `RowSet` (`row-set.ts`), with the same rules pair by pair.
 *
 * A scalar subquery's answer is its row (a `subquery` node reads one
 * column of it); a row subquery's (`row-subquery`) is that row whole, read
 * once into the compiled code, whose `row-column`s take its values.
 */

import type { RowsResult } from "../commands/results.js";
import type { Value } from "../commands/types.js";
import { StoreError } from "../errors.js";
import type { BoundExpr, RowSubquery } from "../planner/plan.js";
import { collationKey } from "./collation.js";
import { RowSet } from "./row-set.js";
import type { Stores } from "./table-store.js";

export type SubqueryNode = Extract<BoundExpr, { kind: "subquery" | "exists" | "in-subquery" }> | RowSubquery;

/** Runs a prepared select (the executor's `runSelect`, handed in so this module needs no import of it). */
export type RunPlan = (stores: Stores, params: readonly Value[]) => RowsResult;

/** The values an IN subquery selected. */
interface ValueSet {
  readonly values: Set<Value>;
  hasNull: boolean;
}

/** A scalar subquery's row (none: no values), EXISTS's flag, an IN's values or rows. */
type Answer = readonly Value[] | boolean | ValueSet | RowSet;

const NO_VALUES: ValueSet = Object.freeze({ values: new Set<Value>(), hasNull: false }) as ValueSet;
const NO_ROW: readonly Value[] = Object.freeze([]);

function keyOf(values: readonly Value[]): unknown {
  return values.length === 1 ? values[0] : JSON.stringify(values);
}

export class SubqueryRunner {
  private stores: Stores | undefined;
  private once: { answer: Answer } | undefined;
  private readonly memo = new Map<unknown, Answer>();
  /** `hashed`: answers by key of the inner values. */
  private table: Map<unknown, Answer> | undefined;
  /** An IN's values as kept and looked up: themselves, or their collation keys (`keys[i]` for column i; `key` the first's). */
  private readonly key: (v: Value) => Value;
  private readonly keys: readonly ((v: Value) => Value)[];
  /** An IN's number of columns: more than one is a row value's. */
  private readonly width: number;
  /** Value `v` of column `i` as a `RowSet` keeps it. */
  private readonly keyed = (i: number, v: Value): Value => this.keys[i]!(v);

  constructor(
    private readonly node: SubqueryNode,
    private readonly run: RunPlan,
    /** The statement's parameter count: outer values follow. */
    private readonly base: number,
  ) {
    const collations = node.kind === "in-subquery" ? node.collations : undefined;
    this.width = node.kind === "in-subquery" ? node.exprs.length : 1;
    this.keys = Array.from({ length: this.width }, (_, i) => {
      const collation = collations?.[i] ?? null;
      return collation === null ? same : collationKey(collation);
    });
    this.key = this.keys[0]!;
  }

  /** Starts an execution of the enclosing statement. */
  begin(stores: Stores): void {
    this.stores = stores;
  }

  /** Ends it: its answers are stale once the data changes, and a cached plan must not hold them. */
  end(): void {
    this.stores = undefined;
    this.once = undefined;
    this.memo.clear();
    this.table = undefined;
  }

  /** Column `column` of a scalar subquery's row, NULL for no row. */
  scalar(params: readonly Value[], outer: readonly Value[], column: number): Value {
    return (this.answer(params, outer) as readonly Value[])[column] ?? null;
  }

  /** A row subquery's one row (no values for none: each reads as NULL). */
  row(params: readonly Value[], outer: readonly Value[]): readonly Value[] {
    return this.answer(params, outer) as readonly Value[];
  }

  exists(params: readonly Value[], outer: readonly Value[]): boolean {
    const yes = this.answer(params, outer) === true;
    return this.node.kind === "exists" && this.node.not ? !yes : yes;
  }

  /** `x [NOT] IN (subquery)`. */
  contains(params: readonly Value[], x: Value, outer: readonly Value[]): boolean | null {
    const set = this.answer(params, outer) as ValueSet;
    let result: boolean | null;
    if (set.values.size === 0 && !set.hasNull) result = false;
    else if (x === null) result = null;
    else if (set.values.has(this.key(x))) result = true;
    else result = set.hasNull ? null : false;
    return this.node.kind === "in-subquery" && this.node.not && result !== null ? !result : result;
  }

  /**
   * `(x1, x2, …) [NOT] IN (subquery)`: `values` the row value's values, in
   * a scratch array the compiled code fills for each call, keyed here in place.
   */
  containsRow(params: readonly Value[], values: Value[], outer: readonly Value[]): boolean | null {
    const set = this.answer(params, outer) as ValueSet | RowSet;
    const not = this.node.kind === "in-subquery" && this.node.not;
    // The hashed strategy's miss (`NO_VALUES`): no row.
    if (!(set instanceof RowSet)) return not;
    for (let i = 0; i < this.width; i++) {
      const v = values[i]!;
      if (v !== null) values[i] = this.keys[i]!(v);
    }
    const result = set.test(values);
    return not && result !== null ? !result : result;
  }

  /** The non-NULL values of an uncorrelated IN subquery of binary collation (NULL matches no key). */
  inValues(params: readonly Value[]): ReadonlySet<Value> {
    if (this.node.kind !== "in-subquery" || this.node.strategy.kind !== "once" || this.node.collations !== undefined || this.width !== 1) throw new StoreError("internal_error", "Only an uncorrelated IN subquery of binary collation has one set of values to look up");
    return (this.answer(params, []) as ValueSet).values;
  }

  private answer(params: readonly Value[], outer: readonly Value[]): Answer {
    const strategy = this.node.strategy;
    switch (strategy.kind) {
      case "once":
        if (this.once === undefined) this.once = { answer: this.compute(this.rows(params, outer)) };
        return this.once.answer;
      case "per-row": {
        const key = keyOf(outer);
        let answer = this.memo.get(key);
        if (answer === undefined && !this.memo.has(key)) {
          answer = this.compute(this.rows(params, outer));
          this.memo.set(key, answer);
        }
        return answer as Answer;
      }
      case "hashed": {
        const keys = strategy.outerKeys.map((k) => outer[k] ?? null);
        // `inner = NULL` is never TRUE: no row matches.
        if (keys.includes(null)) return this.node.kind === "exists" ? false : NO_VALUES;
        return this.hashTable(params, strategy.keys).get(keyOf(keys)) ?? (this.node.kind === "exists" ? false : NO_VALUES);
      }
    }
  }

  /** The decorrelated plan's rows, once, by the key of their first `keys` columns (a NULL key never matches). */
  private hashTable(params: readonly Value[], keys: number): Map<unknown, Answer> {
    if (this.table !== undefined) return this.table;
    const table = new Map<unknown, Answer>();
    for (const row of this.rows(params, [])) {
      const inner = row.slice(0, keys);
      if (inner.includes(null)) continue;
      const key = keyOf(inner);
      if (this.node.kind === "exists") table.set(key, true);
      else if (this.width > 1) {
        let set = table.get(key) as RowSet | undefined;
        if (set === undefined) table.set(key, (set = new RowSet(this.width)));
        set.add(row, keys, this.keyed);
      } else {
        let set = table.get(key) as ValueSet | undefined;
        if (set === undefined) table.set(key, (set = { values: new Set(), hasNull: false }));
        add(set, this.key(row[keys] ?? null));
      }
    }
    this.table = table;
    return table;
  }

  private rows(params: readonly Value[], outer: readonly Value[]): Value[][] {
    if (this.stores === undefined) throw new StoreError("internal_error", "A subquery ran outside an execution");
    const all = outer.length === 0 ? params : [...params.slice(0, this.base), ...outer];
    return this.run(this.stores, all).rows as Value[][];
  }

  private compute(rows: Value[][]): Answer {
    switch (this.node.kind) {
      case "subquery":
      case "row-subquery":
        if (rows.length > 1) throw new StoreError("invalid_request", `A subquery used as a value returned ${rows.length} rows; it may return one at most`);
        return rows[0] ?? NO_ROW;
      case "exists":
        return rows.length > 0;
      case "in-subquery": {
        if (this.width > 1) {
          const set = new RowSet(this.width);
          for (const row of rows) set.add(row, 0, this.keyed);
          return set;
        }
        const set: ValueSet = { values: new Set(), hasNull: false };
        for (const row of rows) add(set, this.key(row[0] ?? null));
        return set;
      }
    }
  }
}

function same(v: Value): Value {
  return v;
}

function add(set: ValueSet, v: Value): void {
  if (v === null) set.hasNull = true;
  else set.values.add(v);
}
