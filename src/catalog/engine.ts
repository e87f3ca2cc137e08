/**
 * The in-memory database engine (`EngineApi`): tables, the bind → prepare →
 * run pipeline for every command kind, undo, and snapshots for storage.
 *
 * SQL goes parse → lower → bind → prepare once per distinct text; the
 * prepared statement (plan plus compiled code) sits in a bounded LRU cache,
 * so a repeated statement with new parameters only checks and binds values.
 * JSON select, insert, update and delete commands share that cache, keyed by their
 * shape (`parameterize.ts`): literals become parameters, so commands that
 * differ only in literal values run one prepared plan. Any schema change
 * (create, drop, or undoing one) clears the cache.
 *
 * A mutation either completes or throws having changed nothing: the rules
 * are checked before any row moves (see `mutate.ts`).
 */

import type { MutationResult, Result } from "../commands/results.js";
import type { Command, ExplainCommand, PlanCommand, SqlCommand, TransactionCommand, TransactionStep, Value } from "../commands/types.js";
import { ConstraintError, SqlError, StoreError, assertNever, type ProblemEntry } from "../errors.js";
import {
  checkParams,
  compileAssignments,
  compilePredicate,
  compileProjection,
  atStatementTime,
  prepareMatch,
  prepareSelect,
  prepareUpdateRows,
  paramCountError,
  runSelect,
  subqueryScope,
  type AssignFn,
  type FindUpdateRows,
  type PredicateFn,
  type PreparedMatch,
  type PreparedSelect,
  type ProjectFn,
  type Stores,
} from "../executor/index.js";
import { forgetDocument } from "../executor/json-text.js";
import { parseStatement, type Statement } from "../parser/index.js";
import { bind, type Catalog } from "../planner/index.js";
import { lowerSql } from "../planner/lower-sql.js";
import { expressionSlots, signatureOf, withParamTypes } from "../planner/param-types.js";
import { sameShape, shapeOf, withCountSlots, withSlots, type ParameterizableCommand, type Token } from "../planner/parameterize.js";
import { PlanCache } from "../planner/plan-cache.js";
import { SourceSpans } from "../planner/source-spans.js";
import type { OutputColumn, ParamUse, Plan, TableChange } from "../planner/plan.js";
import { applyTableChanges } from "./alter.js";
import { checkTables } from "./check-state.js";
import { linksTo } from "./foreign-keys.js";
import { loadTables } from "./load.js";
import { applyDelete, applyInsert, applyUpdate, insertValues, selectedValues, type Written } from "./mutate.js";
import { applyUpsert } from "./upsert.js";
import { Table } from "./table.js";
import { redoChanges } from "./redo.js";
import { undoChanges } from "./undo.js";
import type { Change, EngineApi, LoadedTable, LoadOptions, Outcome, Redo, TableSnapshot } from "./types.js";

/** A plan with its compiled code, ready to run with parameter values. */
interface Prepared {
  readonly plan: Plan;
  readonly select?: PreparedSelect;
  readonly match?: PreparedMatch;
  /** An update's rows and their new values. */
  readonly update?: FindUpdateRows;
  /** An upsert's DO UPDATE … SET, over the tuple (existing row, proposed row). */
  readonly assign?: AssignFn;
  /** An upsert's DO UPDATE … WHERE, over the tuple (existing row, proposed row). */
  readonly conflictWhere?: PredicateFn;
  /** A write's RETURNING: result columns, and their projection of each written row. */
  readonly returning?: Returning;
}

/** A cached JSON command shape: its prepared plan, and its tokens (the hash only finds the entry, the tokens confirm it). */
interface CachedShape {
  readonly kind: "shape";
  readonly prepared: Prepared;
  readonly shape: readonly Token[];
}

/**
 * A cached SQL statement: lowered once, then bound and prepared once per
 * combination of its expression parameters' types (`param-types.ts`).
 */
interface CachedSql {
  readonly kind: "sql";
  readonly command: PlanCommand | ExplainCommand;
  /** How many parameters it takes: its highest parameter number (`parseStatement`). */
  readonly count: number;
  /** The parameters whose types pick the plan. */
  readonly slots: readonly number[];
  readonly plans: Map<number | string, Prepared>;
  /** Where its parts stand in its text, for binding errors: cached with the text, so never another text's. */
  readonly spans: SourceSpans;
}

