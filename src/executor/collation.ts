/**
 * SQLite's NOCASE and RTRIM collations at run time: how two texts compare
 * in one, and the key a text hashes by in one (two texts are equal in the
 * collation exactly when their keys are equal), for GROUP BY, DISTINCT,
 * the compound operators, IN lists and subqueries. Which collation applies
 * where is the planner's (`planner/collation.ts`); binary is the plain
 * order of `value-order.ts` and never comes here.
 *
 * NOCASE folds ASCII letters only, to lower case (so `'_' < 'a'` holds as
 * in SQLite, and `'Ä'` is not `'ä'`); RTRIM ignores trailing spaces
 * (U+0020 only). Comparisons walk the texts in place: no text is built per
 * row; keys are built only for texts that change.
 */

import type { Value } from "../commands/types.js";
import type { TextCollation } from "../planner/plan.js";
import { compareUntyped, compareValues, rowKey, unitOrder } from "./value-order.js";

/** Two texts in NOCASE: as if every ASCII upper-case letter were lower case. */
export function compareNocase(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 65 && x <= 90) x += 32;
    if (y >= 65 && y <= 90) y += 32;
    if (x !== y) return unitOrder(x, y);
  }
  return a.length - b.length;
}

/** The length of `s` without its trailing spaces. */
function trimmedLength(s: string): number {
  let n = s.length;
  while (n > 0 && s.charCodeAt(n - 1) === 32) n--;
  return n;
}

/** Two texts in RTRIM: as if neither had trailing spaces. */
export function compareRtrim(a: string, b: string): number {
  if (a === b) return 0;
  const m = trimmedLength(a);
  const n = trimmedLength(b);
  const k = Math.min(m, n);
  for (let i = 0; i < k; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unitOrder(x, y);
  }
  return m - n;
}

const TEXT_ORDER: Record<TextCollation, (a: string, b: string) => number> = { nocase: compareNocase, rtrim: compareRtrim };

function nocaseKey(v: Value): Value {
  return typeof v === "string" && /[A-Z]/.test(v) ? v.replace(/[A-Z]+/g, (s) => s.toLowerCase()) : v;
}

function rtrimKey(v: Value): Value {
  if (typeof v !== "string") return v;
  const n = trimmedLength(v);
  return n === v.length ? v : v.slice(0, n);
}

const KEYS: Record<TextCollation, (v: Value) => Value> = { nocase: nocaseKey, rtrim: rtrimKey };

/** The key a value hashes by in `collation`: a text folded, any other value itself. */
export function collationKey(collation: TextCollation): (v: Value) => Value {
  return KEYS[collation];
}

/**
 * Two non-NULL values compared in `collation`: texts by it, other values
 * as they always compare (values read from JSON by family, text against a
 * number being `type_mismatch`).
 */
export function comparer(collation: TextCollation): (a: Value, b: Value) => number {
  const text = TEXT_ORDER[collation];
  return (a, b) => (typeof a === "string" && typeof b === "string" ? text(a, b) : compareUntyped(a, b));
}

/** The total order of ORDER BY and min/max in `collation` (NULL first, then by type): `compareValues` with texts compared by it. */
export function orderIn(collation: TextCollation | undefined): (a: Value, b: Value) => number {
  if (collation === undefined) return compareValues;
  const text = TEXT_ORDER[collation];
  return (a, b) => (typeof a === "string" && typeof b === "string" ? text(a, b) : compareValues(a, b));
}

/**
 * What DISTINCT and the compound operators key a row by, each column's
 * texts by its collation's key (`rowKey` itself when every one is binary):
 * rows equal in every column's collation share a key.
 */
export function rowKeyIn(collations: readonly (TextCollation | undefined)[]): (row: readonly Value[]) => unknown {
  if (collations.every((c) => c === undefined)) return rowKey;
  const keys = collations.map((c) => (c === undefined ? undefined : KEYS[c]));
  return (row) => rowKey(row.map((v, i) => (keys[i] === undefined ? v : keys[i](v))));
}
