/**
 * SQL AST → wire command: the SQL surface's step into the one bind step.
 *
 * Every statement becomes the same command a JSON client would send
 * (`src/commands/types.ts`), with `{type:"param", index}` for each `?`, so
 * SQL, JSON and the fluent builder are bound, planned and executed by the
 * same code. Lowering checks only what the command form cannot express or
 * would silently lose — a duplicate column in an INSERT list or a CREATE
 * TABLE, VALUES of the wrong width, an unknown type name, two primary keys —
 * and names that break CONTRACT §1 (only a quoted identifier can). It raises
 * them with the position of the offending token; everything that needs the
 * catalog (tables, columns, types) is left to the binder, but for the one
 * thing the command form needs from it: the column list an INSERT leaves
 * out (`tableColumns`). Column names of
 * INSERT and SET are row keys, which the engine checks (422, as in JSON rows),
 * so they pass through as written — as own properties, even `__proto__`.
 */

import type {
  AggregateName,
  Collation,
  FrameAggregateName,
  AlterAction,
  Command,
  DeleteCommand,
  OnConflict,
  SetValue,
  UpdateCommand,
  RowAssignment as RowAssignmentCommand,
  CreateTableCommand,
  ColumnDefault as WireDefault,
  Expression,
  OrderBy,
  ParamSlot,
  SelectColumn,
  ForeignKey,
  InsertCommand,
  Join,
  SelectCommand,
  TableSchema,
  Value,
  ValueOrParam,
  ColumnType,
  Check,
  ExplainCommand,
  CompoundOperator,
  DerivedSource,
  FromSource,
  FrameBoundSpec,
  WindowFunctionName,
  WindowSpec as WindowSpecCommand,
} from "../commands/types.js";
import { IDENTIFIER_RULE, isValidIdentifier, quote } from "../commands/names.js";
import { SqlError, StoreError, assertNever, type SourcePosition } from "../errors.js";
import { requireTable } from "./bind-select.js";
import { SourceSpans } from "./source-spans.js";
import { isTableFunction } from "./table-functions.js";
import type { Catalog } from "./table-info.js";
import type {
  AlterAction as AlterActionStmt,
  CallExpr,
  SetOperator,
  Assignment,
  RowAssignment,
  ColumnRefExpr,
  Count,
  CreateTableStmt,
  ColumnDef,
  ColumnDefault,
  DeleteStmt,
  Expr,
  FromItem,
  InsertStmt,
  JoinClause,
  KeyColumn,
  Name,
  OrderItem,
  References,
  Returning,
  SelectItem,
  SourceStar,
  SelectStmt,
  Span,
  Statement,
  TypeName,
  UpdateStmt,
  ValueExpr,
  FrameEnd,
  ParamExpr,
  WindowDefinition,
  WindowSpec,
  WithClause,
} from "../parser/ast.js";
import { isTableFunctionRef } from "../parser/ast.js";

type Lowerable = SelectStmt | InsertStmt | UpdateStmt | DeleteStmt;

/**
 * Lowers one parsed statement to the command it means. Throws `sql_error` /
 * `invalid_name` with a position. `sources` receives where the command's
 * expressions and table names stand in the text, for the binder's errors.
 */
export function lowerSql(stmt: Statement, catalog?: Catalog, sources: SourceSpans = new SourceSpans()): Command {
  derivedTables = 0;
  spans = sources;
  switch (stmt.kind) {
    case "explain":
      return { kind: "explain", command: lowerQuery(stmt.statement, catalog) };
    case "create-table":
      return lowerCreateTable(stmt);
    case "drop-table":
      return stmt.ifExists ? { kind: "drop-table", table: name(stmt.table), ifExists: true } : { kind: "drop-table", table: name(stmt.table) };
    case "create-index": {
      const columns = keyNames(stmt.columns, "index");
      const index = stmt.unique ? { name: name(stmt.name), columns, unique: true } : { name: name(stmt.name), columns };
      return stmt.ifNotExists ? { kind: "create-index", table: name(stmt.table), index, ifNotExists: true } : { kind: "create-index", table: name(stmt.table), index };
    }
    case "drop-index":
      return stmt.ifExists ? { kind: "drop-index", name: name(stmt.name), ifExists: true } : { kind: "drop-index", name: name(stmt.name) };
    case "alter-table":
      return { kind: "alter-table", table: name(stmt.table), action: lowerAlterAction(stmt.action) };
    case "select":
    case "insert":
    case "update":
    case "delete":
      return lowerQuery(stmt, catalog);
    default:
      return assertNever(stmt, "statement");
  }
}

// ---------------------------------------------------------------- queries

/** A select or a write; a write's WITH tables are read where its FROM, select or subqueries name them, as a select's are. */
function lowerQuery(stmt: Lowerable, catalog: Catalog | undefined): ExplainCommand["command"] {
  switch (stmt.kind) {
    case "select":
      return lowerSelect(stmt);
    case "insert":
      return withCommonTables(stmt.with, () => spans.set(lowerInsert(stmt, catalog), stmt.table.span));
    case "update":
      return withCommonTables(stmt.with, () => lowerUpdate(stmt));
    case "delete":
      return withCommonTables(stmt.with, () => lowerDelete(stmt));
    default:
      return assertNever(stmt, "statement");
  }
}

/**
 * UPDATE … FROM: FROM's first source and its joins as a select's, the
 * table's alias as `as`. The table itself is never a WITH table: a WITH
 * table of its name is read only where FROM or a subquery names it, as in
 * SQLite.
 */
function lowerUpdate(stmt: UpdateStmt): UpdateCommand {
  const { set, setRows } = lowerAssignments(stmt.assignments, "SET");
  const alias = stmt.alias === undefined ? {} : { as: name(stmt.alias) };
  let from: Pick<UpdateCommand, "from" | "joins"> = {};
  if (stmt.from !== undefined) {
    const read = lowerFromItem(stmt.from);
    const joins = (stmt.joins ?? []).map(lowerJoin);
    from = { from: tableSpan({ ...read, ...aliasOf(stmt.from, read) }, stmt.from), ...(joins.length > 0 ? { joins } : {}) };
  }
  const rows = setRows.length === 0 ? {} : { setRows };
  const update: UpdateCommand = { kind: "update", table: name(stmt.table), ...alias, ...from, set, ...rows, where: stmt.where ? lowerExpr(stmt.where) : TRUE };
  return spans.set(withReturning(update, stmt.returning), stmt.table.span);
}