/** Plans one SQL statement keeps for different parameter types; past this, the oldest goes. */
const PLANS_PER_STATEMENT = 16;

const NO_CHANGES: readonly Change[] = Object.freeze([]);

/** SQL texts longer than this are prepared but not cached… */
const CACHEABLE_SQL_LENGTH = 4096;
/**
 * …unless they take parameters, up to this length: such a text is a
 * prepared statement sent again with new values (a 1,000-row batch insert
 * or upsert), which parsing afresh made ~3x slower.
 */
const CACHEABLE_PREPARED_LENGTH = 65_536;
/** Nor are JSON commands of more shape tokens than this (a few per name, literal or operator). */
const CACHEABLE_SHAPE_TOKENS = 1024;

export class Engine implements EngineApi {
  readonly problems: readonly ProblemEntry[];
  private readonly tables: Map<string, Table>;
  /** Prepared plans by SQL text, and by shape hash for JSON commands. */
  private readonly plans = new PlanCache<string | number, CachedShape | CachedSql>(256);
  private readonly catalog: Catalog = { table: (name) => this.tables.get(name), tables: () => this.tables.values() };
  private readonly stores: Stores = {
    store: (name) => {
      const t = this.tables.get(name);
      if (!t) throw new StoreError("table_not_found", `Table "${name}" does not exist`);
      return t;
    },
  };

  private constructor(tables: Map<string, Table>, problems: readonly ProblemEntry[]) {
    this.tables = tables;
    this.problems = problems;
  }

  static empty(): Engine {
    return new Engine(new Map(), []);
  }

  /** Builds an engine from a file's tables; bad data becomes `problems`, never an exception. */
  static load(tables: readonly LoadedTable[], options?: LoadOptions): Engine {
    try {
      const { tables: built, problems } = loadTables(tables, options);
      return new Engine(built, problems);
    } finally {
      forgetDocument();
    }
  }

  execute(command: Command, readOnly = false): Outcome {
    try {
      // Each command — each step of a transaction too — is one statement with its own 'now'.
      return atStatementTime(() => this.dispatch(command, readOnly));
    } catch (error) {
      // A text value past V8's longest string (group_concat, replace, ||): the input's doing, as SQLite's "string or blob too big".
      if (error instanceof RangeError && /invalid string length/i.test(error.message)) {
        throw new StoreError("invalid_request", "A text value would grow past the longest string this engine holds (2^29 - 24 characters); nothing was changed");
      }
      // A statement nested past the stack's depth (derived tables in derived tables, written out): the input's doing too.
      if (error instanceof RangeError && /call stack/i.test(error.message)) {
        throw new StoreError("invalid_request", "The statement nests too deeply to plan or run; nothing was changed");
      }
      throw error;
    } finally {
      // The JSON reader's remembered document (a statement's rows read it again) goes with the statement.
      forgetDocument();
    }
  }

  private dispatch(command: Command, readOnly: boolean): Outcome {
    if (this.problems.length > 0 && command.kind !== "validate") {
      throw new StoreError("database_corrupt", `The database is invalid (${this.problems.length} problem(s)); only validate runs on it`);
    }
    if (readOnly) return this.readOnly(command);
    switch (command.kind) {
      case "select":
      case "insert":
      case "update":
      case "delete":
        return this.parameterized(command);
      case "create-table":
      case "drop-table":
      case "create-index":
      case "drop-index":
      case "alter-table":
        return this.run(this.prepare(this.literal(command)), []);
      case "sql":
        return this.sql(command);
      case "validate": {
        const errors = this.problems.length > 0 ? this.problems : checkTables(this.tables);
        return { result: { kind: "validation", valid: errors.length === 0, errors }, changes: NO_CHANGES };
      }
      case "describe": {
        if (command.table !== undefined) {
          const t = this.tables.get(command.table);
          if (!t) throw new StoreError("table_not_found", `Table "${command.table}" does not exist`);
          return { result: { kind: "schema", tables: [t.schema] }, changes: NO_CHANGES };
        }
        return { result: { kind: "schema", tables: this.sorted().map((t) => t.schema) }, changes: NO_CHANGES };
      }
      case "checkpoint":
        // An engine keeps nothing on disk: there is nothing to fold (storage answers for a file).
        return { result: { kind: "checkpoint", journalRecords: 0 }, changes: NO_CHANGES };
      case "explain": {
        const inner = command.command;
        const plan = inner.kind === "sql" ? this.sqlPlan(this.cachedSql(inner.sql), inner.params ?? [], false).plan : bind(inner, this.catalog);
        return { result: { kind: "plan", plan }, changes: NO_CHANGES };
      }
      case "transaction":
        return this.transaction(command, false);
      default:
        return assertNever(command, "command kind");
    }
  }

