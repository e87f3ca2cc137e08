/**
 * Binds `insert`, `update` and `delete`: row keys and `set` columns resolve
 * to stored positions, insert rows become full-width in declaration order
 * (omitted columns take the default), `set` expressions and WHERE are bound
 * over the table's row (an UPDATE … FROM's over its join), and RETURNING as
 * a select list over the written row.
 *
 * A key that is no column is 422 `unknown_column`, a computed field 422
 * `computed_write`: these are row problems, reported all at once in the
 * error's `errors` list, not name-resolution errors.
 */

import type { DeleteCommand, Expression, InsertCommand, Join, OnConflict, Returning, SelectCommand, SetValue, SourceItem, UpdateCommand, Value, ValueOrParam } from "../commands/types.js";
import { StoreError, ValidationError, type ProblemEntry } from "../errors.js";
import { ExprBinder, type BindContext } from "./bind-expr.js";
import { bindJoins } from "./bind-join.js";
import { bindCalls } from "./bind-call.js";
import { bindColumns, bindSelectPlan, bindSources, checkDistinctNames, checkName, planSource, requireTable } from "./bind-select.js";
import type { Assignment, BoundExpr, ConflictPlan, InsertSelect, InsertValue, OutputColumn, Plan, RowSubquery, SelectPlan } from "./plan.js";
import { familyOf, typeOf, type Family } from "./static-types.js";
import { Scope, tableScope } from "./scope.js";
import type { Catalog, TableInfo } from "./table-info.js";
import { isSubquery, some, TRUE } from "./walk.js";

/** Shared: most insert cells of a wide batch are defaults; one frozen value serves them all. */
const DEFAULT: InsertValue = Object.freeze({ kind: "default" });

/**
 * Whether a written value is a parameter slot. Only lowered SQL (and the
 * fluent builder) carries slots; in a JSON command an object is just a value
 * outside every column type, reported as such when the row is checked.
 */
function isParam(v: ValueOrParam | SetValue, slots: boolean): v is { readonly type: "param"; readonly index: number } {
  return slots && typeof v === "object" && v !== null && v.type === "param" && Number.isSafeInteger(v.index) && v.index >= 0;
}

/** Checks one written column name; returns its position or records the problem. */
function writable(table: TableInfo, column: string, row: number | undefined, errors: ProblemEntry[]): number | undefined {
  const position = table.position.get(column);
  if (position !== undefined) return position;
  const at = row === undefined ? {} : { row };
  if (table.computed.has(column)) {
    errors.push({ table: table.name, ...at, column, code: "computed_write", message: `"${column}" is a computed field and cannot be written` });
  } else {
    errors.push({ table: table.name, ...at, column, code: "unknown_column", message: `Table "${table.name}" has no column "${column}"` });
  }
  return undefined;
}

/** The table an insert, update or delete writes, a `table_not_found` pointing where SQL text named it. */
function targetTable(catalog: Catalog, cmd: InsertCommand | UpdateCommand | DeleteCommand, context: BindContext): TableInfo {
  const read = (): TableInfo => requireTable(catalog, cmd.table);
  return context.spans === undefined ? read() : context.spans.at(cmd, read);
}

export function bindInsert(cmd: InsertCommand, catalog: Catalog, slots: boolean, context: BindContext): Plan {
  const table = targetTable(catalog, cmd, context);
  if ((cmd.rows === undefined) === (cmd.select === undefined)) throw new StoreError("invalid_request", "insert takes rows or a select, exactly one of the two");
  if (cmd.columns !== undefined && cmd.select === undefined) throw new StoreError("invalid_request", "insert: columns goes with select, not rows");
  const params = context.params;
  const source = cmd.rows !== undefined ? { rows: bindRows(table, cmd.rows, slots, context) } : { rows: [], select: bindInsertSelect(table, cmd.select!, cmd.columns, catalog, context) };
  const onConflict = cmd.onConflict === undefined ? {} : { onConflict: bindConflict(table, cmd.onConflict, slots, context) };
  const returning = bindReturning(table, cmd.returning, new ExprBinder(tableScope(table, false), context));
  return { statement: { kind: "insert", table: table.name, ...source, ...onConflict, ...returning }, params: params.list() };
}

/** Rows written out: full width, in declaration order, each column not given its default. */
function bindRows(table: TableInfo, written: NonNullable<InsertCommand["rows"]>, slots: boolean, context: BindContext): InsertValue[][] {
  if (written.length === 0) throw new StoreError("invalid_request", "insert needs at least one row");
  const params = context.params;
  const errors: ProblemEntry[] = [];
  const rows = written.map((row, r) => {
    const values: InsertValue[] = table.columns.map(() => DEFAULT);
    // Keys, then values by key: no [key, value] pair per cell in a bulk insert.
    for (const column of Object.keys(row)) {
      const value = row[column] as ValueOrParam;
      const position = writable(table, column, r, errors);
      if (position === undefined) continue;
      if (isParam(value, slots)) {
        params.use(value.index, { kind: "value", table: table.name, column, type: table.types[position] ?? "text" });
        values[position] = { kind: "param", index: value.index };
      } else {
        values[position] = { kind: "const", value: value as Value };
      }
    }
    return values;
  });
  if (errors.length > 0) throw new ValidationError(`Insert into "${table.name}" names columns it cannot write`, errors);
  return rows;
}

