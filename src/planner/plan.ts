/**
 * The bound QueryPlan IR: the one form every surface reaches and the one
 * thing the executor runs. `explain` returns it as is.
 *
 * Unlike the wire commands (`src/commands/types.ts`), every name here is
 * resolved: a column is a (source, position) pair with a known type, computed
 * fields are inlined as expressions, insert rows are full-width in column
 * order, and each table access carries the path the planner chose. Parameters
 * stay as slots so a prepared plan is reused with new values; `params` lists
 * the type each slot must have, checked when values are bound.
 *
 * Nodes are readonly, JSON-serializable and discriminated by `kind`; every
 * switch over them ends in `assertNever`. Change a node here and the binder
 * (`bind*.ts`), the executor's compiler and the explain tests change with it.
 */

import type { AggregateName, Collation, ColumnType, FrameAggregateName, CompoundOperator, FrameExclude, FrameUnits, IndexDef, TableFunctionName, TableSchema, Value, WindowFunctionName } from "../commands/types.js";

export type CompareOp = "=" | "<>" | "<" | "<=" | ">" | ">=";

/**
 * The collation a comparison or an ordering of text takes, where it is not
 * binary (absent: binary). Chosen when bound, by SQLite's rules
 * (`collation.ts`); it changes only how two texts compare.
 */
export type TextCollation = Exclude<Collation, "binary">;

export type ArithmeticOp = "+" | "-" | "*" | "/" | "%";

/**
 * What the binder knows of a value's type: a column type; `number` for a
 * number that may be integer or real (it depends on a parameter's value:
 * integral is integer); `null` for an expression that is always NULL;
 * `unknown` for a parameter no use has typed yet, or a value typed only
 * when it is read (a JSON value: `->>`, json_extract).
 */
export type StaticType = ColumnType | "number" | "null" | "unknown";

/** The scalar functions of CONTRACT §11 (aggregates are not expressions of this kind). */
export type FunctionName =
  | "lower"
  | "upper"
  | "length"
  | "trim"
  | "ltrim"
  | "rtrim"
  | "substr"
  | "replace"
  | "instr"
  | "abs"
  | "round"
  | "coalesce"
  | "ifnull"
  | "nullif"
  | "typeof"
  | "sign"
  | "ceil"
  | "floor"
  | "trunc"
  | "char"
  | "unicode"
  | "hex"
  | "octet_length"
  | "date"
  | "time"
  | "datetime"
  | "julianday"
  | "unixepoch"
  | "strftime"
  | "json"
  | "json_valid"
  | "json_extract"
  | "json_type"
  | "json_array_length"
  | "json_array"
  | "json_object"
  | "json_quote"
  | "json_set"
  | "json_insert"
  | "json_replace"
  | "json_remove"
  | "json_patch"
  /** SQL's `->` and `->>` (JSON `binary` ops): no function of that name can be written. */
  | "->"
  | "->>"
  | "max"
  | "min"
  | "printf"
  | "concat"
  | "concat_ws"
  | "quote"
  | "random"
  | MathFunctionName;

/** SQLite's math functions: numbers in, a real out. */
export type MathFunctionName =
  | "acos"
  | "acosh"
  | "asin"
  | "asinh"
  | "atan"
  | "atan2"
  | "atanh"
  | "cos"
  | "cosh"
  | "degrees"
  | "exp"
  | "ln"
  | "log"
  | "log10"
  | "log2"
  | "mod"
  | "pi"
  | "pow"
  | "radians"
  | "sin"
  | "sinh"
  | "sqrt"
  | "tan"
  | "tanh";

/**
 * A bound expression. Nodes that compute a value carry its static `type`;
 * a constant's type is its value's (integral numbers are integers) unless it
 * says otherwise (`7.0` in SQL is a real 7).
 */