  /**
   * Runs the steps in order, each seeing the ones before it; the first
   * that fails undoes the rest and is rethrown naming its step. The
   * changes of every step are reported together, so storage makes them
   * durable as one record, all or nothing.
   */
  private transaction(command: TransactionCommand, readOnly: boolean): Outcome {
    const changes: Change[] = [];
    const results: Result[] = [];
    for (let step = 0; step < command.commands.length; step++) {
      const next = command.commands[step] as Command;
      let outcome: Outcome;
      try {
        if (!isTransactionStep(next)) throw new StoreError("invalid_request", `A transaction cannot run "${next.kind}"`);
        outcome = this.execute(next, readOnly);
      } catch (error) {
        this.undo(changes);
        throw error instanceof StoreError ? error.atStep(step) : error;
      }
      results.push(outcome.result);
      for (const change of outcome.changes) changes.push(change);
    }
    return { result: { kind: "transaction", results }, changes };
  }

  /** A command on a database opened read-only: a mutation, of any surface, is refused before it is even bound. */
  private readOnly(command: Command): Outcome {
    if (isPlanCommand(command) && command.kind !== "select") throw refusedWrite();
    switch (command.kind) {
      case "sql": {
        // The statement says what it does before it is lowered (an INSERT without a column list reads the catalog there) or bound.
        const refuseWrites = (kind: string): void => {
          if (kind !== "explain" && kind !== "select") throw refusedWrite();
        };
        refuseWrites(this.cachedSql(command.sql, (stmt) => refuseWrites(stmt.kind)).command.kind);
        return this.sql(command);
      }
      case "transaction":
        return this.transaction(command, true);
      default:
        return this.execute(command);
    }
  }

  /** A JSON plan command bound as written (as `explain` shows it). */
  private literal(command: PlanCommand): Plan {
    const plan = bind(command, this.catalog);
    if (plan.params.length > 0) throw new StoreError("invalid_request", "Parameter slots need values: send the statement as a sql command with params");
    return plan;
  }

  /** A select, insert, update or delete: the cached plan of its shape, run with its literals as parameters. */
  private parameterized(command: ParameterizableCommand): Outcome {
    const shape = shapeOf(command, CACHEABLE_SHAPE_TOKENS);
    if (shape === undefined || shape.tokens.length > CACHEABLE_SHAPE_TOKENS) return this.run(this.prepare(this.literal(command)), []);
    const hit = this.plans.get(shape.hash);
    let cached = hit?.kind === "shape" ? hit : undefined;
    if (cached === undefined || !sameShape(cached.shape, shape.tokens)) {
      // Bound as written first: a command that fails does so with today's code and message, and caches nothing.
      this.literal(command);
      const plan = withCountSlots(withParamCount(bind(withSlots(command), this.catalog, { slots: true }), shape.literals));
      // On a hash collision the newer shape takes the slot: collisions cost a bind, never a wrong plan.
      cached = { kind: "shape", prepared: this.prepare(plan), shape: shape.tokens };
      this.plans.set(shape.hash, cached);
    }
    return this.run(cached.prepared, shape.values);
  }

  private sql(command: SqlCommand): Outcome {
    const statement = this.cachedSql(command.sql);
    const params = command.params ?? [];
    if (statement.command.kind === "explain") return { result: { kind: "plan", plan: this.sqlPlan(statement, params, false).plan }, changes: NO_CHANGES };
    return this.run(this.sqlPlan(statement, params, true), params);
  }

