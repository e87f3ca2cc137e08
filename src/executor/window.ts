/**
 * The window stage (CONTRACT §11): each row the stage reads (a source row,
 * join tuple or group) becomes a window row — its carried values, then each
 * window call's value — computed over the row's partition.
 *
 * Calls of one window (equal PARTITION BY and ORDER BY) share one sort.
 * The windows are sorted last first, each a stable sort of the order the
 * one after it left, so rows leave in the first window's order with ties
 * in the next one's — the order SQLite's rows come in. A partition is a run
 * of rows with equal partition values (compared as `=` does, NULLs equal);
 * peers are rows of a partition with equal ORDER BY values (all its rows,
 * without ORDER BY).
 *
 * Ranking functions, ntile, lag and lead read the partition and the peers
 * (`window-layout.ts`); the value functions and aggregates read the frame:
 * positions `[start, end)` of the partition, less what EXCLUDE takes out.
 * An aggregate keeps its state from one row's frame to the next, adding
 * the rows that enter and, for count, sum and avg, taking out those that
 * leave; min and max keep a queue of candidates; group_concat starts over
 * when the frame's start moves, and with EXCLUDE every row's frame is
 * aggregated afresh; a FILTER makes the rows it refuses read as NULL,
 * which every aggregate skips. Aggregates follow the grouping's
 * semantics: count counts non-NULL values, sum of integers is an integer,
 * a real sum is compensated (Neumaier), min and max compare as ORDER BY.
 */

import type { Value } from "../commands/types.js";
import { StoreError, assertNever } from "../errors.js";
import type { OutputColumn, SortKey, WindowCall, Windowing } from "../planner/plan.js";
import { typeOf } from "../planner/static-types.js";
import { collationOf } from "../planner/collation.js";
import { compilePredicate, compileValue, type CompileContext, type RowMode } from "./codegen.js";
import { comparer } from "./collation.js";
import { keyOrder, sortSpec } from "./order.js";
import { compileProjection } from "./project.js";
import { WindowLayout } from "./window-layout.js";
import { compareUntyped, compareValues } from "./value-order.js";

/** The window rows of `items` (in the heaps `t`), in the first window's order. */
export type WindowFn = (items: readonly unknown[], p: readonly Value[], t: unknown) => Value[][];

type Fn = (r: unknown, p: readonly Value[], t: unknown) => Value;
type Test = (r: unknown, p: readonly Value[], t: unknown) => boolean;

interface PreparedCall {
  readonly call: WindowCall;
  /** Where its value goes in a window row. */
  readonly slot: number;
  readonly args: readonly Fn[];
  /** An aggregate's FILTER, IS TRUE of an item. */
  readonly filter: Test | undefined;
}

interface PreparedWindow {
  readonly partition: readonly Fn[];
  readonly order: readonly Fn[];
  readonly sortKeys: readonly SortKey[];
  readonly calls: PreparedCall[];
}

export function compileWindows(windowing: Windowing, mode: RowMode, context?: CompileContext): WindowFn {
  // Each window row is made whole at once, its calls' places NULL until computed: writing past an array's end would grow it row by row.
  const places: OutputColumn[] = windowing.calls.map((_, i) => ({ name: `w${i}`, expr: { kind: "const", value: null } }));
  const carry = compileProjection(
    [...windowing.carried.map((expr, i) => ({ name: String(i), expr })), ...places],
    "arrays",
    mode,
    context,
  ) as unknown as (r: unknown, p: readonly Value[], t: unknown) => Value[];
  const fn = (e: Parameters<typeof compileValue>[0]): Fn => compileValue(e, mode, context) as unknown as Fn;
  const windows = new Map<string, PreparedWindow>();
  windowing.calls.forEach((call, index) => {
    const key = JSON.stringify([call.partition, call.order]);
    let window = windows.get(key);
    if (window === undefined) {
      window = { partition: call.partition.map(fn), order: call.order.map((k) => fn(k.expr)), sortKeys: call.order, calls: [] };
      windows.set(key, window);
    }
    const filter = call.filter === undefined ? undefined : (compilePredicate(call.filter, mode, context) as unknown as Test);
    window.calls.push({ call, slot: windowing.carried.length + index, args: call.args.map(fn), filter });
  });
  const ordered = [...windows.values()].reverse();
  return (items, p, t) => {
    const n = items.length;
    const rows = new Array<Value[]>(n);
    for (let i = 0; i < n; i++) rows[i] = carry(items[i], p, t);
    let perm = Array.from({ length: n }, (_, i) => i);
    for (const window of ordered) perm = runWindow(window, items, p, t, perm, rows);
    return perm.map((i) => rows[i]!);
  };
}