function lowerDelete(stmt: DeleteStmt): DeleteCommand {
  const alias = stmt.alias === undefined ? {} : { as: name(stmt.alias) };
  return spans.set(withReturning({ kind: "delete", table: name(stmt.table), ...alias, where: stmt.where ? lowerExpr(stmt.where) : TRUE }, stmt.returning), stmt.table.span);
}

const TRUE: Expression = { type: "literal", value: true };

const COMPOUND_OPS: Record<SetOperator, CompoundOperator> = { union: "union", "union all": "union-all", intersect: "intersect", except: "except" };

/**
 * A WITH table while its statement is lowered: not yet lowered (`LATER`),
 * being lowered (`Self`: whether its select read its own name yet), or
 * what a reference reads and how many derived tables that holds.
 */
type CommonTable = typeof LATER | Self | { readonly read: DerivedSource; readonly derived: number };
const LATER = Symbol("a WITH table after the one being lowered");
class Self {
  read = false;
}

/**
 * The WITH tables in scope while a statement is lowered, innermost last,
 * and how many derived tables its lowered form holds so far (a WITH table
 * counts once per reference, with those inside it: each reference is a
 * copy to bind and run). Lowering is synchronous, so one stack serves
 * every statement.
 */
const commonTables: Map<string, CommonTable>[] = [];
let derivedTables = 0;
/** The statement being lowered's spans (`lowerSql`'s `sources`). */
let spans = new SourceSpans();

/** Derived tables one statement may hold once WITH references are counted out, as SQLite bounds its FROM terms: past it, references that double at each level would grow without bound. */
const MAX_DERIVED_TABLES = 256;

/**
 * A select with a WITH clause: each table's select is lowered once, in
 * order (a table reads the ones before it; one after it is refused), and
 * every FROM or JOIN that names it, in the select or its subqueries, reads
 * that select as a derived table. A table that reads its own name, or
 * names its columns, is read as a WITH table (`{kind: "with"}`), which the
 * binder checks and runs as a recursion; RECURSIVE itself changes nothing,
 * as in SQLite.
 */
function lowerSelect(stmt: SelectStmt): SelectCommand {
  return withCommonTables(stmt.with, () => lowerSelectBody(stmt));
}

/** `lower` (a statement's body) with `clause`'s WITH tables in scope: see `lowerSelect`. */
function withCommonTables<T>(clause: WithClause | undefined, lower: () => T): T {
  if (clause === undefined) return lower();
  const scope = new Map<string, CommonTable>();
  for (const table of clause.tables) {
    const tableName = name(table.name);
    if (scope.has(tableName)) throw new SqlError("sql_error", `WITH names "${tableName}" twice`, at(table.name.span));
    scope.set(tableName, LATER);
  }
  commonTables.push(scope);
  try {
    for (const table of clause.tables) {
      const tableName = name(table.name);
      const self = new Self();
      scope.set(tableName, self);
      const before = derivedTables;
      const select = lowerSelect(table.select);
      const columns = table.columns === undefined ? {} : { columns: distinctNames(table.columns, `column list of WITH table ${tableName}`) };
      const read: DerivedSource = self.read || table.columns !== undefined ? { kind: "with", name: tableName, ...columns, select } : select;
      scope.set(tableName, { read, derived: derivedTables - before });
      derivedTables = before;
    }
    return lower();
  } finally {
    commonTables.pop();
  }
}

/** What a FROM or JOIN item reads: a table (a WITH table's own name, inside it), or a WITH table or a derived table (as `from`). */
function lowerFromItem(item: FromItem): { table: string } | { from: FromSource } {
  if ("select" in item) {
    countDerived(1, item.span);
    return { from: lowerSelect(item.select) };
  }
  if (isTableFunctionRef(item)) {
    const called = name(item.name);
    if (!isTableFunction(called)) throw new SqlError("sql_error", `No table function is named "${called}": FROM and JOIN call json_each or json_tree`, at(item.name.span));
    if (item.args.length < 1 || item.args.length > 2) throw new SqlError("sql_error", `${called}() takes a JSON document and, optionally, a path: got ${item.args.length} argument(s)`, at(item.span));
    return { from: { kind: "function", name: called, args: item.args.map(lowerExpr) } };
  }
  const tableName = name(item.name);
  for (let i = commonTables.length - 1; i >= 0; i--) {
    const common = commonTables[i]!.get(tableName);
    if (common === undefined) continue;
    if (common instanceof Self) {
      // Its recursion: the binder decides whether this is a place it may be read.
      common.read = true;
      return { table: tableName };
    }
    if (common === LATER) throw new SqlError("sql_error", `WITH table "${tableName}" is defined after the one reading it: a WITH table reads only those before it`, at(item.name.span));
    countDerived(1 + common.derived, item.span);
    return { from: common.read };
  }
  return { table: tableName };
}

function countDerived(n: number, span: Span): void {
  derivedTables += n;
  if (derivedTables > MAX_DERIVED_TABLES) {
    throw new SqlError("sql_error", `The statement reads more than ${MAX_DERIVED_TABLES} derived tables, counting a WITH table once per reference`, at(span));
  }
}

/** An item's alias; a WITH table read without one answers to its own name. */
function aliasOf(item: FromItem, read: { table: string } | { from: FromSource }): { as?: string } {
  if (item.alias !== undefined) return { as: name(item.alias) };
  return "from" in read && "name" in item && !isTableFunctionRef(item) ? { as: name(item.name) } : {};
}

/**
 * A join as the JSON command has it. CROSS JOIN with ON or USING is an
 * inner join, and JOIN with no condition a cross join, as in SQLite; an
 * outer join without a condition is refused (SQLite would join every
 * pair, which is never what an outer join is written for).
 */
function lowerJoin(join: JoinClause): Join {
  return tableSpan(lowerJoinItem(join), join.table);
}

/** `source`, when it reads a table by name, with the name's span (for `table_not_found`). */
function tableSpan<T extends object>(source: T, item: FromItem): T {
  return "table" in source && "name" in item ? spans.set(source, item.name.span) : source;
}

function lowerJoinItem(join: JoinClause): Join {
  const read = lowerFromItem(join.table);
  const source = { ...read, ...aliasOf(join.table, read) };
  const type = join.type === "cross" ? "inner" : join.type;
  if (join.natural === true) {
    if (join.on !== undefined || join.using !== undefined) throw new SqlError("sql_error", "A NATURAL join takes no ON or USING: it joins on every column both sides have", at(join.span));
    return { type, ...source, natural: true };
  }
  if (join.on !== undefined) return { type, ...source, on: lowerExpr(join.on) };
  if (join.using !== undefined) return { type, ...source, using: join.using.map(name) };
  if (type === "inner") return { type: "cross", ...source };
  // `LEFT JOIN json_each(t.tags) j`, as SQLite takes it: the binder pairs each row with its document's rows.
  if (type === "left" && "from" in read && read.from.kind === "function") return { type, ...source };
  throw new SqlError("sql_error", `${type.toUpperCase()} JOIN needs ON, USING or NATURAL`, at(join.span));
}

