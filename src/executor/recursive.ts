/**
 * Recursive tables at run time (`planner/bind-recursive.ts`): the initial
 * select's rows, then step after step the recursive selects run over the
 * rows the step before added (read as the plan's working table), until a
 * step adds none. With UNION a row made before is not added again, so a
 * walk round a cycle ends; with UNION ALL every row is added.
 *
 * SQLite keeps a queue and runs the recursive selects once per row taken
 * from it; a FIFO queue takes every row of one step before any of the
 * next, so running them once per step over all of its rows makes the same
 * rows, step by step — the order within a step is the order the recursive
 * selects yield them, one select after the other — and a join in a
 * recursive select hashes a step's rows at once rather than one at a time.
 *
 * Rows are made as far as they are read, as SQLite's are: the table's own
 * LIMIT (with OFFSET) ends the recursion once that many rows are made, and
 * a select that needs only the first rows of it (`wanted`: a LIMIT over a
 * scan of it) has it stop once those are made; a later reader of the same
 * execution goes on from there. A recursion no LIMIT stops would run until
 * memory runs out, on the event loop every request shares: past
 * `MAX_RECURSIVE_ROWS` rows it is 400 `invalid_request`, naming the table.
 */

import type { ColumnType, Value } from "../commands/types.js";
import { StoreError } from "../errors.js";
import { DerivedStore, type TableRows } from "./derived.js";
import type { Stores, TableStore } from "./table-store.js";
import { rowKey } from "./value-order.js";

/** The most rows one recursive table may make in one execution (see docs/decisions.md). */
export const MAX_RECURSIVE_ROWS = 1_000_000;

type Select = (stores: Stores, params: readonly Value[]) => readonly (readonly Value[])[];

export interface RecursionRun {
  /** The table's name as written, for the error past the bound. */
  readonly name: string;
  /** The plan name its recursive selects read the step before's rows by. */
  readonly working: string;
  readonly union: boolean;
  readonly initial: Select;
  readonly steps: readonly Select[];
  /** The table's OFFSET and LIMIT for these parameters (`limit` undefined: none). */
  readonly bounds: (params: readonly Value[]) => { readonly offset: number; readonly limit: number | undefined };
}

export class RecursiveRows implements TableRows {
  /** Every row made so far, in order. */
  private made: (readonly Value[])[] = [];
  /** The rows the last step added, which the next runs over; undefined before the initial select ran. */
  private last: (readonly Value[])[] | undefined;
  /** With UNION: the keys of the rows made. */
  private seen: Set<unknown> | undefined;
  private ended = false;
  private store: { readonly rows: number; readonly store: TableStore } | undefined;

  constructor(
    readonly name: string,
    private readonly types: readonly ColumnType[],
    private readonly run: RecursionRun,
  ) {}

  begin(): void {}

  end(): void {
    this.made = [];
    this.last = undefined;
    this.seen = undefined;
    this.ended = false;
    this.store = undefined;
  }

  /** Whether every row is made: no more can come of asking again. */
  get complete(): boolean {
    return this.ended;
  }

  rows(stores: Stores, params: readonly Value[], wanted?: number): TableStore {
    const { offset, limit } = this.run.bounds(params);
    const cap = limit === undefined ? Infinity : offset + limit;
    this.grow(stores, params, Math.min(cap, wanted === undefined ? Infinity : offset + wanted), cap);
    const end = Math.min(this.made.length, cap);
    if (this.store?.rows !== end) this.store = { rows: end, store: new DerivedStore(this.made.slice(offset, end), this.types) };
    return this.store.store;
  }

  /** Makes rows until `target` are made or a step adds none; never more than `cap`. */
  private grow(stores: Stores, params: readonly Value[], target: number, cap: number): void {
    if (this.last === undefined) {
      this.seen = this.run.union ? new Set() : undefined;
      this.last = this.add(this.run.initial(stores, params), cap);
    }
    while (!this.ended && this.made.length < target) {
      if (this.last.length === 0) {
        this.ended = true;
        break;
      }
      const before = new DerivedStore(this.last, this.types);
      const working = this.run.working;
      const over: Stores = { store: (table) => (table === working ? before : stores.store(table)) };
      const added: (readonly Value[])[] = [];
      for (const step of this.run.steps) for (const row of this.add(step(over, params), cap)) added.push(row);
      this.last = added;
    }
    // The table's own LIMIT reached: no reader can ask for more.
    if (this.made.length >= cap) this.ended = true;
  }

  /** The rows of `rows` that are added (with UNION, the new ones), up to `cap` made in all. */
  private add(rows: readonly (readonly Value[])[], cap: number): (readonly Value[])[] {
    const added: (readonly Value[])[] = [];
    for (const row of rows) {
      if (this.made.length >= cap) break;
      if (this.seen !== undefined) {
        const key = rowKey(row);
        if (this.seen.has(key)) continue;
        this.seen.add(key);
      }
      if (this.made.length === MAX_RECURSIVE_ROWS) {
        throw new StoreError("invalid_request", `Recursive WITH table "${this.run.name}" made more than ${MAX_RECURSIVE_ROWS.toLocaleString("en-US")} rows: end its recursion with a WHERE its recursive select stops at, UNION in place of UNION ALL for a walk that may come round again, or a LIMIT`);
      }
      this.made.push(row);
      added.push(row);
    }
    return added;
  }
}