/**
 * INSERT … SELECT: the select bound as a statement of its own (its rows read
 * as arrays), each result column matched to the column `columns` lists at its
 * position, or to the column of its name. As in an update's `set`, a result
 * column whose family is known and not its column's is a 422 `type` problem
 * whatever rows the select returns, and a bare parameter takes its column's
 * type.
 */
function bindInsertSelect(table: TableInfo, select: SelectCommand, columns: readonly string[] | undefined, catalog: Catalog, context: BindContext): InsertSelect {
  const plan = bindSelectPlan({ ...select, output: "arrays" }, catalog, context);
  const results = plan.columns;
  if (columns !== undefined && columns.length !== results.length) {
    throw new StoreError(context.misuse, `The select returns ${results.length} column(s) but ${columns.length} column(s) are listed to insert into`);
  }
  const targets = columns ?? results.map((c) => c.name);
  const errors: ProblemEntry[] = [];
  const seen = new Set<string>();
  const positions = targets.map((column, i) => {
    if (seen.has(column)) throw new StoreError(context.misuse, `Column "${column}" is given twice: ${columns === undefined ? "rename a result column with as" : "list it once"}`);
    seen.add(column);
    const position = writable(table, column, undefined, errors);
    if (position === undefined) return -1;
    const type = table.types[position] ?? "text";
    const expr = (results[i] as OutputColumn).expr;
    const got = typeOf(expr);
    if (got === "unknown" && expr.kind === "param") context.params.use(expr.index, { kind: "value", table: table.name, column, type });
    else if (familyOf(got) !== undefined && familyOf(got) !== familyOf(type)) {
      errors.push({ table: table.name, column, code: "type", message: `"${column}" must be ${type}, got a result column of type ${got}` });
    }
    return position;
  });
  if (errors.length > 0) throw new ValidationError(`Insert into "${table.name}" cannot write what its select returns`, errors);
  return { plan, positions };
}

/**
 * An insert's conflict clause: its target must be the columns of the
 * primary key or of one unique key (in any order); DO UPDATE's `set` reads
 * the row already there (unqualified, or by the table's name) and the
 * proposed row as `excluded`.
 */
function bindConflict(table: TableInfo, clause: OnConflict, slots: boolean, context: BindContext): ConflictPlan {
  if (clause.action === "replace") {
    // A replace clears conflicts on every key; a target, set or where would say it does less.
    for (const field of ["target", "set", "where"] as const) {
      if (clause[field] !== undefined) throw new StoreError("invalid_request", `onConflict: action replace takes no ${field} (it replaces rows conflicting on any key)`);
    }
    return { action: "replace" };
  }
  let target: { target?: string } = {};
  if (clause.target !== undefined) {
    const columns = clause.target;
    for (const c of columns) if (!table.position.has(c)) throw new StoreError("unknown_column", `ON CONFLICT names unknown column "${c}" of "${table.name}"`);
    const key = table.keys.find(
      (k) => (k.kind === "primary" || k.kind === "unique") && k.columns.length === columns.length && new Set(columns).size === columns.length && columns.every((c) => k.columns.includes(c)),
    );
    if (key === undefined) {
      throw new StoreError(context.misuse, `ON CONFLICT (${columns.join(", ")}) is not the primary key or a unique key of "${table.name}"`);
    }
    target = { target: key.name };
  }
  if (clause.action === "nothing") {
    if (clause.set !== undefined) throw new StoreError("invalid_request", "onConflict: set goes with action update, not nothing");
    if (clause.where !== undefined) throw new StoreError("invalid_request", "onConflict: where goes with action update, not nothing");
    return { ...target, action: "nothing" };
  }
  if (clause.set === undefined || Object.keys(clause.set).length === 0) throw new StoreError("invalid_request", "onConflict: action update needs a set");
  const scope = new Scope([
    { table, name: table.name, index: 0 },
    { table, name: EXCLUDED, alias: EXCLUDED, index: 1, qualifiedOnly: true },
  ]);
  const errors: ProblemEntry[] = [];
  const setBinder = new ExprBinder(scope, context);
  const set = bindAssignments(table, clause.set, slots, setBinder, errors);
  if (errors.length > 0) throw new ValidationError(`The conflict update of "${table.name}" cannot write what its set says`, errors);
  for (const a of set) withoutSubquery(a.value, `ON CONFLICT … SET ${a.column}`, setBinder);
  if (clause.where === undefined) return { ...target, action: "update", set };
  const whereBinder = new ExprBinder(scope, context, "ON CONFLICT … WHERE");
  const where = withoutSubquery(whereBinder.boolean(clause.where, 0, "ON CONFLICT … WHERE"), "ON CONFLICT … WHERE", whereBinder);
  return { ...target, action: "update", set, where };
}