/**
 * The WINDOW definitions of each select being lowered, innermost last: an
 * OVER names one of its own select's. Each definition is resolved once,
 * when first named (`resolved`).
 */
interface WindowScope {
  readonly definitions: Map<string, WindowDefinition>;
  readonly resolved: Map<string, WindowSpecCommand>;
}
const windowScopes: WindowScope[] = [];

function lowerSelectBody(stmt: SelectStmt): SelectCommand {
  const definitions = new Map<string, WindowDefinition>();
  for (const definition of stmt.windows ?? []) {
    const windowName = name(definition.name);
    if (definitions.has(windowName)) throw new SqlError("sql_error", `WINDOW defines "${windowName}" twice`, at(definition.name.span));
    definitions.set(windowName, definition);
  }
  windowScopes.push({ definitions, resolved: new Map() });
  try {
    return lowerSelectParts(stmt);
  } finally {
    windowScopes.pop();
  }
}

function lowerSelectParts(stmt: SelectStmt): SelectCommand {
  const command: { -readonly [K in keyof SelectCommand]: SelectCommand[K] } = {
    kind: "select",
    columns: stmt.columns === "*" ? "*" : selectColumns(stmt.columns),
  };
  if (stmt.from) {
    const read = lowerFromItem(stmt.from);
    Object.assign(command, read, aliasOf(stmt.from, read));
    tableSpan(command, stmt.from);
  }
  if (stmt.joins.length > 0) {
    command.joins = stmt.joins.map(lowerJoin);
  }
  if (stmt.where) command.where = lowerExpr(stmt.where);
  if (stmt.groupBy.length > 0) command.groupBy = stmt.groupBy.map(lowerExpr);
  if (stmt.having) command.having = lowerExpr(stmt.having);
  if (stmt.distinct) command.distinct = true;
  if (stmt.compound) command.compound = stmt.compound.map((arm) => ({ op: COMPOUND_OPS[arm.operator], select: lowerSelect(arm.select) }));
  if (stmt.orderBy.length > 0) {
    command.orderBy = stmt.orderBy.map(lowerOrderItem);
  }
  // A negative LIMIT is none and a negative OFFSET 0, as in SQLite: the command carries neither (a JSON count is ≥ 0).
  if (stmt.limit !== undefined && !(typeof stmt.limit === "number" && stmt.limit < 0)) command.limit = lowerCount(stmt.limit);
  if (stmt.offset !== undefined && !(typeof stmt.offset === "number" && stmt.offset < 0)) command.offset = lowerCount(stmt.offset);
  return command;
}

/** A select list or RETURNING, with the span of each plain column name (a string in the command). */
function selectColumns(items: readonly (SelectItem | SourceStar)[]): SelectColumn[] {
  return spans.setItems(items.map(selectColumn), items.map((item) => ("star" in item ? item.star.span : item.expr.span)));
}

/** A plain column keeps the name as written; `t.*` is the command's own `t.*`; any other item is named by its alias, else by its text as written. */
function selectColumn(item: SelectItem | SourceStar): SelectColumn {
  if ("star" in item) return `${name(item.star)}.*`;
  if (item.expr.kind === "column" && !item.alias) return columnName(item.expr);
  return { expr: lowerExpr(item.expr), as: item.alias ? item.alias.text : item.text };
}

function lowerCount(count: Count): number | ParamSlot {
  return typeof count === "number" ? count : spans.set<ParamSlot>({ type: "param", index: count.index }, count.span);
}

function lowerInsert(stmt: InsertStmt, catalog: Catalog | undefined): InsertCommand {
  // One row of defaults: JSON's `rows: [{}]`.
  if (stmt.defaultValues) return withReturning({ kind: "insert", table: name(stmt.table), rows: [{}], ...lowerOnConflict(stmt) }, stmt.returning);
  const columns = stmt.columns ? distinctKeys(stmt.columns, "INSERT column list") : tableColumns(stmt, catalog);
  if (stmt.select !== undefined) {
    // Result columns go to the listed (or all the table's) columns by position, as in SQLite.
    const insert: InsertCommand = { kind: "insert", table: name(stmt.table), columns, select: lowerSelect(stmt.select), ...lowerOnConflict(stmt) };
    return withReturning(insert, stmt.returning);
  }
  for (const tuple of stmt.rows) {
    if (tuple.length !== columns.length) {
      const culprit = tuple[columns.length] ?? tuple[tuple.length - 1];
      const listed = stmt.columns ? `the column list has ${columns.length}` : `table ${name(stmt.table)} has ${columns.length} column(s) (${columns.join(", ")})`;
      throw new SqlError("sql_error", `VALUES has ${tuple.length} value(s) but ${listed}`, at(culprit ? culprit.span : stmt.table.span));
    }
  }
  if (!stmt.rows.every((tuple) => tuple.every(isValue))) {
    const insert: InsertCommand = { kind: "insert", table: name(stmt.table), columns, select: valuesSelect(stmt.rows, columns), ...lowerOnConflict(stmt) };
    return withReturning(insert, stmt.returning);
  }
  const rows = stmt.rows.map((tuple) => {
    const row: Record<string, ValueOrParam> = {};
    tuple.forEach((value, i) => define(row, columns[i] as string, lowerValue(value as ValueExpr)));
    return row;
  });
  const insert: InsertCommand = { kind: "insert", table: name(stmt.table), rows, ...lowerOnConflict(stmt) };
  return withReturning(insert, stmt.returning);
}

const isValue = (e: Expr): e is ValueExpr => e.kind === "literal" || e.kind === "param";

/** Whether a lowered expression aggregates at its own level (a subquery's select aggregates its own rows). */
function holdsAggregate(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(holdsAggregate);
  if (typeof node !== "object" || node === null) return false;
  const record = node as Record<string, unknown>;
  return record["type"] === "aggregate" || record["type"] === "window" || Object.keys(record).some((key) => key !== "select" && holdsAggregate(record[key]));
}

/**
 * VALUES tuples of which one computes (`lower(?)`, `2 * 3`, a scalar
 * subquery), as the select they stand for: each tuple a select without
 * FROM, joined by UNION ALL in order, inserted by position.
 */
