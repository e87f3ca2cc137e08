/**
 * Expression helpers for the fluent builder: small functions that build the
 * wire expressions of CONTRACT §5 and §11, so a query reads like
 * `and(eq("city", "Paris"), ge("age", 18))` or
 * `col("price").mul(col("qty")).as("total")`.
 *
 * Every helper returns a plain wire expression that also answers fluent
 * methods (`.add()`, `.eq()`, `.like()`, `.as()`, ...). The methods live on
 * one shared prototype and are not enumerable, so to JSON, to the validator
 * and to deep equality the value is exactly the wire object. A method never
 * takes the name of a wire field, with one exception: a CAST's own `as`
 * field (its type) hides the `.as()` method, so a CAST is named with
 * `alias(cast(...), "name")`; NOT is the function `not(x)` for the same
 * reason (`not` is a flag of several nodes).
 *
 * Convention, as in most query builders: in the first operand of a helper a
 * string is a column name; in any other position it is a value unless
 * wrapped with `col()`. Nothing is checked here — names, types and shapes
 * are the bind step's job, the same one JSON and SQL go through.
 */

import type {
  AggregateName,
  BinaryOp,
  Collation,
  ColumnType,
  Command,
  ComparisonOp,
  Expression,
  FromSource,
  OrderBy,
  SelectCommand,
  TableFunctionCall,
  TableFunctionName,
  Value,
  WindowFrameSpec,
  WindowFunctionName,
  WindowSpec,
  WithTable,
} from "../commands/types.js";
import { StoreError } from "../errors.js";

/** Anything that can stand as an operand: an expression, or a plain value. */
export type Operand = Expression | Value;

/**
 * A query that can stand as a subquery: a fluent select
 * (`db.table("orders").select("user_id")`), taken by its `toPlan()`.
 */
export interface Subquery {
  toPlan(): Command;
}

/** A select list item: an expression and the name of its result column. */
export interface Aliased {
  readonly expr: Expression;
  readonly as: string;
}

/** The fluent methods every helper's result answers. `this` is the left operand. */
export interface ExpressionMethods {
  add(right: Operand): Expr;
  sub(right: Operand): Expr;
  mul(right: Operand): Expr;
  div(right: Operand): Expr;
  mod(right: Operand): Expr;
  /** `this || right` (text concatenation). */
  concat(right: Operand): Expr;
  neg(): Expr;
  eq(right: Operand): Expr;
  ne(right: Operand): Expr;
  lt(right: Operand): Expr;
  le(right: Operand): Expr;
  gt(right: Operand): Expr;
  ge(right: Operand): Expr;
  isNull(): Expr;
  isNotNull(): Expr;
  /** `this IS right`: equal, or both NULL (never NULL itself). */
  is(right: Operand): Expr;
  /** `this IS NOT right`: `IS DISTINCT FROM`. */
  isNot(right: Operand): Expr;
  /** `this IN (values...)`, or `this IN (SELECT …)` given one fluent select. */
  in(...values: Operand[]): Expr;
  in(query: Subquery): Expr;
  notIn(...values: Operand[]): Expr;
  notIn(query: Subquery): Expr;
  between(low: Operand, high: Operand): Expr;
  notBetween(low: Operand, high: Operand): Expr;
  like(pattern: Operand, escape?: string): Expr;
  notLike(pattern: Operand, escape?: string): Expr;
  /** `this GLOB pattern`: `*`, `?`, `[…]`, case-sensitive. */
  glob(pattern: Operand): Expr;
  notGlob(pattern: Operand): Expr;
  /** `this COLLATE collation`: compared, sorted and grouped in it (`"binary"`, `"nocase"`, `"rtrim"`). */
  collate(collation: Collation): Expr;
  cast(type: ColumnType): Cast;
  and(...others: Expression[]): Expr;
  or(...others: Expression[]): Expr;
  /** Names this expression as a result column: `.select(sum("score").as("total"))`. */
  as(name: string): Aliased;
}

/** A wire expression with the fluent methods. */
export type Expr = Expression & ExpressionMethods;

