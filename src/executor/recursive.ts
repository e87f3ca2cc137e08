/**
 * Recursive tables at run time (`planner/bind-recursive.ts`), SQLite's
 * queue: the initial select's rows are queued; each row taken from the
 * queue is the table's next row, and the recursive selects run over it,
 * queuing what they yield. With UNION a row made before is not queued
 * again, so a walk round a cycle ends — it is dropped as the recursive
 * select makes it, never held, so a join making millions of repeats keeps
 * only the new rows; with UNION ALL every row is queued.
 *
 * The queue here is the table itself (`MadeRows`: row n is the n-th
 * queued) and a head, `next`: the rows before it have been run over. The
 * recursive selects run over a run of queued rows at once (a chunk, up to
 * `CHUNK` rows), which yields what running them over each row in turn
 * would, in the same order: a select driven from the rows it runs over
 * (`planner/recursive-drive.ts`) yields them row by row already, and
 * otherwise (several recursive selects, or one that could not be driven
 * so) each yielded row carries the id of the row it came from and they
 * are put in order by it, then select by select (`Recursion.tagged`). So
 * the rows, their order, which of them UNION keeps and which rows a LIMIT
 * keeps are SQLite's, and a step of a few rows pays for its select once,
 * not once per row.
 *
 * Rows are made as far as they are read, as SQLite's are: the table's own
 * LIMIT (with OFFSET) ends the recursion once that many rows are made, and
 * a reader that needs only its first rows (`wanted`: a LIMIT over a scan
 * of it) has it stop once those are made; a later reader of the same
 * execution goes on from there. A select run over a chunk yields at most
 * as many rows as can still be used — its first rows in queue order are
 * exact — so a fan-out of millions of rows is never made to keep a few;
 * a chunk cut short that way is run again, for twice as many, when more
 * are wanted.
 *
 * A recursion no LIMIT stops would run until memory runs out, on the event
 * loop every request shares: past `MAX_RECURSIVE_ROWS` rows, or
 * `MAX_RECURSIVE_TEXT` bytes of text, it is 400 `invalid_request`, naming
 * the table. Both are counted as rows are made, before the next is; so
 * are the rows one run makes, kept or dropped (`runChunk`).
 */

import type { ColumnType, Value } from "../commands/types.js";
import { StoreError } from "../errors.js";
import { MadeFor, type TableRows } from "./derived.js";
import { TooManyTuples } from "./join.js";
import { KeptHashes } from "./kept-hashes.js";
import { MadeRows } from "./made-rows.js";
import type { Stores, TableStore } from "./table-store.js";
import { rowKey } from "./value-order.js";

/** The most rows one recursive table may make in one execution (see docs/decisions.md). */
export const MAX_RECURSIVE_ROWS = 1_000_000;
/** The most text its rows may hold, in bytes: two per UTF-16 code unit, as a JavaScript string may take. */
export const MAX_RECURSIVE_TEXT = 256 * 1024 * 1024;

/** Queued rows the recursive selects run over at once, at most. */
const CHUNK = 4096;
/** Rows a run over a chunk may yield at least (so a run cut short is not run again for a few rows more). */
const MIN_RUN = 1024;

type Select = (stores: Stores, params: readonly Value[]) => readonly (readonly Value[])[];

/** A recursive select: at most `max` rows kept, each handed to `made` as it is made, which says whether to keep it. */
export interface RecursiveStep {
  readonly rows: (stores: Stores, params: readonly Value[], max: number, made: ((row: Value[]) => boolean) | undefined) => Value[][];
  /** Driven from the rows it runs over: it yields their rows in their order, so its first `max` are exact. */
  readonly driven: boolean;
}

export interface RecursionRun {
  /** The table's name as written, for the errors past the bounds. */
  readonly name: string;
  /** The plan name its recursive selects read the rows they run over by. */
  readonly working: string;
  readonly union: boolean;
  /** Each step's rows end with the id of the row they came from (`Recursion.tagged`). */
  readonly tagged: boolean;
  readonly initial: Select;
  readonly steps: readonly RecursiveStep[];
  /** The table's OFFSET and LIMIT for these parameters (`limit` undefined: none). */
  readonly bounds: (params: readonly Value[]) => { readonly offset: number; readonly limit: number | undefined };
}

export class RecursiveRows implements TableRows {
  private queue: Queue | undefined;
  private readonly made = new MadeFor();

  constructor(
    readonly name: string,
    private readonly types: readonly ColumnType[],
    private readonly run: RecursionRun,
    /** It reads the values of the subquery it stands in (`DerivedTable.correlated`): a new queue when they change. */
    private readonly correlated: boolean,
  ) {}

  end(): void {
    this.queue = undefined;
    this.made.end();
  }

  /** Whether every row is made: no more can come of asking again. */
  get complete(): boolean {
    return this.queue?.ended ?? false;
  }

