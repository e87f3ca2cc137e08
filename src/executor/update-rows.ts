/**
 * What an update writes: the stored rows it replaces and each one's new
 * values, all found and computed before any row changes (so every SET and
 * WHERE, and their subqueries, read the tables as they were). The catalog's
 * one update path (`catalog/mutate.ts`, `applyUpdate`) then checks and
 * writes them, whichever way they were found:
 *
 * - a plain update: the table's access path and WHERE (`match.ts`), each
 *   row's new values computed over the row;
 * - UPDATE … FROM: the join of the FROM list's sources and, last, the table
 *   (`UpdatePlan.from`), run as a select's sources are (`joinTuples`). A
 *   table row several tuples hold takes its new values from the last of
 *   them in join order, whatever the plan (SQLite takes the last in its
 *   plan's order and calls the pick arbitrary); only one tuple per row is
 *   kept, so memory follows the rows updated, not the tuples joined. Rows
 *   are updated in table order, as SQLite's rowid-keyed pass does.
 */

import type { ColumnType, Value } from "../commands/types.js";
import type { UpdatePlan } from "../planner/plan.js";
import { compileAssignments } from "./assign.js";
import { matchThen, prepareMatch } from "./match.js";
import { joinTuples, prepareSelectIn, subqueryScope } from "./select.js";
import type { Tuple } from "./join.js";
import type { StoredRow, Stores, TableStore } from "./table-store.js";

/** The rows an update replaces, in table order, and their new values (`afters[i]` is `matched[i]`'s). */
export interface UpdateRows {
  readonly matched: StoredRow[];
  readonly afters: Value[][];
}

/** Finds an update's rows in `store` (the updated table); `orderOf` gives a row's place in table order. */
export type FindUpdateRows = (store: TableStore, params: readonly Value[], orderOf: (row: StoredRow) => number) => UpdateRows;

/**
 * Compiles an update's row finding once: `positionOf(table, column)` finds
 * a column's position, `types` are the updated table's column types, and
 * `stores` what the statement's subqueries and joins read.
 */
export function prepareUpdateRows(
  plan: UpdatePlan,
  positionOf: (table: string, column: string) => number,
  paramCount: number,
  types: readonly ColumnType[],
  stores: Stores,
): FindUpdateRows {
  const scope = subqueryScope(positionOf, paramCount);
  if (plan.from === undefined) {
    const match = prepareMatch(plan.access, plan.where, (column) => positionOf(plan.table, column), scope, stores);
    // SET shares the WHERE's subquery scope: its subqueries run while the WHERE's do.
    const assign = compileAssignments(plan.set, "row", types, scope.context, 0, plan.rows);
    return (store, params) => matchThen(match, store, params, (rows) => ({ matched: rows, afters: rows.map((row) => assign(row, params, store.heap.columns)) }));
  }
  const join = prepareSelectIn(plan.from, positionOf, scope);
  const target = plan.from.sources.length - 1;
  const assign = compileAssignments(plan.set, "tuple", types, scope.context, target, plan.rows);
  return (_store, params, orderOf) => {
    for (const runner of scope.runners) runner.begin?.(stores);
    try {
      const last = new Map<StoredRow, Tuple>();
      const heaps = joinTuples(join, stores, params, (tuple) => {
        last.set(tuple[target]!, tuple.slice());
      });
      const matched = [...last.keys()].sort((a, b) => orderOf(a) - orderOf(b));
      return { matched, afters: matched.map((row) => assign(last.get(row)!, params, heaps)) };
    } finally {
      for (const runner of scope.runners) runner.end();
    }
  };
}