/** The name an upsert's `set` reads the proposed row by. */
const EXCLUDED = "excluded";

/**
 * The assignments of a `set`: a scalar is a constant and a slot a parameter,
 * each written as is; an object is an expression over the row before the
 * update, bound in `binder`'s scope. An expression whose family (text,
 * number, boolean) is known and not the column's is the same 422 `type`
 * problem a literal of that family is, whatever rows the update matches.
 */
export function bindAssignments(
  table: TableInfo,
  set: Readonly<Record<string, SetValue>>,
  slots: boolean,
  binder: ExprBinder,
  errors: ProblemEntry[],
): Assignment[] {
  const params = binder.params;
  const out: Assignment[] = [];
  for (const column of Object.keys(set)) {
    const value = set[column] as SetValue;
    const position = writable(table, column, undefined, errors);
    if (position === undefined) continue;
    const type = table.types[position] ?? "text";
    if (isParam(value, slots)) {
      params.use(value.index, { kind: "value", table: table.name, column, type });
      out.push({ column, position, value: { kind: "param", index: value.index } });
    } else if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      out.push(assignment(table, column, position, binder.bind(value as Expression), binder, errors));
    } else {
      out.push({ column, position, value: { kind: "const", value: value as Value } });
    }
  }
  return out;
}

/**
 * An expression's assignment to `column`: an expression whose family (text,
 * number, boolean) is known and not the column's is the same 422 `type`
 * problem a literal of that family is; one of unknown type is checked as it
 * is computed.
 */
function assignment(table: TableInfo, column: string, position: number, bound: BoundExpr, binder: ExprBinder, errors: ProblemEntry[]): Assignment {
  const type = table.types[position] ?? "text";
  const family = familyOf(type);
  const got = typeOf(bound);
  if (got === "unknown") bound = binder.expect(bound, family as Family, `SET ${column}`);
  else if (familyOf(got) !== undefined && familyOf(got) !== family) {
    errors.push({ table: table.name, column, code: "type", message: `"${column}" must be ${type}, got an expression of type ${got}` });
  }
  return { column, position, value: bound };
}

/**
 * An update's `setRows` (`SET (a, b) = (SELECT x, y …)`): each select bound
 * once as a row subquery of as many columns, each column assigned its
 * `row-column`; a column `set` or another row assigns too is refused.
 */
function bindRowAssignments(table: TableInfo, cmd: UpdateCommand, binder: ExprBinder, errors: ProblemEntry[]): { set: Assignment[]; rows: RowSubquery[] } {
  const set: Assignment[] = [];
  const rows: RowSubquery[] = [];
  const assigned = new Set(Object.keys(cmd.set));
  for (const row of cmd.setRows ?? []) {
    for (const column of row.columns) {
      if (assigned.has(column)) throw binder.misuse(`update: column "${column}" is assigned twice (set, setRows)`);
      assigned.add(column);
    }
    const { subquery, values } = binder.rowAssignment(row.select, row.columns, row);
    rows.push(subquery);
    row.columns.forEach((column, i) => {
      const position = writable(table, column, undefined, errors);
      if (position !== undefined) set.push(assignment(table, column, position, values[i]!, binder, errors));
    });
  }
  return { set, rows };
}

/**
 * An upsert's SET and WHERE are computed row by row between its writes, and
 * a write's RETURNING after them, where the executor runs no subquery (an
 * update's SET runs its own before any row changes, beside the WHERE's):
 * one there is refused when the statement is bound, never failing as it
 * runs.
 */
function withoutSubquery(bound: BoundExpr, where: string, binder: ExprBinder): BoundExpr {
  if (some(bound, isSubquery)) {
    throw binder.misuse(`${where} cannot hold a subquery: compute the value in a statement of its own`);
  }
  return bound;
}

/** RETURNING: the columns of a write's result, over the written rows of `table` (computed fields included). */
function bindReturning(table: TableInfo, returning: Returning | undefined, binder: ExprBinder): { returning?: readonly OutputColumn[] } {
  if (returning === undefined) return {};
  const columns = bindColumns(returning, [{ table, name: table.name, index: 0 }], binder);
  for (const c of columns) withoutSubquery(c.expr, "RETURNING", binder);
  checkDistinctNames(columns);
  return { returning: columns };
}