export type BoundExpr =
  | { readonly kind: "const"; readonly value: Value; readonly type?: "real" }
  /** A parameter slot; `type` when it stands for a JSON literal of that type (the JSON plan cache). */
  | { readonly kind: "param"; readonly index: number; readonly type?: "text" | "integer" | "real" | "boolean" | "null" }
  /**
   * Column `column` (position in the stored row) of source `source` (position in the FROM/JOIN list).
   * `unknown`: a table function's column whose values are read from JSON (json_each's key, value, atom), typed as each row is read.
   * `collation`: a derived column's (`TableShape.collations`).
   */
  | { readonly kind: "column"; readonly source: number; readonly column: number; readonly name: string; readonly type: ColumnType | "unknown"; readonly collation?: TextCollation }
  | { readonly kind: "compare"; readonly op: CompareOp; readonly left: BoundExpr; readonly right: BoundExpr; readonly collation?: TextCollation }
  | { readonly kind: "is-null"; readonly expr: BoundExpr; readonly not: boolean }
  /** Null-safe equality (SQL `IS`, `IS NOT DISTINCT FROM`): TRUE when both sides are NULL or equal, never NULL; `not` negates. */
  | { readonly kind: "is"; readonly left: BoundExpr; readonly right: BoundExpr; readonly not: boolean; readonly collation?: TextCollation }
  | { readonly kind: "and"; readonly operands: readonly BoundExpr[] }
  | { readonly kind: "or"; readonly operands: readonly BoundExpr[] }
  | { readonly kind: "not"; readonly expr: BoundExpr }
  /** Arithmetic on numbers: integer with integer is integer (division truncates), any real makes real; by zero is NULL. */
  | { readonly kind: "arithmetic"; readonly op: ArithmeticOp; readonly left: BoundExpr; readonly right: BoundExpr; readonly type: "integer" | "real" | "number" }
  | { readonly kind: "concat"; readonly left: BoundExpr; readonly right: BoundExpr }
  | { readonly kind: "negate"; readonly expr: BoundExpr; readonly type: "integer" | "real" | "number" }
  | { readonly kind: "in"; readonly expr: BoundExpr; readonly values: readonly BoundExpr[]; readonly not: boolean; readonly collation?: TextCollation }
  /** `expr >= low AND expr <= high`, each comparison with its own collation (as SQLite expands it). */
  | {
      readonly kind: "between";
      readonly expr: BoundExpr;
      readonly low: BoundExpr;
      readonly high: BoundExpr;
      readonly not: boolean;
      readonly lowCollation?: TextCollation;
      readonly highCollation?: TextCollation;
    }
  /** `escape` is a one-character constant or a parameter (checked to be one when values are bound). */
  | { readonly kind: "like"; readonly expr: BoundExpr; readonly pattern: BoundExpr; readonly escape?: BoundExpr; readonly not: boolean }
  /** SQLite's GLOB (`executor/glob.ts`). */
  | { readonly kind: "glob"; readonly expr: BoundExpr; readonly pattern: BoundExpr; readonly not: boolean }
  /**
   * `expr COLLATE collation`: the value of `expr`. Only the collation rules
   * read it (`collation.ts`), when the comparisons, orderings and groupings
   * around it are bound; its own value is its operand's.
   */
  | { readonly kind: "collate"; readonly expr: BoundExpr; readonly collation: Collation }
  /** `operand` present: simple CASE (`operand = when`, with the arm's `collation`); absent: searched CASE (`when` is a condition). */
  | {
      readonly kind: "case";
      readonly operand?: BoundExpr;
      readonly whens: readonly { readonly when: BoundExpr; readonly then: BoundExpr; readonly collation?: TextCollation }[];
      readonly else?: BoundExpr;
      readonly type: StaticType;
    }
  | { readonly kind: "cast"; readonly expr: BoundExpr; readonly to: ColumnType }
  /**
   * A value typed only when it is read (a JSON value) where `of` needs a
   * value of `type`'s family: checked as each row is read, another family
   * being 400 `type_mismatch`, as a parameter's is before any row. With
   * `document`, a JSON document's place (`json_extract(value, …)`,
   * `json_each(j.value)`) and a value a table function read: taken as its
   * JSON text, as SQLite reads its text (a number, boolean written as JSON,
   * a real by its row's `type`; a text as it is).
   */
  | { readonly kind: "assert-type"; readonly expr: BoundExpr; readonly type: "text" | "number" | "boolean"; readonly of: string; readonly document?: true }
  | { readonly kind: "function"; readonly name: FunctionName; readonly args: readonly BoundExpr[]; readonly type: StaticType }
  /** After grouping: the value of group key `index` (`SelectPlan.group.keys`). */
  | { readonly kind: "group-key"; readonly index: number; readonly type: StaticType }
  /** After grouping: the value of aggregate `index` (`SelectPlan.group.aggregates`). */
  | { readonly kind: "aggregate"; readonly index: number; readonly type: StaticType }
  /** After the window stage: the value of window call `index` (`SelectPlan.window.calls`) for the row at hand. */
  | { readonly kind: "window"; readonly index: number; readonly type: StaticType }
  /**
   * Inside a subquery: the value of the enclosing query's expression `outer[index]` for the row at hand (a correlation);
   * for a value a table function read (json_each's `value`, `atom`), `rowType` is the outer value that is its row's `type`,
   * which says how a JSON builder takes it (`executor/json-codegen.ts`).
   */
  | { readonly kind: "outer"; readonly index: number; readonly type: StaticType; readonly rowType?: number }
  /**
   * `(SELECT x …)`: its one row's one value, NULL for no row (two rows are an error).
   * With `column`, that column of the row (JSON's `subquery` with `column`: a scalar
   * subquery of its own; a row value's subquery is a `row-subquery`).
   */
  | (SubqueryParts & { readonly kind: "subquery"; readonly type: StaticType; readonly column?: number })
  /**
   * A subquery read as a row value (`(a, b) = (SELECT x, y …)`): its one row,
   * computed once when reached, then `body` — whose `row-column`s of this
   * `id` read the row's values — is the answer. The plan is here once, however
   * many columns are read: `(a, b) = (SELECT x, y …)` binds as
   * `row-subquery{ a = ⟨column 0⟩ AND b = ⟨column 1⟩ }`.
   */
  | (RowSubquery & { readonly body: BoundExpr })
  /**
   * Value `column` of the row of the enclosing `row-subquery` of this `id`
   * (NULL when it found no row); only inside that node's `body`, or in an
   * update's assignments beside its `rows` (`UpdatePlan.rows`).
   */
  | { readonly kind: "row-column"; readonly id: number; readonly column: number; readonly type: StaticType }
  /** `[NOT] EXISTS (SELECT …)`. */
  | (SubqueryParts & { readonly kind: "exists"; readonly not: boolean })
  /**
   * `x [NOT] IN (SELECT y …)`, or with a row value `(x1, x2, …) [NOT] IN (SELECT y1, y2, …)`:
   * `exprs` the left values, one per column; `collations[i]` the i-th comparison's (absent: all binary).
   */
  | (SubqueryParts & { readonly kind: "in-subquery"; readonly exprs: readonly BoundExpr[]; readonly not: boolean; readonly collations?: readonly RowCollation[] })
  /**
   * Row values ordered (`(a, b) < (x, y)`): lexicographic, as SQLite — the
   * first pair that is not equal decides (by `op` without its equality for
   * all but the last), a NULL in a pair reached first makes it NULL. Each
   * value is computed at most once, left to right, and only as far as
   * needed. (`=`, `<>`, IS and IS NOT of row values bind as the AND or OR
   * of their pairs' comparisons, which reads each value once too.)
   */
  | { readonly kind: "row-compare"; readonly op: OrderOp; readonly left: readonly BoundExpr[]; readonly right: readonly BoundExpr[]; readonly collations?: readonly RowCollation[] }
  /**
   * `(a, b) [NOT] IN ((x1, y1), (x2, y2), …)`, a list of two or more rows: the OR of each row's `=`
   * with the row value (TRUE when one equals it, else NULL when one might, else FALSE), `exprs`'s values
   * computed once; `collations[i]` the i-th pair's, with the last row's value (SQLite reads the list as
   * `IN (VALUES …)`). A list of one row binds as the row value's `=`.
   */
  | { readonly kind: "row-in"; readonly exprs: readonly BoundExpr[]; readonly rows: readonly (readonly BoundExpr[])[]; readonly not: boolean; readonly collations?: readonly RowCollation[] }
  /** `(a, b) [NOT] BETWEEN (l1, l2) AND (h1, h2)`: `expr >= low AND expr <= high` as `row-compare`s, `expr`'s values computed once for both. */
  | {
      readonly kind: "row-between";
      readonly expr: readonly BoundExpr[];
      readonly low: readonly BoundExpr[];
      readonly high: readonly BoundExpr[];
      readonly not: boolean;
      readonly lowCollations?: readonly RowCollation[];
      readonly highCollations?: readonly RowCollation[];
    };

