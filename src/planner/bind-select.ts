/**
 * Binds a `select` command: sources (FROM, then each JOIN), ON and WHERE
 * conditions, output columns, ORDER BY, LIMIT/OFFSET. Produces a plan that
 * scans and nested-loops; the passes in `passes.ts` pick better paths.
 *
 * `*` is each source's declared columns then its computed fields; with joins
 * the keys are qualified by alias, else table name, source by source. A
 * listed column keeps the name as written as its result key.
 */

import type { ColumnType, SelectCommand } from "../commands/types.js";
import { isValidIdentifier } from "../commands/names.js";
import { StoreError } from "../errors.js";
import { ExprBinder, ParamUses } from "./bind-expr.js";
import type { JoinStep, OutputColumn, Plan, SelectPlan, SortKey, Source } from "./plan.js";
import { Scope, type ScopeSource } from "./scope.js";
import type { Catalog, TableInfo } from "./table-info.js";

export function checkName(name: string, what: string): string {
  if (!isValidIdentifier(name)) throw new StoreError("invalid_name", `Invalid ${what} name ${JSON.stringify(name)}`);
  return name;
}

export function requireTable(catalog: Catalog, name: string): TableInfo {
  checkName(name, "table");
  const table = catalog.table(name);
  if (!table) throw new StoreError("table_not_found", `Table "${name}" does not exist`);
  return table;
}

function checkCount(value: number | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 0) throw new StoreError("invalid_request", `${what} must be an integer ≥ 0`);
  return value;
}

export function bindSelect(cmd: SelectCommand, catalog: Catalog): Plan {
  const joins = cmd.joins ?? [];
  const sources: ScopeSource[] = [{ table: requireTable(catalog, cmd.table), name: cmd.table, index: 0 }];
  for (const j of joins) {
    const source: ScopeSource = { table: requireTable(catalog, j.table), name: j.as ?? j.table, index: sources.length };
    sources.push(j.as === undefined ? source : { ...source, alias: checkName(j.as, "alias") });
  }
  const params = new ParamUses();
  const all = new ExprBinder(new Scope(sources), params);

  const steps: JoinStep[] = joins.map((j, i) => {
    // ON sees the sources joined so far, itself included.
    const binder = new ExprBinder(new Scope(sources.slice(0, i + 2)), params);
    return { type: j.type, source: i + 1, strategy: { kind: "nested-loop" }, on: binder.boolean(j.on, 0, "ON") };
  });
  const where = cmd.where === undefined ? undefined : all.boolean(cmd.where, 0, "WHERE");

  const columns: OutputColumn[] = [];
  if (cmd.columns === "*") {
    for (const s of sources) {
      const qualify = (c: string): string => (joins.length > 0 ? `${s.name}.${c}` : c);
      s.table.columns.forEach((c, column) => {
        const type = s.table.types[column] as ColumnType;
        columns.push({ name: qualify(c), expr: { kind: "column", source: s.index, column, name: qualify(c), type } });
      });
      for (const [c, expr] of s.table.computed) columns.push({ name: qualify(c), expr: all.bindComputed(s, expr) });
    }
  } else {
    if (cmd.columns.length === 0) throw new StoreError("invalid_request", "columns must name at least one column");
    for (const c of cmd.columns) columns.push({ name: c, expr: all.bind({ type: "identifier", name: c }) });
  }

  const orderBy: SortKey[] = (cmd.orderBy ?? []).map((o) => ({
    expr: all.bind({ type: "identifier", name: o.column }),
    direction: o.direction ?? "asc",
  }));

  const plan: SelectPlan = {
    kind: "select",
    sources: sources.map((s): Source => ({ table: s.table.name, name: s.name })),
    access: { kind: "scan" },
    joins: steps,
    ...(where === undefined ? {} : { where }),
    orderBy,
    ...(cmd.limit === undefined ? {} : { limit: checkCount(cmd.limit, "limit") }),
    ...(cmd.offset === undefined ? {} : { offset: checkCount(cmd.offset, "offset") }),
    output: cmd.output ?? "objects",
    columns,
  };
  return { statement: plan, params: params.list() };
}
