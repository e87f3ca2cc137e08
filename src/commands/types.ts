/**
 * The wire form of the query plan: the commands of CONTRACT §4 and the
 * expressions of §5, exactly as a client writes them in JSON.
 *
 * This is the unbound plan every surface produces: JSON bodies are validated
 * into it, SQL statements are lowered into it, and the fluent builder builds
 * it. The planner's bind step (names → columns, types, access paths) turns it
 * into the bound `Plan` of `src/planner/plan.ts`. The one addition to the
 * wire format is the `param` expression: a `?` slot from SQL or the fluent
 * builder, never accepted from a JSON body.
 */

export type Value = string | number | boolean | null;

export type ColumnType = "text" | "integer" | "real" | "boolean";

/** `is` and `is not` compare NULL as a value (null-safe): `NULL is NULL` is true, and the answer is never NULL. */
export type ComparisonOp = "=" | "!=" | "<>" | "<" | "<=" | ">" | ">=" | "is" | "is not";

/** Arithmetic (`+ - * / %`), text concatenation (`||`), and SQLite's JSON extraction: `->` (the value as JSON text), `->>` (its SQL value). */
export type BinaryOp = "+" | "-" | "*" | "/" | "%" | "||" | "->" | "->>";

/** A positional parameter slot (0-based). Internal: produced by SQL lowering and the JSON plan cache, never accepted from a JSON body. */
export interface ParamSlot {
  readonly type: "param";
  readonly index: number;
  /**
   * The type of the JSON literal the slot stands for (the JSON plan cache),
   * so the slot binds and computes exactly as that literal would: `7` is an
   * integer, `7.5` a real. Absent for SQL's `?`, typed by its value.
   */
  readonly literal?: "text" | "integer" | "real" | "boolean" | "null";
}

/** One `WHEN … THEN …` of a CASE. */
export interface WhenThen {
  readonly when: Expression;
  readonly then: Expression;
}

export type Expression =
  | { readonly type: "literal"; readonly value: Value }
  | { readonly type: "identifier"; readonly name: string }
  | { readonly type: "comparison"; readonly op: ComparisonOp; readonly left: Expression; readonly right: Expression }
  | { readonly type: "is-null"; readonly expr: Expression; readonly not?: boolean }
  | { readonly type: "and"; readonly operands: readonly Expression[] }
  | { readonly type: "or"; readonly operands: readonly Expression[] }
  | { readonly type: "not"; readonly expr: Expression }
  | { readonly type: "binary"; readonly op: BinaryOp; readonly left: Expression; readonly right: Expression }
  | { readonly type: "negate"; readonly expr: Expression }
  /**
   * `values` (a list) or `select` (a subquery): exactly one. `expr` a row
   * value: `select` gives as many columns as it has values, and the row
   * is IN when one of its rows equals it component by component.
   */
  | { readonly type: "in"; readonly expr: Expression; readonly values?: readonly Expression[]; readonly select?: SelectCommand; readonly not?: boolean }
  | { readonly type: "between"; readonly expr: Expression; readonly low: Expression; readonly high: Expression; readonly not?: boolean }
  /** `escape` is one character (a slot only from SQL's `ESCAPE ?`). */
  | { readonly type: "like"; readonly expr: Expression; readonly pattern: Expression; readonly escape?: string | ParamSlot; readonly not?: boolean }
  /** SQLite's GLOB: `*`, `?`, `[…]`, case-sensitive, no ESCAPE. */
  | { readonly type: "glob"; readonly expr: Expression; readonly pattern: Expression; readonly not?: boolean }
  /**
   * `expr COLLATE collation`: the value of `expr`, with the collation a
   * comparison, ORDER BY, GROUP BY, DISTINCT, min/max or a compound takes
   * for its text (SQLite's rules: see `planner/collation.ts`).
   */
  | { readonly type: "collate"; readonly expr: Expression; readonly collation: Collation }
  | { readonly type: "case"; readonly operand?: Expression; readonly when: readonly WhenThen[]; readonly else?: Expression }
  | { readonly type: "cast"; readonly expr: Expression; readonly as: ColumnType }
  | { readonly type: "function"; readonly name: string; readonly args: readonly Expression[] }
  /** `arg` absent: `count(*)`. */
  /** `value`: json_group_object's member values (`arg` is their names), and only its. */
  /** `filter`: SQL's `FILTER (WHERE …)`, a boolean over the row: the aggregate reads only the rows it is true for. */
  | { readonly type: "aggregate"; readonly name: AggregateName; readonly arg?: Expression; readonly distinct?: boolean; readonly separator?: string; readonly value?: Expression; readonly filter?: Expression }
  /**
   * A window function call (`f(args) OVER (…)`): a ranking or value
   * function, or an aggregate over the window's frame (`args` absent or
   * empty for `count(*)` and the functions that take none). Only in a
   * select's list and ORDER BY. `filter` (an aggregate's only): the rows
   * of the frame it aggregates, as an aggregate's.
   */
  | { readonly type: "window"; readonly name: WindowFunctionName | FrameAggregateName; readonly args?: readonly Expression[]; readonly separator?: string; readonly filter?: Expression; readonly over: WindowSpec }
  /**
   * A scalar subquery: the one value of its one column, NULL for no row.
   * Of several columns it is a row value (see `row`); with `column`, the
   * value of that column (0-based) of its one row — SQL's `SET (a, b) =
   * (SELECT x, y …)` is one per assigned column, and they run it once.
   */
  | { readonly type: "subquery"; readonly select: SelectCommand; readonly column?: number }
  /**
   * A row value `(a, b, …)` of two or more values (SQLite's row values):
   * only where rows are compared — either side of a comparison, BETWEEN's
   * three operands, IN's `expr` — beside another row value of as many.
   */
  | { readonly type: "row"; readonly items: readonly Expression[] }
  | { readonly type: "exists"; readonly select: SelectCommand; readonly not?: boolean }
  | ParamSlot;