/** The comparisons that order: a row value's lexicographic ones. */
export type OrderOp = "<" | "<=" | ">" | ">=";

/** The collation of one pair of a row comparison (null: binary), as `TextCollation` of a scalar one. */
export type RowCollation = TextCollation | null;

/**
 * A subquery of one row whose values `row-column` nodes read by `id` (unique
 * within a statement's expressions): its one row, NULLs for none, two rows
 * an error, run once however many columns are read.
 */
export type RowSubquery = SubqueryParts & { readonly kind: "row-subquery"; readonly id: number };

/**
 * What every subquery holds: its plan, the enclosing query's expressions its
 * `outer` references read (evaluated per row of the enclosing query), and how
 * it runs.
 */
export interface SubqueryParts {
  readonly plan: SelectPlan;
  readonly outer: readonly BoundExpr[];
  readonly strategy: SubqueryStrategy;
}

/**
 * How a subquery runs:
 * - `once`: it reads nothing of the enclosing row, so it runs once per
 *   execution and its answer (a value, a flag, a set) is kept;
 * - `per-row`: it runs for each distinct combination of its outer values,
 *   each answer kept for rows that repeat it;
 * - `hashed`: a correlated EXISTS or IN whose correlation is equalities
 *   (`inner = outer`), decorrelated: its plan, those equalities taken out,
 *   runs once and selects the inner sides first (`keys` columns), and each
 *   enclosing row looks its outer values up (`outerKeys`: indexes into
 *   `outer`) — a hash semi-join.
 */
