/**
 * Derived tables: a select in FROM or JOIN (SQL's `(SELECT …) AS d`, a WITH
 * table, JSON's `from`) read as a table. Its columns are the select's
 * result columns, named as SQLite names them — a column listed by name or
 * expanded from `*` by its own name (`o.id` is `id`), anything else by its
 * result name — and typed by what the select yields, so the rest of the
 * query binds and compiles against it as against a stored table with no
 * keys. The executor makes its rows once per execution, a correlated
 * one's again as its subquery's outer values change (`executor/derived.ts`).
 */

import type { ColumnType } from "../commands/types.js";
import { StoreError } from "../errors.js";
import type { DerivedTable, SelectPlan, StaticType, TableShape, TextCollation } from "./plan.js";
import { exprCollation, textual } from "./collation.js";
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
 * makes its table the same way). `names`: a WITH table's column list, in
 * place of the select's.
 */
export function describeDerived(plan: SelectPlan, misuse: "sql_error" | "invalid_request", what = "a derived table", names?: readonly string[]): DerivedTable {
  const columns = derivedColumns(plan, misuse, names, what);
  const types = selectTypes(plan).map((type, i) => storedType(type, columns[i]!, misuse, what, readFromJson(plan, i)));
  const collations = selectCollations(plan);
  return { select: plan, columns, types, ...(collations === undefined ? {} : { collations }) };
}

/** The collation other than binary of each column `plan` yields (a compound's by `Compound.collations`); undefined when none has one. */
export function selectCollations(plan: SelectPlan): readonly (TextCollation | undefined)[] | undefined {
  const collations = plan.columns.map((c, i) => textual(plan.compound?.collations?.[i] ?? exprCollation(c.expr), [c.expr]));
  return collations.some((c) => c !== undefined) ? collations : undefined;
}

/** The static type of each column `plan` yields (a compound's, unified over its selects). */
export function selectTypes(plan: SelectPlan): StaticType[] {
  return plan.columns.map((c, i) => plan.compound?.types[i] ?? typeOf(c.expr));
}

/** Whether column `i` of `plan` (or of any select of its compound) is a value read from JSON, typed only as each row is read. */
export function readFromJson(plan: SelectPlan, i: number): boolean {
  return [plan, ...(plan.compound?.steps.map((s) => s.plan) ?? [])].some((p) => typedWhenRead(p.columns[i]!.expr));
}

/** The names of the columns `plan` is read as (`names`, or as SQLite names them), each once. */
export function derivedColumns(plan: SelectPlan, misuse: "sql_error" | "invalid_request", names?: readonly string[], what = "a derived table"): readonly string[] {
  if (names !== undefined && names.length !== plan.columns.length) {
    throw new StoreError(misuse, `A WITH table names ${names.length} column(s) but its select yields ${plan.columns.length}`);
  }
  const columns = names ?? plan.columns.map((c) => c.column ?? c.name);
  const seen = new Set<string>();
  for (const column of columns) {
    if (seen.has(column)) throw new StoreError(misuse, `${capitalized(what)} has two columns named "${column}": rename one with AS`);
    seen.add(column);
  }
  return columns;
}

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The derived source at `index` (or rows of another `name` in the plan) as the binder and the passes see a table. */
export function derivedTableInfo(index: number, shape: TableShape, name = derivedTableName(index)): TableInfo {
  const { columns, types, collations } = shape;
  const schema = { name, columns: Object.fromEntries(columns.map((c, i) => [c, types[i]!])) };
  return { name, schema, columns, types, ...(collations === undefined ? {} : { collations }), position: new Map(columns.map((c, i) => [c, i])), computed: new Map(), keys: [] };
}

/** A derived column's type: a number that may be integer or real reads as real; a column of no known type is refused. */
export function storedType(type: StaticType, column: string, misuse: "sql_error" | "invalid_request", what = "a derived table", fromJson = false): ColumnType {
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