  /** A SQL text parsed and lowered, from the cache or now; `parsed` sees a new statement before it is lowered. */
  private cachedSql(text: string, parsed?: (stmt: Statement) => void): CachedSql {
    const hit = this.plans.get(text);
    if (hit?.kind === "sql") return hit;
    const { statement: stmt, params: count } = parseStatement(text);
    parsed?.(stmt);
    const spans = new SourceSpans();
    const lowered = lowerSql(stmt, this.catalog, spans);
    if (lowered.kind === "explain" && lowered.command.kind === "sql") throw new SqlError("sql_error", "EXPLAIN takes a statement");
    if (lowered.kind !== "explain" && !isPlanCommand(lowered)) throw new SqlError("sql_error", `A SQL statement cannot run "${lowered.kind}"`);
    const entry: CachedSql = { kind: "sql", command: lowered, count, slots: expressionSlots(lowered), plans: new Map(), spans };
    // Long texts without placeholders are one-off bulk statements (many literal rows): caching them would only hold memory.
    if (text.length <= CACHEABLE_SQL_LENGTH || (entry.count > 0 && text.length <= CACHEABLE_PREPARED_LENGTH)) this.plans.set(text, entry);
    return entry;
  }

  /**
   * The statement's plan for parameters of these types, prepared to run
   * (EXPLAIN statements are only bound). A parameter count that does not
   * match is `sql_error` before anything is bound, except that `explain`
   * may leave out every parameter: then the plan is bound untyped (key -1).
   */
  private sqlPlan(statement: CachedSql, params: readonly Value[], run: boolean): Prepared {
    const untyped = !run && params.length === 0 && statement.count > 0;
    if (params.length !== statement.count && !untyped) throw paramCountError(statement.count, params.length);
    const signature = untyped ? -1 : signatureOf(statement.slots, params);
    const hit = statement.plans.get(signature);
    if (hit !== undefined) return hit;
    const command = untyped ? statement.command : withParamTypes(statement.command, statement.slots, params, statement.spans);
    const target = command.kind === "explain" ? (command.command as PlanCommand) : command;
    const plan = withParamCount(bind(target, this.catalog, { slots: true, sql: true, spans: statement.spans }), statement.count);
    // Whatever may run is compiled now, so an explain and a run of one statement share the plan.
    const prepared = command.kind === "explain" || untyped ? { plan } : this.prepare(plan);
    if (statement.plans.size >= PLANS_PER_STATEMENT) statement.plans.delete(statement.plans.keys().next().value as number | string);
    statement.plans.set(signature, prepared);
    return prepared;
  }

  private prepare(plan: Plan): Prepared {
    const s = plan.statement;
    const positionOf = (table: string, column: string): number => this.tables.get(table)?.position.get(column) ?? -1;
    switch (s.kind) {
      case "select":
        return { plan, select: prepareSelect(s, positionOf, plan.params.length) };
      case "update":
        return { plan, update: prepareUpdateRows(s, positionOf, plan.params.length, this.tables.get(s.table)?.types ?? [], this.stores), ...returningOf(s.returning) };
      case "delete": {
        const subqueries = subqueryScope(positionOf, plan.params.length);
        const match = prepareMatch(s.access, s.where, (column) => positionOf(s.table, column), subqueries, this.stores);
        return { plan, match, ...returningOf(s.returning) };
      }
      case "insert": {
        const conflict = s.onConflict;
        // An INSERT … SELECT's select, prepared as a statement of its own.
        const select = s.select === undefined ? {} : { select: prepareSelect(s.select.plan, positionOf, plan.params.length) };
        const assign = conflict?.action === "update" ? { assign: compileAssignments(conflict.set, "values-tuple") } : {};
        const where = conflict?.action === "update" && conflict.where !== undefined ? { conflictWhere: compilePredicate(conflict.where, "values-tuple") } : {};
        return { plan, ...select, ...assign, ...where, ...returningOf(s.returning) };
      }
      case "create-table":
        return s.select === undefined ? { plan } : { plan, select: prepareSelect(s.select, positionOf, plan.params.length) };
      case "drop-table":
      case "create-index":
      case "drop-index":
      case "alter-table":
        return { plan };
      default:
        return assertNever(s, "plan");
    }
  }