export type SubqueryStrategy =
  | { readonly kind: "once" }
  | { readonly kind: "per-row" }
  | { readonly kind: "hashed"; readonly keys: number; readonly outerKeys: readonly number[] };

/** One aggregate of a grouping: `arg` (over source rows) absent for `count(*)`. */
export interface AggregateCall {
  readonly name: AggregateName;
  readonly arg?: BoundExpr;
  readonly distinct: boolean;
  readonly type: StaticType;
  /** group_concat's: what goes between two values. */
  readonly separator?: string;
  /** json_group_object's member values (`arg`: their names). */
  readonly value?: BoundExpr;
  /** FILTER (WHERE …): a boolean over source rows; the aggregate reads only the rows it is true for (a group it is true for none of is as over no rows). */
  readonly filter?: BoundExpr;
}

/**
 * Grouping: rows with equal `keys` (NULLs together; texts equal in the
 * key's own collation, `collationOf`) make one group, each with its
 * `aggregates`; without keys, all rows make one group, even none.
 * Everything after it — HAVING, the select list, ORDER BY — reads the
 * groups (`group-key` and `aggregate` expressions), not source columns.
 */
export interface Grouping {
  readonly keys: readonly BoundExpr[];
  readonly aggregates: readonly AggregateCall[];
}

/** One end of a window frame: `offset` rows, groups or (RANGE) ORDER BY distance, for `preceding` and `following` (a parameter's value checked when bound). */
export type FrameBound =
  | { readonly kind: "unbounded-preceding" | "current-row" | "unbounded-following" }
  | { readonly kind: "preceding" | "following"; readonly offset: Count };

/** The rows of its partition a window call sees from each row: SQL's frame, its defaults filled in. */
export interface WindowFrame {
  readonly units: FrameUnits;
  readonly start: FrameBound;
  readonly end: FrameBound;
  readonly exclude: FrameExclude;
}

/**
 * One window function call: `args` (over the rows the window stage reads)
 * computed for each row from the rows of its partition — those with equal
 * `partition` values (NULLs together) — in `order`, within `frame`
 * (ranking functions, lag and lead ignore the frame). An aggregate name
 * aggregates the frame as `AggregateCall` does a group.
 */
export interface WindowCall {
  readonly name: WindowFunctionName | FrameAggregateName;
  readonly args: readonly BoundExpr[];
  readonly partition: readonly BoundExpr[];
  readonly order: readonly SortKey[];
  readonly frame: WindowFrame;
  readonly type: StaticType;
  /** group_concat's: what goes between two values. */
  readonly separator?: string;
  /** An aggregate's FILTER (WHERE …): a boolean over the rows the stage reads; the frame's other rows count as no rows. */
  readonly filter?: BoundExpr;
}