/**
 * SQLite's built-in collations: `binary` compares text by code point,
 * `nocase` as if ASCII letters were lower case, `rtrim` as if trailing
 * spaces were not there.
 */
export type Collation = "binary" | "nocase" | "rtrim";

/**
 * The aggregates that also run over a window's frame. `group_concat` joins a
 * group's non-NULL values as text, with `separator` (default `,`) between
 * them; `total` is SQLite's sum that is always real, 0.0 over no values.
 */
export type FrameAggregateName = "count" | "sum" | "total" | "avg" | "min" | "max" | "group_concat";

/** `json_group_array` and `json_group_object` build a JSON array or object of a group's values (NULLs too); no window runs them. */
export type AggregateName = FrameAggregateName | "json_group_array" | "json_group_object";

export type WindowFunctionName = "row_number" | "rank" | "dense_rank" | "percent_rank" | "cume_dist" | "ntile" | "lag" | "lead" | "first_value" | "last_value" | "nth_value";

/**
 * A window: rows with equal `partitionBy` values (NULLs together), in
 * `orderBy` (source columns and expressions; an integer literal is a
 * constant here, as in SQL), seen through `frame`. Without a frame: from the
 * partition's first row to the current row's last peer (its last row
 * without `orderBy`).
 */
export interface WindowSpec {
  readonly partitionBy?: readonly Expression[];
  readonly orderBy?: readonly OrderBy[];
  readonly frame?: WindowFrameSpec;
}

export type FrameUnits = "rows" | "range" | "groups";

export type FrameExclude = "no others" | "current row" | "group" | "ties";

/**
 * A frame's end: `{"preceding": n}` and `{"following": n}` count rows
 * (`rows`), peer groups (`groups`) or ORDER BY distance (`range`); from SQL
 * `n` may be a parameter slot (`? PRECEDING`).
 */
export type FrameBoundSpec =
  | "unbounded preceding"
  | "current row"
  | "unbounded following"
  | { readonly preceding: number | ParamSlot }
  | { readonly following: number | ParamSlot };

/** `end` absent: `current row`. */
export interface WindowFrameSpec {
  readonly units: FrameUnits;
  readonly start: FrameBoundSpec;
  readonly end?: FrameBoundSpec;
  readonly exclude?: FrameExclude;
}

/** What an insert row may hold: a JSON value, or a parameter slot from SQL. */
export type ValueOrParam = Value | ParamSlot;

/**
 * What an update `set` (or an upsert's) may hold: a JSON scalar is a
 * literal; an object is an expression over the row before the update
 * (CONTRACT §11), a bare parameter slot a value from SQL.
 */
export type SetValue = Value | Expression;

/** What a write returns (CONTRACT §11): `"*"`, or column names and named expressions as in a select. */
export type Returning = "*" | readonly SelectColumn[];

