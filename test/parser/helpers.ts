/**
 * Compact builders for expected ASTs (spans left out), so each corpus case
 * fits on one line, and `strip` to drop spans from an actual AST.
 *
 * Shorthands inside expressions: a string is a column reference (`"a"`,
 * `"t.a"`), a number, boolean or null is a literal; string literals are
 * written `str("...")`.
 */
import type * as A from "../../src/parser/ast.js";

type NoSpan<T> = T extends readonly (infer U)[]
  ? NoSpan<U>[]
  : T extends object
    ? { -readonly [K in keyof T as K extends "span" ? never : K extends "text" ? ("expr" extends keyof T ? never : K) : K]: NoSpan<T[K]> }
    : T;

export type Bare<T> = NoSpan<T>;
type E = Bare<A.Expr>;
type Operand = E | string | number | boolean | null;

/**
 * The AST as plain JSON without spans, nor the text of select items
 * (undefined members dropped, as JSON does); what a select item's text
 * names is tested apart.
 */
export function strip(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, function (this: Record<string, unknown>, key, v: unknown) {
      return key === "span" || (key === "text" && "expr" in this) ? undefined : v;
    }),
  );
}

export const n = (text: string): Bare<A.Name> => ({ text, quoted: false });
export const q = (text: string): Bare<A.Name> => ({ text, quoted: true });

export function col(ref: string): Bare<A.ColumnRefExpr> {
  const dot = ref.indexOf(".");
  if (dot < 0) return { kind: "column", name: n(ref) };
  return { kind: "column", table: n(ref.slice(0, dot)), name: n(ref.slice(dot + 1)) };
}

/** A literal; a number with a fractional part was written as a real. */
export const lit = (value: A.LiteralValue): Bare<A.LiteralExpr> =>
  typeof value === "number" && !Number.isInteger(value) ? { kind: "literal", value, real: true } : { kind: "literal", value };
/** A whole number written as a real (`5.`, `1e3`). */
export const real = (value: number): Bare<A.LiteralExpr> => ({ kind: "literal", value, real: true });
export const str = (value: string): Bare<A.LiteralExpr> => lit(value);
export const p = (index: number): Bare<A.ParamExpr> => ({ kind: "param", index });

export function x(operand: Operand): E {
  if (typeof operand === "string") return col(operand);
  if (operand === null || typeof operand !== "object") return lit(operand);
  return operand;
}

export const cmp = (op: A.ComparisonOp, left: Operand, right: Operand): E => ({ kind: "comparison", op, left: x(left), right: x(right) });
export const eq = (left: Operand, right: Operand) => cmp("=", left, right);
export const and = (...operands: Operand[]): E => ({ kind: "and", operands: operands.map(x) });
export const or = (...operands: Operand[]): E => ({ kind: "or", operands: operands.map(x) });
export const not = (expr: Operand): E => ({ kind: "not", expr: x(expr) });
export const isNull = (expr: Operand): E => ({ kind: "is-null", expr: x(expr), not: false });
export const notNull = (expr: Operand): E => ({ kind: "is-null", expr: x(expr), not: true });
export const bin = (op: A.BinaryOp, left: Operand, right: Operand): E => ({ kind: "binary", op, left: x(left), right: x(right) });
export const neg = (expr: Operand): E => ({ kind: "negate", expr: x(expr) });
export const inList = (expr: Operand, values: Operand[], negated = false): E => ({ kind: "in", expr: x(expr), values: values.map(x), not: negated });
/** A row value `(a, b, …)`. */
export const row = (...items: Operand[]): E => ({ kind: "row", items: items.map(x) });
export const between = (expr: Operand, low: Operand, high: Operand, negated = false): E => ({ kind: "between", expr: x(expr), low: x(low), high: x(high), not: negated });
export function like(expr: Operand, pattern: Operand, escape?: Operand, negated = false): E {
  return escape === undefined
    ? { kind: "like", expr: x(expr), pattern: x(pattern), not: negated }
    : { kind: "like", expr: x(expr), pattern: x(pattern), escape: x(escape), not: negated };
}
export function caseOf(operand: Operand | undefined, whens: [Operand, Operand][], otherwise?: Operand): E {
  const e: Bare<A.CaseExpr> = { kind: "case", whens: whens.map(([w, t]) => ({ when: x(w), then: x(t) })) };
  if (operand !== undefined) e.operand = x(operand);
  if (otherwise !== undefined) e.else = x(otherwise);
  return e;
}
export const cast = (expr: Operand, type: string, args: number[] = []): E => ({ kind: "cast", expr: x(expr), type: { name: type, args } });
export const call = (name: string, ...args: Operand[]): E => ({ kind: "call", name: n(name), args: args.map(x), distinct: false, star: false });
/** `count(*)`, `sum(DISTINCT a)`: a call as an aggregate is written. */
export const aggregate = (name: string, arg: Operand | "*", distinct = false): E =>
  arg === "*" ? { kind: "call", name: n(name), args: [], distinct: false, star: true } : { kind: "call", name: n(name), args: [x(arg)], distinct, star: false };