/**
 * The window stage: after the WHERE, the grouping and HAVING, each row (a
 * source row, join tuple or group) becomes a window row — the `carried`
 * values (what the select list and ORDER BY read of the row), then each
 * call's value. Everything after it — the select list, DISTINCT, ORDER BY —
 * reads window rows: carried value `i` as `group-key` i, call `j` as
 * `window` j. Rows leave the stage ordered as the first call's partition
 * and order sort them (ties in the order they came), as SQLite's do.
 */
export interface Windowing {
  readonly carried: readonly BoundExpr[];
  readonly calls: readonly WindowCall[];
}

/** What a parameter slot must hold when values are bound. */
export type ParamUse =
  /** Compared with a value of this type: a mismatch is 400 `type_mismatch`. */
  | { readonly kind: "compare"; readonly type: ColumnType }
  /** An operand that takes one family of values (`?` in `? + 1`, `lower(?)`): a mismatch is 400 `type_mismatch`. */
  | { readonly kind: "operand"; readonly family: "text" | "number" | "boolean"; readonly of: string }
  /** A LIKE's ESCAPE: one character, else 400 `invalid_request`. */
  | { readonly kind: "escape" }
  /** Written into a column: a mismatch is 422 `validation_failed` (code `type`). */
  | { readonly kind: "value"; readonly table: string; readonly column: string; readonly type: ColumnType }
  /** Compared with parameter `with` (e.g. `? = ?`): the two values must be of one family (text, number, boolean). */
  | { readonly kind: "compare-param"; readonly with: number }
  /** Compared only with untyped things (e.g. `? IS NULL`): any value. */
  | { readonly kind: "any" }
  /** A select's limit or offset: an integer, else 400 `invalid_request` (negative: no limit, offset 0, as SQLite). */
  | { readonly kind: "count"; readonly clause: "limit" | "offset" }
  /** A window frame's offset: a number ≥ 0 (`whole`: an integer, for ROWS and GROUPS), else 400 `invalid_request`. */
  | { readonly kind: "frame-offset"; readonly whole: boolean };

/**
 * A limit or offset: as written, or a parameter slot. The JSON plan cache
 * makes them slots, so the pages of one query share a plan.
 */
export type Count = number | { readonly kind: "param"; readonly index: number };

/** A table in the FROM/JOIN list. `name` is the qualifier its columns answer to (alias, else table name). */
export interface Source {
  readonly table: string;
  readonly name: string;
  /** A derived table (`table` is then its name in the plan, `derivedTableName`). */
  readonly derived?: DerivedTable;
  /** In a recursive table's recursive select: the rows it runs over (`table` is then `Recursion.working`). */
  readonly working?: TableShape;
  /** A table function's rows (`table` is then its name in the plan, `derivedTableName`). */
  readonly call?: TableCall;
}

/**
 * A table function read as a source (`planner/table-functions.ts` has its
 * columns; `executor/json-table.ts` makes its rows): `args` are the
 * document and, if given, the path. `lateral`: they read a source before
 * it, so its rows are made again for each tuple so far (its join's
 * strategy is `lateral`); else once per execution, from the parameters and
 * an enclosing query's values alone.
 */
export interface TableCall {
  readonly name: TableFunctionName;
  readonly args: readonly BoundExpr[];
  readonly lateral: boolean;
}

/** The columns of rows that are no stored table's: their names and types. */
export interface TableShape {
  readonly columns: readonly string[];
  readonly types: readonly ColumnType[];
  /** Each column's collation other than binary, when one has one: a derived column's is its select's expression's, as SQLite's. */
  readonly collations?: readonly (TextCollation | undefined)[];
}

/** A select read as a table: its rows as columns of these names and types (`planner/derived-table.ts`). */
export interface DerivedTable extends TableShape {
  /** The select; for a recursive table, the selects that make its first rows. */
  readonly select: SelectPlan;
  readonly recursion?: Recursion;
  /**
   * It reads an enclosing query's values: those of the subquery it stands
   * in (its `outer` values are that subquery's), so its rows are made again
   * each time the subquery runs with other values, where an uncorrelated
   * one's are made once per execution.
   */
  readonly correlated?: true;
}