/** Sorts `perm` by the window (ties kept in `perm`'s order) and writes its calls' values into `rows`; returns the new order. */
function runWindow(window: PreparedWindow, items: readonly unknown[], p: readonly Value[], t: unknown, perm: number[], rows: Value[][]): number[] {
  const column = (f: Fn): Value[] => {
    const values = new Array<Value>(items.length);
    for (let i = 0; i < items.length; i++) values[i] = f(items[i], p, t);
    return values;
  };
  const partition = window.partition.map(column);
  const order = window.order.map(column);
  // A partition's rows sorted by ORDER BY, ties in the order `perm` has them.
  const cmp = order.length === 0 ? undefined : keyOrder(order, window.sortKeys.map(sortSpec), placeOf(perm));
  const sortPart = (part: number[]): number[] => (cmp === undefined ? part : part.sort(cmp));
  const { sorted, starts } = partition.length === 0 ? { sorted: sortPart(perm.slice()), starts: [0, perm.length] } : partitioned(partition, perm, sortPart);
  const layout = new WindowLayout(sorted, starts, order, window.sortKeys, p);
  for (const c of window.calls) {
    const args = c.args.map(column);
    if (c.filter !== undefined) args[0] = filteredArgument(c.filter, args[0], items, p, t);
    callValues(c.call, args, layout, new Output(rows, sorted, c.slot));
  }
  return sorted;
}

/**
 * An aggregate's argument by item with its FILTER applied: NULL where the
 * filter is not true, which every frame aggregate skips (count(*)'s rows,
 * with no argument, are `true` where it is), so a frame whose rows all fail
 * it is aggregated as no rows.
 */
function filteredArgument(filter: Test, values: Value[] | undefined, items: readonly unknown[], p: readonly Value[], t: unknown): Value[] {
  const out = values ?? new Array<Value>(items.length);
  for (let i = 0; i < items.length; i++) {
    if (!filter(items[i], p, t)) out[i] = null;
    else if (values === undefined) out[i] = true;
  }
  return out;
}

/** Each item's position in `perm`: the tie-break that keeps the order before. */
function placeOf(perm: readonly number[]): Int32Array {
  const place = new Int32Array(perm.length);
  for (let pos = 0; pos < perm.length; pos++) place[perm[pos]!] = pos;
  return place;
}

/** Where a call's values go: the slot of each window row, by position. One class, so `set` is one call site V8 inlines. */
class Output {
  constructor(
    private readonly rows: Value[][],
    private readonly sorted: readonly number[],
    private readonly slot: number,
  ) {}

  set(pos: number, value: Value): void {
    this.rows[this.sorted[pos]!]![this.slot] = value;
  }
}

/**
 * The items of `perm` by partition — the partitions in the order of their
 * values (ascending, NULL first), as one sort by them would put them, each
 * partition's items in `perm`'s order then sorted by `sortPart` — and
 * where each partition starts (then the end). Hashing the rows into
 * partitions and sorting each on its own compares far fewer pairs than one
 * sort by both; the partitions are numbered, counted and laid out by
 * counting, with no object per partition.
 */