/**
 * The scope an update's SET and WHERE (without FROM) or a delete's WHERE
 * read: the written table, named by its alias when the statement gives one
 * (the alias checked as a name), as a select's FROM table is.
 */
function writtenScope(table: TableInfo, as: string | undefined): Scope {
  return as === undefined ? tableScope(table, false) : new Scope([{ table, name: as, index: 0, alias: checkName(as, "alias") }]);
}

export function bindUpdate(cmd: UpdateCommand, catalog: Catalog, slots: boolean, context: BindContext): Plan {
  const table = targetTable(catalog, cmd, context);
  if (cmd.joins !== undefined && cmd.from === undefined) throw new StoreError("invalid_request", "update: joins go with from, the source they join");
  // Made first: a bad alias is refused before FROM is bound.
  const own = writtenScope(table, cmd.as);
  const join = cmd.from === undefined ? undefined : bindUpdateJoin(cmd, cmd.from, catalog, context);
  const binder = new ExprBinder(join?.scope ?? own, context);
  const errors: ProblemEntry[] = [];
  const single = bindAssignments(table, cmd.set, slots, binder, errors);
  const byRow = bindRowAssignments(table, cmd, binder, errors);
  if (errors.length > 0) throw new ValidationError(`Update of "${table.name}" cannot write what its set says`, errors);
  const set = [...single, ...byRow.set];
  if (set.length === 0) throw new StoreError("invalid_request", "update needs at least one column in set");
  const where = binder.boolean(cmd.where, 0, "WHERE");
  // RETURNING reads the written row by the table's name, as in SQLite (not FROM's sources, nor the alias).
  const returning = bindReturning(table, cmd.returning, new ExprBinder(tableScope(table, false), context));
  const rows =
    join === undefined
      ? { access: { kind: "scan" } as const, where }
      : { access: { kind: "scan" } as const, where: TRUE, from: { ...join.select, where } };
  const subqueries = byRow.rows.length === 0 ? {} : { rows: byRow.rows };
  return { statement: { kind: "update", table: table.name, ...rows, set, ...subqueries, ...returning }, params: context.params.list() };
}

/**
 * UPDATE … FROM's join: `from` and its `joins` bound as a select's sources
 * (their conditions read only those), then the table joined to them last
 * with no condition of its own — the statement's WHERE is the join's, and
 * decides which pairs match — so a RIGHT or FULL join among FROM's sources
 * pairs each of its rows with the table's, as SQLite joins the table with
 * the FROM list as a whole. As in SQLite, no source of FROM may answer to
 * the table's name (its alias, else its own): alias it there.
 */
function bindUpdateJoin(cmd: UpdateCommand, from: SourceItem, catalog: Catalog, context: BindContext): { scope: Scope; select: SelectPlan } {
  const target: Join = { type: "cross", table: cmd.table, ...(cmd.as === undefined ? {} : { as: cmd.as }) };
  const joins = [...(cmd.joins ?? []), target];
  // FROM alone is no join: an unaliased derived table there is read by its columns' names (as in SQLite).
  const read: SelectCommand = { kind: "select", columns: "*", ...from, joins };
  context.spans?.copied(from, read);
  const sources = bindSources(read, catalog, context, joins.length - 1);
  const targetName = cmd.as ?? cmd.table;
  const clash = sources.slice(0, -1).find((s) => s.name === targetName);
  if (clash !== undefined) {
    // A derived or WITH table's own name is no name to write (`derivedTableName`): the one the statement gave it is.
    const written = clash.derived === undefined && clash.working === undefined ? clash.table.name : targetName;
    throw new StoreError(context.misuse, `"${targetName}" is the table updated: FROM names it again, so alias it there (FROM ${written} AS other)`);
  }
  const joined = bindJoins(joins, sources, context, undefined, sources.length - 1);
  const scope = new Scope(sources, false, joined.merged);
  const { calls, steps } = bindCalls([from, ...joins], sources, scope, joined.steps(), context, undefined);
  const select: SelectPlan = { kind: "select", sources: sources.map((s, i) => planSource(s, calls[i])), access: { kind: "scan" }, joins: steps, distinct: false, orderBy: [], output: "arrays", columns: [] };
  return { scope, select };
}

export function bindDelete(cmd: DeleteCommand, catalog: Catalog, context: BindContext): Plan {
  const table = targetTable(catalog, cmd, context);
  // RETURNING reads the deleted row by the table's name, as in SQLite.
  const where = new ExprBinder(writtenScope(table, cmd.as), context).boolean(cmd.where, 0, "WHERE");
  const returning = bindReturning(table, cmd.returning, new ExprBinder(tableScope(table, false), context));
  return { statement: { kind: "delete", table: table.name, access: { kind: "scan" }, where, ...returning }, params: context.params.list() };
}
