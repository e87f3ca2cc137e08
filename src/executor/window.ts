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
import type { SortKey, WindowCall, WindowFrame, Windowing } from "../planner/plan.js";
import { typeOf } from "../planner/static-types.js";
import { compileValue, type CompileContext, type RowMode } from "./codegen.js";
import { orderItems } from "./order.js";
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
  const carry = compileProjection(
    windowing.carried.map((expr, i) => ({ name: String(i), expr })),
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

/** Sorts `perm` by the window and writes its calls' values into `rows`; returns the new order. */
function runWindow(window: PreparedWindow, items: readonly unknown[], p: readonly Value[], t: unknown, perm: number[], rows: Value[][]): number[] {
  const column = (f: Fn): Value[] => items.map((item) => f(item, p, t));
  const partition = window.partition.map(column);
  const order = window.order.map(column);
  const specs = [
    ...partition.map((values) => ({ key: (i: number) => values[i] as Value, descending: false })),
    ...order.map((values, k) => {
      const key = window.sortKeys[k]!;
      return { key: (i: number) => values[i] as Value, descending: key.direction === "desc", ...(key.nulls === undefined ? {} : { nulls: key.nulls }) };
    }),
  ];
  const sorted = specs.length === 0 ? perm : orderItems(perm, specs);
  const same = (columns: Value[][], a: number, b: number): boolean => columns.every((values) => compareValues(values[a] as Value, values[b] as Value) === 0);
  const args = window.calls.map((c) => c.args.map(column));
  const n = sorted.length;
  let start = 0;
  while (start < n) {
    let end = start + 1;
    while (end < n && same(partition, sorted[start]!, sorted[end]!)) end++;
    const part = new Partition(sorted, start, end, order, window.sortKeys, same);
    window.calls.forEach((c, k) => {
      const values = callValues(c.call, args[k]!, part);
      for (let pos = start; pos < end; pos++) rows[sorted[pos]!]![c.slot] = values[pos - start]!;
    });
    start = end;
  }
  return sorted;
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
    same: (columns: Value[][], a: number, b: number) => boolean,
  ) {
    const size = end - start;
    this.size = size;
    this.group = new Int32Array(size);
    this.groupStart = new Int32Array(size);
    this.groupEnd = new Int32Array(size);
    let g = -1;
    for (let i = 0; i < size; i++) {
      if (i === 0 || !same(order, perm[start + i - 1]!, perm[start + i]!)) this.groupStarts.push(i), g++;
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

  /** The frame of position `i`: `[from, to)`, empty when `to <= from`. */
  frame(frame: WindowFrame, i: number): [number, number] {
    return [this.bound(frame, frame.start, i, true), this.bound(frame, frame.end, i, false)];
  }

  private bound(frame: WindowFrame, bound: WindowFrame["start"], i: number, isStart: boolean): number {
    switch (bound.kind) {
      case "unbounded-preceding":
        return 0;
      case "unbounded-following":
        return this.size;
      case "current-row":
        if (frame.units === "rows") return isStart ? i : i + 1;
        return isStart ? this.groupStart[i]! : this.groupEnd[i]!;
      case "preceding":
      case "following": {
        const sign = bound.kind === "preceding" ? -1 : 1;
        switch (frame.units) {
          case "rows":
            return clamp(i + sign * bound.offset + (isStart ? 0 : 1), this.size);
          case "groups": {
            const g = this.group[i]! + sign * bound.offset;
            const groups = this.groupStarts.length - 1;
            if (isStart) return g < 0 ? 0 : g >= groups ? this.size : this.groupStarts[g]!;
            return g < 0 ? 0 : g >= groups ? this.size : this.groupStarts[g + 1]!;
          }
          case "range":
            return this.rangeBound(i, sign * bound.offset, isStart);
          default:
            return assertNever(frame.units, "frame units");
        }
      }
      default:
        return assertNever(bound, "frame bound");
    }
  }

  /**
   * RANGE `offset` from position `i` (negative: PRECEDING): the first
   * position whose ORDER BY value lies at or beyond `value + offset` in the
   * sort's direction (`isStart`), or past it (the end). A NULL value's
   * frame is its peers, as in SQLite; other rows never reach the NULLs.
   */
  private rangeBound(i: number, offset: number, isStart: boolean): number {
    const values = this.order[0]!;
    const v = values[this.item(i)] as number | null;
    if (v === null) return isStart ? this.groupStart[i]! : this.groupEnd[i]!;
    const descending = this.sortKeys[0]!.direction === "desc";
    const target = descending ? v - offset : v + offset;
    let [lo, hi] = (this.valued ??= this.valuedRun(values));
    const before = (x: number): boolean => (descending ? x > target : x < target) || (!isStart && x === target);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(values[this.item(mid)] as number)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The positions whose ORDER BY value is not NULL: sorted, with the NULLs before or after them. */
  private valued: [number, number] | undefined;

  private valuedRun(values: readonly Value[]): [number, number] {
    let lo = 0;
    let hi = this.size;
    while (lo < this.size && values[this.item(lo)] === null) lo++;
    while (hi > lo && values[this.item(hi - 1)] === null) hi--;
    return [lo, hi];
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
      for (let i = 0; i < size; i++) {
        const [from, to] = part.frame(call.frame, i);
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
  let acc = accumulator(call);
  let [from, to] = [0, 0];
  for (let i = 0; i < size; i++) {
    const [start, end] = part.frame(call.frame, i);
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