/** A CAST: its `as` field is its type, so it is named with `alias()`. */
export type Cast = Extract<Expression, { type: "cast" }> & Omit<ExpressionMethods, "as">;

const methods: ExpressionMethods & ThisType<Expr> = {
  add(right) {
    return binary("+", this, right);
  },
  sub(right) {
    return binary("-", this, right);
  },
  mul(right) {
    return binary("*", this, right);
  },
  div(right) {
    return binary("/", this, right);
  },
  mod(right) {
    return binary("%", this, right);
  },
  concat(right) {
    return binary("||", this, right);
  },
  neg() {
    return neg(this);
  },
  eq(right) {
    return eq(this, right);
  },
  ne(right) {
    return ne(this, right);
  },
  lt(right) {
    return lt(this, right);
  },
  le(right) {
    return le(this, right);
  },
  gt(right) {
    return gt(this, right);
  },
  ge(right) {
    return ge(this, right);
  },
  isNull() {
    return isNull(this);
  },
  is(right) {
    return is(this, right);
  },
  isNot(right) {
    return isNot(this, right);
  },
  isNotNull() {
    return isNotNull(this);
  },
  in(...values: Operand[] | [Subquery]) {
    return isSubquery(values) ? inQuery(this, values[0], false) : inList(this, values as Operand[]);
  },
  notIn(...values: Operand[] | [Subquery]) {
    return isSubquery(values) ? inQuery(this, values[0], true) : inList(this, values as Operand[], true);
  },
  between(low, high) {
    return between(this, low, high);
  },
  notBetween(low, high) {
    return between(this, low, high, true);
  },
  like(pattern, escape) {
    return like(this, pattern, escape);
  },
  notLike(pattern, escape) {
    return like(this, pattern, escape, true);
  },
  glob(pattern) {
    return glob(this, pattern);
  },
  notGlob(pattern) {
    return glob(this, pattern, true);
  },
  collate(collation) {
    return collate(this, collation);
  },
  cast(type) {
    return cast(this, type);
  },
  and(...others) {
    return and(this, ...others);
  },
  or(...others) {
    return or(this, ...others);
  },
  as(name) {
    return { expr: this, as: name };
  },
};

const prototype: object = Object.create(
  Object.prototype,
  Object.fromEntries(Object.entries(methods).map(([name, value]) => [name, { value, enumerable: false, writable: false, configurable: false }])),
);

/** `node` as an expression with the fluent methods (its fields defined as its own, as in the literal). */
function fluent(node: Expression): Expr {
  return Object.create(prototype, Object.getOwnPropertyDescriptors(node)) as Expr;
}

/** Names an expression as a result column (what `.as()` does, for a CAST too). */
export function alias(expr: Expression, name: string): Aliased {
  return { expr, as: name };
}

/** A column reference: `col("name")` or `col("users.id")`. */
export function col(name: string): Expr {
  return fluent({ type: "identifier", name });
}

/** A literal value (string, finite number, boolean or null). */
/** A column of the row an upsert proposes: `excluded("n")` is `excluded.n` in SQL. */
export function excluded(name: string): Expr {
  return col(`excluded.${name}`);
}

export function val(value: Value): Expr {
  return fluent({ type: "literal", value });
}

function isExpression(operand: Operand): operand is Expression {
  return typeof operand === "object" && operand !== null;
}

/** A left operand: a string names a column. */
export function toLeft(operand: Operand): Expression {
  if (isExpression(operand)) return operand;
  return typeof operand === "string" ? col(operand) : val(operand);
}

/** A right operand: a string is a value. */
export function toRight(operand: Operand): Expression {
  return isExpression(operand) ? operand : val(operand);
}

function compare(op: ComparisonOp) {
  return (left: Operand, right: Operand): Expr => fluent({ type: "comparison", op, left: toLeft(left), right: toRight(right) });
}

export const eq = compare("=");
export const ne = compare("<>");
export const lt = compare("<");
export const le = compare("<=");
export const gt = compare(">");
export const ge = compare(">=");
/** SQL's null-safe `IS` (`IS NOT DISTINCT FROM`): TRUE when equal or both NULL, never NULL. */
export const is = compare("is");
/** SQL's null-safe `IS NOT` (`IS DISTINCT FROM`). */
export const isNot = compare("is not");