/**
 * An insert's conflict clause (CONTRACT §11): on a conflict on `target` —
 * the columns of the primary key or a unique key; absent, any of them — do
 * nothing, or update the row already there with `set`, whose expressions
 * read that row (`col`, `t.col`) and the proposed one (`excluded.col`).
 * `replace` (SQL's INSERT OR REPLACE) takes no target: the proposed row
 * deletes every row it conflicts with, on any key, and is inserted.
 */
export interface OnConflict {
  readonly target?: readonly string[];
  readonly action: "nothing" | "update" | "replace";
  readonly set?: Readonly<Record<string, SetValue>>;
  /** With action update: the conflicting row is updated only where this holds (over it and `excluded.*`); else the proposed row is ignored. */
  readonly where?: Expression;
}

/** An item of a select's `columns`: a column name, `source.*` (every column of one source), or an expression and the name of its result column. */
export type SelectColumn = string | { readonly expr: Expression; readonly as: string };

/** `cross`: every pair, no condition (SQL's `FROM a, b` and CROSS JOIN). */
export type JoinType = "inner" | "left" | "right" | "full" | "cross";

/** A source: a table, or `from`, a select (or WITH table, or table function) whose rows are read as a table's (exactly one of the two); `as` names it. */
export interface SourceItem {
  readonly table?: string;
  readonly from?: FromSource;
  readonly as?: string;
}

/**
 * A joined source and its condition: exactly one of `on`, `using` (columns
 * of both sides, equal) and `natural` (every column name both sides have),
 * except for a `cross` join, which has none.
 */
export interface Join extends SourceItem {
  readonly type: JoinType;
  readonly on?: Expression;
  readonly using?: readonly string[];
  readonly natural?: boolean;
}

/**
 * A sort key: a source column or a result name (`column`), or an expression
 * (`expr`; an integer literal there is a column number, 1-based, as in SQL).
 */
/** `nulls`: where NULL sorts; absent, first ascending and last descending. */
/** `collation`: how texts order (SQL's `ORDER BY x COLLATE nocase`); absent, the key's own (binary unless its expression has a COLLATE). */
export type OrderBy =
  | { readonly column: string; readonly direction?: "asc" | "desc"; readonly nulls?: "first" | "last"; readonly collation?: Collation }
  | { readonly expr: Expression; readonly direction?: "asc" | "desc"; readonly nulls?: "first" | "last"; readonly collation?: Collation };

export interface SelectCommand {
  readonly kind: "select";
  /** Absent (and no `from`): no FROM, the columns are evaluated once (`SELECT 1 + 1`). */
  readonly table?: string;
  /** Instead of `table`, a derived table: the rows of this select (or WITH table, or table function), read as a table's. */
  readonly from?: FromSource;
  /** An alias for `table` (or `from`), so a table can join itself; qualified names then use it. */
  readonly as?: string;
  readonly columns: "*" | readonly SelectColumn[];
  readonly joins?: readonly Join[];
  readonly where?: Expression;
  /** Groups by these (an integer literal is a column number, a name a source column, else a result name). */
  readonly groupBy?: readonly Expression[];
  /** Keeps the groups for which this is TRUE. */
  readonly having?: Expression;
  /** Drops repeated rows of the result. */
  readonly distinct?: boolean;
  /**
   * Selects joined to this one, left to right, each by its operator (as
   * SQLite groups them: no operator binds tighter). `orderBy`, `limit`,
   * `offset` and `output` then apply to the whole result, whose columns are
   * this select's; an arm's select has none of them.
   */
  readonly compound?: readonly CompoundArm[];
  readonly orderBy?: readonly OrderBy[];
  /** A count, or (SQL `LIMIT ?`) a parameter slot. */
  readonly limit?: number | ParamSlot;
  readonly offset?: number | ParamSlot;
  readonly output?: "objects" | "arrays";
}

/** What a derived table reads: a select, or a WITH table (a select with a name it may read itself by, and column names). */
export type DerivedSource = SelectCommand | WithTable;

/** What a `from` (of a select or a join) reads other than a stored table: a derived table, or a table function's rows. */
export type FromSource = DerivedSource | TableFunctionCall;

/** SQLite's table-valued JSON functions: `json_each` reads a document's top level, `json_tree` walks all of it. */
export type TableFunctionName = "json_each" | "json_tree";