/**
 * A recursive table's loop (`planner/bind-recursive.ts`, `executor/recursive.ts`),
 * SQLite's queue: the rows of `DerivedTable.select` are queued; each row
 * taken from the queue is a row of the table, and `steps` run over it —
 * read as the source named `working` — queuing what they yield (with
 * `union`, the rows not made before), until the queue is empty or
 * `offset` + `limit` rows are made; the table is those rows after `offset`.
 */
export interface Recursion {
  /** The table's name as written, for messages. */
  readonly name: string;
  readonly working: string;
  readonly op: "union" | "union-all";
  readonly steps: readonly SelectPlan[];
  /**
   * Whether each step yields, after the table's columns, the id of the row
   * of `working` it came from (a hidden column after the table's), so the
   * executor puts the steps' rows in SQLite's queue order: by that row,
   * then step by step. Untagged, a lone step driven from `working` yields
   * them in that order already.
   */
  readonly tagged: boolean;
  readonly limit?: Count;
  readonly offset?: Count;
}

/** One end of an index range: a const or param expression, and whether keys equal to it are inside. */
export interface RangeBound {
  readonly value: BoundExpr;
  readonly inclusive: boolean;
}

/** How rows of one table are reached. `values` are const or param expressions, one per key column. */
export type AccessPath =
  /** No table (`SELECT 1 + 1`): one row of no columns, so the select list is evaluated once. */
  | { readonly kind: "single-row" }
  | { readonly kind: "scan" }
  | { readonly kind: "primary-key-lookup"; readonly columns: readonly string[]; readonly values: readonly BoundExpr[] }
  | { readonly kind: "unique-lookup"; readonly index: string; readonly columns: readonly string[]; readonly values: readonly BoundExpr[] }
  | { readonly kind: "index-lookup"; readonly index: string; readonly columns: readonly string[]; readonly values: readonly BoundExpr[] }
  /**
   * A walk of a secondary index's ordered keys: rows whose leading index
   * `columns` equal `equal` (one const or param per column, maybe none),
   * and whose next column lies within `lower`/`upper` or starts with the
   * literal start of the LIKE `pattern` (every case of its ASCII letters).
   * `order`: rows come in the index's order, up or down, serving the
   * query's ORDER BY (ties in table order), or in table order.
   */
  | {
      readonly kind: "index-range";
      readonly index: string;
      readonly columns: readonly string[];
      readonly equal: readonly BoundExpr[];
      readonly lower?: RangeBound;
      readonly upper?: RangeBound;
      readonly like?: { readonly pattern: BoundExpr; readonly escape?: BoundExpr };
      readonly order: "asc" | "desc" | "table";
    }
  /**
   * The WHERE's conjunct number `term` is `column IN (SELECT …)` with an
   * uncorrelated subquery, and `index` (the primary key, a unique key or a
   * secondary index, by its plan name) is on that one column: the subquery
   * runs once and each of its values is looked up, so only the rows holding
   * them are read, in table order (when they are much of the table, every
   * row is, as by a scan). The term stays in the WHERE.
   */
  | { readonly kind: "key-in-subquery"; readonly index: string; readonly columns: readonly string[]; readonly term: number };

/**
 * How a joined source is matched against the rows so far. `outerKeys` are
 * expressions over earlier sources; `innerColumns` the matching columns of the
 * joined table, or, for `expression-hash`, `innerKeys` expressions over the
 * joined row alone (`a.k + 0 = b.k`, `lower(a.s) = b.s`), each computed
 * once per joined row into the hash.
 */
export type JoinStrategy =
  | { readonly kind: "index-nested-loop"; readonly index: string; readonly innerColumns: readonly string[]; readonly outerKeys: readonly BoundExpr[] }
  | { readonly kind: "hash"; readonly innerColumns: readonly string[]; readonly outerKeys: readonly BoundExpr[] }
  | { readonly kind: "expression-hash"; readonly innerKeys: readonly BoundExpr[]; readonly outerKeys: readonly BoundExpr[] }
  | { readonly kind: "nested-loop" }
  /** A lateral table function (`TableCall.lateral`): its rows made from each tuple's arguments, every one tried. */
  | { readonly kind: "lateral" };

/**
 * One joined source. `left` keeps a tuple so far without matches (NULLs for
 * this source), `right` a row of this source without matches (NULLs for
 * every source before it), `full` both; a cross join (`FROM a, b`) is an
 * inner join whose `on` is TRUE.
 */