/** `x IS NULL`; a string names a column. */
export function isNull(operand: Operand): Expr {
  return fluent({ type: "is-null", expr: toLeft(operand) });
}

/** `x IS NOT NULL`; a string names a column. */
export function isNotNull(operand: Operand): Expr {
  return fluent({ type: "is-null", expr: toLeft(operand), not: true });
}

export function and(...operands: Expression[]): Expr {
  return fluent({ type: "and", operands });
}

export function or(...operands: Expression[]): Expr {
  return fluent({ type: "or", operands });
}

export function not(operand: Expression): Expr {
  return fluent({ type: "not", expr: operand });
}

/** `left op right` for `+ - * / % ||`. */
export function binary(op: BinaryOp, left: Operand, right: Operand): Expr {
  return fluent({ type: "binary", op, left: toLeft(left), right: toRight(right) });
}

export const add = (left: Operand, right: Operand): Expr => binary("+", left, right);
export const sub = (left: Operand, right: Operand): Expr => binary("-", left, right);
export const mul = (left: Operand, right: Operand): Expr => binary("*", left, right);
export const div = (left: Operand, right: Operand): Expr => binary("/", left, right);
export const mod = (left: Operand, right: Operand): Expr => binary("%", left, right);
export const concat = (left: Operand, right: Operand): Expr => binary("||", left, right);
/** `doc -> path`: the value at `path` as JSON text (a string names a column; the path is a value: `'$.a'`, a key `'a'`, an index `0`). */
export const jsonGet = (doc: Operand, path: Operand): Expr => binary("->", doc, path);
/** `doc ->> path`: the value at `path` as a SQL value (text, number, boolean, NULL; an array or object as JSON text). */
export const jsonValue = (doc: Operand, path: Operand): Expr => binary("->>", doc, path);

/** `-x`. */
export function neg(operand: Operand): Expr {
  return fluent({ type: "negate", expr: toLeft(operand) });
}

/** `x [NOT] IN (values...)`. */
export function inList(operand: Operand, values: readonly Operand[], negated = false): Expr {
  const node: Expression = { type: "in", expr: toLeft(operand), values: values.map(toRight) };
  return fluent(negated ? { ...node, not: true } : node);
}

function isSubquery(values: readonly unknown[]): values is [Subquery] {
  const first = values[0];
  return values.length === 1 && typeof first === "object" && first !== null && typeof (first as Partial<Subquery>).toPlan === "function";
}

/** The select a subquery (or a compound's other select: `what`) stands for; a fluent insert, update or delete cannot be one. */
export function selectOf(query: Subquery, what = "A subquery"): SelectCommand {
  const command = query.toPlan();
  if (command.kind !== "select") throw new StoreError("invalid_request", `${what} must be a select, not ${command.kind === "explain" ? "an explain" : `a ${command.kind}`}`);
  return command;
}

/**
 * A WITH table for the builder, read by `table(…)`, `join` and `leftJoin`
 * as a derived table under its name: `withTable("c", query, ["x"])` is
 * SQL's `WITH c(x) AS (query)`. A select of the query's compound that reads
 * the table `name` makes it recursive (SQL's WITH RECURSIVE).
 */
export class WithTableSource {
  /** The wire form (`from`). */
  readonly table: WithTable;

  constructor(name: string, query: Subquery, columns?: readonly string[]) {
    const select = selectOf(query, "The query given to withTable()");
    this.table = columns === undefined ? { kind: "with", name, select } : { kind: "with", name, columns: [...columns], select };
  }
}

export function withTable(name: string, query: Subquery, columns?: readonly string[]): WithTableSource {
  return new WithTableSource(name, query, columns);
}

/**
 * A table function's rows for the builder (SQLite's json_each, json_tree),
 * read by `table(…)` and the joins as a table: `jsonEach(col("t.tags"))`
 * joined after `t` reads each of its rows' documents (a string names a
 * column, as a left operand does; `path` is a value).
 */