function valuesSelect(tuples: readonly (readonly Expr[])[], columns: readonly string[]): SelectCommand {
  const item = (e: Expr): Expression => {
    const expr = lowerExpr(e);
    // A select without FROM would aggregate its one row; VALUES has no rows to aggregate (SQLite: misuse).
    if (holdsAggregate(expr)) throw new SqlError("sql_error", "VALUES cannot hold an aggregate or a window function: there are no rows to aggregate", at(e.span));
    return expr;
  };
  const select = (tuple: readonly Expr[]): SelectCommand => ({ kind: "select", columns: tuple.map((e, i) => ({ expr: item(e), as: columns[i] as string })) });
  const [first, ...rest] = tuples.map(select);
  return rest.length === 0 ? (first as SelectCommand) : { ...(first as SelectCommand), compound: rest.map((arm) => ({ op: "union-all", select: arm })) };
}

/**
 * The columns an INSERT without a list fills: the table's stored columns in
 * their order (computed ones have no value to give), as SQLite's. The only
 * lowering that reads the catalog; the engine's cache of lowered statements
 * is cleared by every schema change, so the list never goes stale.
 */
function tableColumns(stmt: InsertStmt, catalog: Catalog | undefined): readonly string[] {
  if (catalog === undefined) throw new SqlError("sql_error", "INSERT needs a column list here: INSERT INTO t (a, b) VALUES (...)", at(stmt.table.span));
  return requireTable(catalog, name(stmt.table), at(stmt.table.span).position).columns;
}

/** ON CONFLICT; INSERT OR IGNORE, which is ON CONFLICT DO NOTHING on any key; INSERT OR REPLACE, the conflict action `replace`. */
function lowerOnConflict(stmt: InsertStmt): { onConflict?: OnConflict } {
  const clause = stmt.onConflict;
  if (stmt.or !== undefined) {
    const or = stmt.or === "ignore" ? "INSERT OR IGNORE" : "INSERT OR REPLACE";
    if (clause) throw new SqlError("sql_error", `${or} takes no ON CONFLICT clause: it acts on a conflict on any key`, at(clause.span));
    return { onConflict: { action: stmt.or === "ignore" ? "nothing" : "replace" } };
  }
  if (clause === undefined) return {};
  const target = clause.target === undefined ? {} : { target: keyNames(clause.target, "ON CONFLICT target") };
  if (clause.action === "nothing") return { onConflict: { ...target, action: "nothing" } };
  const where = clause.where === undefined ? {} : { where: lowerExpr(clause.where) };
  return { onConflict: { ...target, action: "update", set: lowerAssignments(clause.assignments, "ON CONFLICT … SET").set, ...where } };
}

/** The command with its `returning`, when the statement has a RETURNING clause. */
function withReturning<C extends InsertCommand | UpdateCommand | DeleteCommand>(command: C, returning: Returning | undefined): C {
  if (returning === undefined) return command;
  return { ...command, returning: returning.items === "*" ? "*" : selectColumns(returning.items) };
}

/**
 * A SET list: a literal or `?` is a value, as JSON writes one; any other
 * expression is an expression over the row before the update. `(a, b) =
 * (x, y)` is an assignment per column; `(a, b) = (SELECT x, y …)` one of
 * `setRows` (the subquery once for its columns), which an upsert's SET
 * (`clause`) cannot hold, as it holds no subquery.
 */
function lowerAssignments(assignments: readonly Assignment[], clause: "SET" | "ON CONFLICT … SET"): { set: Record<string, SetValue>; setRows: RowAssignmentCommand[] } {
  distinctKeys(
    assignments.flatMap((assignment) => ("column" in assignment ? [assignment.column] : assignment.columns)),
    "SET list",
  );
  const set: Record<string, SetValue> = {};
  const setRows: RowAssignmentCommand[] = [];
  for (const assignment of assignments) {
    if ("column" in assignment) define(set, assignment.column.text, setValue(assignment.value));
    else if (assignment.value.kind !== "subquery") rowValues(assignment).forEach((value, i) => define(set, assignment.columns[i]!.text, value));
    else if (clause === "SET") setRows.push(spans.set({ columns: assignment.columns.map((c) => c.text), select: lowerSelect(assignment.value.select) }, assignment.value.span));
    else throw new SqlError("sql_error", `${clause} ${rowText(assignment)} = (SELECT …) cannot hold a subquery: compute the values in a statement of its own`, at(assignment.value.span));
  }
  return { set, setRows };
}

function setValue(value: Expr): SetValue {
  return value.kind === "literal" || value.kind === "param" ? lowerValue(value) : lowerExpr(value);
}

/** `(a, b)` as written in SET. */
function rowText(assignment: RowAssignment): string {
  return `(${assignment.columns.map((c) => c.text).join(", ")})`;
}

/** `(a, b) = (x, y)`: each column its value, as many values as columns (a subquery's are counted when bound, `*` included). */
function rowValues(assignment: RowAssignment): SetValue[] {
  const { columns, value } = assignment;
  const n = columns.length;
  if (value.kind !== "row") throw new SqlError("sql_error", `SET ${rowText(assignment)} = … assigns ${n} columns one value: write a row value (x, y, …) or a subquery (SELECT x, y, …)`, at(value.span));
  if (value.items.length !== n) throw new SqlError("sql_error", `SET ${rowText(assignment)} = … assigns ${n} columns ${value.items.length} values`, at(value.span));
  return value.items.map(setValue);
}

function lowerValue(value: ValueExpr): ValueOrParam {
  return value.kind === "param" ? { type: "param", index: value.index } : value.value;
}

// ---------------------------------------------------------------- create table

const TYPES: Readonly<Record<string, readonly [ColumnType, number]>> = {
  // type name → [column type, how many arguments it may take]
  TEXT: ["text", 0],
  VARCHAR: ["text", 1],
  CHAR: ["text", 1],
  INT: ["integer", 0],
  INTEGER: ["integer", 0],
  BIGINT: ["integer", 0],
  SMALLINT: ["integer", 0],
  REAL: ["real", 0],
  FLOAT: ["real", 1],
  DOUBLE: ["real", 0],
  NUMERIC: ["real", 2],
  DECIMAL: ["real", 2],
  BOOL: ["boolean", 0],
  BOOLEAN: ["boolean", 0],
};

function columnType(type: TypeName): ColumnType {
  const key = type.name.toUpperCase();
  const entry = Object.hasOwn(TYPES, key) ? TYPES[key] : undefined;
  if (!entry) {
    throw new SqlError("sql_error", `Unknown type ${type.name}: use TEXT, VARCHAR, CHAR, INTEGER, INT, BIGINT, SMALLINT, REAL, FLOAT, DOUBLE, NUMERIC, DECIMAL or BOOLEAN`, at(type.span));
  }
  if (type.args.length > entry[1]) {
    throw new SqlError("sql_error", `Type ${type.name} takes at most ${entry[1]} argument(s)`, at(type.span));
  }
  return entry[0];
}

