/**
 * How values order (CONTRACT §5): text by Unicode code point (not UTF-16
 * code unit, which puts U+E000–U+FFFF after astral characters), numbers
 * numerically with integer and real alike, `false` < `true`, and NULL below
 * everything (so it sorts first ascending and last descending).
 */

import type { Value } from "../commands/types.js";
import { StoreError } from "../errors.js";

/** Compares two strings by code point. */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unitOrder(x, y);
  }
  return a.length - b.length;
}

/** The order of two texts by code point, from their first differing UTF-16 units `x` and `y`. */
export function unitOrder(x: number, y: number): number {
  // A surrogate starts a code point above U+FFFF: it sorts after every BMP unit, U+E000–U+FFFF included.
  const xs = x >= 0xd800 && x <= 0xdfff;
  const ys = y >= 0xd800 && y <= 0xdfff;
  if (xs && !ys && y >= 0xe000) return 1;
  if (ys && !xs && x >= 0xe000) return -1;
  return x - y;
}

const RANK = { boolean: 1, number: 2, string: 3 } as const;

/** Total order over values: NULL first, then by type, then within the type. */
export function compareValues(a: Value, b: Value): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  const ta = typeof a as "boolean" | "number" | "string";
  const tb = typeof b as "boolean" | "number" | "string";
  if (ta !== tb) return RANK[ta] - RANK[tb];
  if (ta === "string") return compareText(a as string, b as string);
  if (ta === "number") return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
  return a === false ? -1 : 1;
}

/**
 * Compares two values whose types only arrive at run time (`? < ?`): the
 * same rules as typed comparisons, so text against a number or boolean is
 * `type_mismatch`, never a silent answer. Both are non-NULL here; their
 * types are unknown only when read from JSON (parameters are checked
 * before any row), so the message names JSON.
 */
export function compareUntyped(a: Value, b: Value): number {
  const family = (v: Value): string => (typeof v === "string" ? "text" : typeof v);
  if (family(a) !== family(b)) throw new StoreError("type_mismatch", `Cannot compare ${family(a)} with ${family(b)} (values read from JSON: CAST them, or filter with json_type)`);
  return compareValues(a, b);
}

/** What DISTINCT, the compound operators and a recursive table's UNION compare rows by: equal for rows `=` finds equal, NULLs equal. */
export function rowKey(row: readonly Value[]): unknown {
  return row.length === 1 ? row[0] : JSON.stringify(row);
}