  rows(stores: Stores, params: readonly Value[], wanted?: number): TableStore {
    const { offset, limit } = this.run.bounds(params);
    const cap = limit === undefined ? Infinity : offset + limit;
    if (this.correlated && !this.made.same(params)) this.queue = undefined;
    const queue = (this.queue ??= new Queue(this.types, this.run, stores, params));
    const goal = Math.min(cap, wanted === undefined ? Infinity : offset + wanted);
    // A reader of the first rows grows it up to the bound, and past it only when it asks again for more.
    queue.grow(wanted === undefined || queue.count >= MAX_RECURSIVE_ROWS ? Math.min(goal, MAX_RECURSIVE_ROWS + 1) : Math.min(goal, MAX_RECURSIVE_ROWS));
    // The table's own LIMIT reached: no reader can ask for more.
    if (queue.count >= cap) queue.ended = true;
    return queue.table(offset, Math.min(queue.count, cap));
  }
}

/** One execution's queue of a recursive table (see the header). */
class Queue {
  ended = false;
  private readonly made: MadeRows;
  /** The ids of the rows made, in order (1, 2, …), read as the table's rows. */
  private readonly ids: number[] = [];
  private readonly seen: Set<unknown> | undefined;
  private readonly width: number;
  private readonly textColumns: readonly number[];
  /** Bytes of text in the rows made. */
  private bytes = 0;
  /** The stores the recursive selects read: the chunk as the working table, every other table as `KeptHashes`. */
  private readonly over: Stores;
  private chunk: TableStore | undefined;
  /** The first queued row not yet run over. */
  private next = 1;
  /** The end (exclusive) of the chunk being run over, from `next`. */
  private chunkEnd = 1;
  /** The chunk's rows in queue order (first, the initial select's), `exact` of them for sure, `whole` when that is all. */
  private out: readonly (readonly Value[])[];
  private exact: number;
  private whole = true;
  /** How many of `out` are queued (or dropped by UNION). */
  private at = 0;
  /** Bytes of text in `out`'s first `at` rows: a run of the same chunk again makes them again, already counted. */
  private atBytes = 0;
  private last: { readonly from: number; readonly to: number; readonly store: TableStore } | undefined;

  constructor(
    types: readonly ColumnType[],
    private readonly run: RecursionRun,
    stores: Stores,
    private readonly params: readonly Value[],
  ) {
    this.width = types.length;
    this.made = new MadeRows(this.width, types, run.tagged);
    this.seen = run.union ? new Set() : undefined;
    this.textColumns = types.flatMap((type, c) => (type === "text" ? [c] : []));
    const kept = new Map<string, TableStore>();
    this.over = {
      store: (table) => {
        if (table === run.working) return this.chunk!;
        let store = kept.get(table);
        if (store === undefined) kept.set(table, (store = new KeptHashes(stores.store(table))));
        return store;
      },
    };
    this.out = run.initial(stores, params);
    this.exact = this.out.length;
  }

  get count(): number {
    return this.made.count;
  }

  /** The made rows `from` (0-based) to `to` (exclusive) as a table: the same store while they are the same rows. */
  table(from: number, to: number): TableStore {
    if (this.last?.from !== from || this.last.to !== to) {
      this.last = { from, to, store: this.made.view(this.ids.slice(from, to)) };
    }
    return this.last.store;
  }

  /** Queues rows until `target` are made or the queue is empty. */
  grow(target: number): void {
    while (this.made.count < target && !this.ended) {
      if (this.at >= this.exact) {
        if (this.whole) {
          if (this.chunkEnd > this.made.count) {
            this.ended = true;
            break;
          }
          // A chunk halved after some of its rows were queued: those past its end are the next chunk's first.
          this.at -= this.out.length;
          // Rows of the next chunk queued already (at > 0) are counted twice: the text bound is reached early, never late.
          this.atBytes = 0;
          this.next = this.chunkEnd;
          // No more queued rows than rows wanted: each yields none or more.
          this.chunkEnd = Math.min(this.made.count + 1, this.next + Math.min(CHUNK, target - this.made.count));
        }
        this.runChunk(target);
      }
      while (this.at < this.exact && this.made.count < target) this.add(this.out[this.at++]!);
    }
  }

  /**
   * Runs the recursive selects over the chunk, for as many rows (past those
   * queued) as `target` may still take. A join inside one that makes more
   * than the bound's worth of tuples, or a run that makes more than the
   * bound's worth of rows (most of them repeats UNION drops), halves the
   * chunk and runs again: the rows of its first half are the first rows of
   * the whole, in queue order.
   */
  private runChunk(target: number): void {
    for (;;) {
      try {
        this.runOnce(target);
        return;
      } catch (error) {
        if (!(error instanceof TooManyTuples)) throw error;
        if (this.chunkEnd - this.next === 1) throw this.overflow("one row");
        this.chunkEnd = this.next + Math.ceil((this.chunkEnd - this.next) / 2);
      }
    }
  }

