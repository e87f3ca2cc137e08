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

export type ComparisonOp = "=" | "!=" | "<>" | "<" | "<=" | ">" | ">=";

export type Expression =
  | { readonly type: "literal"; readonly value: Value }
  | { readonly type: "identifier"; readonly name: string }
  | { readonly type: "comparison"; readonly op: ComparisonOp; readonly left: Expression; readonly right: Expression }
  | { readonly type: "is-null"; readonly expr: Expression; readonly not?: boolean }
  | { readonly type: "and"; readonly operands: readonly Expression[] }
  | { readonly type: "or"; readonly operands: readonly Expression[] }
  | { readonly type: "not"; readonly expr: Expression }
  /** A positional parameter slot (0-based). Internal: produced by SQL and the fluent builder only. */
  | { readonly type: "param"; readonly index: number };

/** What an insert row or an update `set` may hold: a JSON value, or a parameter slot from SQL. */
export type ValueOrParam = Value | { readonly type: "param"; readonly index: number };

export interface Join {
  readonly type: "inner" | "left";
  readonly table: string;
  readonly as?: string;
  readonly on: Expression;
}

export interface OrderBy {
  readonly column: string;
  readonly direction?: "asc" | "desc";
}

export interface SelectCommand {
  readonly kind: "select";
  readonly table: string;
  readonly columns: "*" | readonly string[];
  readonly joins?: readonly Join[];
  readonly where?: Expression;
  readonly orderBy?: readonly OrderBy[];
  readonly limit?: number;
  readonly offset?: number;
  readonly output?: "objects" | "arrays";
}

export interface InsertCommand {
  readonly kind: "insert";
  readonly table: string;
  readonly rows: readonly Readonly<Record<string, ValueOrParam>>[];
}

export interface UpdateCommand {
  readonly kind: "update";
  readonly table: string;
  readonly set: Readonly<Record<string, ValueOrParam>>;
  readonly where: Expression;
}

export interface DeleteCommand {
  readonly kind: "delete";
  readonly table: string;
  readonly where: Expression;
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

/** A table schema (CONTRACT §3). Everything but `name` and `columns` is optional. */
export interface TableSchema {
  readonly name: string;
  readonly columns: Readonly<Record<string, ColumnType>>;
  readonly required?: readonly string[];
  readonly primary_key?: { readonly columns: readonly string[] };
  readonly unique?: readonly { readonly columns: readonly string[] }[];
  readonly foreign_keys?: readonly ForeignKey[];
  readonly checks?: readonly Check[];
  readonly indexes?: readonly { readonly name: string; readonly columns: readonly string[] }[];
  readonly defaults?: Readonly<Record<string, Value>>;
  readonly computed?: Readonly<Record<string, Expression>>;
  readonly comment?: string;
  readonly comments?: Readonly<Record<string, string>>;
}

export interface CreateTableCommand {
  readonly kind: "create-table";
  readonly schema: TableSchema;
  readonly ifNotExists?: boolean;
}

export interface DropTableCommand {
  readonly kind: "drop-table";
  readonly table: string;
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

/** The six query-plan kinds: what the bind step turns into a bound Plan. */
export type PlanCommand =
  | SelectCommand
  | InsertCommand
  | UpdateCommand
  | DeleteCommand
  | CreateTableCommand
  | DropTableCommand;

export type Command = PlanCommand | ValidateCommand | SqlCommand | DescribeCommand | ExplainCommand | CheckpointCommand;

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
