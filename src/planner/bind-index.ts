/**
 * Binds `create-index` and `drop-index` (CONTRACT §11) into schema
 * changes: the table's new schema, normalized and checked as a created
 * table's is, so the `.store` file and `describe` show the index and the
 * planner uses it as soon as it exists. Index names are unique within a
 * database. A unique index is a unique key (a foreign key may reference
 * it), so one a foreign key needs cannot be dropped. Whether the rows fit
 * a new unique index is the catalog's question, when it builds the index.
 */

import type { CreateIndexCommand, DropIndexCommand, IndexDef, TableSchema } from "../commands/types.js";
import { StoreError } from "../errors.js";
import { checkIndexName, checkSchema, uniqueKeysOf } from "./bind-create.js";
import { requireTable } from "./bind-select.js";
import type { Plan } from "./plan.js";
import type { Catalog, TableInfo } from "./table-info.js";

/** `schema` re-checked and normalized against the rest of the catalog. */
export function recheck(schema: TableSchema, catalog: Catalog): TableSchema {
  return checkSchema(schema, (name) => catalog.table(name)?.schema);
}

export function bindCreateIndex(cmd: CreateIndexCommand, catalog: Catalog): Plan {
  const table = requireTable(catalog, cmd.table);
  const { name, columns } = cmd.index;
  const { holder } = checkIndexName(name, catalog);
  if (holder !== undefined) {
    if (cmd.ifNotExists === true) return { statement: { kind: "create-index", table: table.name, index: cmd.index, changes: [] }, params: [] };
    throw new StoreError("invalid_request", `An index named "${name}" exists already (on "${holder}"); index names are unique within a database`);
  }
  if (columns.length === 0) throw new StoreError("invalid_request", `Index "${name}" needs at least one column`);
  for (const c of columns) {
    if (table.computed.has(c)) throw new StoreError("invalid_request", `Index "${name}": "${c}" is a computed field, which cannot be indexed`);
    if (!table.position.has(c)) throw new StoreError("unknown_column", `Index "${name}": table "${table.name}" has no column "${c}"`);
  }
  if (new Set(columns).size !== columns.length) throw new StoreError("invalid_request", `Index "${name}" names a column twice`);
  const index: IndexDef = cmd.index.unique === true ? { name, columns: [...columns], unique: true } : { name, columns: [...columns] };
  const schema = recheck({ ...table.schema, indexes: [...(table.schema.indexes ?? []), index] }, catalog);
  return { statement: { kind: "create-index", table: table.name, index, changes: [{ table: table.name, schema }] }, params: [] };
}

export function bindDropIndex(cmd: DropIndexCommand, catalog: Catalog): Plan {
  const name = cmd.name;
  checkIndexName(name, catalog);
  const holders = [...catalog.tables()].filter((t) => (t.schema.indexes ?? []).some((i) => i.name === name));
  if (holders.length === 0) {
    if (cmd.ifExists === true) return { statement: { kind: "drop-index", name, changes: [] }, params: [] };
    throw new StoreError("invalid_request", `No index is named "${name}"`);
  }
  // Files written by hand (or before names were unique) may hold one name twice: which one is meant cannot be told.
  if (holders.length > 1) throw new StoreError("invalid_request", `Index "${name}" exists on ${holders.map((t) => `"${t.name}"`).join(" and ")}: drop or rename one table's first`);
  const table = holders[0] as TableInfo;
  const index = (table.schema.indexes ?? []).find((i) => i.name === name) as IndexDef;
  const schema: TableSchema = { ...table.schema, indexes: (table.schema.indexes ?? []).filter((i) => i.name !== name) };
  if (index.unique === true) checkNoForeignKeyNeeds(table, schema, index, catalog);
  return { statement: { kind: "drop-index", name, table: table.name, changes: [{ table: table.name, schema: recheck(schema, catalog) }] }, params: [] };
}

/** A foreign key that references exactly this unique index's columns needs it, unless another unique key of those columns stays. */
function checkNoForeignKeyNeeds(table: TableInfo, without: TableSchema, index: IndexDef, catalog: Catalog): void {
  const same = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((c) => b.includes(c));
  if (uniqueKeysOf(without).some((key) => same(key, index.columns))) return;
  for (const child of catalog.tables()) {
    for (const fk of child.schema.foreign_keys ?? []) {
      if (fk.references.table === table.name && same(fk.references.columns, index.columns)) {
        throw new StoreError("invalid_request", `Index "${index.name}" is the unique key a foreign key of "${child.name}" references: drop that foreign key first`);
      }
    }
  }
}
