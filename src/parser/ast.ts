/**
 * The SQL abstract syntax tree: what the text says, nothing resolved.
 *
 * Names are kept exactly as written (with whether they were quoted) and every
 * node carries the source span it came from, so later phases can point at the
 * text. Nothing here knows about schemas or types: binding happens in the
 * planner, which is the only place names become columns. Nodes are plain,
 * readonly, JSON-serializable values discriminated by `kind`.
 */

/** A half-open range of the source text, in UTF-16 code units; line/column are 1-based and locate `start`. */
export interface Span {
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly column: number;
}

/** An identifier as written: `users`, or `"Order Items"` (quoted, `""` unescaped). */
export interface Name {
  readonly text: string;
  readonly quoted: boolean;
  readonly span: Span;
}

/** A key's or index's column, with the COLLATE written after it (lowering takes BINARY only). */
export interface KeyColumn extends Name {
  readonly collation?: Name;
}

// ---------------------------------------------------------------- expressions

/** `is` and `is not` are null-safe: NULL is NULL, and the answer is never NULL. */
export type ComparisonOp = "=" | "!=" | "<>" | "<" | "<=" | ">" | ">=" | "is" | "is not";

export type LiteralValue = string | number | boolean | null;

export interface LiteralExpr {
  readonly kind: "literal";
  readonly value: LiteralValue;
  /** A number written with a decimal point or an exponent (`7.0`, `1e3`): real even when integral. */
  readonly real?: true;
  readonly span: Span;
}

/** A `?` or `?NNN` placeholder; `index` is the 0-based parameter it takes (`params.ts`: `?NNN` is NNN - 1, a plain `?` one past the highest before it). */
export interface ParamExpr {
  readonly kind: "param";
  readonly index: number;
  readonly span: Span;
}

/** `col` or `source.col`, where source is a table name or alias. */
export interface ColumnRefExpr {
  readonly kind: "column";
  readonly table?: Name;
  readonly name: Name;
  readonly span: Span;
}

export interface ComparisonExpr {
  readonly kind: "comparison";
  readonly op: ComparisonOp;
  readonly left: Expr;
  readonly right: Expr;
  readonly span: Span;
}

export interface IsNullExpr {
  readonly kind: "is-null";
  readonly expr: Expr;
  /** true for IS NOT NULL */
  readonly not: boolean;
  readonly span: Span;
}

export interface AndExpr {
  readonly kind: "and";
  readonly operands: readonly Expr[];
  readonly span: Span;
}

export interface OrExpr {
  readonly kind: "or";
  readonly operands: readonly Expr[];
  readonly span: Span;
}

export interface NotExpr {
  readonly kind: "not";
  readonly expr: Expr;
  readonly span: Span;
}

/** `+ - * / %`, `||` (text concatenation), `->` and `->>` (JSON extraction). */
export type BinaryOp = "+" | "-" | "*" | "/" | "%" | "||" | "->" | "->>";

export interface BinaryExpr {
  readonly kind: "binary";
  readonly op: BinaryOp;
  readonly left: Expr;
  readonly right: Expr;
  readonly span: Span;
}

/** `-x` on anything but a number literal (`-5` is the literal -5). */
export interface NegateExpr {
  readonly kind: "negate";
  readonly expr: Expr;
  readonly span: Span;
}

/** `x [NOT] IN (a, b, ...)`, or `x [NOT] IN (SELECT …)` (then `values` is empty). */
export interface InExpr {
  readonly kind: "in";
  readonly expr: Expr;
  readonly values: readonly Expr[];
  readonly select?: SelectStmt;
  readonly not: boolean;
  readonly span: Span;
}

/** A row value `(a, b, …)`: two or more values in parentheses (one is a parenthesized expression). */
export interface RowExpr {
  readonly kind: "row";
  readonly items: readonly Expr[];
  readonly span: Span;
}