function partitioned(partition: readonly Value[][], perm: readonly number[], sortPart: (part: number[]) => number[]): { sorted: number[]; starts: number[] } {
  const n = perm.length;
  // Map keys compare as `=` does (1 and 1.0 one key, NULL one key); several columns key by their JSON.
  const single = partition.length === 1 ? partition[0]! : undefined;
  const numbers = new Map<unknown, number>();
  const first: number[] = [];
  const bucket = new Int32Array(n);
  for (const i of perm) {
    const key = single !== undefined ? single[i] : JSON.stringify(partition.map((values) => values[i]));
    let b = numbers.get(key);
    if (b === undefined) {
      b = first.push(i) - 1;
      numbers.set(key, b);
    }
    bucket[i] = b;
  }
  // The partitions in the order of their values: each by its first item's.
  const byValue = first
    .slice()
    .sort(keyOrder(partition, partition.map(() => ({ descending: false }))))
    .map((i) => bucket[i]!);
  const counts = new Int32Array(first.length);
  for (const i of perm) counts[bucket[i]!]!++;
  const offset = new Int32Array(first.length);
  const starts = [0];
  let at = 0;
  for (const b of byValue) {
    offset[b] = at;
    at += counts[b]!;
    starts.push(at);
  }
  const sorted = new Array<number>(n);
  for (const i of perm) sorted[offset[bucket[i]!]!++] = i;
  for (let k = 0; k + 1 < starts.length; k++) {
    const [from, to] = [starts[k]!, starts[k + 1]!];
    if (to - from < 2) continue;
    const part = sortPart(sorted.slice(from, to));
    for (let pos = from; pos < to; pos++) sorted[pos] = part[pos - from]!;
  }
  return { sorted, starts };
}

/** A call's value at each position of the window, into `out`. `args[k]` holds argument k by item. */
function callValues(call: WindowCall, args: readonly Value[][], layout: WindowLayout, out: Output): void {
  const { size, sorted, partStart, partEnd, group, groupStart, groupEnd } = layout;
  const arg = (k: number, pos: number): Value => args[k]![sorted[pos]!] as Value;
  switch (call.name) {
    case "row_number":
      for (let pos = 0; pos < size; pos++) out.set(pos, pos - partStart[pos]! + 1);
      return;
    case "rank":
      for (let pos = 0; pos < size; pos++) out.set(pos, groupStart[pos]! - partStart[pos]! + 1);
      return;
    case "dense_rank":
      for (let pos = 0; pos < size; pos++) out.set(pos, group[pos]! - group[partStart[pos]!]! + 1);
      return;
    case "percent_rank":
      for (let pos = 0; pos < size; pos++) {
        const rows = partEnd[pos]! - partStart[pos]!;
        out.set(pos, rows > 1 ? (groupStart[pos]! - partStart[pos]!) / (rows - 1) : 0);
      }
      return;
    case "cume_dist":
      for (let pos = 0; pos < size; pos++) out.set(pos, (groupEnd[pos]! - partStart[pos]!) / (partEnd[pos]! - partStart[pos]!));
      return;
    case "ntile":
      for (let k = 0; k + 1 < layout.starts.length; k++) {
        const [from, to] = [layout.starts[k]!, layout.starts[k + 1]!];
        // SQLite reads the bucket count at the partition's first row; the first `rows % n` buckets take one row more.
        const n = wholeArgument(arg(0, from), "ntile()'s argument", true);
        const rows = to - from;
        const small = Math.floor(rows / n);
        const large = rows % n;
        for (let pos = from; pos < to; pos++) {
          const i = pos - from;
          if (small === 0) out.set(pos, i + 1);
          else if (i < large * (small + 1)) out.set(pos, Math.floor(i / (small + 1)) + 1);
          else out.set(pos, Math.floor((i - large * (small + 1)) / small) + large + 1);
        }
      }
      return;
    case "lag":
    case "lead": {
      const sign = call.name === "lag" ? -1 : 1;
      for (let pos = 0; pos < size; pos++) {
        const offset = args.length > 1 ? arg(1, pos) : 1;
        // A NULL or fractional offset reads no row (SQLite answers NULL); a negative one looks the other way.
        if (typeof offset !== "number" || !Number.isInteger(offset)) out.set(pos, null);
        else {
          const j = pos + sign * offset;
          out.set(pos, j >= partStart[pos]! && j < partEnd[pos]! ? arg(0, j) : args.length > 2 ? arg(2, pos) : null);
        }
      }
      return;
    }
    case "first_value":
    case "last_value":
    case "nth_value":
      return valueAt(call, args, layout, out);
    case "count":
    case "sum":
    case "total":
    case "avg":
    case "min":
    case "max":
    case "group_concat":
      return aggregateValues(call, args[0], layout, out);
    default:
      return assertNever(call.name, "window function");
  }
}