  private run(prepared: Prepared, params: readonly Value[]): Outcome {
    const plan = prepared.plan;
    checkParams(plan.params, params);
    const s = plan.statement;
    switch (s.kind) {
      case "select":
        return { result: runSelect(prepared.select as PreparedSelect, this.stores, params), changes: NO_CHANGES };
      case "insert": {
        const table = this.table(s.table);
        // A select's rows are all read before the first is written.
        const rows =
          s.select === undefined
            ? insertValues(table, s, params)
            : selectedValues(table, s.select.positions, runSelect(prepared.select as PreparedSelect, this.stores, params).rows as readonly (readonly Value[])[]);
        if (s.onConflict === undefined) {
          const written = applyInsert(this.tables, table, rows);
          return { result: writeResult("insert", s.table, written, prepared.returning, params), changes: written.changes };
        }
        const upserted = applyUpsert(this.tables, table, s, rows, prepared.assign, params, prepared.conflictWhere);
        this.compact(upserted.changes);
        const { inserted, updated, ignored, replaced } = upserted;
        const counts = s.onConflict.action === "replace" ? { inserted, replaced } : { inserted, updated, ignored };
        return { result: writeResult("insert", s.table, upserted, prepared.returning, params, counts), changes: upserted.changes };
      }
      case "update": {
        const written = applyUpdate(this.tables, this.table(s.table), s, prepared.update as FindUpdateRows, params);
        this.compact(written.changes);
        return { result: writeResult("update", s.table, written, prepared.returning, params), changes: written.changes };
      }
      case "delete": {
        const written = applyDelete(this.tables, this.table(s.table), prepared.match as PreparedMatch, params);
        this.compact(written.changes);
        return { result: writeResult("delete", s.table, written, prepared.returning, params), changes: written.changes };
      }
      case "create-table": {
        const name = s.schema.name;
        if (this.tables.has(name)) {
          if (s.ifNotExists) return { result: mutation("create-table", name, 0), changes: NO_CHANGES };
          throw new StoreError("table_exists", `Table "${name}" already exists`);
        }
        // CREATE TABLE … AS SELECT: the select reads the tables before the new one exists.
        const rows = s.select === undefined ? [] : (runSelect(prepared.select as PreparedSelect, this.stores, params).rows as Value[][]);
        const table = new Table(s.schema);
        this.tables.set(name, table);
        this.plans.clear();
        const created: Change = { kind: "create-table", schema: s.schema };
        if (rows.length === 0) return { result: mutation("create-table", name, 0), changes: [created] };
        try {
          // Checked as any insert: a value its column's type cannot hold (an integer sum past 2^53 is real) refuses the whole command.
          const written = applyInsert(this.tables, table, rows);
          return { result: mutation("create-table", name, 0), changes: [created, ...written.changes] };
        } catch (error) {
          this.tables.delete(name);
          throw error;
        }
      }
      case "drop-table": {
        const t = this.tables.get(s.table);
        if (!t) {
          if (s.ifExists) return { result: mutation("drop-table", s.table, 0), changes: NO_CHANGES };
          throw new StoreError("table_not_found", `Table "${s.table}" does not exist`);
        }
        const referencing = linksTo(t, this.tables).filter((l) => l.child !== t);
        if (referencing.length > 0) {
          const names = [...new Set(referencing.map((l) => l.child.name))];
          throw new ConstraintError(
            `Table "${t.name}" is referenced by ${names.map((n) => `"${n}"`).join(", ")}`,
            names.map((n) => ({ table: n, code: "foreign_key" as const, message: `"${n}" has a foreign key to "${t.name}"` })),
          );
        }
        this.tables.delete(t.name);
        this.plans.clear();
        const change: Change = { kind: "drop-table", table: t.name, schema: t.schema, rows: { heap: t.heap, rows: t.rows } };
        return { result: mutation("drop-table", t.name, 0), changes: [change] };
      }
      case "create-index":
      case "drop-index":
        return {
          result: { kind: "mutation", operation: s.kind, table: s.table ?? "", index: s.kind === "create-index" ? s.index.name : s.name, rowsAffected: 0 },
          changes: this.alter(s.changes),
        };
      case "alter-table":
        return { result: mutation("alter-table", s.table, 0), changes: this.alter(s.changes) };
      default:
        return assertNever(s, "plan");
    }
  }