function lowerCreateTable(stmt: CreateTableStmt): CreateTableCommand {
  if (stmt.as !== undefined) {
    const command = { kind: "create-table", table: name(stmt.table), select: lowerSelect(stmt.as) } as const;
    return stmt.ifNotExists ? { ...command, ifNotExists: true } : command;
  }
  const columns: Record<string, ColumnType> = {};
  const required: string[] = [];
  const unique: { columns: string[] }[] = [];
  const foreignKeys: ForeignKey[] = [];
  const checks: Check[] = [];
  const defaults: Record<string, WireDefault> = {};
  let primaryKey: { columns: string[] } | undefined;

  const setPrimaryKey = (names: string[], span: Span): void => {
    if (primaryKey) {
      throw new SqlError("sql_error", "A table has at most one PRIMARY KEY", at(span));
    }
    primaryKey = { columns: names };
  };

  distinctNames(
    stmt.columns.map((column) => column.name),
    "column list",
  );
  for (const column of stmt.columns) {
    const columnName = name(column.name);
    columns[columnName] = columnType(column.type);
    binaryColumn(column);
    if (column.primaryKey) setPrimaryKey([columnName], column.span);
    if (column.notNull) required.push(columnName);
    if (column.unique) unique.push({ columns: [columnName] });
    if (column.default) defaults[columnName] = lowerDefault(column.default);
    if (column.references) foreignKeys.push(foreignKey([columnName], column.references, column.span));
  }
  for (const constraint of stmt.constraints) {
    switch (constraint.kind) {
      case "primary-key":
        setPrimaryKey(keyNames(constraint.columns, "PRIMARY KEY"), constraint.span);
        break;
      case "unique":
        unique.push({ columns: keyNames(constraint.columns, "UNIQUE") });
        break;
      case "foreign-key":
        foreignKeys.push(foreignKey(distinctNames(constraint.columns, "FOREIGN KEY"), constraint.references, constraint.span));
        break;
      case "check":
        checks.push(constraint.name ? { name: name(constraint.name), expr: lowerExpr(constraint.expr) } : { expr: lowerExpr(constraint.expr) });
        break;
      default:
        assertNever(constraint, "table constraint");
    }
  }

  const schema: { -readonly [K in keyof TableSchema]: TableSchema[K] } = { name: name(stmt.table), columns };
  if (required.length > 0) schema.required = required;
  if (primaryKey) schema.primary_key = primaryKey;
  if (unique.length > 0) schema.unique = unique;
  if (foreignKeys.length > 0) schema.foreign_keys = foreignKeys;
  if (checks.length > 0) schema.checks = checks;
  if (Object.keys(defaults).length > 0) schema.defaults = defaults;
  return stmt.ifNotExists ? { kind: "create-table", schema, ifNotExists: true } : { kind: "create-table", schema };
}

/** The expression a DEFAULT holds, for counting its parameters. */
function defaultExpr(d: ColumnDefault | undefined): Expr | undefined {
  return d === undefined || d.kind === "current" ? undefined : d.kind === "default-expr" ? d.expr : d;
}

/** The SQL functions SQLite's clock names stand for. */
const CLOCK_FUNCTIONS = { timestamp: "datetime", date: "date", time: "time" } as const;
const CLOCK_NAMES: Readonly<Record<string, keyof typeof CLOCK_FUNCTIONS>> = { CURRENT_TIMESTAMP: "timestamp", CURRENT_DATE: "date", CURRENT_TIME: "time" };

/** An unquoted, unqualified CURRENT_TIMESTAMP, CURRENT_DATE or CURRENT_TIME is SQL's clock, in any expression (a column of that name is written quoted, as in SQLite). */
function clockOf(ref: ColumnRefExpr): Expression | undefined {
  if (ref.table !== undefined || ref.name.quoted) return undefined;
  const which = CLOCK_NAMES[ref.name.text.toUpperCase()];
  return which === undefined ? undefined : { type: "function", name: CLOCK_FUNCTIONS[which], args: [{ type: "literal", value: "now" }] };
}

/**
 * A DEFAULT as a schema holds it: a literal (also in parentheses) is a
 * value; CURRENT_TIMESTAMP is `datetime('now')` (CURRENT_DATE `date`,
 * CURRENT_TIME `time`), as in SQLite; any other expression is `{"expr"}`.
 */
function lowerDefault(d: ColumnDefault): WireDefault {
  switch (d.kind) {
    case "literal":
      return d.value;
    case "current":
      return { expr: { type: "function", name: CLOCK_FUNCTIONS[d.which], args: [{ type: "literal", value: "now" }] } };
    case "default-expr":
      if (d.expr.kind === "literal") return d.expr.value;
      if (d.expr.kind === "param") throw new SqlError("sql_error", "A DEFAULT cannot take a parameter: a schema keeps no values from outside", at(d.expr.span));
      return { expr: lowerExpr(d.expr) };
    default:
      return assertNever(d, "default");
  }
}

function lowerAlterAction(action: AlterActionStmt): AlterAction {
  switch (action.kind) {
    case "add-column": {
      const column = action.column;
      // As SQLite: a column added to rows that exist cannot be a key or point at one.
      if (column.primaryKey || column.unique || column.references) {
        throw new SqlError("sql_error", "ADD COLUMN takes a type, NOT NULL and DEFAULT only: add a key with CREATE UNIQUE INDEX", at(column.span));
      }
      binaryColumn(column);
      const added = { type: "add-column" as const, column: name(column.name), columnType: columnType(column.type) };
      const fallback = column.default === undefined ? undefined : lowerDefault(column.default);
      // As SQLite: the rows there take the default when the column is added, so it must be one value.
      if (typeof fallback === "object" && fallback !== null) {
        throw new SqlError("sql_error", "ADD COLUMN cannot take a default computed per row (CURRENT_TIMESTAMP or an expression), as in SQLite: add the column, then UPDATE it", at(column.default!.span));
      }
      return {
        ...added,
        ...(fallback !== undefined ? { default: fallback } : {}),
        ...(column.notNull ? { required: true } : {}),
      };
    }
    case "drop-column":
      return { type: "drop-column", column: name(action.column) };
    case "rename-column":
      return { type: "rename-column", from: name(action.from), to: name(action.to) };
    case "rename-table":
      return { type: "rename-table", to: name(action.to) };
    default:
      return assertNever(action, "alter-table action");
  }
}