/** `"t"` or `"t alias"`. */
export function table(ref: string): Bare<A.TableRef> {
  const [name, alias] = ref.split(" ");
  return alias === undefined ? { name: n(name!) } : { name: n(name!), alias: n(alias) };
}

export const join = (type: A.JoinClause["type"], ref: string, on: Operand): Bare<A.JoinClause> => ({ type, table: table(ref), on: x(on) });
/** A join without ON: `using` names its columns; `natural` makes it NATURAL. */
export const joinWithout = (type: A.JoinClause["type"], ref: string, using?: string[], natural = false): Bare<A.JoinClause> => ({
  type,
  ...(natural ? { natural: true as const } : {}),
  table: table(ref),
  ...(using === undefined ? {} : { using: using.map(n) }),
});

interface SelectExtras {
  distinct?: boolean;
  joins?: Bare<A.JoinClause>[];
  where?: Operand;
  groupBy?: Operand[];
  having?: Operand;
  /** `"a"`, `"a desc"`, `"t.a asc"`, or an item built with `by` */
  orderBy?: (string | Bare<A.OrderItem>)[];
  limit?: number | Bare<A.ParamExpr>;
  offset?: number | Bare<A.ParamExpr>;
}

/** A select list item: a column (a string) or an expression, with an alias. */
export function item(expr: Operand, alias?: string): Bare<A.SelectItem> {
  return alias === undefined ? { expr: x(expr) } : { expr: x(expr), alias: n(alias) };
}

/** An ORDER BY item over any expression. */
export const by = (expr: Operand, direction: "asc" | "desc" = "asc"): Bare<A.OrderItem> => ({ expr: x(expr), direction });

/** A select; `from` null for one without FROM. Columns that are strings name columns. */
export function select(columns: "*" | (string | Bare<A.SelectItem>)[], from: string | null, extras: SelectExtras = {}): Bare<A.SelectStmt> {
  const stmt: Bare<A.SelectStmt> = {
    kind: "select",
    distinct: extras.distinct ?? false,
    columns: columns === "*" ? "*" : columns.map((c) => (typeof c === "string" ? item(c) : c)),
    joins: extras.joins ?? [],
    groupBy: (extras.groupBy ?? []).map(x),
    orderBy: (extras.orderBy ?? []).map((entry) => {
      if (typeof entry !== "string") return entry;
      const [ref, dir] = entry.split(" ");
      return { expr: col(ref!), direction: dir === "desc" ? "desc" : "asc" };
    }),
  };
  if (from !== null) stmt.from = table(from);
  if (extras.where !== undefined) stmt.where = x(extras.where);
  if (extras.having !== undefined) stmt.having = x(extras.having);
  if (extras.limit !== undefined) stmt.limit = extras.limit;
  if (extras.offset !== undefined) stmt.offset = extras.offset;
  return stmt;
}

