/**
 * Binds `create-table` and `drop-table`. Creating a table checks the schema
 * semantically — every named column exists, keys and indexes are sound,
 * foreign keys point at an existing table's primary or unique key with
 * matching types, checks and computed fields bind — and normalizes it into
 * the form `describe` shows and files store. Any problem is 400
 * `invalid_request`.
 *
 * `checkSchema` takes a lookup of other schemas rather than a catalog, so a
 * file's tables can be checked against each other before any is built.
 */

import type { ColumnDefault, ColumnType, CreateTableFromSchema, DropTableCommand, Expression, ForeignKey, TableSchema } from "../commands/types.js";
import { isValidIdentifier } from "../commands/names.js";
import { StoreError } from "../errors.js";
import { bindDefaultExpr, bindTableExpr } from "./bind-expr.js";
import { familyOf, typeOf } from "./static-types.js";
import { checkName } from "./bind-select.js";
import type { Plan } from "./plan.js";
import type { Catalog } from "./table-info.js";
import { PRIMARY_KEY_NAME, tableInfoOf } from "./table-info.js";
import { fitsType, isColumnType } from "./value-types.js";

/** A default written as `{"expr": …}` rather than as a value. */
export function isDefaultExpr(value: ColumnDefault | undefined): value is { readonly expr: Expression } {
  return typeof value === "object" && value !== null;
}

function isName(name: unknown): boolean {
  return typeof name === "string" && isValidIdentifier(name);
}