  /** Applies a schema change the planner bound (all of it or none), after which every cached plan is stale. */
  private alter(changes: readonly TableChange[]): Change[] {
    if (changes.length === 0) return [];
    const applied = applyTableChanges(this.tables, changes);
    this.plans.clear();
    return applied;
  }

  /** After a command that replaced or removed rows: tables whose heaps hold many dead rows copy their live ones (`Table.compact`). */
  private compact(changes: readonly Change[]): void {
    let last: string | undefined;
    for (const c of changes) {
      if (c.kind !== "update" && c.kind !== "delete") continue;
      if (c.table !== last) this.tables.get(c.table)?.compact();
      last = c.table;
    }
  }

  private table(name: string): Table {
    const t = this.tables.get(name);
    if (!t) throw new StoreError("table_not_found", `Table "${name}" does not exist`);
    return t;
  }

  private sorted(): Table[] {
    return [...this.tables.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  undo(changes: readonly Change[]): void {
    if (undoChanges(this.tables, changes)) this.plans.clear();
  }

  redo(changes: readonly Redo[]): void {
    if (redoChanges(this.tables, changes)) this.plans.clear();
    for (const t of this.tables.values()) t.compact();
  }

  /**
   * Each table's row ids, copied, and its heap: rows are values the engine
   * never writes again (see `Table`), so the snapshot stays exactly this
   * state however long it is held, and costs one array copy per table.
   */
  snapshot(): readonly TableSnapshot[] {
    return this.sorted().map((t) => ({ schema: t.schema, columns: t.columns, heap: t.heap, rows: t.rows.slice() }));
  }
}

function refusedWrite(): StoreError {
  return new StoreError("database_locked", "The database is open read-only: it takes no writes (another process may be writing it).");
}

function mutation(operation: MutationResult["operation"], table: string, rowsAffected: number): MutationResult {
  return { kind: "mutation", operation, table, rowsAffected };
}

interface Returning {
  readonly columns: readonly string[];
  readonly project: ProjectFn;
}

/** RETURNING compiled to a projection over one written row (its values). */
function returningOf(columns: readonly OutputColumn[] | undefined): { returning?: Returning } {
  return columns === undefined ? {} : { returning: { columns: columns.map((c) => c.name), project: compileProjection(columns, "objects", "values") } };
}

/**
 * An insert's, update's or delete's result: rows affected (an upsert's
 * counts after), and with RETURNING the written rows projected.
 */
function writeResult(
  operation: "insert" | "update" | "delete",
  table: string,
  written: Written,
  returning: Returning | undefined,
  params: readonly Value[],
  counts?: Pick<MutationResult, "inserted" | "updated" | "ignored" | "replaced">,
): Result {
  const result: MutationResult = { kind: "mutation", operation, table, rowsAffected: written.rows.length, ...counts };
  if (returning === undefined) return result;
  const project = returning.project as unknown as (row: readonly Value[], p: readonly Value[]) => Record<string, Value>;
  return { ...result, columns: returning.columns, rows: written.rows.map((row) => project(row, params)) };
}

function isTransactionStep(c: Command): c is TransactionStep {
  return c.kind === "sql" || isPlanCommand(c);
}

function isPlanCommand(c: Command): c is PlanCommand {
  switch (c.kind) {
    case "select":
    case "insert":
    case "update":
    case "delete":
    case "create-table":
    case "drop-table":
    case "create-index":
    case "drop-index":
    case "alter-table":
      return true;
    default:
      return false;
  }
}

/** A plan lists one use per slot (`?` or literal), also for a slot no expression reads. */
function withParamCount(plan: Plan, count: number): Plan {
  if (plan.params.length >= count) return plan;
  const params: ParamUse[] = [...plan.params];
  while (params.length < count) params.push({ kind: "any" });
  return { ...plan, params };
}
