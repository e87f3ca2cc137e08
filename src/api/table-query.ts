/**
 * The fluent table API: `db.table("users").select("id", "name").where(...)`.
 *
 * Immutable, in the manner of Kysely: every call returns a new `TableQuery`
 * and never changes the one it was called on, so a partial query can be kept
 * and extended in several directions. It hands off with one `toPlan()` — the
 * same wire command a JSON client would send — and `run()` passes that to the
 * runner it was built with. The builder checks no names or types: that is
 * the one bind step's job, shared with JSON and SQL. It only refuses what it
 * cannot turn into a command (a `limit` on a delete, an update or delete with
 * neither `where` nor `all()`), with `invalid_request`, mirroring the JSON
 * rule that a missing `where` never means "every row".
 */

import type { Result } from "../commands/results.js";
import type { Command, CompoundOperator, Expression, Join, OnConflict, OrderBy, Returning, SelectColumn, SelectCommand, SetValue, SourceItem, Value } from "../commands/types.js";
import { StoreError, assertNever } from "../errors.js";
import { and, derivedSourceOf, eq, isNull, selectOf, type Aliased, type Operand, type DerivedInput, type Subquery, type TableFunctionSource } from "./expressions.js";

export type Runner = (command: Command) => Promise<Result>;

/** What a join matches on: an expression (ON), columns both sides have (USING), or every such column (NATURAL). */
export type JoinCondition = Expression | { readonly using: readonly string[] } | { readonly natural: true };

type Row = Record<string, Value>;

/** A column of the table, or a qualified `source.col`. */
export type ColumnName<R extends Row> = (keyof R & string) | `${string}.${string}`;
/** `where` shorthand: every listed column equals its value (`null` means IS NULL). */
export type Match<R extends Row> = { readonly [K in keyof R & string]?: R[K] | Expression } & {
  readonly [qualified: `${string}.${string}`]: Operand;
};
/** A row to insert. */
export type Writable<R extends Row> = { readonly [K in keyof R & string]?: R[K] };
/** The `set` of an update: a value, or an expression over the row before the update (`col("n").add(1)`). */
export type Assignments<R extends Row> = { readonly [K in keyof R & string]?: R[K] | Expression };

type Kind = "select" | "insert" | "update" | "delete";

interface State {
  readonly kind: Kind;
  readonly alias?: string;
  readonly columns?: readonly SelectColumn[];
  readonly joins: readonly Join[];
  readonly where: readonly Expression[];
  readonly groupBy: readonly Expression[];
  readonly having: readonly Expression[];
  readonly distinct: boolean;
  /** Selects joined to this one by `.union()` and the rest, in call order. */
  readonly compound: readonly { readonly op: CompoundOperator; readonly query: TableQuery; readonly call: string }[];
  readonly all: boolean;
  readonly orderBy: readonly OrderBy[];
  readonly limit?: number;
  readonly offset?: number;
  readonly output?: "objects" | "arrays";
  readonly rows?: readonly Readonly<Record<string, Value>>[];
  /** An insert's rows as a select query returns them. */
  readonly source?: { readonly query: Subquery; readonly columns?: readonly string[] };
  readonly set?: Readonly<Record<string, SetValue>>;
  /** An update's FROM: its first source (`joins` the rest). */
  readonly from?: SourceItem;
  readonly onConflict?: OnConflict;
  readonly returning?: Returning;
  readonly explain: boolean;
  /** The first call that does not fit the query's kind; `toPlan()` refuses with it. */
  readonly misuse?: string;
}

const INITIAL: State = { kind: "select", joins: [], where: [], groupBy: [], having: [], distinct: false, compound: [], all: false, orderBy: [], explain: false };

const EXPRESSION_TYPES = new Set([
  "literal", "identifier", "comparison", "is-null", "and", "or", "not", "param",
  "binary", "negate", "in", "between", "like", "glob", "collate", "case", "cast", "function", "aggregate", "window", "subquery", "exists",
]);

export class TableQuery<R extends Row = Row> {
  readonly #table: string | DerivedInput;
  readonly #run: Runner;
  #state: State = INITIAL;

  /**
   * `table` is a table's name, or a select whose rows are read as a table's
   * (a derived table, SQL's `FROM (SELECT …)`); `run` executes a wire
   * command, e.g. `(command) => db.execute(command)`.
   */
  constructor(table: string | DerivedInput, run: Runner) {
    this.#table = table;
    this.#run = run;
  }