/**
 * A table function read as a table (SQL's `FROM json_each(doc [, path])`):
 * its rows are made from `args`, the document and optionally a path, which
 * may read the sources before it (`FROM t, json_each(t.tags)`): it is then
 * made again for each row of them, as SQLite's table functions are.
 */
export interface TableFunctionCall {
  readonly kind: "function";
  readonly name: TableFunctionName;
  readonly args: readonly Expression[];
}

/**
 * SQL's `WITH name(columns…) AS (select)`, read where it stands. Its
 * columns are `columns` (by position), else the select's own. A compound
 * `select` whose later selects read `name` (each once, in its FROM or a
 * JOIN) is recursive: the selects before the first that reads it make the
 * first rows, and the ones that read it run over the rows the step before
 * made, joined by `union` or `union-all`, until a step makes none (or the
 * compound's `limit` is reached). `name` is read nowhere else in `select`.
 */
export interface WithTable {
  readonly kind: "with";
  readonly name: string;
  readonly columns?: readonly string[];
  readonly select: SelectCommand;
}

/** `union` and `intersect` and `except` keep each distinct row once; `union-all` keeps every row of both sides. */
export type CompoundOperator = "union" | "union-all" | "intersect" | "except";

export interface CompoundArm {
  readonly op: CompoundOperator;
  readonly select: SelectCommand;
}

/** An insert of `rows`, or of the rows a `select` returns (exactly one of the two). */
export interface InsertCommand {
  readonly kind: "insert";
  readonly table: string;
  readonly rows?: readonly Readonly<Record<string, ValueOrParam>>[];
  /** INSERT … SELECT: each result row is inserted, its columns going to `columns` (or to the columns of their names). */
  readonly select?: SelectCommand;
  /** With `select` only: the column each result column goes to, by position; absent, a result column goes to the column of its name. */
  readonly columns?: readonly string[];
  readonly onConflict?: OnConflict;
  readonly returning?: Returning;
}

/**
 * An update of `table`'s rows `where` holds for. With `from` (SQL's UPDATE …
 * FROM), the table is joined with `from` and its `joins` — whose conditions
 * read only those sources, not the table — and `where` and `set` read every
 * source: a row is updated when some joined row holds it, from the last
 * such joined row when several do.
 */
export interface UpdateCommand {
  readonly kind: "update";
  readonly table: string;
  /** The table's alias: `set` and `where` name it so. */
  readonly as?: string;
  readonly from?: SourceItem;
  /** Sources joined to `from`, as a select's `joins` are to its table. */
  readonly joins?: readonly Join[];
  /** Without `setRows`, at least one column. */
  readonly set: Readonly<Record<string, SetValue>>;
  /** SQL's `SET (a, b, …) = (SELECT x, y, …)`s; a column is assigned once, here or in `set`. */
  readonly setRows?: readonly RowAssignment[];
  readonly where: Expression;
  readonly returning?: Returning;
}

/**
 * `SET (a, b, …) = (SELECT x, y, …)`: each of `columns` takes its value of
 * the select's one row (NULL for no row; two rows are an error), which
 * selects as many columns. The select runs once per updated row for them
 * all (a `set` of `{ "type": "subquery", "column": i }` values runs once
 * per column).
 */
export interface RowAssignment {
  readonly columns: readonly string[];
  readonly select: SelectCommand;
}

export interface DeleteCommand {
  readonly kind: "delete";
  readonly table: string;
  /** The table's alias: `where` names it so (`returning` by the table's name). */
  readonly as?: string;
  readonly where: Expression;
  readonly returning?: Returning;
}

export interface ForeignKey {
  readonly columns: readonly string[];
  readonly references: { readonly table: string; readonly columns: readonly string[] };
  readonly on_delete?: "restrict" | "cascade";
}

export interface Check {
  readonly name?: string;
  readonly expr: Expression;
}

/** A named index of a table: a lookup path on its columns and, when `unique`, a key no two rows may share. */
export interface IndexDef {
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique?: boolean;
}

/**
 * A column's default: a value, or `{"expr": …}`, a constant expression
 * evaluated for each row an insert gives no value (SQL's `DEFAULT
 * CURRENT_TIMESTAMP` is `datetime('now')`, `DEFAULT (expr)` any such
 * expression).
 */
export type ColumnDefault = Value | { readonly expr: Expression };

