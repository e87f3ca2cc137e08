/**
 * Binds CREATE TABLE … AS SELECT (`create-table` with `table` and
 * `select`): the select is bound as a statement of its own, and the table's
 * columns are its result columns, named and typed as a derived table's
 * (`derived-table.ts`: a column of no type, or two of one name, are
 * refused) — no keys, no constraints, as SQLite makes them. The engine runs
 * the select and creates the table holding its rows in one mutation.
 */

import type { CreateTableFromSelect } from "../commands/types.js";
import { IDENTIFIER_RULE, isValidIdentifier } from "../commands/names.js";
import { StoreError } from "../errors.js";
import type { BindContext } from "./bind-expr.js";
import { checkSchema } from "./bind-create.js";
import { bindSelectPlan } from "./bind-select.js";
import { describeDerived } from "./derived-table.js";
import type { Plan } from "./plan.js";
import type { Catalog } from "./table-info.js";

export function bindCreateTableAs(cmd: CreateTableFromSelect, catalog: Catalog, context: BindContext): Plan {
  if (!isValidIdentifier(cmd.table)) throw new StoreError("invalid_name", `Invalid table name ${JSON.stringify(cmd.table)}`);
  // IF NOT EXISTS on a table that exists changes nothing, and the select is not even bound (SQLite's no-op).
  const existing = catalog.table(cmd.table);
  if (existing !== undefined && cmd.ifNotExists === true) return { statement: { kind: "create-table", schema: existing.schema, ifNotExists: true }, params: context.params.list() };
  const select = bindSelectPlan({ ...cmd.select, output: "arrays" }, catalog, context);
  const { columns, types, collations } = describeDerived(select, context.misuse, "a table made from a select");
  // SQLite's table would declare the column so; storedb's columns are BINARY only (docs/decisions.md, Collations).
  const collated = collations?.findIndex((c) => c !== undefined) ?? -1;
  if (collated >= 0) {
    const column = columns[collated]!;
    throw new StoreError(context.misuse, `Column "${column}" of a table made from a select would be COLLATE ${collations![collated]!.toUpperCase()}, and a column cannot be declared so: drop the COLLATE from the select, and write it in the queries that read the column`);
  }
  // A result named by its text (`count(*)`) is no column name: say how to give it one.
  for (const column of columns) {
    if (!isValidIdentifier(column)) throw new StoreError("invalid_name", `Invalid column name ${JSON.stringify(column)} for "${cmd.table}": give the result column a valid name with AS (${IDENTIFIER_RULE})`);
  }
  const schema = checkSchema({ name: cmd.table, columns: Object.fromEntries(columns.map((c, i) => [c, types[i]!])) }, (name) => catalog.table(name)?.schema);
  return { statement: { kind: "create-table", schema, ifNotExists: cmd.ifNotExists === true, select }, params: context.params.list() };
}