  #with(patch: Partial<State>, needs?: readonly Kind[], call?: string): TableQuery<R> {
    let next: State = { ...this.#state, ...patch };
    if (needs && call && !needs.includes(next.kind) && next.misuse === undefined) {
      next = { ...next, misuse: `.${call}() does not apply to ${next.kind}` };
    }
    const query = new TableQuery<R>(this.#table, this.#run);
    query.#state = next;
    return query;
  }

  /**
   * The columns to return — names, or expressions named with `.as()`
   * (`sum("score").as("total")`); no arguments means `*`. Each call
   * replaces the list.
   */
  select(...columns: (ColumnName<R> | Aliased)[]): TableQuery<R> {
    return this.#with(columns.length === 0 ? { columns: undefined } : { columns }, ["select"], "select");
  }

  /**
   * An alias for the table, so it can join itself: `db.table("people").as("p")`;
   * qualified names then use it (after `.update()` or `.delete()`, the
   * written table's: `.delete().as("o").where(…)`, a subquery reading `o.id`).
   */
  as(alias: string): TableQuery<R> {
    return this.#with({ alias }, ["select", "update", "delete"], "as");
  }

  /**
   * An update's FROM (SQL's `UPDATE … FROM`): a table, or a select's rows
   * as a derived table (name it with `as`), a WITH table or a table
   * function's rows (`jsonEach(…)`), joined with the
   * table updated; `.join()` and the other joins add sources to it. The
   * update's values and `where` read every source; a row is updated when
   * some joined row holds it, from the last one that does. Given once: a
   * second `.from()` is refused (it would silently replace the first).
   */
  from(table: string | DerivedInput, options: { readonly as?: string } = {}): TableQuery<R> {
    const source = typeof table === "string" ? { table } : { from: derivedSourceOf(table, "The query given to .from()") };
    const again = this.#state.from !== undefined && this.#state.misuse === undefined ? { misuse: ".from() is given once: join further sources with .join()" } : {};
    return this.#with({ from: { ...source, ...(options.as === undefined ? {} : { as: options.as }) }, ...again }, ["update"], "from");
  }

  /** Keeps rows where `condition` is TRUE. Several calls AND together. */
  where(condition: Expression | Match<R>): TableQuery<R> {
    return this.#with({ where: [...this.#state.where, toCondition(condition as Expression | Readonly<Record<string, Operand>>)] }, ["select", "update", "delete"], "where");
  }

  /** Targets every row: an update or delete without `where` needs it, as JSON needs `where: true`. */
  all(): TableQuery<R> {
    return this.#with({ all: true }, ["update", "delete"], "all");
  }

  /** Groups rows by these columns (a string) or expressions; repeat to add keys. */
  groupBy(...keys: (ColumnName<R> | Expression)[]): TableQuery<R> {
    const added = keys.map((k): Expression => (typeof k === "string" ? { type: "identifier", name: k } : k));
    return this.#with({ groupBy: [...this.#state.groupBy, ...added] }, ["select"], "groupBy");
  }

  /** Keeps the groups where `condition` is TRUE. Several calls AND together. */
  having(condition: Expression): TableQuery<R> {
    return this.#with({ having: [...this.#state.having, condition] }, ["select"], "having");
  }

  /** Drops repeated result rows. */
  distinct(): TableQuery<R> {
    return this.#with({ distinct: true }, ["select"], "distinct");
  }

  /**
   * Adds the rows of `other`, a select of as many columns, keeping each
   * distinct row once (SQL `UNION`). Compound calls apply left to right;
   * `orderBy` (by result name or number), `limit`, `offset` and `output`
   * then apply to the whole result, whose names are this select's.
   */
  union(other: TableQuery): TableQuery<R> {
    return this.#compound("union", other, "union");
  }

  /** Adds every row of `other`, repeats kept (SQL `UNION ALL`). */
  unionAll(other: TableQuery): TableQuery<R> {
    return this.#compound("union-all", other, "unionAll");
  }

  /** Keeps the distinct rows that `other` also returns (SQL `INTERSECT`). */
  intersect(other: TableQuery): TableQuery<R> {
    return this.#compound("intersect", other, "intersect");
  }

  /** Keeps the distinct rows that `other` does not return (SQL `EXCEPT`). */
  except(other: TableQuery): TableQuery<R> {
    return this.#compound("except", other, "except");
  }

  #compound(op: CompoundOperator, other: TableQuery, call: string): TableQuery<R> {
    return this.#with({ compound: [...this.#state.compound, { op, query: other, call }] }, ["select"], call);
  }

