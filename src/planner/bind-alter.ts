/**
 * Binds `alter-table` (CONTRACT §11) into schema changes: per table, its
 * new schema (normalized and re-checked as a created table's is) and how its
 * rows are reshaped. Adding a column appends it to every row with its
 * default; dropping one removes it from every row, and is refused while a
 * key, index, check, computed field or foreign key names it; renaming a
 * column or the table carries every dependent along, the foreign keys of
 * other tables included, so those tables change in the same command.
 */

import type { AlterAction, AlterTableCommand, Expression, ForeignKey, TableSchema, Value } from "../commands/types.js";
import { StoreError, assertNever } from "../errors.js";
import { checkSchema } from "./bind-create.js";
import { checkName, requireTable } from "./bind-select.js";
import type { Plan, TableChange } from "./plan.js";
import type { Catalog, TableInfo } from "./table-info.js";

export function bindAlterTable(cmd: AlterTableCommand, catalog: Catalog): Plan {
  const table = requireTable(catalog, cmd.table);
  const changes = changesOf(table, cmd.action, catalog);
  const after = changes[0]!.schema.name;
  // Each changed schema is checked against the others as they will be, so a foreign key may follow a renamed table.
  const next = new Map(changes.map((change) => [change.schema.name, change.schema] as const));
  const lookup = (name: string): TableSchema | undefined => next.get(name) ?? (name === table.name ? undefined : catalog.table(name)?.schema);
  const checked = changes.map((change) => ({ ...change, schema: checkSchema(change.schema, lookup) }));
  return { statement: { kind: "alter-table", table: after, changes: checked }, params: [] };
}

/** The altered table's change first, then those of tables whose foreign keys follow it. */
function changesOf(table: TableInfo, action: AlterAction, catalog: Catalog): TableChange[] {
  switch (action.type) {
    case "add-column":
      return [addColumn(table, action)];
    case "drop-column":
      return [dropColumn(table, action.column)];
    case "rename-column":
      return renameColumn(table, action.from, action.to, catalog);
    case "rename-table":
      return renameTable(table, action.to, catalog);
    default:
      return assertNever(action, "alter-table action");
  }
}

function refuse(table: TableInfo, message: string): never {
  throw new StoreError("invalid_request", `Cannot alter "${table.name}": ${message}`);
}

function has(table: TableInfo, name: string): boolean {
  return table.position.has(name) || table.computed.has(name);
}

function requireField(table: TableInfo, name: string): void {
  checkName(name, "column");
  if (!has(table, name)) throw new StoreError("unknown_column", `Table "${table.name}" has no column "${name}"`);
}

function requireFree(table: TableInfo, name: string): void {
  checkName(name, "column");
  if (has(table, name)) refuse(table, `it has a column or computed field named "${name}" already`);
}

function addColumn(table: TableInfo, action: Extract<AlterAction, { type: "add-column" }>): TableChange {
  const { column, columnType } = action;
  requireFree(table, column);
  const value: Value = action.default ?? null;
  // As SQLite: the rows there are take the default, so a required column needs one that is not NULL.
  if (action.required === true && value === null) refuse(table, `a required column needs a default that is not NULL (the rows it holds take it)`);
  const s = table.schema;
  const schema: TableSchema = {
    ...s,
    columns: { ...s.columns, [column]: columnType },
    ...(action.required === true ? { required: [...(s.required ?? []), column] } : {}),
    ...(action.default !== undefined ? { defaults: { ...s.defaults, [column]: action.default } } : {}),
  };
  return { table: table.name, schema, rows: { kind: "add", value } };
}

/** Whether `expr` names column `column` of `table`, bare or qualified. */
function names(expr: Expression, table: string, column: string): boolean {
  let found = false;
  mapIdentifiers(expr, (name) => {
    if (name === column || name === `${table}.${column}`) found = true;
    return name;
  });
  return found;
}

/** `expr` with every identifier's name passed through `rename` (expressions are JSON: any node typed "identifier" is one). */
function mapIdentifiers(expr: Expression, rename: (name: string) => string): Expression {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== "object") return node;
    const record = node as Record<string, unknown>;
    if (record.type === "identifier" && typeof record.name === "string") return { ...record, name: rename(record.name) };
    if (record.type === "literal") return node;
    return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, walk(value)]));
  };
  return walk(expr) as Expression;
}

function dropColumn(table: TableInfo, column: string): TableChange {
  requireField(table, column);
  const s = table.schema;
  const dependents: string[] = [];
  if (s.primary_key?.columns.includes(column)) dependents.push("the primary key");
  for (const u of s.unique ?? []) if (u.columns.includes(column)) dependents.push(`the unique key (${u.columns.join(", ")})`);
  for (const ix of s.indexes ?? []) if (ix.columns.includes(column)) dependents.push(`index "${ix.name}"`);
  for (const fk of s.foreign_keys ?? []) if (fk.columns.includes(column)) dependents.push(`the foreign key (${fk.columns.join(", ")}) to "${fk.references.table}"`);
  for (const [i, check] of (s.checks ?? []).entries()) if (names(check.expr, s.name, column)) dependents.push(`check ${check.name === undefined ? i : `"${check.name}"`}`);
  for (const [name, expr] of Object.entries(s.computed ?? {})) if (name !== column && names(expr, s.name, column)) dependents.push(`computed field "${name}"`);
  if (dependents.length > 0) refuse(table, `${dependents.join(", ")} ${dependents.length === 1 ? "depends" : "depend"} on column "${column}"; drop ${dependents.length === 1 ? "it" : "them"} first`);
  const stored = table.position.get(column);
  if (stored !== undefined && table.columns.length === 1) refuse(table, `"${column}" is its only column`);
  const without = <V>(record: Readonly<Record<string, V>> | undefined): Record<string, V> | undefined =>
    record === undefined ? undefined : Object.fromEntries(Object.entries(record).filter(([key]) => key !== column));
  const schema: TableSchema = {
    ...s,
    columns: without(s.columns)!,
    ...(s.required ? { required: s.required.filter((c) => c !== column) } : {}),
    ...(s.defaults ? { defaults: without(s.defaults) } : {}),
    ...(s.computed ? { computed: without(s.computed) } : {}),
    ...(s.comments ? { comments: without(s.comments) } : {}),
  };
  return stored === undefined ? { table: table.name, schema } : { table: table.name, schema, rows: { kind: "drop", position: stored } };
}

