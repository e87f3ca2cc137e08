/**
 * Foreign keys as links between two tables: which child columns (ordered
 * like the parent key they point at) reference which parent key. The
 * engine derives links from schemas on demand — tables are few, and a
 * link never outlives a schema change.
 *
 * `ChildFinder` answers "which child rows reference this parent key?",
 * through a child index on exactly those columns when there is one, else
 * through a map built once per command.
 */

import type { ForeignKey, Value } from "../commands/types.js";
import type { MultiIndex, UniqueIndex } from "./key-index.js";
import type { Table } from "./table.js";

export interface ForeignKeyLink {
  readonly child: Table;
  readonly fk: ForeignKey;
  /** Child column positions, in the order of the parent key's columns. */
  readonly childPositions: readonly number[];
  readonly parent: Table;
  readonly parentKey: UniqueIndex;
  readonly onDelete: "restrict" | "cascade";
}

function link(child: Table, fk: ForeignKey, parent: Table): ForeignKeyLink | undefined {
  const wanted = fk.references.columns;
  const parentKey = parent
    .uniqueKeys()
    .find((k) => k.positions.length === wanted.length && k.positions.every((p) => wanted.includes(parent.columns[p] as string)));
  if (!parentKey) return undefined;
  const childPositions = parentKey.positions.map((p) => {
    const j = wanted.indexOf(parent.columns[p] as string);
    return child.position.get(fk.columns[j] as string) as number;
  });
  return { child, fk, childPositions, parent, parentKey, onDelete: fk.on_delete ?? "restrict" };
}

/** The foreign keys of `child` whose parent table exists. */
export function linksFrom(child: Table, tables: ReadonlyMap<string, Table>): ForeignKeyLink[] {
  const out: ForeignKeyLink[] = [];
  for (const fk of child.schema.foreign_keys ?? []) {
    const parent = tables.get(fk.references.table);
    const l = parent && link(child, fk, parent);
    if (l) out.push(l);
  }
  return out;
}

/** The foreign keys, in any table, that reference `parent`. */
export function linksTo(parent: Table, tables: ReadonlyMap<string, Table>): ForeignKeyLink[] {
  const out: ForeignKeyLink[] = [];
  for (const child of tables.values()) {
    for (const l of linksFrom(child, tables)) if (l.parent === parent) out.push(l);
  }
  return out;
}

/**
 * Makes a child row of values hold the parent row's own key values (equal
 * values, the parent's string objects): key strings are then shared, not
 * duplicated per child, and an index lookup of a parent key in the child's
 * index compares strings by pointer instead of by content.
 */
export function shareParentKey(l: ForeignKeyLink, child: Value[], parent: number): void {
  const positions = l.parentKey.positions;
  for (let i = 0; i < positions.length; i++) child[l.childPositions[i] as number] = l.parent.heap.value(parent, positions[i] as number);
}

/**
 * The same for a stored child row, while a table loads (before anything has
 * read it: the one write to a stored row, and of an equal value): a text
 * key column takes the parent's string.
 */
export function shareStoredKey(l: ForeignKeyLink, child: number, parent: number): void {
  const positions = l.parentKey.positions;
  const columns = l.child.heap.columns;
  for (let i = 0; i < positions.length; i++) {
    const column = columns[l.childPositions[i] as number];
    if (Array.isArray(column)) column[child] = l.parent.heap.columns[positions[i] as number]![parent] as string;
  }
}

export class ChildFinder {
  private readonly maps = new Map<ForeignKeyLink, Map<unknown, number[]>>();

  /** Child rows whose foreign key equals `key` (an encoded parent key), in table order. */
  rows(l: ForeignKeyLink, key: unknown): readonly number[] {
    if (key === undefined) return [];
    const same = (ix: UniqueIndex | MultiIndex): boolean =>
      ix.positions.length === l.childPositions.length && ix.positions.every((p, i) => p === l.childPositions[i]);
    const unique = l.child.uniqueKeys().find(same);
    if (unique) {
      const row = unique.get(key);
      return row === undefined ? [] : [row];
    }
    const multi = l.child.secondary.find(same);
    if (multi) return multi.get(key);
    let map = this.maps.get(l);
    if (!map) {
      map = new Map();
      for (const row of l.child.rows) {
        const k = l.child.keyOf(row, l.childPositions);
        if (k === undefined) continue;
        const bucket = map.get(k);
        if (bucket) bucket.push(row);
        else map.set(k, [row]);
      }
      this.maps.set(l, map);
    }
    return map.get(key) ?? [];
  }
}