type Value = Bare<A.ValueExpr> | string | number | boolean | null;
const v = <T extends Value | E>(value: T): T extends object ? T : Bare<A.LiteralExpr> =>
  (value === null || typeof value !== "object" ? lit(value) : value) as T extends object ? T : Bare<A.LiteralExpr>;

/** VALUES items: a plain string here is a string literal (no column references in VALUES). */
export function insert(name: string, columns: string[], rows: Value[][]): Bare<A.InsertStmt> {
  return { kind: "insert", table: n(name), columns: columns.map(n), rows: rows.map((row) => row.map(v)) };
}

/** RETURNING `*` or items (a string names a column). */
export const returning = (items: "*" | (string | Bare<A.SelectItem>)[]): Bare<A.Returning> => ({
  items: items === "*" ? "*" : items.map((c) => (typeof c === "string" ? item(c) : c)),
});

/** SET values: a plain value is a literal (a string too), an expression as built with the helpers. */
export function update(name: string, set: [string, Value | E][], where?: Operand): Bare<A.UpdateStmt> {
  const stmt: Bare<A.UpdateStmt> = { kind: "update", table: n(name), assignments: set.map(([c, value]) => ({ column: n(c), value: v(value) })) };
  if (where !== undefined) stmt.where = x(where);
  return stmt;
}

export function del(name: string, where?: Operand): Bare<A.DeleteStmt> {
  return where === undefined ? { kind: "delete", table: n(name) } : { kind: "delete", table: n(name), where: x(where) };
}

interface ColumnOptions {
  pk?: boolean;
  notNull?: boolean;
  unique?: boolean;
  default?: A.LiteralValue;
  references?: Bare<A.References>;
}

/** `def("id", "INTEGER", { pk: true })`; `type` may carry arguments: `"VARCHAR", [20]`. */
export function def(name: string, type: string, options: ColumnOptions = {}, args: number[] = []): Bare<A.ColumnDef> {
  const column: Bare<A.ColumnDef> = {
    name: n(name),
    type: { name: type, args },
    primaryKey: options.pk ?? false,
    notNull: options.notNull ?? false,
    unique: options.unique ?? false,
  };
  if (options.default !== undefined) column.default = lit(options.default);
  if (options.references) column.references = options.references;
  return column;
}

export function refs(name: string, columns: string[], onDelete?: A.OnDelete): Bare<A.References> {
  return onDelete === undefined ? { table: n(name), columns: columns.map(n) } : { table: n(name), columns: columns.map(n), onDelete };
}

export const pkey = (columns: string[], name?: string): Bare<A.TableConstraint> =>
  ({ kind: "primary-key", ...(name ? { name: n(name) } : {}), columns: columns.map(n) });
export const uniq = (columns: string[], name?: string): Bare<A.TableConstraint> =>
  ({ kind: "unique", ...(name ? { name: n(name) } : {}), columns: columns.map(n) });
export const fkey = (columns: string[], references: Bare<A.References>, name?: string): Bare<A.TableConstraint> =>
  ({ kind: "foreign-key", ...(name ? { name: n(name) } : {}), columns: columns.map(n), references });
export const check = (expr: Operand, name?: string): Bare<A.TableConstraint> =>
  ({ kind: "check", ...(name ? { name: n(name) } : {}), expr: x(expr) });

export function create(
  name: string,
  columns: Bare<A.ColumnDef>[],
  constraints: Bare<A.TableConstraint>[] = [],
  ifNotExists = false,
): Bare<A.CreateTableStmt> {
  return { kind: "create-table", ifNotExists, table: n(name), columns, constraints };
}

export const drop = (name: string, ifExists = false): Bare<A.DropTableStmt> => ({ kind: "drop-table", ifExists, table: n(name) });

export const alter = (table: string, action: Bare<A.AlterAction>): Bare<A.AlterTableStmt> => ({ kind: "alter-table", table: n(table), action });

export const explain = (statement: Bare<A.ExplainStmt["statement"]>): Bare<A.ExplainStmt> => ({ kind: "explain", statement });