export class TableFunctionSource {
  /** The wire form (`from`). */
  readonly call: TableFunctionCall;

  constructor(name: TableFunctionName, doc: Operand, path?: Operand) {
    this.call = { kind: "function", name, args: path === undefined ? [toLeft(doc)] : [toLeft(doc), toRight(path)] };
  }
}

/** `json_each(doc [, path])`: a row per member or element of the document's top level (or of the value at `path`). */
export function jsonEach(doc: Operand, path?: Operand): TableFunctionSource {
  return new TableFunctionSource("json_each", doc, path);
}

/** `json_tree(doc [, path])`: a row per value of the document (or of the value at `path`), walked in order. */
export function jsonTree(doc: Operand, path?: Operand): TableFunctionSource {
  return new TableFunctionSource("json_tree", doc, path);
}

/** What a builder source may read besides a table: a select, a WITH table or a table function. */
export type DerivedInput = Subquery | WithTableSource | TableFunctionSource;

/** What a derived table reads: a select, a WITH table, or a table function's rows. */
export function derivedSourceOf(source: DerivedInput, what: string): FromSource {
  if (source instanceof TableFunctionSource) return source.call;
  return source instanceof WithTableSource ? source.table : selectOf(source, what);
}

/** `x [NOT] IN (SELECT …)`: the select yields one column. */
export function inQuery(operand: Operand, query: Subquery, negated = false): Expr {
  const node: Expression = { type: "in", expr: toLeft(operand), select: selectOf(query) };
  return fluent(negated ? { ...node, not: true } : node);
}

/** `EXISTS (SELECT …)`: names the subquery's sources may not have are the enclosing query's (a correlation). */
export function exists(query: Subquery): Expr {
  return fluent({ type: "exists", select: selectOf(query) });
}

/** `NOT EXISTS (SELECT …)`. */
export function notExists(query: Subquery): Expr {
  return fluent({ type: "exists", select: selectOf(query), not: true });
}

/**
 * A scalar subquery `(SELECT x …)`: the value of its one row's one column,
 * NULL for no row. Of several columns it is a row value (see `row`); with
 * `column`, that column (0-based) of its one row — an update's
 * `{ a: subquery(q, 0), b: subquery(q, 1) }` is SQL's `SET (a, b) = (SELECT …)`.
 */
export function subquery(query: Subquery, column?: number): Expr {
  return fluent({ type: "subquery", select: selectOf(query), ...(column === undefined ? {} : { column }) });
}

/**
 * A row value `(a, b, …)` of two or more values (SQLite's): compared with
 * one of as many (`row(col("a"), col("b")).lt(row(10, "x"))`, pair by pair,
 * the first unequal pair deciding an order), BETWEEN two, or IN a fluent
 * select of as many columns. A string here is a value, as in any position
 * but a helper's first: name a column with `col()`.
 */
export function row(...items: Operand[]): Expr {
  return fluent({ type: "row", items: items.map(toRight) });
}

/** `x [NOT] BETWEEN low AND high`. */
export function between(operand: Operand, low: Operand, high: Operand, negated = false): Expr {
  const node: Expression = { type: "between", expr: toLeft(operand), low: toRight(low), high: toRight(high) };
  return fluent(negated ? { ...node, not: true } : node);
}

/** `x [NOT] LIKE pattern [ESCAPE escape]`; the pattern is a value unless an expression. */
export function like(operand: Operand, pattern: Operand, escape?: string, negated = false): Expr {
  let node: Expression = { type: "like", expr: toLeft(operand), pattern: toRight(pattern) };
  if (escape !== undefined) node = { ...node, escape };
  return fluent(negated ? { ...node, not: true } : node);
}

/** `x [NOT] GLOB pattern` (SQLite's: `*`, `?`, `[…]`, case-sensitive); the pattern is a value unless an expression. */
export function glob(operand: Operand, pattern: Operand, negated = false): Expr {
  const node: Expression = { type: "glob", expr: toLeft(operand), pattern: toRight(pattern) };
  return fluent(negated ? { ...node, not: true } : node);
}