/** first_value, last_value and nth_value: the argument at one row of the frame, NULL where it has none. */
function valueAt(call: WindowCall, args: readonly Value[][], layout: WindowLayout, out: Output): void {
  const arg = (k: number, pos: number): Value => args[k]![layout.sorted[pos]!] as Value;
  const { starts, ends } = layout.frames(call.frame);
  for (let pos = 0; pos < layout.size; pos++) {
    const [from, to] = [starts[pos]!, ends[pos]!];
    let wanted = call.name === "nth_value" ? wholeArgument(arg(1, pos), "nth_value()'s second argument", false) : 1;
    if (call.frame.exclude === "no others") {
      // Every row of the frame counts: the one wanted is found by position.
      const j = call.name === "last_value" ? to - 1 : from + wanted - 1;
      out.set(pos, j >= from && j < to ? arg(0, j) : null);
      continue;
    }
    let value: Value = null;
    if (call.name === "last_value") {
      for (let j = to - 1; j >= from; j--) {
        if (layout.excluded(call.frame, pos, j)) continue;
        value = arg(0, j);
        break;
      }
    } else {
      for (let j = from; j < to; j++) {
        if (layout.excluded(call.frame, pos, j)) continue;
        if (--wanted === 0) {
          value = arg(0, j);
          break;
        }
      }
    }
    out.set(pos, value);
  }
}