  private runOnce(target: number): void {
    const { steps, tagged } = this.run;
    const ids: number[] = [];
    for (let id = this.next; id < this.chunkEnd; id++) ids.push(id);
    this.chunk = this.made.view(ids);
    const wanted = Math.min(target - this.made.count, MAX_RECURSIVE_ROWS + 1 - this.made.count);
    const seen = this.seen;
    // With UNION the rows queued already are dropped as they are made, so a run starts its `out` afresh; with UNION ALL it makes them again first.
    const at = seen === undefined ? this.at : 0;
    const max = at + Math.max(wanted, at, MIN_RUN);
    // Rows made this run, kept or not: repeats UNION drops cost time, not memory, but a run of one queued row is bounded all the same.
    let made = 0;
    // Untagged, rows are made in queue order, so the first of a repeat is the one queue order keeps; tagged, `add` decides among this run's.
    const kept = seen !== undefined && !tagged ? new Set<unknown>() : undefined;
    const before = this.bytes - (seen === undefined ? this.atBytes : 0);
    let text = 0;
    const keep = (row: Value[]): boolean => {
      if (++made > MAX_RECURSIVE_ROWS + 1) throw new TooManyTuples();
      if (seen !== undefined) {
        const key = this.keyOf(row);
        if (seen.has(key) || kept?.has(key)) return false;
        kept?.add(key);
      }
      if (this.textColumns.length > 0) {
        text += this.textOf(row);
        if (before + text > MAX_RECURSIVE_TEXT) throw this.overflow("text");
      }
      return true;
    };
    // UNION ALL without text keeps every row it makes, no more than `max`: nothing to check per row.
    const check = seen === undefined && this.textColumns.length === 0 ? undefined : keep;
    const outputs = steps.map((step) => {
      const rows = step.rows(this.over, this.params, step.driven ? max : MAX_RECURSIVE_ROWS + 1, check);
      if (!step.driven && rows.length > MAX_RECURSIVE_ROWS) throw this.overflow("rows");
      return rows;
    });
    this.chunk = undefined;
    const cut = steps.some((step, i) => step.driven && outputs[i]!.length === max);
    this.out = tagged ? this.inQueueOrder(outputs) : outputs[0]!;
    // Cut short, its first `max` rows in queue order are exact all the same: each select's first `max` are among them.
    this.exact = cut ? max : this.out.length;
    this.whole = !cut;
    if (seen !== undefined) {
      this.at = 0;
      this.atBytes = 0;
    }
  }

  /** Tagged rows in queue order: by the row they came from, then select by select. */
  private inQueueOrder(outputs: readonly Value[][][]): Value[][] {
    const byRow: Value[][][] = [];
    for (const rows of outputs) {
      for (const row of rows) {
        const at = (row[this.width] as number) - this.next;
        (byRow[at] ??= []).push(row);
      }
    }
    const out: Value[][] = [];
    for (const rows of byRow) if (rows !== undefined) for (const row of rows) out.push(row);
    return out;
  }

  /** Queues `row`, unless UNION has made it before. */
  private add(row: readonly Value[]): void {
    if (this.seen !== undefined) {
      const key = this.keyOf(row);
      if (this.seen.has(key)) return;
      this.seen.add(key);
    }
    if (this.made.count === MAX_RECURSIVE_ROWS) throw this.overflow("rows");
    if (this.textColumns.length > 0) {
      const bytes = this.textOf(row);
      this.bytes += bytes;
      this.atBytes += bytes;
      if (this.bytes > MAX_RECURSIVE_TEXT) throw this.overflow("text");
    }
    this.made.add(row);
    this.ids.push(this.made.count);
  }

  /** What UNION compares a row by: its columns, not the id a tagged row ends with. */
  private keyOf(row: readonly Value[]): unknown {
    return rowKey(row.length === this.width ? row : row.slice(0, this.width));
  }

  private textOf(row: readonly Value[]): number {
    let bytes = 0;
    for (const c of this.textColumns) {
      const v = row[c];
      if (typeof v === "string") bytes += 2 * v.length;
    }
    return bytes;
  }

  private overflow(what: "rows" | "one row" | "text"): StoreError {
    const bound = MAX_RECURSIVE_ROWS.toLocaleString("en-US");
    const made =
      what === "rows"
        ? `${bound} rows`
        : what === "one row"
          ? `${bound} rows or joined tuples from one queued row in one step (repeats UNION drops count too)`
          : `${MAX_RECURSIVE_TEXT / 1024 / 1024} MB of text`;
    return new StoreError(
      "invalid_request",
      `Recursive WITH table "${this.run.name}" made more than ${made}: end its recursion with a WHERE its recursive select stops at, UNION in place of UNION ALL for a walk that may come round again, or a LIMIT`,
    );
  }
}
