/**
 * Turns a `KeyRange` into the two monotone predicates an ordered index
 * walks with: `before(key)` (the key sorts before every key of the range)
 * and `after(key)` (it sorts after every one). Keys order as ORDER BY does
 * (`compareValues`: NULL first, text by code point); a composite key is an
 * array compared column by column.
 *
 * Texts starting with a prefix are one contiguous run in that order (it is
 * lexicographic), starting at the prefix itself, so a prefix needs no
 * computed upper bound: a key is past the run once it is above the prefix
 * without starting with it.
 */

import type { Value } from "../commands/types.js";
import { compareText, compareValues } from "../executor/index.js";
import type { KeyRange } from "../executor/table-store.js";

export interface KeyWalk {
  readonly before: (key: unknown) => boolean;
  readonly after: (key: unknown) => boolean;
}

/** Orders composite keys (arrays of column values) column by column. */
export function compareKeys(a: readonly Value[], b: readonly Value[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareValues(a[i] as Value, b[i] as Value);
    if (c !== 0) return c;
  }
  return 0;
}

/** The predicates of `range` over keys of `width` columns (width 1: a key is the value itself). */
export function keyWalk(range: KeyRange, width: number): KeyWalk {
  const { equal, lower, upper, prefix } = range;
  const m = equal.length;
  const column = (key: unknown, i: number): Value => (width === 1 ? (key as Value) : ((key as Value[])[i] as Value));
  const leading = (key: unknown): number => {
    for (let i = 0; i < m; i++) {
      const c = compareValues(column(key, i), equal[i] as Value);
      if (c !== 0) return c;
    }
    return 0;
  };
  const bounded = lower !== undefined || upper !== undefined || prefix !== undefined;
  const belowStart = (v: Value): boolean => {
    if (lower !== undefined) {
      const c = compareValues(v, lower.value);
      return c < 0 || (c === 0 && !lower.inclusive);
    }
    if (prefix !== undefined) return typeof v !== "string" || compareText(v, prefix) < 0;
    return bounded && v === null;
  };
  const pastEnd = (v: Value): boolean => {
    if (upper !== undefined) {
      const c = compareValues(v, upper.value);
      return c > 0 || (c === 0 && !upper.inclusive);
    }
    if (prefix !== undefined) return typeof v === "string" && compareText(v, prefix) > 0 && !v.startsWith(prefix);
    return false;
  };
  return {
    before(key) {
      const c = leading(key);
      if (c !== 0 || m === width) return c < 0;
      return belowStart(column(key, m));
    },
    after(key) {
      const c = leading(key);
      if (c !== 0 || m === width) return c > 0;
      return pastEnd(column(key, m));
    },
  };
}