/** A table schema (CONTRACT §3). Everything but `name` and `columns` is optional. */
export interface TableSchema {
  readonly name: string;
  readonly columns: Readonly<Record<string, ColumnType>>;
  readonly required?: readonly string[];
  readonly primary_key?: { readonly columns: readonly string[] };
  readonly unique?: readonly { readonly columns: readonly string[] }[];
  readonly foreign_keys?: readonly ForeignKey[];
  readonly checks?: readonly Check[];
  readonly indexes?: readonly IndexDef[];
  readonly defaults?: Readonly<Record<string, ColumnDefault>>;
  readonly computed?: Readonly<Record<string, Expression>>;
  readonly comment?: string;
  readonly comments?: Readonly<Record<string, string>>;
}

/** A table made from `schema`, or (CREATE TABLE … AS SELECT) named `table` and made of a select's result columns and rows. */
export type CreateTableCommand = CreateTableFromSchema | CreateTableFromSelect;

export interface CreateTableFromSchema {
  readonly kind: "create-table";
  readonly schema: TableSchema;
  readonly ifNotExists?: boolean;
}

/**
 * The table's columns are the select's result columns, named and typed as
 * a derived table's; it has no keys or constraints, and holds the select's
 * rows.
 */
export interface CreateTableFromSelect {
  readonly kind: "create-table";
  readonly table: string;
  readonly select: SelectCommand;
  readonly ifNotExists?: boolean;
}

export interface DropTableCommand {
  readonly kind: "drop-table";
  readonly table: string;
  readonly ifExists?: boolean;
}

/** Adds an index to a table's schema (CONTRACT §11); its name is unique within the database. */
export interface CreateIndexCommand {
  readonly kind: "create-index";
  readonly table: string;
  readonly index: IndexDef;
  readonly ifNotExists?: boolean;
}

/** What `alter-table` does (CONTRACT §11). */
export type AlterAction =
  | { readonly type: "add-column"; readonly column: string; readonly columnType: ColumnType; readonly default?: Value; readonly required?: boolean }
  | { readonly type: "drop-column"; readonly column: string }
  | { readonly type: "rename-column"; readonly from: string; readonly to: string }
  | { readonly type: "rename-table"; readonly to: string };

/** Changes a table's schema in place, keeping its rows; refused where anything depends on what would go. */
export interface AlterTableCommand {
  readonly kind: "alter-table";
  readonly table: string;
  readonly action: AlterAction;
}

/** Removes the index of that name, whichever table holds it. */
export interface DropIndexCommand {
  readonly kind: "drop-index";
  readonly name: string;
  readonly ifExists?: boolean;
}

export interface ValidateCommand {
  readonly kind: "validate";
}

export interface SqlCommand {
  readonly kind: "sql";
  readonly sql: string;
  readonly params?: readonly Value[];
}

export interface DescribeCommand {
  readonly kind: "describe";
  readonly table?: string;
}

/** Folds the database's journal into its `.store` file (CONTRACT §2, §4). */
export interface CheckpointCommand {
  readonly kind: "checkpoint";
}

export interface ExplainCommand {
  readonly kind: "explain";
  readonly command: SelectCommand | InsertCommand | UpdateCommand | DeleteCommand | SqlCommand;
}

/** What a transaction step may be (CONTRACT §11): reads, writes and schema changes, never a command about the database itself. */
export type TransactionStep = PlanCommand | SqlCommand;

/**
 * Runs 1 to 1,000 commands in order, all or nothing, made durable once;
 * later steps see earlier steps' writes (CONTRACT §11).
 */
export interface TransactionCommand {
  readonly kind: "transaction";
  readonly commands: readonly TransactionStep[];
}

/** The query-plan kinds: what the bind step turns into a bound Plan. */
export type PlanCommand =
  | SelectCommand
  | InsertCommand
  | UpdateCommand
  | DeleteCommand
  | CreateTableCommand
  | DropTableCommand
  | CreateIndexCommand
  | DropIndexCommand
  | AlterTableCommand;

export type Command = PlanCommand | ValidateCommand | SqlCommand | DescribeCommand | ExplainCommand | CheckpointCommand | TransactionCommand;

export type CommandKind = Command["kind"];

/** The request body of `POST /v1/commands`. */
export interface Envelope {
  readonly database: string;
  readonly command: Command;
}

/**
 * The request body of `POST /v1/databases/{name}/commands` (CONTRACT §12):
 * the database is the path's; a `database` here must repeat it.
 */
export interface CommandBody {
  readonly database?: string;
  readonly command: Command;
}