/** `x COLLATE collation`: `x`, compared, sorted and grouped as texts in `collation`; a string names a column. */
export function collate(operand: Operand, collation: Collation): Expr {
  return fluent({ type: "collate", expr: toLeft(operand), collation });
}

/** Searched CASE: `caseWhen([[condition, result], ...], otherwise?)`. */
export function caseWhen(arms: readonly (readonly [Expression, Operand])[], otherwise?: Operand): Expr {
  const node: Expression = { type: "case", when: arms.map(([when, then]) => ({ when, then: toRight(then) })) };
  return fluent(otherwise === undefined ? node : { ...node, else: toRight(otherwise) });
}

/** Simple CASE: `caseOf(operand, [[value, result], ...], otherwise?)`: the result of the first value equal to the operand. */
export function caseOf(operand: Operand, arms: readonly (readonly [Operand, Operand])[], otherwise?: Operand): Expr {
  const node: Expression = { type: "case", operand: toLeft(operand), when: arms.map(([when, then]) => ({ when: toRight(when), then: toRight(then) })) };
  return fluent(otherwise === undefined ? node : { ...node, else: toRight(otherwise) });
}

/** `CAST(x AS type)`; name it in a select list with `alias()`. */
export function cast(operand: Operand, type: ColumnType): Cast {
  return fluent({ type: "cast", expr: toLeft(operand), as: type }) as unknown as Cast;
}

/** A function call by name: `fn("substr", "name", 1, 3)` (the first argument a column if a string, the rest values). */
export function fn(name: string, ...args: Operand[]): Expr {
  return fluent({ type: "function", name, args: args.map((a, i) => (i === 0 ? toLeft(a) : toRight(a))) });
}

export const lower = (x: Operand): Expr => fn("lower", x);
/** `json_extract(doc, ...paths)`: the document a column if a string, the paths values. */
export const jsonExtract = (doc: Operand, ...paths: Operand[]): Expr => fn("json_extract", doc, ...paths);
/** `json_array(...values)`: every argument a value; pass `col(…)` for a column. */
export const jsonArray = (...values: Operand[]): Expr => fluent({ type: "function", name: "json_array", args: values.map(toRight) });
/** `json_object(name, value, …)`: names and values are values; pass `col(…)` for a column. */
export const jsonObject = (...members: Operand[]): Expr => fluent({ type: "function", name: "json_object", args: members.map(toRight) });
export const upper = (x: Operand): Expr => fn("upper", x);
export const length = (x: Operand): Expr => fn("length", x);
export const trim = (x: Operand, characters?: Operand): Expr => (characters === undefined ? fn("trim", x) : fn("trim", x, characters));
export const ltrim = (x: Operand, characters?: Operand): Expr => (characters === undefined ? fn("ltrim", x) : fn("ltrim", x, characters));
export const rtrim = (x: Operand, characters?: Operand): Expr => (characters === undefined ? fn("rtrim", x) : fn("rtrim", x, characters));
export const substr = (x: Operand, start: Operand, count?: Operand): Expr => (count === undefined ? fn("substr", x, start) : fn("substr", x, start, count));
/** `octet_length(t)`: the bytes of `t`'s UTF-8 form (`length` counts characters). */
export const octetLength = (x: Operand): Expr => fn("octet_length", x);
export const replace = (x: Operand, from: Operand, to: Operand): Expr => fn("replace", x, from, to);
export const instr = (x: Operand, part: Operand): Expr => fn("instr", x, part);
export const abs = (x: Operand): Expr => fn("abs", x);
export const round = (x: Operand, digits?: Operand): Expr => (digits === undefined ? fn("round", x) : fn("round", x, digits));
/** `coalesce(a, b, ...)`: the first argument a column if a string, the rest values. */
export const coalesce = (first: Operand, ...rest: Operand[]): Expr => fn("coalesce", first, ...rest);
export const ifnull = (x: Operand, otherwise: Operand): Expr => fn("ifnull", x, otherwise);
export const nullif = (x: Operand, other: Operand): Expr => fn("nullif", x, other);
/** `iif(condition, then, otherwise?)`: CASE WHEN condition THEN then ELSE otherwise END (only the branch taken is evaluated). */
export const iif = (condition: Expression, then: Operand, otherwise?: Operand): Expr =>
  otherwise === undefined ? fn("iif", condition, then) : fn("iif", condition, then, otherwise);
