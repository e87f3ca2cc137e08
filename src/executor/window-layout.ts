/**
 * Where each row of a sorted window stands: its partition, its peer group
 * and, for a frame, the positions it reads. Positions are indexes into the
 * window's sorted rows (all partitions, one after the other); every table
 * here is one typed array for the whole window, so a window of a hundred
 * thousand one-row partitions costs no more than one partition of a
 * hundred thousand rows.
 */

import type { Value } from "../commands/types.js";
import { assertNever } from "../errors.js";
import type { FrameBound, SortKey, WindowFrame } from "../planner/plan.js";
import { compareValues } from "./value-order.js";

/** Whether items `a` and `b` hold equal values (as `=` finds them, NULLs equal) in every column. */
function equalKeys(columns: readonly (readonly Value[])[], a: number, b: number): boolean {
  for (const values of columns) if (compareValues(values[a] as Value, values[b] as Value) !== 0) return false;
  return true;
}

export class WindowLayout {
  readonly size: number;
  /** Per position: the first position of its partition, and the one after its last. */
  readonly partStart: Int32Array;
  readonly partEnd: Int32Array;
  /** Per position: its peer group's number (counted across partitions), first position and end. */
  readonly group: Int32Array;
  readonly groupStart: Int32Array;
  readonly groupEnd: Int32Array;
  /** Per peer group number: its first position; one more entry, the size. */
  readonly groupFirst: Int32Array;

  /**
   * `sorted`: the items in window order; `starts`: where each partition
   * starts (then the size); `order`: the ORDER BY values by item;
   * `params`: the statement's values (a frame's offset may be one).
   */
  constructor(
    readonly sorted: readonly number[],
    readonly starts: readonly number[],
    private readonly order: readonly (readonly Value[])[],
    private readonly sortKeys: readonly SortKey[],
    private readonly params: readonly Value[],
  ) {
    const size = sorted.length;
    this.size = size;
    this.partStart = new Int32Array(size);
    this.partEnd = new Int32Array(size);
    this.group = new Int32Array(size);
    this.groupStart = new Int32Array(size);
    this.groupEnd = new Int32Array(size);
    const firsts: number[] = [];
    for (let k = 0; k + 1 < starts.length; k++) {
      const [from, to] = [starts[k]!, starts[k + 1]!];
      for (let pos = from; pos < to; pos++) {
        this.partStart[pos] = from;
        this.partEnd[pos] = to;
        if (pos === from || !equalKeys(order, sorted[pos - 1]!, sorted[pos]!)) firsts.push(pos);
        this.group[pos] = firsts.length - 1;
        this.groupStart[pos] = firsts[firsts.length - 1]!;
      }
    }
    firsts.push(size);
    this.groupFirst = Int32Array.from(firsts);
    for (let pos = 0; pos < size; pos++) this.groupEnd[pos] = this.groupFirst[this.group[pos]! + 1]!;
  }

  /** Each position's frame: `[starts[i], ends[i])`, empty when the end is not after the start. Both only move on within a partition. */
  frames(frame: WindowFrame): { readonly starts: Int32Array; readonly ends: Int32Array } {
    return { starts: this.bounds(frame, frame.start, true), ends: this.bounds(frame, frame.end, false) };
  }

  private bounds(frame: WindowFrame, bound: FrameBound, isStart: boolean): Int32Array {
    const size = this.size;
    switch (bound.kind) {
      case "unbounded-preceding":
        return this.partStart;
      case "unbounded-following":
        return this.partEnd;
      case "current-row":
        if (frame.units !== "rows") return isStart ? this.groupStart : this.groupEnd;
        return Int32Array.from({ length: size }, (_, i) => (isStart ? i : i + 1));
      case "preceding":
      case "following": {
        // A parameter's value was checked when the statement's values were bound (a number ≥ 0).
        const distance = typeof bound.offset === "number" ? bound.offset : (this.params[bound.offset.index] as number);
        const offset = bound.kind === "preceding" ? -distance : distance;
        const out = new Int32Array(size);
        switch (frame.units) {
          case "rows":
            for (let i = 0; i < size; i++) out[i] = Math.min(Math.max(i + offset + (isStart ? 0 : 1), this.partStart[i]!), this.partEnd[i]!);
            return out;
          case "groups":
            for (let i = 0; i < size; i++) {
              const g = this.group[i]! + offset;
              const first = this.group[this.partStart[i]!]!;
              const last = this.group[this.partEnd[i]! - 1]!;
              out[i] = g < first ? this.partStart[i]! : g > last ? this.partEnd[i]! : this.groupFirst[isStart ? g : g + 1]!;
            }
            return out;
          case "range":
            for (let k = 0; k + 1 < this.starts.length; k++) this.rangeBounds(this.starts[k]!, this.starts[k + 1]!, offset, isStart, out);
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
   * RANGE `offset` (negative: PRECEDING) from each position of the
   * partition `[from, to)`: the first position whose ORDER BY value lies at
   * or beyond `value + offset` in the sort's direction (`isStart`), or past
   * it (the end). The values are sorted, so the target only moves on and
   * one sweep finds every bound. A NULL value's frame is its peers, as in
   * SQLite; other rows never reach the NULLs, which sort before or after
   * all of them.
   */
  private rangeBounds(from: number, to: number, offset: number, isStart: boolean, out: Int32Array): void {
    const values = this.order[0]!;
    const at = (pos: number): Value => values[this.sorted[pos]!] as Value;
    let lo = from;
    let hi = to;
    while (lo < hi && at(lo) === null) lo++;
    while (hi > lo && at(hi - 1) === null) hi--;
    for (let pos = from; pos < lo; pos++) out[pos] = isStart ? this.groupStart[pos]! : this.groupEnd[pos]!;
    for (let pos = hi; pos < to; pos++) out[pos] = isStart ? this.groupStart[pos]! : this.groupEnd[pos]!;
    const descending = this.sortKeys[0]!.direction === "desc";
    let p = lo;
    for (let pos = lo; pos < hi; pos++) {
      const v = at(pos) as number;
      const target = descending ? v - offset : v + offset;
      for (; p < hi; p++) {
        const x = at(p) as number;
        const before = (descending ? x > target : x < target) || (!isStart && x === target);
        if (!before) break;
      }
      out[pos] = p;
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
