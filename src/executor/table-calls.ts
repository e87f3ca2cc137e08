/**
 * A statement's table function calls at run time (`planner/bind-call.ts`),
 * read as its derived tables are (`TableRows`): an uncorrelated call's
 * rows are made when first read and kept while its arguments stay the
 * same — a subquery run per row of an enclosing query makes them again
 * only when the values it reads there change; a lateral call's store
 * starts empty at each execution and its join adds each tuple's rows
 * (`join.ts`, strategy `lateral`).
 */

import type { Value } from "../commands/types.js";
import type { TableCall } from "../planner/plan.js";
import type { ValueFn } from "./codegen.js";
import type { TableRows } from "./derived.js";
import { JsonTable, type ColumnSet } from "./json-table.js";
import type { Column, TableStore } from "./table-store.js";

type Arg = (r: unknown, p: readonly Value[], t: readonly Column[]) => Value;

const NO_COLUMNS: readonly Column[] = Object.freeze([]);

export class CallRows implements TableRows {
  private store: JsonTable | undefined;
  private doc: Value = null;
  private path: Value | undefined;

  /** `args`: an uncorrelated call's arguments, compiled over no row (a lateral call's are its join's); `read`: the columns its statement reads. */
  constructor(
    readonly name: string,
    private readonly call: TableCall,
    args: readonly ValueFn[],
    private readonly read: ColumnSet,
  ) {
    this.args = args as unknown as readonly Arg[];
  }

  private readonly args: readonly Arg[];

  end(): void {
    this.store = undefined;
  }

  rows(_stores: unknown, params: readonly Value[]): TableStore {
    if (this.call.lateral) return (this.store ??= new JsonTable(this.call.name, true, this.read));
    const doc = this.args[0]!(0, params, NO_COLUMNS);
    const path = this.args.length > 1 ? this.args[1]!(0, params, NO_COLUMNS) : undefined;
    if (this.store !== undefined && doc === this.doc && path === this.path) return this.store;
    const store = new JsonTable(this.call.name, false, this.read);
    store.rows = store.add(doc, path);
    this.store = store;
    this.doc = doc;
    this.path = path;
    return store;
  }
}