/** `likely(x)`: x (SQLite's planner hint that it is usually true; storedb's planner takes no hint). */
export const likely = (x: Operand): Expr => fn("likely", x);
/** `unlikely(x)`: x (the hint that it is usually false). */
export const unlikely = (x: Operand): Expr => fn("unlikely", x);
/**
 * `likelihood(x, p)`: x (the hint that it is true with probability p). p is
 * a real constant between 0.0 and 1.0, as SQLite requires; a whole one (0,
 * 1) is sent as the real it is, as SQL's `1.0`.
 */
export const likelihood = (x: Operand, p: number): Expr =>
  fluent({ type: "function", name: "likelihood", args: [toLeft(x), Number.isInteger(p) ? { type: "cast", expr: { type: "literal", value: p }, as: "real" } : { type: "literal", value: p }] });
/** `typeof(x)`: 'integer', 'real', 'text', 'boolean' or 'null' (`typeof` is a JavaScript keyword, hence the name). */
export const typeOf = (x: Operand): Expr => fn("typeof", x);
export const sign = (x: Operand): Expr => fn("sign", x);
export const ceil = (x: Operand): Expr => fn("ceil", x);
export const floor = (x: Operand): Expr => fn("floor", x);
export const trunc = (x: Operand): Expr => fn("trunc", x);
/** `char(a, b, …)`: the text of these code points. */
export const char = (...codes: Operand[]): Expr => fn("char", ...codes);
export const unicode = (x: Operand): Expr => fn("unicode", x);
/** `hex(t)`: the UTF-8 bytes of a text in upper-case hexadecimal. */
export const hex = (x: Operand): Expr => fn("hex", x);
/** `max(a, b, …)` of SQL, the greatest argument (NULL if any is): the first a column if a string, the rest values (`max(x)` is the aggregate). */
export const maxOf = (first: Operand, ...rest: Operand[]): Expr => fn("max", first, ...rest);
/** `min(a, b, …)` of SQL, the least argument (NULL if any is). */
export const minOf = (first: Operand, ...rest: Operand[]): Expr => fn("min", first, ...rest);
/** `printf(format, …)`: the format a text value, each argument a column if a string (`printf("%s: %d", "name", "qty")`). */
export const printf = (format: Operand, ...args: Operand[]): Expr =>
  fluent({ type: "function", name: "printf", args: [toRight(format), ...args.map(toLeft)] });
/** `quote(x)`: x as an SQL literal. */
export const quote = (x: Operand): Expr => fn("quote", x);
/** `random()`: a random integer, a new one for each row. */
export const random = (): Expr => fn("random");
/** A math function: it takes numbers only, so every string argument is a column (`pow(2, "x")`). */
const math = (name: string, ...args: Operand[]): Expr => fluent({ type: "function", name, args: args.map(toLeft) });
export const sqrt = (x: Operand): Expr => math("sqrt", x);
export const pow = (x: Operand, y: Operand): Expr => math("pow", x, y);
export const exp = (x: Operand): Expr => math("exp", x);
export const ln = (x: Operand): Expr => math("ln", x);
/** `log(x)` is the base-10 logarithm; `log(b, x)` of base b. */
export const log = (x: Operand, y?: Operand): Expr => (y === undefined ? math("log", x) : math("log", x, y));
export const pi = (): Expr => math("pi");

/**
 * SQLite's date and time functions: a time value (a string is a column, as
 * every first operand; `val("now")`, `val("2024-05-01")` for a text), then
 * modifier texts (`"+1 day"`, `"start of month"`). No time value: 'now'
 * (`date(undefined, "+1 day")` is `date('now', '+1 day')`).
 */
const timeCall =
  (name: string) =>
  (time?: Operand, ...modifiers: Operand[]): Expr =>
    time === undefined && modifiers.length === 0 ? fn(name) : fn(name, time ?? val("now"), ...modifiers);