/** A positive whole number from a value (ntile truncates a fraction, as SQLite does; nth_value refuses it), else 400. */
function wholeArgument(value: Value, what: string, truncate: boolean): number {
  const n = typeof value === "number" && truncate ? Math.trunc(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 1) throw new StoreError("invalid_request", `${what} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

/** An aggregate's running state over a frame; `remove` only where taking a value out is exact enough (count, sum, avg). */
interface Accumulator {
  reset(): void;
  add(v: Value): void;
  readonly remove: ((v: Value) => void) | undefined;
  value(): Value;
}

class CountState implements Accumulator {
  private n = 0;
  reset(): void {
    this.n = 0;
  }
  add(v: Value): void {
    if (v !== null) this.n++;
  }
  readonly remove = (v: Value): void => {
    if (v !== null) this.n--;
  };
  value(): Value {
    return this.n;
  }
}

/** sum, total and avg; a sum of reals (or of numbers not known to be integers) is compensated as the grouping's. */
class SumState implements Accumulator {
  private n = 0;
  private sum = 0;
  private c = 0;
  constructor(
    private readonly name: "sum" | "total" | "avg",
    private readonly compensated: boolean,
  ) {}
  reset(): void {
    this.n = this.sum = this.c = 0;
  }
  private plus(v: number): void {
    if (!this.compensated) {
      this.sum += v;
      return;
    }
    // Neumaier's compensation.
    const t = this.sum + v;
    this.c += Math.abs(this.sum) >= Math.abs(v) ? this.sum - t + v : v - t + this.sum;
    this.sum = t;
  }
  add(v: Value): void {
    if (v === null) return;
    this.plus(v as number);
    this.n++;
  }
  readonly remove = (v: Value): void => {
    if (v === null) return;
    this.plus(-(v as number));
    this.n--;
  };
  value(): Value {
    if (this.n === 0) return this.name === "total" ? 0 : null;
    return this.name === "avg" ? (this.sum + this.c) / this.n : this.sum + this.c;
  }
}

class ConcatState implements Accumulator {
  private parts: string[] = [];
  constructor(private readonly separator: string) {}
  reset(): void {
    this.parts = [];
  }
  add(v: Value): void {
    if (v !== null) this.parts.push(v as string);
  }
  readonly remove = undefined;
  value(): Value {
    return this.parts.length === 0 ? null : this.parts.join(this.separator);
  }
}

/** min or max aggregated afresh (with EXCLUDE): the sliding form is `extremes`. */
class ExtremeState implements Accumulator {
  private best: Value = null;
  constructor(
    private readonly sign: number,
    private readonly compare: (a: Value, b: Value) => number,
  ) {}
  reset(): void {
    this.best = null;
  }
  add(v: Value): void {
    if (v !== null && (this.best === null || this.compare(v, this.best) * this.sign > 0)) this.best = v;
  }
  readonly remove = undefined;
  value(): Value {
    return this.best;
  }
}

/**
 * How min/max compare: a value typed only when read (JSON) by its family,
 * so text against a number is `type_mismatch` as in the grouped min/max,
 * never SQLite's silent order of text after numbers.
 */
function comparerOf(call: WindowCall): (a: Value, b: Value) => number {
  // Texts in the argument's own collation (`max(x COLLATE nocase) OVER …`).
  const collation = call.args[0] === undefined ? undefined : collationOf(call.args[0]);
  if (collation !== undefined) return comparer(collation);
  return call.args[0] !== undefined && typeOf(call.args[0]) === "unknown" ? compareUntyped : compareValues;
}

function accumulator(call: WindowCall): Accumulator {
  switch (call.name) {
    case "count":
      return new CountState();
    case "sum":
    case "total":
    case "avg":
      return new SumState(call.name, call.name !== "sum" || call.args[0] === undefined || typeOf(call.args[0]) !== "integer");
    case "min":
    case "max":
      return new ExtremeState(call.name === "min" ? -1 : 1, comparerOf(call));
    case "group_concat":
      return new ConcatState(call.separator ?? ",");
    default:
      throw new StoreError("internal_error", `${call.name}() is no aggregate`);
  }
}

/**
 * An aggregate over each position's frame: within a partition the frame
 * only moves on, so the state keeps what stays in it — rows that enter are
 * added, rows that leave taken out where the aggregate can (else it starts
 * over). `values` by item; absent for `count(*)`, which counts rows.
 */
function aggregateValues(call: WindowCall, values: readonly Value[] | undefined, layout: WindowLayout, out: Output): void {
  const value = (pos: number): Value => (values === undefined ? true : (values[layout.sorted[pos]!] as Value));
  const { starts, ends } = layout.frames(call.frame);
  if ((call.name === "min" || call.name === "max") && call.frame.exclude === "no others") return extremes(call.name, value, layout, starts, ends, out, comparerOf(call));
  const acc = accumulator(call);
  let from = 0;
  let to = 0;
  for (let pos = 0; pos < layout.size; pos++) {
    const start = starts[pos]!;
    const end = ends[pos]!;
    if (call.frame.exclude !== "no others") {
      acc.reset();
      for (let j = start; j < end; j++) if (!layout.excluded(call.frame, pos, j)) acc.add(value(j));
      out.set(pos, acc.value());
      continue;
    }
    const remove = acc.remove;
    if (pos === layout.partStart[pos] || start < from || end < to || start >= to || (start > from && remove === undefined)) {
      acc.reset();
      from = to = start;
    }
    for (; from < start; from++) remove!(value(from));
    for (to = Math.max(to, start); to < end; to++) acc.add(value(to));
    out.set(pos, acc.value());
  }
}

/**
 * min or max over frames that only move on: a queue of the positions that
 * may still be the extreme (each better than the ones after it), so a
 * sliding frame costs O(1) a row, not its width.
 */
function extremes(name: "min" | "max", value: (pos: number) => Value, layout: WindowLayout, starts: Int32Array, ends: Int32Array, out: Output, compare: (a: Value, b: Value) => number): void {
  const sign = name === "min" ? -1 : 1;
  const queue: number[] = [];
  let head = 0;
  let to = 0;
  for (let pos = 0; pos < layout.size; pos++) {
    const start = starts[pos]!;
    const end = ends[pos]!;
    if (pos === layout.partStart[pos] || start < starts[pos - 1]! || end < ends[pos - 1]!) {
      // A new partition (or a frame that moved back, which none of today's do) starts the queue over.
      queue.length = head = 0;
      to = start;
    }
    for (to = Math.max(to, start); to < end; to++) {
      const v = value(to);
      if (v === null) continue;
      // A value at least as good as the last queued one outlives it in every later frame.
      while (queue.length > head && compare(v, value(queue[queue.length - 1]!)) * sign >= 0) queue.pop();
      queue.push(to);
    }
    while (head < queue.length && queue[head]! < start) head++;
    out.set(pos, head < queue.length && queue[head]! < end ? value(queue[head]!) : null);
  }
}