function foreignKey(columns: string[], references: References, span: Span): ForeignKey {
  if (references.columns.length === 0) {
    throw new SqlError("sql_error", "REFERENCES needs the referenced column list: REFERENCES t(c)", at(references.span));
  }
  if (references.columns.length !== columns.length) {
    throw new SqlError(
      "sql_error",
      `FOREIGN KEY has ${columns.length} column(s) but REFERENCES names ${references.columns.length}`,
      at(span),
    );
  }
  const target = { table: name(references.table), columns: distinctNames(references.columns, "REFERENCES") };
  return references.onDelete ? { columns, references: target, on_delete: references.onDelete } : { columns, references: target };
}

// ---------------------------------------------------------------- expressions and names

/** The parser bounds nesting at 256 levels, so recursion here is safe. */
/** `expr` as the command's expression, its span recorded (`spans`). */
function lowerExpr(expr: Expr): Expression {
  return spans.set(lowerExprNode(expr), expr.span);
}

function lowerExprNode(expr: Expr): Expression {
  switch (expr.kind) {
    case "literal":
      // JSON cannot say "7, but real": a whole number written as a real is a cast of the literal.
      return expr.real === true && Number.isInteger(expr.value)
        ? { type: "cast", expr: { type: "literal", value: expr.value }, as: "real" }
        : { type: "literal", value: expr.value };
    case "param":
      return { type: "param", index: expr.index };
    case "column":
      return clockOf(expr) ?? { type: "identifier", name: columnName(expr) };
    case "comparison":
      return { type: "comparison", op: expr.op, left: lowerExpr(expr.left), right: lowerExpr(expr.right) };
    case "is-null":
      return expr.not ? { type: "is-null", expr: lowerExpr(expr.expr), not: true } : { type: "is-null", expr: lowerExpr(expr.expr) };
    case "and":
      return { type: "and", operands: expr.operands.map(lowerExpr) };
    case "or":
      return { type: "or", operands: expr.operands.map(lowerExpr) };
    case "not":
      // NOT EXISTS is the JSON form's `exists` with `not`, so both surfaces plan it alike.
      if (expr.expr.kind === "exists") return { type: "exists", select: lowerSelect(expr.expr.select), not: true };
      return { type: "not", expr: lowerExpr(expr.expr) };
    case "binary":
      return { type: "binary", op: expr.op, left: lowerExpr(expr.left), right: lowerExpr(expr.right) };
    case "negate":
      return { type: "negate", expr: lowerExpr(expr.expr) };
    case "in": {
      const lowered: Expression = expr.select
        ? { type: "in", expr: lowerExpr(expr.expr), select: lowerSelect(expr.select) }
        : { type: "in", expr: lowerExpr(expr.expr), values: expr.values.map(lowerExpr) };
      return expr.not ? { ...lowered, not: true } : lowered;
    }
    case "subquery":
      return { type: "subquery", select: lowerSelect(expr.select) };
    case "exists":
      return { type: "exists", select: lowerSelect(expr.select) };
    case "between": {
      const lowered: Expression = { type: "between", expr: lowerExpr(expr.expr), low: lowerExpr(expr.low), high: lowerExpr(expr.high) };
      return expr.not ? { ...lowered, not: true } : lowered;
    }
    case "like": {
      const base = { type: "like" as const, expr: lowerExpr(expr.expr), pattern: lowerExpr(expr.pattern) };
      const withEscape = expr.escape === undefined ? base : { ...base, escape: escapeOf(expr.escape) };
      return expr.not ? { ...withEscape, not: true } : withEscape;
    }
    case "glob": {
      const lowered: Expression = { type: "glob", expr: lowerExpr(expr.expr), pattern: lowerExpr(expr.pattern) };
      return expr.not ? { ...lowered, not: true } : lowered;
    }
    case "collate":
      return { type: "collate", expr: lowerExpr(expr.expr), collation: collationNamed(expr.collation) };
    case "case": {
      const lowered: { -readonly [K in keyof Extract<Expression, { type: "case" }>]: Extract<Expression, { type: "case" }>[K] } = {
        type: "case",
        when: expr.whens.map((w) => ({ when: lowerExpr(w.when), then: lowerExpr(w.then) })),
      };
      if (expr.operand) lowered.operand = lowerExpr(expr.operand);
      if (expr.else) lowered.else = lowerExpr(expr.else);
      return lowered;
    }
    case "cast":
      return { type: "cast", expr: lowerExpr(expr.expr), as: columnType(expr.type) };
    case "call":
      return lowerCall(expr);
    case "row":
      return { type: "row", items: expr.items.map(lowerExpr) };
    default:
      return assertNever(expr, "expression");
  }
}

const AGGREGATES: ReadonlySet<string> = new Set<FrameAggregateName>(["count", "sum", "total", "avg", "min", "max", "group_concat"]);

/** SQLite's JSON aggregates: `json_group_array(x)`, `json_group_object(name, value)`; not over a window here. */
const JSON_AGGREGATES: ReadonlySet<string> = new Set<AggregateName>(["json_group_array", "json_group_object"]);

function lowerJsonAggregate(call: CallExpr, name: "json_group_array" | "json_group_object"): Expression {
  const count = name === "json_group_array" ? 1 : 2;
  if (call.star || call.args.length !== count) throw new SqlError("sql_error", `${name}() takes ${count} argument${count === 1 ? "" : "s"}, got ${call.star ? "*" : call.args.length}`, at(call.span));
  if (call.distinct) throw new SqlError("sql_error", `${name}() cannot take DISTINCT`, at(call.span));
  const [arg, value] = call.args.map(lowerExpr);
  return value === undefined ? { type: "aggregate", name, arg: arg! } : { type: "aggregate", name, arg: arg!, value };
}

/**
 * `group_concat(x [, separator])` (SQLite) and `string_agg(x, separator)`
 * (PostgreSQL, SQLite 3.44): one aggregate. The separator is a string
 * literal, fixed for the statement.
 */
function lowerGroupConcat(call: CallExpr, name: string): Expression {
  const [first, second] = call.args;
  const least = name === "string_agg" ? 2 : 1;
  if (call.star || first === undefined || call.args.length < least || call.args.length > 2) {
    throw new SqlError("sql_error", `${name}() takes ${name === "string_agg" ? "2 arguments (a value and a separator)" : "1 or 2 arguments (a value, then a separator)"}`, at(call.span));
  }
  let separator: { separator?: string } = {};
  if (second !== undefined) {
    if (second.kind !== "literal" || typeof second.value !== "string") throw new SqlError("sql_error", `${name}()'s separator is a string literal`, at(second.span));
    separator = { separator: second.value };
  }
  const arg = lowerExpr(first);
  return { type: "aggregate", name: "group_concat", arg, ...(call.distinct ? { distinct: true } : {}), ...separator };
}