export const date = timeCall("date");
export const time = timeCall("time");
export const datetime = timeCall("datetime");
export const julianday = timeCall("julianday");
export const unixepoch = timeCall("unixepoch");
/** `strftime(format, time, ...modifiers)`: the format is a value, the time value a column if a string. */
export const strftime = (format: Operand, time?: Operand, ...modifiers: Operand[]): Expr =>
  fluent({ type: "function", name: "strftime", args: [toRight(format), ...(time === undefined && modifiers.length === 0 ? [] : [toLeft(time ?? val("now")), ...modifiers.map(toRight)])] });

/** `DISTINCT` for an aggregate: each value counted, summed or averaged once. */
export interface AggregateOptions {
  readonly distinct?: boolean;
}

function aggregate(name: AggregateName, operand: Operand | undefined, options: AggregateOptions): Expr {
  const node: Expression = operand === undefined ? { type: "aggregate", name } : { type: "aggregate", name, arg: toLeft(operand) };
  return fluent(options.distinct === true ? { ...node, distinct: true } : node);
}

/** `count(*)` without an operand, else `count(x)` (non-NULL values); a string names a column. */
export const count = (operand?: Operand, options: AggregateOptions = {}): Expr => aggregate("count", operand, options);
/** `count(DISTINCT x)`. */
export const countDistinct = (operand: Operand): Expr => aggregate("count", operand, { distinct: true });
export const sum = (operand: Operand, options: AggregateOptions = {}): Expr => aggregate("sum", operand, options);
/** `total(x)`: the sum as a real, 0.0 over no rows (sum is NULL there). */
export const total = (operand: Operand, options: AggregateOptions = {}): Expr => aggregate("total", operand, options);
export const avg = (operand: Operand, options: AggregateOptions = {}): Expr => aggregate("avg", operand, options);
export const min = (operand: Operand): Expr => aggregate("min", operand, {});
export const max = (operand: Operand): Expr => aggregate("max", operand, {});
/** `group_concat(x, separator)`: the group's non-NULL values as text, `separator` (default `,`) between them; `string_agg` in PostgreSQL. */
export const groupConcat = (operand: Operand, options: AggregateOptions & { readonly separator?: string } = {}): Expr => {
  const node: Expression = { type: "aggregate", name: "group_concat", arg: toLeft(operand), ...(options.distinct === true ? { distinct: true } : {}) };
  return fluent(options.separator === undefined ? node : { ...node, separator: options.separator });
};

/** `json_group_array(x)`: the group's values (NULLs too) as a JSON array. */
export const jsonGroupArray = (operand: Operand): Expr => aggregate("json_group_array", operand, {});
/** `json_group_object(name, value)`: the group's `name: value` members as a JSON object (a string names a column, both times). */
export const jsonGroupObject = (name: Operand, value: Operand): Expr => fluent({ type: "aggregate", name: "json_group_object", arg: toLeft(name), value: toLeft(value) });

/**
 * `call FILTER (WHERE condition)`: an aggregate helper's result
 * (`filter(sum("amount"), eq("status", "paid"))`, `filter(count(), "ok")`)
 * that reads only the rows `condition` is true for; before or after
 * `over()`, for an aggregate over a window. A string condition names a
 * boolean column.
 */
export function filter(call: Expression, condition: Operand): Expr {
  if (call.type !== "aggregate" && call.type !== "window") throw new StoreError("invalid_request", `filter() takes an aggregate, not a ${call.type} expression`);
  // SQL takes one FILTER clause: a second would silently replace the first.
  if (call.filter !== undefined) throw new StoreError("invalid_request", "filter() takes an aggregate without a filter; combine the conditions with and()");
  return fluent({ ...call, filter: toLeft(condition) });
}

/**
 * A window for `over()`: PARTITION BY (a string names a column), ORDER BY
 * (a string is a column ascending; an expression sorts ascending; a wire
 * sort key says its direction and NULLs), and the frame.
 */