/** A record with key `from` renamed `to`, in place in its order. */
function renameKey<V>(record: Readonly<Record<string, V>> | undefined, from: string, to: string): Record<string, V> | undefined {
  return record === undefined ? undefined : Object.fromEntries(Object.entries(record).map(([key, value]) => [key === from ? to : key, value]));
}

/** `schema` with every reference to `table`'s column `from` (its own, and its foreign keys' into `table`) renamed `to`. */
function withColumnRenamed(schema: TableSchema, table: string, from: string, to: string): TableSchema {
  const own = schema.name === table;
  const col = (c: string): string => (own && c === from ? to : c);
  const cols = (list: readonly string[]): string[] => list.map(col);
  const expr = (e: Expression): Expression => mapIdentifiers(e, (name) => (name === from ? to : name === `${table}.${from}` ? `${table}.${to}` : name));
  const foreignKey = (fk: ForeignKey): ForeignKey => ({
    ...fk,
    columns: cols(fk.columns),
    references: fk.references.table === table ? { table, columns: fk.references.columns.map((c) => (c === from ? to : c)) } : fk.references,
  });
  if (!own) return { ...schema, ...(schema.foreign_keys ? { foreign_keys: schema.foreign_keys.map(foreignKey) } : {}) };
  const s = schema;
  return {
    ...s,
    columns: renameKey(s.columns, from, to)!,
    ...(s.required ? { required: cols(s.required) } : {}),
    ...(s.primary_key ? { primary_key: { columns: cols(s.primary_key.columns) } } : {}),
    ...(s.unique ? { unique: s.unique.map((u) => ({ columns: cols(u.columns) })) } : {}),
    ...(s.indexes ? { indexes: s.indexes.map((ix) => ({ ...ix, columns: cols(ix.columns) })) } : {}),
    ...(s.foreign_keys ? { foreign_keys: s.foreign_keys.map(foreignKey) } : {}),
    ...(s.checks ? { checks: s.checks.map((c) => ({ ...c, expr: expr(c.expr) })) } : {}),
    ...(s.defaults ? { defaults: renameKey(s.defaults, from, to) } : {}),
    ...(s.computed ? { computed: Object.fromEntries(Object.entries(renameKey(s.computed, from, to)!).map(([k, e]) => [k, expr(e)])) } : {}),
    ...(s.comments ? { comments: renameKey(s.comments, from, to) } : {}),
  };
}

/** The other tables with a foreign key into `table`. */
function referencing(table: TableInfo, catalog: Catalog): TableInfo[] {
  return [...catalog.tables()].filter((t) => t.name !== table.name && (t.schema.foreign_keys ?? []).some((fk) => fk.references.table === table.name));
}

function renameColumn(table: TableInfo, from: string, to: string, catalog: Catalog): TableChange[] {
  requireField(table, from);
  requireFree(table, to);
  return [
    { table: table.name, schema: withColumnRenamed(table.schema, table.name, from, to) },
    ...referencing(table, catalog).map((t) => ({ table: t.name, schema: withColumnRenamed(t.schema, table.name, from, to) })),
  ];
}

/** `schema` with its foreign keys into `from` (and, when it is `from`, its own name and qualified names) following the rename to `to`. */
function withTableRenamed(schema: TableSchema, from: string, to: string): TableSchema {
  const foreignKeys = schema.foreign_keys?.map((fk) => (fk.references.table === from ? { ...fk, references: { ...fk.references, table: to } } : fk));
  const out: TableSchema = { ...schema, ...(foreignKeys ? { foreign_keys: foreignKeys } : {}) };
  if (schema.name !== from) return out;
  const prefix = `${from}.`;
  const expr = (e: Expression): Expression => mapIdentifiers(e, (name) => (name.startsWith(prefix) ? `${to}.${name.slice(prefix.length)}` : name));
  return {
    ...out,
    name: to,
    ...(schema.checks ? { checks: schema.checks.map((c) => ({ ...c, expr: expr(c.expr) })) } : {}),
    ...(schema.computed ? { computed: Object.fromEntries(Object.entries(schema.computed).map(([k, e]) => [k, expr(e)])) } : {}),
  };
}

function renameTable(table: TableInfo, to: string, catalog: Catalog): TableChange[] {
  checkName(to, "table");
  if (catalog.table(to) !== undefined) throw new StoreError("table_exists", `Table "${to}" already exists`);
  return [
    { table: table.name, schema: withTableRenamed(table.schema, table.name, to) },
    ...referencing(table, catalog).map((t) => ({ table: t.name, schema: withTableRenamed(t.schema, table.name, to) })),
  ];
}