function fail(table: string, message: string): never {
  throw new StoreError("invalid_request", `Schema of "${table}": ${message}`);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** The schema with defaults filled in and members in a fixed order (columns and computed keep declaration order). */
function normalizeSchema(s: TableSchema): TableSchema {
  const columns = Object.keys(s.columns);
  const pk = s.primary_key?.columns ?? [];
  const required = columns.filter((c) => pk.includes(c) || (s.required ?? []).includes(c));
  const out: Record<string, unknown> = { name: s.name, columns: { ...s.columns } };
  if (required.length > 0) out.required = required;
  if (s.primary_key) out.primary_key = { columns: [...s.primary_key.columns] };
  if (s.unique && s.unique.length > 0) out.unique = s.unique.map((u) => ({ columns: [...u.columns] }));
  if (s.foreign_keys && s.foreign_keys.length > 0) {
    out.foreign_keys = s.foreign_keys.map((f) => ({
      columns: [...f.columns],
      references: { table: f.references.table, columns: [...f.references.columns] },
      on_delete: f.on_delete ?? "restrict",
    }));
  }
  if (s.checks && s.checks.length > 0) out.checks = s.checks.map((c) => (c.name === undefined ? { expr: c.expr } : { name: c.name, expr: c.expr }));
  if (s.indexes && s.indexes.length > 0) out.indexes = s.indexes.map((i) => (i.unique === true ? { name: i.name, columns: [...i.columns], unique: true } : { name: i.name, columns: [...i.columns] }));
  if (s.defaults && Object.keys(s.defaults).length > 0) {
    out.defaults = Object.fromEntries(columns.filter((c) => Object.hasOwn(s.defaults ?? {}, c)).map((c) => [c, (s.defaults ?? {})[c]]));
  }
  if (s.computed && Object.keys(s.computed).length > 0) out.computed = { ...s.computed };
  if (s.comment !== undefined) out.comment = s.comment;
  if (s.comments && Object.keys(s.comments).length > 0) out.comments = { ...s.comments };
  return out as unknown as TableSchema;
}

/** Checks a schema; `lookup` finds the other tables a foreign key may reference. Returns it normalized. */
export function checkSchema(schema: TableSchema, lookup: (name: string) => TableSchema | undefined): TableSchema {
  const t = schema.name;
  if (typeof t !== "string" || !isName(t)) throw new StoreError("invalid_name", `Invalid table name ${JSON.stringify(t)}`);
  const columns = Object.keys(schema.columns);
  if (columns.length === 0) fail(t, "needs at least one column");
  for (const c of columns) {
    if (!isName(c)) throw new StoreError("invalid_name", `Invalid column name ${JSON.stringify(c)} in "${t}"`);
    if (!isColumnType(schema.columns[c])) fail(t, `column "${c}" has unknown type ${JSON.stringify(schema.columns[c])}`);
  }
  const has = (c: string): boolean => Object.hasOwn(schema.columns, c);
  const needColumns = (what: string, cols: readonly string[]): void => {
    if (cols.length === 0) fail(t, `${what} needs at least one column`);
    for (const c of cols) if (!has(c)) fail(t, `${what} names unknown column "${c}"`);
    if (new Set(cols).size !== cols.length) fail(t, `${what} names a column twice`);
  };
  for (const c of schema.required ?? []) if (!has(c)) fail(t, `required names unknown column "${c}"`);
  if (schema.primary_key) needColumns("primary_key", schema.primary_key.columns);
  for (const u of schema.unique ?? []) needColumns("unique", u.columns);
  const indexNames = new Set<string>();
  for (const ix of schema.indexes ?? []) {
    if (!isName(ix.name)) throw new StoreError("invalid_name", `Invalid index name ${JSON.stringify(ix.name)} in "${t}"`);
    if (indexNames.has(ix.name)) fail(t, `index "${ix.name}" is declared twice`);
    indexNames.add(ix.name);
    needColumns(`index "${ix.name}"`, ix.columns);
  }
  for (const [c, value] of Object.entries(schema.defaults ?? {})) {
    if (!has(c)) fail(t, `default for unknown column "${c}"`);
    const type = schema.columns[c] as ColumnType;
    if (isDefaultExpr(value)) {
      // Its values are checked per row as any written value is; a family it can never fit is refused now.
      const family = familyOf(typeOf(bindDefaultExpr(value.expr)));
      if (family !== undefined && family !== familyOf(type)) fail(t, `default for "${c}" is ${family}, not ${type}`);
    } else if (value !== null && !fitsType(value, type)) fail(t, `default for "${c}" is not a ${type}`);
  }
  const computedNames = Object.keys(schema.computed ?? {});
  for (const c of computedNames) {
    if (!isName(c)) throw new StoreError("invalid_name", `Invalid computed field name ${JSON.stringify(c)} in "${t}"`);
    if (has(c)) fail(t, `computed field "${c}" has the name of a column`);
  }
  for (const c of Object.keys(schema.comments ?? {})) {
    if (!has(c) && !computedNames.includes(c)) fail(t, `comment for unknown column "${c}"`);
  }
  for (const fk of schema.foreign_keys ?? []) checkForeignKey(schema, fk, lookup);

  const normalized = normalizeSchema(schema);
  const info = tableInfoOf(normalized);
  const bindIn = (what: string, e: Expression, boolean: boolean): void => {
    try {
      bindTableExpr(info, e, boolean);
    } catch (err) {
      if (err instanceof StoreError) fail(t, `${what}: ${err.message}`);
      throw err;
    }
  };
  for (const [i, check] of (schema.checks ?? []).entries()) bindIn(`check ${check.name ?? i}`, check.expr, true);
  for (const [name, e] of Object.entries(schema.computed ?? {})) bindIn(`computed field "${name}"`, e, false);
  return normalized;
}

function checkForeignKey(schema: TableSchema, fk: ForeignKey, lookup: (name: string) => TableSchema | undefined): void {
  const t = schema.name;
  const target = fk.references.table === t ? schema : lookup(fk.references.table);
  if (!target) fail(t, `foreign key references unknown table "${fk.references.table}"`);
  if (fk.columns.length === 0 || fk.columns.length !== fk.references.columns.length) {
    fail(t, "foreign key needs as many columns as it references");
  }
  for (const c of fk.columns) if (!Object.hasOwn(schema.columns, c)) fail(t, `foreign key names unknown column "${c}"`);
  for (const c of fk.references.columns) {
    if (!Object.hasOwn(target.columns, c)) fail(t, `foreign key references unknown column "${target.name}.${c}"`);
  }
  if (!uniqueKeysOf(target).some((k) => k.length > 0 && sameSet(k, fk.references.columns))) {
    fail(t, `foreign key must reference the primary key or a unique key of "${target.name}"`);
  }
  fk.columns.forEach((c, i) => {
    const r = fk.references.columns[i] as string;
    if (schema.columns[c] !== target.columns[r]) {
      fail(t, `foreign key column "${c}" (${schema.columns[c]}) does not match "${target.name}.${r}" (${target.columns[r]})`);
    }
  });
}

/** The column lists a foreign key may reference: the primary key's, each unique constraint's, each unique index's. */
export function uniqueKeysOf(schema: TableSchema): (readonly string[])[] {
  return [schema.primary_key?.columns ?? [], ...(schema.unique ?? []).map((u) => u.columns), ...(schema.indexes ?? []).filter((i) => i.unique === true).map((i) => i.columns)];
}

/**
 * Index names are unique within a database (CONTRACT §11), and
 * `primary_key` is the plan's name for primary keys: an index of that name
 * could be taken for one. `holder` is the table that has the name already.
 */
export function checkIndexName(name: string, catalog: Catalog, except?: string): { readonly holder?: string } {
  if (!isName(name)) throw new StoreError("invalid_name", `Invalid index name ${JSON.stringify(name)}`);
  if (name === PRIMARY_KEY_NAME) throw new StoreError("invalid_request", `"${PRIMARY_KEY_NAME}" is reserved: it names primary keys in plans`);
  for (const t of catalog.tables()) {
    if (t.name !== except && (t.schema.indexes ?? []).some((i) => i.name === name)) return { holder: t.name };
  }
  return {};
}

export function bindCreateTable(cmd: CreateTableFromSchema, catalog: Catalog): Plan {
  if (Object.hasOwn(cmd, "table")) throw new StoreError("invalid_request", "create-table: table goes with select; a schema names its table itself");
  const schema = checkSchema(cmd.schema, (name) => catalog.table(name)?.schema);
  if (catalog.table(schema.name) === undefined) {
    for (const ix of schema.indexes ?? []) {
      const { holder } = checkIndexName(ix.name, catalog);
      if (holder !== undefined) throw new StoreError("invalid_request", `Schema of "${schema.name}": an index named "${ix.name}" exists already (on "${holder}"); index names are unique within a database`);
    }
  }
  return { statement: { kind: "create-table", schema, ifNotExists: cmd.ifNotExists === true }, params: [] };
}

export function bindDropTable(cmd: DropTableCommand): Plan {
  checkName(cmd.table, "table");
  return { statement: { kind: "drop-table", table: cmd.table, ifExists: cmd.ifExists === true }, params: [] };
}