export interface WindowOptions {
  readonly partitionBy?: readonly Operand[];
  readonly orderBy?: readonly (string | Expression | OrderBy)[];
  readonly frame?: WindowFrameSpec;
}

function windowCall(name: WindowFunctionName, args: readonly Expression[]): Expr {
  return fluent({ type: "window", name, args, over: {} });
}

/**
 * `call OVER (window)`: an aggregate helper's result (`sum("x")`,
 * `count()`) or a window function's (`rowNumber()`, `lag("x")`) computed
 * over its window. A window function without `over()` sees the whole
 * result as one partition, as `OVER ()` does.
 */
export function over(call: Expression, window: WindowOptions = {}): Expr {
  const spec: WindowSpec = {
    ...(window.partitionBy === undefined ? {} : { partitionBy: window.partitionBy.map(toLeft) }),
    ...(window.orderBy === undefined ? {} : { orderBy: window.orderBy.map(sortKey) }),
    ...(window.frame === undefined ? {} : { frame: window.frame }),
  };
  if (call.type === "window") return fluent({ ...call, over: spec });
  if (call.type !== "aggregate") throw new StoreError("invalid_request", `over() takes an aggregate or a window function, not a ${call.type} expression`);
  if (call.distinct === true) throw new StoreError("invalid_request", "over() cannot take a DISTINCT aggregate: window functions do not support it");
  if (call.name === "json_group_array" || call.name === "json_group_object") throw new StoreError("invalid_request", `over() cannot take ${call.name}(): it aggregates groups, not window frames`);
  const node: Expression = {
    type: "window",
    name: call.name,
    args: call.arg === undefined ? [] : [call.arg],
    ...(call.separator === undefined ? {} : { separator: call.separator }),
    ...(call.filter === undefined ? {} : { filter: call.filter }),
    over: spec,
  };
  return fluent(node);
}

function sortKey(key: string | Expression | OrderBy): OrderBy {
  if (typeof key === "string") return { column: key };
  return "type" in key ? { expr: key } : key;
}

/** The row's number in its partition, from 1. */
export const rowNumber = (): Expr => windowCall("row_number", []);
/** 1 + the rows before the row's peers (ties share a rank, gaps follow). */
export const rank = (): Expr => windowCall("rank", []);
/** The row's peer group's number, from 1 (no gaps). */
export const denseRank = (): Expr => windowCall("dense_rank", []);
/** (rank − 1) / (rows − 1), 0 for a partition of one row. */
export const percentRank = (): Expr => windowCall("percent_rank", []);
/** The share of the partition's rows up to the row's last peer. */
export const cumeDist = (): Expr => windowCall("cume_dist", []);
/** The row's bucket, 1 to `buckets`, the partition cut in that many as even as can be. */
export const ntile = (buckets: Operand): Expr => windowCall("ntile", [toRight(buckets)]);
/** `x` of the row `offset` (default 1) before in the partition, else `otherwise` (default NULL). */
export const lag = (x: Operand, offset?: Operand, otherwise?: Operand): Expr => windowCall("lag", shiftArgs(x, offset, otherwise));
/** `x` of the row `offset` (default 1) after in the partition, else `otherwise` (default NULL). */
export const lead = (x: Operand, offset?: Operand, otherwise?: Operand): Expr => windowCall("lead", shiftArgs(x, offset, otherwise));
/** `x` of the frame's first row. */
export const firstValue = (x: Operand): Expr => windowCall("first_value", [toLeft(x)]);
/** `x` of the frame's last row. */
export const lastValue = (x: Operand): Expr => windowCall("last_value", [toLeft(x)]);
/** `x` of the frame's `n`th row (from 1), NULL if the frame is shorter. */
export const nthValue = (x: Operand, n: Operand): Expr => windowCall("nth_value", [toLeft(x), toRight(n)]);

function shiftArgs(x: Operand, offset: Operand | undefined, otherwise: Operand | undefined): Expression[] {
  const args = [toLeft(x)];
  if (offset !== undefined || otherwise !== undefined) args.push(toRight(offset ?? 1));
  if (otherwise !== undefined) args.push(toRight(otherwise));
  return args;
}