export interface JoinStep {
  readonly type: "inner" | "left" | "right" | "full";
  readonly source: number;
  readonly strategy: JoinStrategy;
  /** The full ON condition, evaluated on each candidate pair (also after a key match, for residual terms). */
  readonly on: BoundExpr;
  /** USING's columns (or those NATURAL found): `on` is their equalities. */
  readonly using?: readonly string[];
}

export interface OutputColumn {
  readonly name: string;
  readonly expr: BoundExpr;
  /** A column listed by name or expanded from `*`: its own name, which a derived table reads it by (`u.id` is `id`). */
  readonly column?: string;
}

export interface SortKey {
  readonly expr: BoundExpr;
  readonly direction: "asc" | "desc";
  /** Where NULL sorts, when said; else first ascending, last descending. */
  readonly nulls?: "first" | "last";
  /** The result column the key is (set with DISTINCT or a compound, which sort result rows). */
  readonly output?: number;
  /** How texts order: the key's own collation, or for a compound's the result column's (`Compound.collations`). */
  readonly collation?: TextCollation;
}

/**
 * The selects a compound select joins to its first: each step's rows are
 * combined with the rows so far by its operator, left to right. The plan
 * that holds it is the first select, except that its `orderBy` (keys by
 * result column, `output`), `limit`, `offset` and `output` apply to the
 * combined rows; a step's plan has none of them (its rows are arrays).
 */
export interface Compound {
  readonly steps: readonly CompoundStep[];
  /** Each result column's type: every select's column unified (real if any is real). */
  readonly types: readonly StaticType[];
  /**
   * Each result column's collation, which the operators compare rows by:
   * that of the first select whose column has one, as in SQLite; absent
   * when every column's is binary.
   */
  readonly collations?: readonly Collation[];
}

export interface CompoundStep {
  readonly op: CompoundOperator;
  readonly plan: SelectPlan;
}

export interface SelectPlan {
  readonly kind: "select";
  /** FROM then each JOIN; empty without FROM. */
  readonly sources: readonly Source[];
  /** The path into `sources[0]` (`single-row` without FROM). */
  readonly access: AccessPath;
  readonly joins: readonly JoinStep[];
  /** Residual filter after the access path and joins (the whole WHERE; the access path only narrows). */
  readonly where?: BoundExpr;
  /** Present for a query with GROUP BY, HAVING or an aggregate. */
  readonly group?: Grouping;
  /** Over groups. */
  readonly having?: BoundExpr;
  /** Present for a query with a window function: see `Windowing`. */
  readonly window?: Windowing;
  /** Drop repeated result rows (before ORDER BY, LIMIT and OFFSET), texts compared in each column's own collation (`collationOf`). */
  readonly distinct: boolean;
  /** Present for a compound select (UNION, INTERSECT, EXCEPT): see `Compound`. */
  readonly compound?: Compound;
  readonly orderBy: readonly SortKey[];
  readonly limit?: Count;
  readonly offset?: Count;
  readonly output: "objects" | "arrays";
  readonly columns: readonly OutputColumn[];
}

/** An insert value: a constant, a parameter slot, or the column's default (column omitted). */
export type InsertValue =
  | { readonly kind: "const"; readonly value: Value }
  | { readonly kind: "param"; readonly index: number }
  | { readonly kind: "default" };

/**
 * An insert's conflict clause: the key whose conflicts it handles (the
 * primary key or a unique key, by its plan name; absent: any of them), and
 * whether a conflicting row is skipped or the row already there updated —
 * `set` reads that row as source 0 and the proposed row (`excluded`) as
 * source 1 — or (`replace`, on every key) every row the proposed one
 * conflicts with deleted before it is inserted.
 */
export type ConflictPlan =
  | { readonly target?: string; readonly action: "nothing" }
  | { readonly target?: string; readonly action: "update"; readonly set: readonly Assignment[]; readonly where?: BoundExpr }
  | { readonly action: "replace" };

/**
 * INSERT … SELECT: the select whose result rows are inserted (read whole
 * before the first is written, so a select of the table itself sees it as
 * it was), result column i going to stored column `positions[i]`; the other
 * columns take their defaults.
 */
export interface InsertSelect {
  readonly plan: SelectPlan;
  readonly positions: readonly number[];
}

