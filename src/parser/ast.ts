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

// ---------------------------------------------------------------- expressions

export type ComparisonOp = "=" | "!=" | "<>" | "<" | "<=" | ">" | ">=";

export type LiteralValue = string | number | boolean | null;

export interface LiteralExpr {
  readonly kind: "literal";
  readonly value: LiteralValue;
  readonly span: Span;
}

/** A `?` placeholder; `index` is its 0-based position among the statement's placeholders, in text order. */
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

export type Expr = LiteralExpr | ParamExpr | ColumnRefExpr | ComparisonExpr | IsNullExpr | AndExpr | OrExpr | NotExpr;

/** What may stand where SQL takes a single value (VALUES items, SET right-hand sides, DEFAULT). */
export type ValueExpr = LiteralExpr | ParamExpr;

// ---------------------------------------------------------------- statements

export interface TableRef {
  readonly name: Name;
  readonly alias?: Name;
  readonly span: Span;
}

export interface JoinClause {
  readonly type: "inner" | "left";
  readonly table: TableRef;
  readonly on: Expr;
  readonly span: Span;
}

export interface OrderItem {
  readonly column: ColumnRefExpr;
  readonly direction: "asc" | "desc";
  readonly span: Span;
}

export interface SelectStmt {
  readonly kind: "select";
  /** `"*"` or the listed columns in order. */
  readonly columns: "*" | readonly ColumnRefExpr[];
  readonly from: TableRef;
  readonly joins: readonly JoinClause[];
  readonly where?: Expr;
  readonly orderBy: readonly OrderItem[];
  readonly limit?: number;
  readonly offset?: number;
  readonly span: Span;
}

export interface InsertStmt {
  readonly kind: "insert";
  readonly table: Name;
  readonly columns: readonly Name[];
  /** One entry per VALUES tuple; each tuple is positionally matched to `columns`. */
  readonly rows: readonly (readonly ValueExpr[])[];
  readonly span: Span;
}

export interface Assignment {
  readonly column: Name;
  readonly value: ValueExpr;
  readonly span: Span;
}

export interface UpdateStmt {
  readonly kind: "update";
  readonly table: Name;
  readonly assignments: readonly Assignment[];
  readonly where?: Expr;
  readonly span: Span;
}

export interface DeleteStmt {
  readonly kind: "delete";
  readonly table: Name;
  readonly where?: Expr;
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

export interface ColumnDef {
  readonly name: Name;
  readonly type: TypeName;
  readonly primaryKey: boolean;
  readonly notNull: boolean;
  readonly unique: boolean;
  readonly default?: LiteralExpr;
  readonly references?: References;
  readonly span: Span;
}

export type TableConstraint =
  | { readonly kind: "primary-key"; readonly name?: Name; readonly columns: readonly Name[]; readonly span: Span }
  | { readonly kind: "unique"; readonly name?: Name; readonly columns: readonly Name[]; readonly span: Span }
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
  readonly columns: readonly ColumnDef[];
  readonly constraints: readonly TableConstraint[];
  readonly span: Span;
}

export interface DropTableStmt {
  readonly kind: "drop-table";
  readonly ifExists: boolean;
  readonly table: Name;
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
  | ExplainStmt;