const WINDOW_FUNCTIONS: ReadonlySet<string> = new Set<WindowFunctionName>([
  "row_number",
  "rank",
  "dense_rank",
  "percent_rank",
  "cume_dist",
  "ntile",
  "lag",
  "lead",
  "first_value",
  "last_value",
  "nth_value",
]);

/**
 * `f(…) OVER …`: a window function, or an aggregate over a window
 * (`count(*)`, `group_concat(x, ', ')` and `string_agg` as without OVER).
 * A named window is looked up among its select's WINDOW definitions.
 */
function lowerWindowCall(call: CallExpr, over: NonNullable<CallExpr["over"]>): Expression {
  const lower = call.name.text.toLowerCase();
  if (call.distinct) throw new SqlError("sql_error", `${call.name.text}() OVER (…) cannot take DISTINCT: window functions do not support it`, at(call.span));
  const window = "spec" in over ? resolveWindow(over.spec) : resolveWindow(namedWindow(over.name).spec);
  if (lower === "group_concat" || lower === "string_agg") {
    const aggregate = lowerGroupConcat(call, lower) as Extract<Expression, { type: "aggregate" }>;
    return { type: "window", name: "group_concat", args: [aggregate.arg!], ...(aggregate.separator === undefined ? {} : { separator: aggregate.separator }), over: window };
  }
  if (call.star && lower !== "count") throw new SqlError("sql_error", `${call.name.text}(*) does not exist: only count takes *`, at(call.span));
  if (JSON_AGGREGATES.has(lower)) throw new SqlError("sql_error", `${call.name.text}() OVER (…) is not supported: ${lower}() aggregates GROUP BY groups, not window frames`, at(call.span));
  if (!AGGREGATES.has(lower) && !WINDOW_FUNCTIONS.has(lower)) {
    throw new SqlError("sql_error", `${call.name.text}() is not a window function: OVER goes with the ranking and value functions and the aggregates`, at(call.span));
  }
  return { type: "window", name: lower as WindowFunctionName | FrameAggregateName, args: call.args.map(lowerExpr), over: window };
}

function namedWindow(windowName: Name): WindowDefinition {
  const definition = windowScopes[windowScopes.length - 1]?.definitions.get(name(windowName));
  if (definition === undefined) throw new SqlError("sql_error", `No window named "${name(windowName)}": define it in the select's WINDOW clause`, at(windowName.span));
  return definition;
}

/**
 * A window with its base window's parts filled in, as SQLite does: the
 * base gives PARTITION BY, and ORDER BY unless the window has its own; a
 * window that names a base adds no PARTITION BY, no ORDER BY over the
 * base's, and extends no base that has a frame. A chain of bases is
 * followed in a loop, each definition resolved once for its select.
 */
function resolveWindow(spec: WindowSpec): WindowSpecCommand {
  const scope = windowScopes[windowScopes.length - 1]!;
  // The chain from `spec` down to the first window that is resolved or names no base.
  const chain: { spec: WindowSpec; name?: string }[] = [{ spec }];
  const seen = new Set<string>();
  let base: WindowSpecCommand | undefined;
  for (let current = spec; current.base !== undefined; ) {
    const baseName = name(current.base);
    if (seen.has(baseName)) throw new SqlError("sql_error", `Window "${baseName}" is defined through itself`, at(current.base.span));
    seen.add(baseName);
    base = scope.resolved.get(baseName);
    if (base !== undefined) break;
    current = namedWindow(current.base).spec;
    chain.push({ spec: current, name: baseName });
  }
  for (let k = chain.length - 1; k >= 0; k--) {
    const { spec: next, name: defined } = chain[k]!;
    let resolved: WindowSpecCommand;
    if (next.base === undefined) resolved = windowParts(next.partitionBy, next.orderBy, next);
    else {
      const baseName = name(next.base);
      const definition = namedWindow(next.base).spec;
      const refuse = (part: string): SqlError => new SqlError("sql_error", `A window based on "${baseName}" cannot override its ${part}`, at(next.span));
      if (next.partitionBy.length > 0) throw refuse("PARTITION BY");
      if (next.orderBy.length > 0 && definition.orderBy.length > 0) throw refuse("ORDER BY");
      if (definition.frame !== undefined) throw refuse("frame");
      resolved = { ...base!, ...windowParts([], next.orderBy, next) };
    }
    if (defined !== undefined) scope.resolved.set(defined, resolved);
    base = resolved;
  }
  return base!;
}

function windowParts(partitionBy: WindowSpec["partitionBy"], orderBy: WindowSpec["orderBy"], spec: WindowSpec): WindowSpecCommand {
  const frame = spec.frame;
  return {
    ...(partitionBy.length > 0 ? { partitionBy: partitionBy.map(lowerExpr) } : {}),
    ...(orderBy.length > 0 ? { orderBy: orderBy.map(lowerOrderItem) } : {}),
    ...(frame === undefined
      ? {}
      : {
          frame: {
            units: frame.units,
            start: frameBound(frame.start),
            ...(frame.end === undefined ? {} : { end: frameBound(frame.end) }),
            ...(frame.exclude === undefined ? {} : { exclude: frame.exclude }),
          },
        }),
  };
}

function frameOffset(offset: number | ParamExpr): number | ParamSlot {
  return typeof offset === "number" ? offset : { type: "param", index: offset.index };
}

function frameBound(end: FrameEnd): FrameBoundSpec {
  switch (end.kind) {
    case "unbounded-preceding":
      return "unbounded preceding";
    case "current-row":
      return "current row";
    case "unbounded-following":
      return "unbounded following";
    case "preceding":
      return { preceding: frameOffset(end.offset) };
    case "following":
      return { following: frameOffset(end.offset) };
    default:
      return assertNever(end, "frame bound");
  }
}

/**
 * A call is an aggregate when it names one (any case): `count(*)`, or one
 * argument with or without DISTINCT; anything else is a function, for which
 * `*` and DISTINCT mean nothing. With OVER it is a window function.
 */
function lowerCall(call: CallExpr): Expression {
  const lowered = lowerPlainCall(call);
  return call.filter === undefined ? lowered : withFilter(call, call.filter, lowered);
}

/**
 * `FILTER (WHERE …)` on the aggregate, or aggregate over a window, a call
 * lowered to; on anything else SQLite's refusals, at the clause.
 */
