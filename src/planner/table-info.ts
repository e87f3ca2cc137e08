/**
 * What the binder needs to know about a table: column names, types and
 * positions, computed fields, and the keys an access path may use.
 *
 * The planner sits upstream of the catalog, so it defines this view and the
 * catalog's tables implement it. `tableInfoOf` derives it from a normalized
 * schema, so a schema being created or loaded can be bound before any table
 * object exists.
 */

import type { ColumnType, Expression, TableSchema } from "../commands/types.js";
import type { TextCollation } from "./plan.js";

export type KeyKind = "primary" | "unique" | "index";

/** A primary key, unique key or secondary index, by name, with its columns and their stored positions. */
export interface KeyInfo {
  readonly kind: KeyKind;
  readonly name: string;
  readonly columns: readonly string[];
  readonly positions: readonly number[];
}

export interface TableInfo {
  readonly name: string;
  readonly schema: TableSchema;
  readonly columns: readonly string[];
  readonly types: readonly ColumnType[];
  /** A derived table's columns' collations, when one has one (`TableShape.collations`). */
  readonly collations?: readonly (TextCollation | undefined)[];
  readonly position: ReadonlyMap<string, number>;
  readonly computed: ReadonlyMap<string, Expression>;
  /** Primary key first, then unique keys (unique constraints, then unique indexes), then secondary indexes. */
  readonly keys: readonly KeyInfo[];
}

/** Resolves table names for the binder. */
export interface Catalog {
  table(name: string): TableInfo | undefined;
  /** Every table (schema commands look across tables: index names are unique within a database, foreign keys point between tables). */
  tables(): Iterable<TableInfo>;
}

/** The name a key is known by in plans: unique keys have no declared name. */
function uniqueKeyName(columns: readonly string[]): string {
  return `unique(${columns.join(",")})`;
}

export const PRIMARY_KEY_NAME = "primary_key";

export function tableInfoOf(schema: TableSchema): TableInfo {
  const columns = Object.keys(schema.columns);
  const types = columns.map((c) => schema.columns[c] as ColumnType);
  const position = new Map(columns.map((c, i) => [c, i] as const));
  const computed = new Map(Object.entries(schema.computed ?? {}));
  const keyOf = (kind: KeyKind, name: string, cols: readonly string[]): KeyInfo => ({
    kind,
    name,
    columns: cols,
    positions: cols.map((c) => position.get(c) ?? -1),
  });
  const keys: KeyInfo[] = [];
  if (schema.primary_key) keys.push(keyOf("primary", PRIMARY_KEY_NAME, schema.primary_key.columns));
  for (const u of schema.unique ?? []) keys.push(keyOf("unique", uniqueKeyName(u.columns), u.columns));
  // A unique index is a unique key known by its name; the others are lookup paths only.
  for (const ix of schema.indexes ?? []) if (ix.unique === true) keys.push(keyOf("unique", ix.name, ix.columns));
  for (const ix of schema.indexes ?? []) if (ix.unique !== true) keys.push(keyOf("index", ix.name, ix.columns));
  return { name: schema.name, schema, columns, types, position, computed, keys };
}