export interface InsertPlan {
  readonly kind: "insert";
  readonly table: string;
  /** Full-width rows, in the table's declared column order; none when `select` gives the rows. */
  readonly rows: readonly (readonly InsertValue[])[];
  readonly select?: InsertSelect;
  readonly onConflict?: ConflictPlan;
  /** RETURNING: result columns over each inserted row (source 0). */
  readonly returning?: readonly OutputColumn[];
}

export interface Assignment {
  readonly column: string;
  /** Position of the column in the stored row. */
  readonly position: number;
  /**
   * The new value: a constant or a parameter written as is, or any
   * expression over the row as it was before the statement (source 0).
   */
  readonly value: BoundExpr;
}

/**
 * An update: the rows of `table` that `access` reaches and `where` holds
 * for, each replaced by its row with `set` applied; or, with `from`, the
 * rows that join finds.
 */
export interface UpdatePlan {
  readonly kind: "update";
  readonly table: string;
  /** With `from`, a scan: the join reaches the table's rows. */
  readonly access: AccessPath;
  /** With `from`, TRUE: the statement's WHERE is the join's. */
  readonly where: BoundExpr;
  /** The new values; with `from`, over the join's tuple (every source), else over the row (source 0). */
  readonly set: readonly Assignment[];
  /**
   * `SET (a, b) = (SELECT x, y …)`'s subqueries: each run once per updated row before
   * the assignments, whose `row-column`s read its values (the plan once, not per column).
   */
  readonly rows?: readonly RowSubquery[];
  /**
   * UPDATE … FROM: the join of the FROM list's sources and, last, `table`
   * (an inner join, whose condition the statement's WHERE holds), with
   * that WHERE and no columns. A row of `table` is updated when a tuple
   * holds it, from the last tuple that does.
   */
  readonly from?: SelectPlan;
  /** RETURNING: result columns over each updated row's new values. */
  readonly returning?: readonly OutputColumn[];
}

export interface DeletePlan {
  readonly kind: "delete";
  readonly table: string;
  readonly access: AccessPath;
  readonly where: BoundExpr;
  /** RETURNING: result columns over each deleted row of the table (cascaded rows are not returned). */
  readonly returning?: readonly OutputColumn[];
}

export interface CreateTablePlan {
  readonly kind: "create-table";
  /** The normalized schema, as `describe` will show it. */
  readonly schema: TableSchema;
  readonly ifNotExists: boolean;
  /** CREATE TABLE … AS SELECT: the rows the table is made with, result column i into column i. */
  readonly select?: SelectPlan;
}

export interface DropTablePlan {
  readonly kind: "drop-table";
  readonly table: string;
  readonly ifExists: boolean;
}

/** How a schema change reshapes a table's rows: a column added at the end with a value, or the column at `position` dropped. */
export type RowReshape = { readonly kind: "add"; readonly value: Value } | { readonly kind: "drop"; readonly position: number };

/**
 * One table's part of a schema change: the table (by its name now) gets
 * `schema` — normalized, as `describe` will show it; a new name if its
 * `name` differs — and its rows reshaped by `rows`, if given.
 */
export interface TableChange {
  readonly table: string;
  readonly schema: TableSchema;
  readonly rows?: RowReshape;
}

export interface CreateIndexPlan {
  readonly kind: "create-index";
  readonly table: string;
  readonly index: IndexDef;
  /** The table's new schema; none when `ifNotExists` met an index of that name. */
  readonly changes: readonly TableChange[];
}

export interface DropIndexPlan {
  readonly kind: "drop-index";
  readonly name: string;
  /** The table holding the index; absent when `ifExists` found none. */
  readonly table?: string;
  readonly changes: readonly TableChange[];
}

/** An `alter-table`: the altered table's name after it, and every table whose schema changes (others' foreign keys follow a rename). */
export interface AlterTablePlan {
  readonly kind: "alter-table";
  readonly table: string;
  readonly changes: readonly TableChange[];
}

export type PlanNode = SelectPlan | InsertPlan | UpdatePlan | DeletePlan | CreateTablePlan | DropTablePlan | CreateIndexPlan | DropIndexPlan | AlterTablePlan;

/** A prepared plan: the statement and what each parameter slot must hold (`params.length` = placeholders). */
export interface Plan {
  readonly statement: PlanNode;
  readonly params: readonly ParamUse[];
}