function withFilter(call: CallExpr, filter: NonNullable<CallExpr["filter"]>, lowered: Expression): Expression {
  if (lowered.type === "aggregate" || (lowered.type === "window" && AGGREGATES.has(lowered.name))) return { ...lowered, filter: lowerExpr(filter.where) };
  const message =
    lowered.type === "window"
      ? `FILTER goes only with aggregate window functions (count, sum, total, avg, min, max, group_concat), not ${call.name.text}()`
      : `FILTER may not be used with non-aggregate ${call.name.text}(): it goes with the aggregates (count, sum, total, avg, min, max, group_concat, json_group_array, json_group_object)`;
  throw new SqlError("sql_error", message, at(filter.span));
}

function lowerPlainCall(call: CallExpr): Expression {
  if (call.over !== undefined) return lowerWindowCall(call, call.over);
  const name = call.name.text.toLowerCase();
  if (name === "group_concat" || name === "string_agg") return lowerGroupConcat(call, name);
  if (JSON_AGGREGATES.has(name)) return lowerJsonAggregate(call, name as "json_group_array" | "json_group_object");
  // min and max of two arguments or more compare them, as in SQLite.
  if (AGGREGATES.has(name) && !((name === "min" || name === "max") && call.args.length >= 2 && !call.star && !call.distinct)) {
    const aggregate = name as AggregateName;
    if (call.star) {
      if (aggregate !== "count") throw new SqlError("sql_error", `${aggregate}(*) does not exist: only count takes *`, at(call.span));
      return { type: "aggregate", name: aggregate };
    }
    if (call.args.length !== 1) {
      throw new SqlError("sql_error", `${aggregate}() takes 1 argument${aggregate === "count" ? " or *" : ""}, got ${call.args.length}`, at(call.span));
    }
    const arg = lowerExpr(call.args[0]!);
    return call.distinct ? { type: "aggregate", name: aggregate, arg, distinct: true } : { type: "aggregate", name: aggregate, arg };
  }
  if (call.star || call.distinct) throw new SqlError("sql_error", `${call.name.text}() is no aggregate: * and DISTINCT go with count, sum, avg, min and max`, at(call.span));
  return { type: "function", name: call.name.text, args: call.args.map(lowerExpr) };
}

/** ESCAPE takes a string literal or `?`: the JSON form holds a one-character string, checked by the binder. */
function escapeOf(escape: Expr): string | ParamSlot {
  if (escape.kind === "param") return { type: "param", index: escape.index };
  if (escape.kind === "literal" && typeof escape.value === "string") return escape.value;
  throw new SqlError("sql_error", "ESCAPE takes a string literal or ?", at(escape.span));
}

function columnName(ref: ColumnRefExpr): string {
  return ref.table ? `${name(ref.table)}.${name(ref.name)}` : name(ref.name);
}

/** A name as written, checked against CONTRACT §1 (only a quoted identifier can break it). */
function name(n: Name): string {
  if (!isValidIdentifier(n.text)) {
    throw new StoreError(
      "invalid_name",
      `Invalid name ${quote(n.text)}: ${IDENTIFIER_RULE}`,
      at(n.span),
    );
  }
  return n.text;
}

/** The names of a list, checked and free of duplicates (a duplicate would silently merge in an object). */
function distinctNames(list: readonly Name[], what: string): string[] {
  list.forEach(name);
  return distinctKeys(list, what);
}

/** Row keys as written, free of duplicates; their validity is the engine's to judge. */
function distinctKeys(list: readonly Name[], what: string): string[] {
  const seen = new Set<string>();
  return list.map((n) => {
    if (seen.has(n.text)) throw new SqlError("sql_error", `Column ${n.text} appears twice in the ${what}`, at(n.span));
    seen.add(n.text);
    return n.text;
  });
}

/** An own, enumerable property even for `__proto__`, which plain assignment would turn into a prototype. */
function define<V>(target: Record<string, V>, key: string, value: V): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * An ORDER BY item. A bare name may be a result name (the binder decides);
 * anything else is an expression. COLLATE around the whole item is its
 * `collation` (the outermost one counts), so `ORDER BY 2 COLLATE nocase`
 * and a result name under COLLATE still name the result column, as in SQLite.
 */
function lowerOrderItem(item: OrderItem): OrderBy {
  let expr = item.expr;
  let collation: Collation | undefined;
  while (expr.kind === "collate") {
    const named = collationNamed(expr.collation);
    collation ??= named;
    expr = expr.expr;
  }
  const rest = { direction: item.direction, ...(item.nulls === undefined ? {} : { nulls: item.nulls }), ...(collation === undefined ? {} : { collation }) };
  return expr.kind === "column" ? spans.set({ column: columnName(expr), ...rest }, expr.span) : { expr: lowerExpr(expr), ...rest };
}

/**
 * A column's COLLATE: BINARY, every column's collation, is taken; NOCASE
 * and RTRIM are refused (docs/decisions.md, "Collations": keys and indexes
 * hash and order texts by code point), with what to write instead.
 */
function binaryColumn(column: ColumnDef): void {
  binaryOnly(column.name, column.collation);
}

/** A key's, index's or ON CONFLICT target's columns, each COLLATE on them BINARY (as `binaryColumn`), free of duplicates. */
function keyNames(list: readonly KeyColumn[], what: string): string[] {
  for (const column of list) binaryOnly(column, column.collation);
  return distinctNames(list, what);
}

function binaryOnly(column: Name, written: Name | undefined): void {
  if (written === undefined) return;
  const collation = collationNamed(written);
  if (collation === "binary") return;
  const upper = collation.toUpperCase();
  const normal = `${collation === "nocase" ? "lower" : "rtrim"}(${column.text})`;
  throw new SqlError(
    "sql_error",
    `Column ${column.text} cannot be declared COLLATE ${upper}: storedb's columns, keys and indexes compare texts by BINARY only. Write COLLATE ${upper} in the queries that compare or sort it (WHERE ${column.text} = ? COLLATE ${upper}), or store the normalized text (${normal}) under a UNIQUE key`,
    at(written.span),
  );
}

/** SQLite's built-in collation a COLLATE names (in any case, quoted or not); any other is `sql_error` at the name, in SQLite's words. */
function collationNamed(name: Name): Collation {
  const lower = name.text.toLowerCase();
  if (lower === "binary" || lower === "nocase" || lower === "rtrim") return lower;
  throw new SqlError("sql_error", `no such collation sequence: ${name.text} (storedb has BINARY, NOCASE and RTRIM)`, at(name.span));
}

function at(span: Span): { position: SourcePosition } {
  return { position: { line: span.line, column: span.column, offset: span.start } };
}