  /**
   * Joins a table, or a select's rows as a derived table (name it with
   * `as`) or a WITH table, on a condition: an expression (ON), `{ using: [columns] }` or
   * `{ natural: true }`.
   */
  join(table: string | DerivedInput, on: JoinCondition, options: { readonly as?: string } = {}): TableQuery<R> {
    return this.#addJoin("inner", table, on, options.as, "join");
  }

  /**
   * Keeps the rows so far that match nothing, with NULLs for the joined
   * source; a table function's rows need no condition (`on` undefined:
   * each row so far with its own document's rows, as SQLite's `LEFT JOIN
   * json_each(t.tags) j`).
   */
  leftJoin(table: TableFunctionSource, on?: JoinCondition, options?: { readonly as?: string }): TableQuery<R>;
  leftJoin(table: string | DerivedInput, on: JoinCondition, options?: { readonly as?: string }): TableQuery<R>;
  leftJoin(table: string | DerivedInput, on?: JoinCondition, options: { readonly as?: string } = {}): TableQuery<R> {
    return this.#addJoin("left", table, on, options.as, "leftJoin");
  }

  /** Keeps the joined source's rows that match nothing, with NULLs for every source before it. */
  rightJoin(table: string | DerivedInput, on: JoinCondition, options: { readonly as?: string } = {}): TableQuery<R> {
    return this.#addJoin("right", table, on, options.as, "rightJoin");
  }

  /** Keeps the unmatched rows of both sides, as `leftJoin` and `rightJoin` do. */
  fullJoin(table: string | DerivedInput, on: JoinCondition, options: { readonly as?: string } = {}): TableQuery<R> {
    return this.#addJoin("full", table, on, options.as, "fullJoin");
  }

  /** Every pair of the rows so far and the joined source's (SQL's `FROM a, b`); `where` then picks. */
  crossJoin(table: string | DerivedInput, options: { readonly as?: string } = {}): TableQuery<R> {
    return this.#addJoin("cross", table, undefined, options.as, "crossJoin");
  }

