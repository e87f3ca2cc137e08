/**
 * Derived tables: a select in FROM or JOIN (SQL's `(SELECT …) AS d`, a WITH
 * table, JSON's `from`) read as a table. Its columns are the select's
 * result columns, named as SQLite names them — a column listed by name or
 * expanded from `*` by its own name (`o.id` is `id`), anything else by its
 * result name — and typed by what the select yields, so the rest of the
 * query binds and compiles against it as against a stored table with no
 * keys. The executor makes its rows once per execution
 * (`executor/derived.ts`).
 */

import type { ColumnType } from "../commands/types.js";
import { StoreError } from "../errors.js";
import type { DerivedTable, SelectPlan, StaticType } from "./plan.js";
import { typedWhenRead } from "./bind-expr.js";
import { typeOf } from "./static-types.js";
import type { TableInfo } from "./table-info.js";

/** The name a derived source's rows go by in a plan: no valid identifier, so no query can name it. */
export function derivedTableName(index: number): string {
  return `(derived ${index})`;
}

/**
 * The table `plan` is read as; `misuse` is the code its errors take (SQL's
 * or JSON's), `what` names the table in them (CREATE TABLE … AS SELECT
 * makes its table the same way).
 */
export function describeDerived(plan: SelectPlan, misuse: "sql_error" | "invalid_request", what = "a derived table"): DerivedTable {
  const columns = plan.columns.map((c) => c.column ?? c.name);
  const seen = new Set<string>();
  for (const column of columns) {
    if (seen.has(column)) throw new StoreError(misuse, `${capitalized(what)} has two columns named "${column}": rename one with AS`);
    seen.add(column);
  }
  const types = plan.columns.map((c, i) => {
    const fromJson = [plan, ...(plan.compound?.steps.map((s) => s.plan) ?? [])].some((p) => typedWhenRead(p.columns[i]!.expr));
    return storedType(plan.compound?.types[i] ?? typeOf(c.expr), columns[i]!, misuse, what, fromJson);
  });
  return { select: plan, columns, types };
}

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The derived source at `index` as the binder and the passes see a table. */
export function derivedTableInfo(index: number, derived: DerivedTable): TableInfo {
  const name = derivedTableName(index);
  const { columns, types } = derived;
  const schema = { name, columns: Object.fromEntries(columns.map((c, i) => [c, types[i]!])) };
  return { name, schema, columns, types, position: new Map(columns.map((c, i) => [c, i])), computed: new Map(), keys: [] };
}

/** A derived column's type: a number that may be integer or real reads as real; a column of no known type is refused. */
function storedType(type: StaticType, column: string, misuse: "sql_error" | "invalid_request", what: string, fromJson: boolean): ColumnType {
  switch (type) {
    case "number":
      return "real";
    case "null":
    case "unknown": {
      const why = type === "null" ? "it is always NULL" : fromJson ? "its value is read from JSON, typed only as each row is read" : "a bare parameter";
      throw new StoreError(misuse, `Column "${column}" of ${what} has no type (${why}): give it one with CAST(... AS type)`);
    }
    default:
      return type;
  }
}
