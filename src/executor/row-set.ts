/**
 * The rows an IN subquery of several columns selected, for SQLite's row
 * value test `(x1, x2, …) IN (SELECT y1, y2, …)`: TRUE when a row equals
 * the values pair by pair; else NULL when a row might (each pair equal or
 * holding a NULL — what a NULL would be is not known); else FALSE. No rows:
 * FALSE, NULLs or not.
 *
 * Rows without a NULL are kept in a trie of Maps, one level per column, so
 * an exact lookup walks it with the values as they are and allocates
 * nothing; rows with a NULL are kept in a list, read only when no row
 * matched exactly (SQLite scans then too). Values are kept and looked up
 * as the runner hands them in: themselves, or their collation keys.
 */

import type { Value } from "../commands/types.js";

type Trie = Map<Value, unknown>;

export class RowSet {
  private readonly root: Trie = new Map();
  /** The rows holding a NULL. */
  private readonly partial: (readonly Value[])[] = [];
  private empty = true;

  constructor(readonly width: number) {}

  /** Adds `row[from]` … `row[from + width - 1]` (each value taken through `key(i, v)` when not NULL). */
  add(row: readonly Value[], from: number, key: (i: number, v: Value) => Value): void {
    this.empty = false;
    const values: Value[] = [];
    let nulls = false;
    for (let i = 0; i < this.width; i++) {
      const v = row[from + i] ?? null;
      if (v === null) nulls = true;
      values.push(v === null ? null : key(i, v));
    }
    if (nulls) {
      this.partial.push(values);
      return;
    }
    let level = this.root;
    const last = this.width - 1;
    for (let i = 0; i < last; i++) {
      const v = values[i]!;
      let next = level.get(v) as Trie | undefined;
      if (next === undefined) level.set(v, (next = new Map()));
      level = next;
    }
    level.set(values[last]!, true);
  }

  /** Whether `values` (keyed as the rows were) is among the rows: TRUE, FALSE or NULL as above. */
  test(values: readonly Value[]): boolean | null {
    if (this.empty) return false;
    let nulls = false;
    for (let i = 0; i < this.width; i++) if (values[i] === null) nulls = true;
    if (!nulls && this.exact(values)) return true;
    // No exact match: NULL if any row might be equal.
    if (nulls && this.mightMatch(this.root, values, 0)) return null;
    for (const row of this.partial) if (compatible(row, values)) return null;
    return false;
  }

  private exact(values: readonly Value[]): boolean {
    let level: unknown = this.root;
    for (let i = 0; i < this.width; i++) {
      level = (level as Trie).get(values[i]!);
      if (level === undefined) return false;
    }
    return true;
  }

  /** Whether a row under `level` (its first `depth` values already met) equals `values` wherever `values` is not NULL. */
  private mightMatch(level: Trie, values: readonly Value[], depth: number): boolean {
    const v = values[depth]!;
    const last = depth === this.width - 1;
    if (v !== null) {
      const next = level.get(v);
      return next !== undefined && (last || this.mightMatch(next as Trie, values, depth + 1));
    }
    if (last) return level.size > 0;
    for (const next of level.values()) if (this.mightMatch(next as Trie, values, depth + 1)) return true;
    return false;
  }
}

/** Each pair equal or holding a NULL. */
function compatible(row: readonly Value[], values: readonly Value[]): boolean {
  for (let i = 0; i < row.length; i++) {
    const a = row[i]!;
    const b = values[i]!;
    if (a !== null && b !== null && a !== b) return false;
  }
  return true;
}
