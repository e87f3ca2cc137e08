/**
 * The rows a row value is tested against, for SQLite's `(x1, x2, …) IN
 * (SELECT y1, y2, …)` (and a list of constant rows, `row-list.ts`): TRUE
 * when a row equals the values pair by pair; else NULL when a row might
 * (each pair equal or holding a NULL — what a NULL would be is not known);
 * else FALSE. No rows: FALSE, NULLs or not.
 *
 * Rows are grouped by where they hold NULLs (their mask), and each group is
 * looked up in a trie of Maps keyed on the columns that can decide — one
 * level per column, walked with the values as they are, so a lookup
 * allocates nothing. A row value without a NULL is one exact lookup in the
 * rows without NULLs, then (no match) one lookup per mask present, keyed on
 * that mask's non-NULL columns; a row value with NULLs one lookup per mask,
 * keyed on the columns neither holds a NULL in (built the first time a row
 * value of its NULLs meets the group; past 8 such masks a group is scanned
 * for others, so indexes never cost more than 8 times the rows). So no probe scans rows, however many
 * hold NULLs (SQLite scans them: storedb keeps its answers, exactly, for
 * NOT IN and in a select list too). Values are kept and looked up as the
 * runner hands them in: themselves, or their collation keys.
 */

import type { Value } from "../commands/types.js";

type Trie = Map<Value, unknown>;

/** How many masks of row values holding NULLs a group keeps an index for. */
const MAX_PROBE_MASKS = 8;

/** An index of a group's rows on some of their columns (none: the group's rows all match). */
interface Index {
  readonly columns: readonly number[];
  readonly trie: Trie;
}

/** The rows holding NULLs in the same columns. */
class Group {
  readonly rows: (readonly Value[])[] = [];
  /** On every column without a NULL here: the lookup of a row value without NULLs. */
  readonly exact: Index;
  /** For a row value with NULLs, by its mask (`maskOf`): on the columns neither it nor these rows hold a NULL in. */
  private readonly byProbe = new Map<string, Index>();

  constructor(private readonly nulls: readonly boolean[]) {
    this.exact = { columns: columnsWithout(nulls, undefined), trie: new Map() };
  }

  add(row: readonly Value[]): void {
    this.rows.push(row);
    insert(this.exact, row);
  }

  /** Whether a row here equals `probe`, which holds NULLs (`mask` where), wherever neither holds a NULL. */
  mightMatch(mask: string, probe: readonly Value[]): boolean {
    let index = this.byProbe.get(mask);
    if (index === undefined) {
      // Each mask's index costs the group's rows: past a few, rows are scanned (as SQLite does) rather than kept again per mask.
      if (this.byProbe.size >= MAX_PROBE_MASKS) return this.rows.some((row) => compatible(row, probe));
      index = { columns: columnsWithout(this.nulls, probe), trie: new Map() };
      for (const row of this.rows) insert(index, row);
      this.byProbe.set(mask, index);
    }
    return has(index, probe);
  }
}

export class RowSet {
  /** The rows without a NULL (`exact` holds them whole). */
  private full: Group | undefined;
  /** Every group, `full` among them, by mask. */
  private readonly groups = new Map<string, Group>();
  /** The groups holding NULLs. */
  private readonly partial: Group[] = [];

  constructor(readonly width: number) {}

  /** Adds `row[from]` … `row[from + width - 1]` (each value taken through `key(i, v)` when not NULL). */
  add(row: readonly Value[], from: number, key: (i: number, v: Value) => Value): void {
    const values: Value[] = [];
    for (let i = 0; i < this.width; i++) {
      const v = row[from + i] ?? null;
      values.push(v === null ? null : key(i, v));
    }
    const mask = maskOf(values);
    let group = this.groups.get(mask);
    if (group === undefined) {
      group = new Group(values.map((v) => v === null));
      this.groups.set(mask, group);
      if (mask === "") this.full = group;
      else this.partial.push(group);
    }
    group.add(values);
  }

  /** Whether `values` (keyed as the rows were) is among the rows: TRUE, FALSE or NULL as above. */
  test(values: readonly Value[]): boolean | null {
    let nulls = false;
    for (let i = 0; i < this.width; i++) if (values[i] === null) nulls = true;
    if (!nulls) {
      if (this.full !== undefined && has(this.full.exact, values)) return true;
      for (const group of this.partial) if (has(group.exact, values)) return null;
      return false;
    }
    const mask = maskOf(values);
    for (const group of this.groups.values()) if (group.mightMatch(mask, values)) return null;
    return false;
  }
}

/** Where `values` holds NULLs, as a key ("" for nowhere). */
function maskOf(values: readonly Value[]): string {
  let mask = "";
  for (let i = 0; i < values.length; i++) if (values[i] === null) mask += `${i},`;
  return mask;
}

/** The columns without a NULL in `nulls` nor (when given) in `probe`. */
function columnsWithout(nulls: readonly boolean[], probe: readonly Value[] | undefined): number[] {
  const out: number[] = [];
  for (let i = 0; i < nulls.length; i++) if (!nulls[i] && (probe === undefined || probe[i] !== null)) out.push(i);
  return out;
}

function insert(index: Index, row: readonly Value[]): void {
  const { columns, trie } = index;
  const last = columns.length - 1;
  let level = trie;
  for (let i = 0; i < last; i++) {
    const v = row[columns[i]!]!;
    let next = level.get(v) as Trie | undefined;
    if (next === undefined) level.set(v, (next = new Map()));
    level = next;
  }
  if (last >= 0) level.set(row[columns[last]!]!, true);
}

/** Whether a row of the index equals `values` on its columns (an index on no columns: its group's rows, never none). */
function has(index: Index, values: readonly Value[]): boolean {
  const { columns } = index;
  let level: unknown = index.trie;
  for (let i = 0; i < columns.length; i++) {
    level = (level as Trie).get(values[columns[i]!]!);
    if (level === undefined) return false;
  }
  return true;
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