/** A scalar subquery `(SELECT …)`. */
export interface SubqueryExpr {
  readonly kind: "subquery";
  readonly select: SelectStmt;
  readonly span: Span;
}

/** `EXISTS (SELECT …)` (NOT before it is a NOT over it). */
export interface ExistsExpr {
  readonly kind: "exists";
  readonly select: SelectStmt;
  readonly span: Span;
}

/** `x [NOT] BETWEEN low AND high`. */
export interface BetweenExpr {
  readonly kind: "between";
  readonly expr: Expr;
  readonly low: Expr;
  readonly high: Expr;
  readonly not: boolean;
  readonly span: Span;
}

/** `x [NOT] LIKE pattern [ESCAPE e]`. */
export interface LikeExpr {
  readonly kind: "like";
  readonly expr: Expr;
  readonly pattern: Expr;
  readonly escape?: Expr;
  readonly not: boolean;
  readonly span: Span;
}

/** `x [NOT] GLOB pattern`. */
export interface GlobExpr {
  readonly kind: "glob";
  readonly expr: Expr;
  readonly pattern: Expr;
  readonly not: boolean;
  readonly span: Span;
}

/** `x COLLATE name`: the name as written (checked when lowered). */
export interface CollateExpr {
  readonly kind: "collate";
  readonly expr: Expr;
  readonly collation: Name;
  readonly span: Span;
}

export interface WhenClause {
  readonly when: Expr;
  readonly then: Expr;
}

/** `CASE [operand] WHEN ... THEN ... [ELSE ...] END`. */
export interface CaseExpr {
  readonly kind: "case";
  readonly operand?: Expr;
  readonly whens: readonly WhenClause[];
  readonly else?: Expr;
  readonly span: Span;
}

/** `CAST(x AS type)`, the type as written. */
export interface CastExpr {
  readonly kind: "cast";
  readonly expr: Expr;
  readonly type: TypeName;
  readonly span: Span;
}

/**
 * `name(args)`: a call as written — a function or an aggregate; whether it
 * names either is decided later. `star` is `count(*)`; `distinct` is
 * `sum(DISTINCT a)`.
 */
export interface CallExpr {
  readonly kind: "call";
  readonly name: Name;
  readonly args: readonly Expr[];
  readonly distinct: boolean;
  readonly star: boolean;
  /** `FILTER (WHERE where)`: the rows an aggregate reads (`span`: the clause, from FILTER). */
  readonly filter?: { readonly where: Expr; readonly span: Span };
  /** `OVER name` or `OVER (…)`: a window function call. */
  readonly over?: { readonly name: Name } | { readonly spec: WindowSpec };
  readonly span: Span;
}

/** A window as written: a base window it extends (`OVER (w ORDER BY x)`), PARTITION BY, ORDER BY and the frame. */
export interface WindowSpec {
  readonly base?: Name;
  readonly partitionBy: readonly Expr[];
  readonly orderBy: readonly OrderItem[];
  readonly frame?: FrameClause;
  readonly span: Span;
}

/** `n PRECEDING` and `n FOLLOWING` carry `n` as written: a number ≥ 0, or `?`. */
export type FrameEnd =
  | { readonly kind: "unbounded-preceding" | "current-row" | "unbounded-following"; readonly span: Span }
  | { readonly kind: "preceding" | "following"; readonly offset: number | ParamExpr; readonly span: Span };

export interface FrameClause {
  readonly units: "rows" | "range" | "groups";
  readonly start: FrameEnd;
  /** Absent: `CURRENT ROW` (a frame of one bound). */
  readonly end?: FrameEnd;
  readonly exclude?: "no others" | "current row" | "group" | "ties";
  readonly span: Span;
}

/** `name AS (window)` in a WINDOW clause. */
export interface WindowDefinition {
  readonly name: Name;
  readonly spec: WindowSpec;
  readonly span: Span;
}