  #addJoin(type: Join["type"], table: string | DerivedInput, on: JoinCondition | undefined, as: string | undefined, call: string): TableQuery<R> {
    const source = typeof table === "string" ? { table } : { from: derivedSourceOf(table, `The query given to .${call}()`) };
    const condition = on === undefined ? {} : "using" in on ? { using: on.using } : "natural" in on ? { natural: on.natural } : { on };
    const join: Join = { type, ...source, ...(as === undefined ? {} : { as }), ...condition };
    return this.#with({ joins: [...this.#state.joins, join] }, ["select", "update"], call);
  }

  /**
   * Adds a sort key — a column or result name, or an expression; repeat for
   * several keys. `nulls` puts NULL first or last whatever the direction
   * (by default it sorts first ascending, last descending).
   */
  orderBy(key: ColumnName<R> | Expression, direction: "asc" | "desc" = "asc", nulls?: "first" | "last"): TableQuery<R> {
    const where = nulls === undefined ? {} : { nulls };
    const item: OrderBy = typeof key === "string" ? { column: key, direction, ...where } : { expr: key, direction, ...where };
    return this.#with({ orderBy: [...this.#state.orderBy, item] }, ["select"], "orderBy");
  }

  limit(count: number): TableQuery<R> {
    return this.#with({ limit: count }, ["select"], "limit");
  }

  offset(count: number): TableQuery<R> {
    return this.#with({ offset: count }, ["select"], "offset");
  }

  /** `"arrays"` returns each row as an array in column order. */
  output(shape: "objects" | "arrays"): TableQuery<R> {
    return this.#with({ output: shape }, ["select"], "output");
  }

  /**
   * Inserts one row or several, or the rows a select query returns (SQL's
   * `INSERT … SELECT`: its result columns go to `columns` by position, or to
   * the columns of their names); all or nothing.
   */
  insert(rows: Writable<R> | readonly Writable<R>[]): TableQuery<R>;
  insert(query: Subquery, options?: { readonly columns?: readonly ColumnName<R>[] }): TableQuery<R>;
  insert(rows: Writable<R> | readonly Writable<R>[] | Subquery, options: { readonly columns?: readonly ColumnName<R>[] } = {}): TableQuery<R> {
    if (isQuery(rows)) return this.#switch("insert", { source: { query: rows, ...(options.columns === undefined ? {} : { columns: [...options.columns] }) } });
    const list = (Array.isArray(rows) ? rows : [rows]) as readonly Readonly<Record<string, Value>>[];
    return this.#switch("insert", { rows: list });
  }

  /**
   * Sets columns on the rows a following `.where()` (or `.all()`) selects; a
   * value may be an expression over the row before the update
   * (`{ n: col("n").add(1) }`).
   */
  update(set: Assignments<R>): TableQuery<R> {
    return this.#switch("update", { set: set as Readonly<Record<string, SetValue>> });
  }

  /**
   * An insert skips each row that conflicts on `target` (the columns of the
   * primary key or a unique key; without it, on any of them). SQL's
   * `ON CONFLICT DO NOTHING`, `INSERT OR IGNORE`.
   */
  onConflictDoNothing(options: { readonly target?: readonly ColumnName<R>[] } = {}): TableQuery<R> {
    const target = options.target === undefined ? {} : { target: [...options.target] };
    return this.#with({ onConflict: { ...target, action: "nothing" } }, ["insert"], "onConflictDoNothing");
  }

  /**
   * An insert updates the row already there when a row conflicts on
   * `target`: `set` reads that row, and the proposed one through
   * `excluded("col")`; with `where`, only a row it holds for is updated (the
   * proposed row is otherwise ignored). SQL's `ON CONFLICT (...) DO UPDATE SET
   * ... [WHERE ...]`.
   */
  onConflictDoUpdate(options: { readonly target?: readonly ColumnName<R>[]; readonly set: Assignments<R>; readonly where?: Expression | Match<R> }): TableQuery<R> {
    const target = options.target === undefined ? {} : { target: [...options.target] };
    const set = options.set as Readonly<Record<string, SetValue>>;
    const where = options.where === undefined ? {} : { where: toCondition(options.where as Expression | Readonly<Record<string, Operand>>) };
    return this.#with({ onConflict: { ...target, action: "update", set, ...where } }, ["insert"], "onConflictDoUpdate");
  }

  /**
   * An insert deletes every row a proposed row conflicts with, on the
   * primary key or any unique key (and what that delete cascades to), then
   * inserts it. SQL's `INSERT OR REPLACE`, `REPLACE INTO`.
   */
  onConflictReplace(): TableQuery<R> {
    return this.#with({ onConflict: { action: "replace" } }, ["insert"], "onConflictReplace");
  }

  /**
   * What the insert, update or delete returns: columns and named
   * expressions, as in `select`; no arguments means `*`. The rows are the
   * written ones (new values; a delete's deleted rows).
   */
  returning(...columns: (ColumnName<R> | Aliased)[]): TableQuery<R> {
    return this.#with({ returning: columns.length === 0 ? "*" : columns }, ["insert", "update", "delete"], "returning");
  }

  /** Deletes the rows a following `.where()` (or `.all()`) selects. */
  delete(): TableQuery<R> {
    return this.#switch("delete", {});
  }

  /** Asks for the plan instead of running the query. */
  explain(): TableQuery<R> {
    return this.#with({ explain: true });
  }

  #switch(kind: Kind, patch: Partial<State>): TableQuery<R> {
    const state = this.#state;
    const selectOnly =
      state.columns !== undefined || state.alias !== undefined || state.joins.length > 0 || state.orderBy.length > 0 ||
      state.groupBy.length > 0 || state.having.length > 0 || state.distinct || state.compound.length > 0;
    const shaped = selectOnly || state.limit !== undefined || state.offset !== undefined || state.output !== undefined;
    let misuse = state.misuse;
    if (misuse === undefined && state.kind !== "select") misuse = `.${kind}() on a query that is already ${state.kind === "delete" ? "a" : "an"} ${state.kind}`;
    if (misuse === undefined && shaped) misuse = `.${kind}() on a query shaped as a select`;
    if (misuse === undefined && kind === "insert" && state.where.length > 0) misuse = ".insert() takes no where";
    return this.#with({ ...patch, kind, misuse });
  }

  /** The wire command this query stands for (CONTRACT §4), ready for the bind step. */
  toPlan(): Command {
    const state = this.#state;
    if (state.misuse !== undefined) throw new StoreError("invalid_request", state.misuse);
    const command = this.#command(state);
    return state.explain ? { kind: "explain", command } : command;
  }

  #command(state: State): SelectCommand | Extract<Command, { kind: "insert" | "update" | "delete" }> {
    const source = this.#table;
    if (typeof source !== "string" && state.kind !== "select") throw new StoreError("invalid_request", `.${state.kind}() needs a table, not a derived table`);
    const table = typeof source === "string" ? source : "";
    const where = state.where.length === 0 ? undefined : state.where.length === 1 ? state.where[0] : and(...state.where);
    switch (state.kind) {
      case "select": {
        const command: { -readonly [K in keyof SelectCommand]: SelectCommand[K] } = {
          kind: "select",
          ...(typeof source === "string" ? { table } : { from: derivedSourceOf(source, "A derived table") }),
          columns: state.columns ? [...state.columns] : "*",
        };
        if (state.alias !== undefined) command.as = state.alias;
        // Fresh arrays: a caller changing the plan it got must not reach this query.
        if (state.joins.length > 0) command.joins = [...state.joins];
        if (where) command.where = where;
        if (state.groupBy.length > 0) command.groupBy = [...state.groupBy];
        if (state.having.length > 0) command.having = state.having.length === 1 ? state.having[0] : and(...state.having);
        if (state.distinct) command.distinct = true;
        if (state.compound.length > 0) command.compound = state.compound.map(({ op, query, call }) => ({ op, select: selectOf(query, `The query given to .${call}()`) }));
        if (state.orderBy.length > 0) command.orderBy = [...state.orderBy];
        if (state.limit !== undefined) command.limit = state.limit;
        if (state.offset !== undefined) command.offset = state.offset;
        if (state.output !== undefined) command.output = state.output;
        return command;
      }
      case "insert":
        return {
          kind: "insert",
          table,
          ...(state.source === undefined
            ? { rows: [...(state.rows ?? [])] }
            : { select: selectOf(state.source.query, "The query given to .insert()"), ...(state.source.columns === undefined ? {} : { columns: [...state.source.columns] }) }),
          ...(state.onConflict === undefined ? {} : { onConflict: state.onConflict }),
          ...returningOf(state),
        };
      case "update":
        return {
          kind: "update",
          table,
          ...(state.alias === undefined ? {} : { as: state.alias }),
          ...(state.from === undefined ? {} : { from: state.from }),
          ...(state.joins.length === 0 ? {} : { joins: [...state.joins] }),
          set: state.set ?? {},
          where: targetOf(state, where),
          ...returningOf(state),
        };
      case "delete":
        return { kind: "delete", table, ...(state.alias === undefined ? {} : { as: state.alias }), where: targetOf(state, where), ...returningOf(state) };
      default:
        return assertNever(state.kind, "query kind");
    }
  }

  /** Runs `toPlan()` through the runner; a query that cannot be planned rejects with `invalid_request`. */
  run(): Promise<Result> {
    let command: Command;
    try {
      command = this.toPlan();
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#run(command);
  }
}

