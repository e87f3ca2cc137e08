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
 * Ranking functions, ntile, lag and lead read the partition and the peers;
 * the value functions and aggregates read the frame: positions `[start,
 * end)` of the partition, less what EXCLUDE takes out. An aggregate keeps
 * its state from one row's frame to the next, adding the rows that enter
 * and, for count, sum and avg, taking out those that leave (min, max and
 * group_concat start over when the frame's start moves; with EXCLUDE every
 * row's frame is aggregated afresh). Aggregates follow the grouping's
 * semantics: count counts non-NULL values, sum of integers is an integer,
 * a real sum is compensated (Neumaier), min and max compare as ORDER BY.
 */

import type { Value } from "../commands/types.js";
import { StoreError, assertNever } from "../errors.js";
import type { OutputColumn, SortKey, WindowCall, WindowFrame, Windowing } from "../planner/plan.js";
import { typeOf } from "../planner/static-types.js";
import { compileValue, type CompileContext, type RowMode } from "./codegen.js";
import { keyOrder } from "./order.js";
import { compileProjection } from "./project.js";
import { compareValues } from "./value-order.js";

/** The window rows of `items` (in the heaps `t`), in the first window's order. */
export type WindowFn = (items: readonly unknown[], p: readonly Value[], t: unknown) => Value[][];

type Fn = (r: unknown, p: readonly Value[], t: unknown) => Value;

interface PreparedCall {
  readonly call: WindowCall;
  /** Where its value goes in a window row. */
  readonly slot: number;
  readonly args: readonly Fn[];
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
    window.calls.push({ call, slot: windowing.carried.length + index, args: call.args.map(fn) });
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
  const place = new Int32Array(perm.length);
  for (let pos = 0; pos < perm.length; pos++) place[perm[pos]!] = pos;
  const specs = window.sortKeys.map((k) => ({ descending: k.direction === "desc", ...(k.nulls === undefined ? {} : { nulls: k.nulls }) }));
  // A partition's rows sorted by ORDER BY, ties in the order `perm` has them.
  const cmp = order.length === 0 ? undefined : keyOrder(order, specs, place);
  const sortPart = (part: number[]): number[] => (cmp === undefined ? part : part.sort(cmp));
  const { sorted, starts } = partition.length === 0 ? { sorted: sortPart(perm.slice()), starts: [0, perm.length] } : partitioned(partition, perm, sortPart);
  const args = window.calls.map((c) => c.args.map(column));
  for (let k = 0; k + 1 < starts.length; k++) {
    const [start, end] = [starts[k]!, starts[k + 1]!];
    const part = new Partition(sorted, start, end, order, window.sortKeys);
    window.calls.forEach((c, j) => {
      const values = callValues(c.call, args[j]!, part);
      for (let pos = start; pos < end; pos++) rows[sorted[pos]!]![c.slot] = values[pos - start]!;
    });
  }
  return sorted;
}

/**
 * The items of `perm` by partition — the partitions in the order of their
 * values (ascending, NULL first), as one sort by them would put them — each
 * partition's items sorted by `sortPart`; and where each partition starts
 * (then the end). Hashing the rows into partitions and sorting each on its
 * own compares far fewer pairs than one sort by both.
 */
function partitioned(partition: readonly Value[][], perm: readonly number[], sortPart: (part: number[]) => number[]): { sorted: number[]; starts: number[] } {
  // Map keys compare as `=` does (1 and 1.0 one key, NULL one key); several columns key by their JSON.
  const single = partition.length === 1 ? partition[0]! : undefined;
  const buckets = new Map<unknown, { readonly values: Value[]; readonly items: number[] }>();
  for (const i of perm) {
    const key = single !== undefined ? single[i] : JSON.stringify(partition.map((values) => values[i]));
    let bucket = buckets.get(key);
    if (bucket === undefined) {
      bucket = { values: partition.map((values) => values[i] as Value), items: [] };
      buckets.set(key, bucket);
    }
    bucket.items.push(i);
  }
  const list = [...buckets.values()].sort((a, b) => {
    for (let k = 0; k < a.values.length; k++) {
      const c = compareValues(a.values[k] as Value, b.values[k] as Value);
      if (c !== 0) return c;
    }
    return 0;
  });
  const sorted = new Array<number>(perm.length);
  const starts = [0];
  let at = 0;
  for (const bucket of list) {
    for (const i of sortPart(bucket.items)) sorted[at++] = i;
    starts.push(at);
  }
  return { sorted, starts };
}

/** Whether items `a` and `b` hold equal values (as `=` finds them, NULLs equal) in every column. */
function equalKeys(columns: readonly Value[][], a: number, b: number): boolean {
  for (const values of columns) if (compareValues(values[a] as Value, values[b] as Value) !== 0) return false;
  return true;
}

/** One partition: positions `[start, end)` of `perm`, with its peer groups. */
class Partition {
  readonly size: number;
  /** Per position (from the partition's start): its peer group's number, first and end position. */
  readonly group: Int32Array;
  readonly groupStart: Int32Array;
  readonly groupEnd: Int32Array;
  /** Per peer group number: its first position; one more entry, the partition's size. */
  readonly groupStarts: number[] = [];

  constructor(
    readonly perm: readonly number[],
    readonly start: number,
    end: number,
    private readonly order: Value[][],
    private readonly sortKeys: readonly SortKey[],
  ) {
    const size = end - start;
    this.size = size;
    this.group = new Int32Array(size);
    this.groupStart = new Int32Array(size);
    this.groupEnd = new Int32Array(size);
    let g = -1;
    for (let i = 0; i < size; i++) {
      if (i === 0 || !equalKeys(order, perm[start + i - 1]!, perm[start + i]!)) this.groupStarts.push(i), g++;
      this.group[i] = g;
      this.groupStart[i] = this.groupStarts[g]!;
    }
    this.groupStarts.push(size);
    for (let i = 0; i < size; i++) this.groupEnd[i] = this.groupStarts[this.group[i]! + 1]!;
  }

  /** The item at position `i` of the partition. */
  item(i: number): number {
    return this.perm[this.start + i]!;
  }

  /** Each position's frame: `[starts[i], ends[i])`, empty when the end is not after the start. */
  frames(frame: WindowFrame): { readonly starts: Int32Array; readonly ends: Int32Array } {
    return { starts: this.bounds(frame, frame.start, true), ends: this.bounds(frame, frame.end, false) };
  }

  private bounds(frame: WindowFrame, bound: WindowFrame["start"], isStart: boolean): Int32Array {
    const size = this.size;
    const out = new Int32Array(size);
    switch (bound.kind) {
      case "unbounded-preceding":
        return out;
      case "unbounded-following":
        return out.fill(size);
      case "current-row":
        if (frame.units === "rows") for (let i = 0; i < size; i++) out[i] = isStart ? i : i + 1;
        else out.set(isStart ? this.groupStart : this.groupEnd);
        return out;
      case "preceding":
      case "following": {
        const offset = bound.kind === "preceding" ? -bound.offset : bound.offset;
        switch (frame.units) {
          case "rows":
            for (let i = 0; i < size; i++) out[i] = clamp(i + offset + (isStart ? 0 : 1), size);
            return out;
          case "groups": {
            const groups = this.groupStarts.length - 1;
            for (let i = 0; i < size; i++) {
              const g = this.group[i]! + offset;
              out[i] = g < 0 ? 0 : g >= groups ? size : this.groupStarts[isStart ? g : g + 1]!;
            }
            return out;
          }
          case "range":
            this.rangeBounds(offset, isStart, out);
            return out;
          default:
            return assertNever(frame.units, "frame units");
        }
      }
      default:
        return assertNever(bound, "frame bound");
    }
  }

  /**
   * RANGE `offset` (negative: PRECEDING) from each position: the first
   * position whose ORDER BY value lies at or beyond `value + offset` in the
   * sort's direction (`isStart`), or past it (the end). The values are
   * sorted, so the target only moves on and one sweep finds every bound. A
   * NULL value's frame is its peers, as in SQLite; other rows never reach
   * the NULLs, which sort before or after all of them.
   */
  private rangeBounds(offset: number, isStart: boolean, out: Int32Array): void {
    const values = this.order[0]!;
    const at = (i: number): Value => values[this.perm[this.start + i]!] as Value;
    let lo = 0;
    let hi = this.size;
    while (lo < hi && at(lo) === null) lo++;
    while (hi > lo && at(hi - 1) === null) hi--;
    for (let i = 0; i < lo; i++) out[i] = isStart ? this.groupStart[i]! : this.groupEnd[i]!;
    for (let i = hi; i < this.size; i++) out[i] = isStart ? this.groupStart[i]! : this.groupEnd[i]!;
    const descending = this.sortKeys[0]!.direction === "desc";
    let p = lo;
    for (let i = lo; i < hi; i++) {
      const v = at(i) as number;
      const target = descending ? v - offset : v + offset;
      for (; p < hi; p++) {
        const x = at(p) as number;
        const before = (descending ? x > target : x < target) || (!isStart && x === target);
        if (!before) break;
      }
      out[i] = p;
    }
  }

  /** Whether EXCLUDE takes position `j` out of position `i`'s frame. */
  excluded(frame: WindowFrame, i: number, j: number): boolean {
    switch (frame.exclude) {
      case "no others":
        return false;
      case "current row":
        return j === i;
      case "group":
        return this.group[j] === this.group[i];
      case "ties":
        return j !== i && this.group[j] === this.group[i];
      default:
        return assertNever(frame.exclude, "frame exclusion");
    }
  }
}

function clamp(x: number, size: number): number {
  return x < 0 ? 0 : x > size ? size : x;
}

/** A call's value at each position of the partition. */
function callValues(call: WindowCall, args: readonly Value[][], part: Partition): Value[] {
  const size = part.size;
  const out = new Array<Value>(size);
  const arg = (k: number, i: number): Value => args[k]![part.item(i)] as Value;
  switch (call.name) {
    case "row_number":
      for (let i = 0; i < size; i++) out[i] = i + 1;
      return out;
    case "rank":
      for (let i = 0; i < size; i++) out[i] = part.groupStart[i]! + 1;
      return out;
    case "dense_rank":
      for (let i = 0; i < size; i++) out[i] = part.group[i]! + 1;
      return out;
    case "percent_rank":
      for (let i = 0; i < size; i++) out[i] = size > 1 ? part.groupStart[i]! / (size - 1) : 0;
      return out;
    case "cume_dist":
      for (let i = 0; i < size; i++) out[i] = part.groupEnd[i]! / size;
      return out;
    case "ntile": {
      // SQLite reads the bucket count at the partition's first row; the first `size % n` buckets take one row more.
      const n = wholeArgument(arg(0, 0), "ntile()'s argument", true);
      const small = Math.floor(size / n);
      const large = size % n;
      for (let i = 0; i < size; i++) {
        if (small === 0) out[i] = i + 1;
        else if (i < large * (small + 1)) out[i] = Math.floor(i / (small + 1)) + 1;
        else out[i] = Math.floor((i - large * (small + 1)) / small) + large + 1;
      }
      return out;
    }
    case "lag":
    case "lead": {
      const sign = call.name === "lag" ? -1 : 1;
      for (let i = 0; i < size; i++) {
        const offset = args.length > 1 ? arg(1, i) : 1;
        // A NULL or fractional offset reads no row (SQLite answers NULL); a negative one looks the other way.
        if (typeof offset !== "number" || !Number.isInteger(offset)) out[i] = null;
        else {
          const j = i + sign * offset;
          out[i] = j >= 0 && j < size ? arg(0, j) : args.length > 2 ? arg(2, i) : null;
        }
      }
      return out;
    }
    case "first_value":
    case "last_value":
    case "nth_value": {
      const { starts, ends } = part.frames(call.frame);
      for (let i = 0; i < size; i++) {
        const [from, to] = [starts[i]!, ends[i]!];
        let wanted = call.name === "nth_value" ? wholeArgument(arg(1, i), "nth_value()'s second argument", false) : 1;
        out[i] = null;
        if (call.name === "last_value") {
          for (let j = to - 1; j >= from; j--) {
            if (part.excluded(call.frame, i, j)) continue;
            out[i] = arg(0, j);
            break;
          }
          continue;
        }
        for (let j = from; j < to; j++) {
          if (part.excluded(call.frame, i, j)) continue;
          if (--wanted === 0) {
            out[i] = arg(0, j);
            break;
          }
        }
      }
      return out;
    }
    case "count":
    case "sum":
    case "avg":
    case "min":
    case "max":
    case "group_concat":
      return aggregateValues(call, args[0], part);
    default:
      return assertNever(call.name, "window function");
  }
}

/** A positive whole number from a value (ntile truncates a fraction, as SQLite does; nth_value refuses it), else 400. */
function wholeArgument(value: Value, what: string, truncate: boolean): number {
  const n = typeof value === "number" && truncate ? Math.trunc(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 1) throw new StoreError("invalid_request", `${what} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

/** An aggregate's running state over a frame. `remove` only where taking a value out is exact enough (count, sum, avg). */
interface Accumulator {
  add(v: Value): void;
  remove?(v: Value): void;
  value(): Value;
}

function accumulator(call: WindowCall): Accumulator {
  const argType = call.args[0] === undefined ? "integer" : typeOf(call.args[0]);
  switch (call.name) {
    case "count": {
      let n = 0;
      // count(*) counts rows: its values are all `true`.
      return { add: (v) => void (v !== null && n++), remove: (v) => void (v !== null && n--), value: () => n };
    }
    case "sum":
    case "avg": {
      let n = 0;
      let sum = 0;
      let c = 0;
      const compensated = argType !== "integer";
      const add = (v: number): void => {
        if (!compensated) sum += v;
        else {
          // Neumaier's compensation, as the grouping's real sums.
          const t = sum + v;
          c += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
          sum = t;
        }
      };
      return {
        add: (v) => void (v !== null && (add(v as number), n++)),
        remove: (v) => void (v !== null && (add(-(v as number)), n--)),
        value: () => (n === 0 ? null : call.name === "sum" ? sum + c : (sum + c) / n),
      };
    }
    case "min":
    case "max": {
      let best: Value = null;
      const sign = call.name === "min" ? -1 : 1;
      return { add: (v) => void (v !== null && (best === null || compareValues(v, best) * sign > 0) && (best = v)), value: () => best };
    }
    case "group_concat": {
      const parts: string[] = [];
      return { add: (v) => void (v !== null && parts.push(v as string)), value: () => (parts.length === 0 ? null : parts.join(call.separator ?? ",")) };
    }
    default:
      throw new StoreError("internal_error", `${call.name}() is no aggregate`);
  }
}

/** An aggregate over each position's frame: incremental while the frame only moves forward. */
function aggregateValues(call: WindowCall, values: readonly Value[] | undefined, part: Partition): Value[] {
  const size = part.size;
  const out = new Array<Value>(size);
  const value = (j: number): Value => (values === undefined ? true : (values[part.item(j)] as Value));
  const { starts, ends } = part.frames(call.frame);
  if ((call.name === "min" || call.name === "max") && call.frame.exclude === "no others") return extremes(call.name, value, starts, ends, out);
  let acc = accumulator(call);
  let [from, to] = [0, 0];
  for (let i = 0; i < size; i++) {
    const start = starts[i]!;
    const end = ends[i]!;
    if (call.frame.exclude !== "no others") {
      acc = accumulator(call);
      for (let j = start; j < end; j++) if (!part.excluded(call.frame, i, j)) acc.add(value(j));
      out[i] = acc.value();
      continue;
    }
    const remove = acc.remove;
    if (start < from || end < to || start >= to || (start > from && remove === undefined)) {
      acc = accumulator(call);
      from = to = start;
    }
    for (; from < start; from++) remove!(value(from));
    for (to = Math.max(to, start); to < end; to++) acc.add(value(to));
    out[i] = acc.value();
  }
  return out;
}

/**
 * min or max over frames whose ends only move forward: a queue of the
 * positions that may still be the extreme (each better than the ones
 * after it), so a sliding frame costs O(1) a row, not its width.
 */
function extremes(name: "min" | "max", value: (j: number) => Value, starts: Int32Array, ends: Int32Array, out: Value[]): Value[] {
  const sign = name === "min" ? -1 : 1;
  const queue: number[] = [];
  let head = 0;
  let to = 0;
  for (let i = 0; i < out.length; i++) {
    const start = starts[i]!;
    if (i > 0 && (start < starts[i - 1]! || ends[i]! < ends[i - 1]!)) {
      // A frame that moved back (none of today's frames do) starts the queue over.
      queue.length = head = 0;
      to = start;
    }
    for (to = Math.max(to, start); to < ends[i]!; to++) {
      const v = value(to);
      if (v === null) continue;
      // A value at least as good as the last queued one outlives it in every later frame.
      while (queue.length > head && compareValues(v, value(queue[queue.length - 1]!)) * sign >= 0) queue.pop();
      queue.push(to);
    }
    while (head < queue.length && queue[head]! < start) head++;
    out[i] = head < queue.length && queue[head]! < ends[i]! ? value(queue[head]!) : null;
  }
  return out;
}