export type Expr =
  | LiteralExpr
  | ParamExpr
  | ColumnRefExpr
  | ComparisonExpr
  | IsNullExpr
  | AndExpr
  | OrExpr
  | NotExpr
  | BinaryExpr
  | NegateExpr
  | InExpr
  | BetweenExpr
  | LikeExpr
  | GlobExpr
  | CollateExpr
  | CaseExpr
  | CastExpr
  | CallExpr
  | SubqueryExpr
  | ExistsExpr
  | RowExpr;

/** What may stand where SQL takes a single value (VALUES items, DEFAULT). */
export type ValueExpr = LiteralExpr | ParamExpr;

// ---------------------------------------------------------------- statements

export interface TableRef {
  readonly name: Name;
  readonly alias?: Name;
  readonly span: Span;
}

/** `(SELECT …) [AS] alias`: a select's rows read as a table's. */
export interface DerivedTableRef {
  readonly select: SelectStmt;
  readonly alias?: Name;
  readonly span: Span;
}

/** `name(arg, …) [AS] alias`: a table function's rows (json_each, json_tree). */
export interface TableFunctionRef {
  readonly name: Name;
  readonly args: readonly Expr[];
  readonly alias?: Name;
  readonly span: Span;
}

/** What FROM and JOIN read. */
export type FromItem = TableRef | DerivedTableRef | TableFunctionRef;

/** Whether a FROM item calls a table function (a table's reference has the same members but `args`). */
export function isTableFunctionRef(item: FromItem): item is TableFunctionRef {
  return "args" in item;
}

/** `name AS (SELECT …)` of a WITH clause. */
export interface CommonTable {
  readonly name: Name;
  /** `name(a, b)`: the table's column names, by position, in place of its select's. */
  readonly columns?: readonly Name[];
  readonly select: SelectStmt;
  readonly span: Span;
}

/**
 * A join as written: `type` is its word (`cross` for a comma too; `inner`
 * for JOIN alone), then NATURAL, ON or USING, or no condition.
 */
export interface JoinClause {
  readonly type: "inner" | "left" | "right" | "full" | "cross";
  readonly natural?: true;
  readonly table: FromItem;
  readonly on?: Expr;
  readonly using?: readonly Name[];
  readonly span: Span;
}

export interface OrderItem {
  readonly expr: Expr;
  readonly direction: "asc" | "desc";
  /** `NULLS FIRST` / `NULLS LAST`; absent: NULL sorts first ascending, last descending. */
  readonly nulls?: "first" | "last";
  readonly span: Span;
}

/** One item of the select list: an expression, its alias if one is written, and its text as written (its name without one). */
export interface SelectItem {
  readonly expr: Expr;
  readonly alias?: Name;
  readonly text: string;
  readonly span: Span;
}

/** `t.*` in a select or RETURNING list: every column of the source named `t` (its alias, else its table's name). */
export interface SourceStar {
  readonly star: Name;
  readonly span: Span;
}

/** LIMIT and OFFSET: a whole number as written, or `?`. */
export type Count = number | ParamExpr;

export interface SelectStmt {
  readonly kind: "select";
  /** WITH's tables, visible to the select and its subqueries (and each to the ones after it). */
  readonly with?: WithClause;
  readonly distinct: boolean;
  /** `"*"` or the listed items in order. */
  readonly columns: "*" | readonly (SelectItem | SourceStar)[];
  /** Absent for `SELECT 1 + 1`: the columns are evaluated once. */
  readonly from?: FromItem;
  readonly joins: readonly JoinClause[];
  readonly where?: Expr;
  readonly groupBy: readonly Expr[];
  readonly having?: Expr;
  /** WINDOW's named windows, for the OVER clauses of the select list and ORDER BY. */
  readonly windows?: readonly WindowDefinition[];
  /** The selects joined to this one by UNION [ALL], INTERSECT or EXCEPT, left to right; ORDER BY, LIMIT and OFFSET then apply to the whole. */
  readonly compound?: readonly SetOperation[];
  readonly orderBy: readonly OrderItem[];
  readonly limit?: Count;
  readonly offset?: Count;
  readonly span: Span;
}