function returningOf(state: State): { returning?: Returning } {
  const r = state.returning;
  return r === undefined ? {} : { returning: r === "*" ? r : [...r] };
}

function targetOf(state: State, where: Expression | undefined): Expression {
  if (where) return where;
  if (state.all) return { type: "literal", value: true };
  throw new StoreError(
    "invalid_request",
    `.${state.kind}() needs .where(...) or .all(): a missing condition never means every row`,
  );
}

/** An expression as is, or `{col: value, ...}` as the AND of equalities (`null` → IS NULL). */
function toCondition(condition: Expression | Readonly<Record<string, Operand>>): Expression {
  if (isExpressionNode(condition)) return condition;
  const terms = Object.keys(condition).map((column) => {
    const value = condition[column] as Operand;
    return value === null ? isNull(column) : eq(column, value);
  });
  return terms.length === 1 ? (terms[0] as Expression) : and(...terms);
}

/**
 * Tells an expression from `where` shorthand: a node has a known `type`. (A
 * column literally named `type` is matched with `eq("type", ...)` instead.)
 */
function isExpressionNode(value: object): value is Expression {
  const type = (value as { type?: unknown }).type;
  return typeof type === "string" && EXPRESSION_TYPES.has(type);
}

/** A query, as `.insert()` takes one in place of rows (a row is a plain object of values, never with a `toPlan` method). */
function isQuery(value: unknown): value is Subquery {
  return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as { toPlan?: unknown }).toPlan === "function";
}