export interface WithClause {
  readonly recursive: boolean;
  readonly tables: readonly CommonTable[];
  readonly span: Span;
}

export type SetOperator = "union" | "union all" | "intersect" | "except";

/** `UNION [ALL] | INTERSECT | EXCEPT` and the select after it (which has no ORDER BY, LIMIT or OFFSET of its own). */
export interface SetOperation {
  readonly operator: SetOperator;
  readonly select: SelectStmt;
  readonly span: Span;
}

/** `RETURNING *` or `RETURNING item, ...` after a write. */
export interface Returning {
  readonly items: "*" | readonly (SelectItem | SourceStar)[];
  readonly span: Span;
}

/** `ON CONFLICT [(target)] DO NOTHING | DO UPDATE SET ...`. */
export interface OnConflictClause {
  readonly target?: readonly KeyColumn[];
  readonly action: "nothing" | "update";
  /** DO UPDATE's SET list (empty for DO NOTHING). */
  readonly assignments: readonly Assignment[];
  /** DO UPDATE's WHERE: which conflicting rows are updated (the others' proposed rows are ignored). */
  readonly where?: Expr;
  readonly span: Span;
}

export interface InsertStmt {
  readonly kind: "insert";
  /** WITH's tables, visible to the insert's select and subqueries. */
  readonly with?: WithClause;
  /** `INSERT OR IGNORE`; `INSERT OR REPLACE` or `REPLACE INTO`. (`OR ABORT` is the default, absent here.) */
  readonly or?: "ignore" | "replace";
  readonly table: Name;
  /** Absent when the statement names none: the table's columns, in order. */
  readonly columns?: readonly Name[];
  /** One entry per VALUES tuple; each tuple is positionally matched to `columns`. None when `select` gives the rows, or DEFAULT VALUES. */
  readonly rows: readonly (readonly Expr[])[];
  /** `DEFAULT VALUES`: one row, every column its default. */
  readonly defaultValues?: true;
  /** INSERT … SELECT: the select whose result columns are positionally matched to `columns`. */
  readonly select?: SelectStmt;
  readonly onConflict?: OnConflictClause;
  readonly returning?: Returning;
  readonly span: Span;
}

/** `column = expression` in SET (or `(a, b) = …`: `RowAssignment`): the expression reads the row as it was before the statement. */
export type Assignment = ColumnAssignment | RowAssignment;

/** `(a, b, …) = (x, y, …)` or `= (SELECT x, y, …)` in SET: a value of the row value for each column. */
export interface RowAssignment {
  readonly columns: readonly Name[];
  readonly value: Expr;
  readonly span: Span;
}

export interface ColumnAssignment {
  readonly column: Name;
  readonly value: Expr;
  readonly span: Span;
}

export interface UpdateStmt {
  readonly kind: "update";
  /** WITH's tables, visible to FROM, SET, WHERE and their subqueries. */
  readonly with?: WithClause;
  readonly table: Name;
  /** The table's alias: SET, FROM's joins' neighbours and WHERE name it so. */
  readonly alias?: Name;
  readonly assignments: readonly Assignment[];
  /** UPDATE … FROM: the first source of FROM, and `joins` the rest (present with `from`); the table is joined with them all. */
  readonly from?: FromItem;
  readonly joins?: readonly JoinClause[];
  readonly where?: Expr;
  readonly returning?: Returning;
  readonly span: Span;
}

export interface DeleteStmt {
  readonly kind: "delete";
  /** WITH's tables, visible to WHERE's subqueries. */
  readonly with?: WithClause;
  readonly table: Name;
  /** The table's alias: WHERE names it so. */
  readonly alias?: Name;
  readonly where?: Expr;
  readonly returning?: Returning;
  readonly span: Span;
}

/** A type as written, e.g. `VARCHAR(255)`: `name` is the text of the type keyword/identifier. */
export interface TypeName {
  readonly name: string;
  readonly args: readonly number[];
  readonly span: Span;
}

export type OnDelete = "restrict" | "cascade";

export interface References {
  readonly table: Name;
  readonly columns: readonly Name[];
  readonly onDelete?: OnDelete;
  readonly span: Span;
}

/**
 * A column's DEFAULT: a literal; `CURRENT_TIMESTAMP`, `CURRENT_DATE` or
 * `CURRENT_TIME` (`current`); or `(expression)`, evaluated per inserted row.
 */
export type ColumnDefault =
  | LiteralExpr
  | { readonly kind: "current"; readonly which: "timestamp" | "date" | "time"; readonly span: Span }
  | { readonly kind: "default-expr"; readonly expr: Expr; readonly span: Span };

export interface ColumnDef {
  readonly name: Name;
  readonly type: TypeName;
  readonly primaryKey: boolean;
  readonly notNull: boolean;
  readonly unique: boolean;
  readonly default?: ColumnDefault;
  readonly references?: References;
  /** `COLLATE name`, as written (lowering accepts BINARY only). */
  readonly collation?: Name;
  readonly span: Span;
}

export type TableConstraint =
  | { readonly kind: "primary-key"; readonly name?: Name; readonly columns: readonly KeyColumn[]; readonly span: Span }
  | { readonly kind: "unique"; readonly name?: Name; readonly columns: readonly KeyColumn[]; readonly span: Span }
  | {
      readonly kind: "foreign-key";
      readonly name?: Name;
      readonly columns: readonly Name[];
      readonly references: References;
      readonly span: Span;
    }
  | { readonly kind: "check"; readonly name?: Name; readonly expr: Expr; readonly span: Span };

export interface CreateTableStmt {
  readonly kind: "create-table";
  readonly ifNotExists: boolean;
  readonly table: Name;
  /** Both empty for CREATE TABLE … AS SELECT. */
  readonly columns: readonly ColumnDef[];
  readonly constraints: readonly TableConstraint[];
  /** CREATE TABLE … AS SELECT: the select whose result columns and rows the table is made of. */
  readonly as?: SelectStmt;
  readonly span: Span;
}

export interface DropTableStmt {
  readonly kind: "drop-table";
  readonly ifExists: boolean;
  readonly table: Name;
  readonly span: Span;
}

export interface CreateIndexStmt {
  readonly kind: "create-index";
  readonly unique: boolean;
  readonly ifNotExists: boolean;
  readonly name: Name;
  readonly table: Name;
  readonly columns: readonly KeyColumn[];
  readonly span: Span;
}

/** What `ALTER TABLE` does; an added column is written as in `CREATE TABLE` (lowering keeps NOT NULL and DEFAULT only). */
export type AlterAction =
  | { readonly kind: "add-column"; readonly column: ColumnDef }
  | { readonly kind: "drop-column"; readonly column: Name }
  | { readonly kind: "rename-column"; readonly from: Name; readonly to: Name }
  | { readonly kind: "rename-table"; readonly to: Name };

export interface AlterTableStmt {
  readonly kind: "alter-table";
  readonly table: Name;
  readonly action: AlterAction;
  readonly span: Span;
}

export interface DropIndexStmt {
  readonly kind: "drop-index";
  readonly ifExists: boolean;
  readonly name: Name;
  readonly span: Span;
}

export interface ExplainStmt {
  readonly kind: "explain";
  readonly statement: SelectStmt | InsertStmt | UpdateStmt | DeleteStmt;
  readonly span: Span;
}

export type Statement =
  | SelectStmt
  | InsertStmt
  | UpdateStmt
  | DeleteStmt
  | CreateTableStmt
  | DropTableStmt
  | CreateIndexStmt
  | DropIndexStmt
  | AlterTableStmt
  | ExplainStmt;
