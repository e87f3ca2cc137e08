/**
 * Runs a select plan: access path → filter on the first table → joins, each
 * followed by the WHERE terms it completes → grouping and HAVING → the
 * window stage (`window.ts`) → order (top-k with a limit) → offset/limit →
 * projection; with DISTINCT the rows
 * are projected first, then deduplicated, ordered and cut. An index range
 * tests the first table's filter as it walks: in ORDER BY's order there is
 * no sort and the walk stops once the limit is reached; in table order
 * only the rows that pass are sorted back.
 *
 * The last join hands each tuple, as it makes it, to the stage that reads
 * the tuples once — the grouping, DISTINCT, or (with neither, nor a
 * window or sort) the projection, which drops OFFSET's rows and stops the
 * join at LIMIT's — so no list of every tuple is built; a window or a
 * sort needs them all and gets them as a list.
 *
 * `prepareSelect` compiles everything once; the prepared form is cached with
 * the plan, so a repeated statement only binds new parameter values. WHERE
 * conjuncts that read only the first table run before the joins (with inner
 * and left joins the first table is the preserved side of every join, so
 * this is exact for left joins too); every other conjunct runs right after
 * the join of the last source it reads (joins after it only add sources,
 * never change them) — or, when a RIGHT or FULL join comes later, after
 * the last of those (`planner/where-placement.ts`).
 *
 * A long answer (`LATE_PROJECTION_AT` rows or more) whose columns are plain
 * columns, constants or parameters is projected when read, not when the
 * select runs: its `rows` is a getter that projects every row on first
 * access, and `rowSlices` hands out its rows a slice at a time, so the
 * server can stream a million rows without holding them projected (or as
 * JSON text). It keeps a copy of the selected items (stored rows, join
 * tuples or groups) and the heaps they are in, and since stored rows are
 * values (`catalog/table.ts`), a later write changes nothing in it. Only such projections are deferred
 * because they cannot fail: an error still comes from the select, not from
 * a later read. Shorter answers are plain objects, as before, so a point
 * select pays nothing for this.
 *
 * Subqueries are prepared with the query that holds them, each into a
 * `SubqueryRunner` the compiled code calls, and derived tables each into
 * the `DerivedRows` that make its rows; every one of a statement, at any
 * depth, is listed on the outermost prepared select, which starts them
 * afresh (`begin`, those that keep anything before their first read) at
 * each execution and ends them after (`end`), so
 * answers and rows they keep never outlive the data they were computed
 * from. A compound select prepares each of its selects the same way and
 * combines their rows (`compoundRows`).
 */

import type { RowsResult } from "../commands/results.js";
import { StoreError } from "../errors.js";
import type { CompoundOperator, Value } from "../commands/types.js";
import type { AccessPath, BoundExpr, Count, SelectPlan } from "../planner/plan.js";
import { collationOf } from "../planner/collation.js";
import { conjuncts } from "../planner/passes.js";
import { wherePlacement } from "../planner/where-placement.js";
import { accessRows, impliedByAccess, keyInRunner, rangeRows } from "./access.js";
import { compileAggregate, type AggregateFn, type GroupTest } from "./aggregate.js";
import { compilePredicate, compileValue, type CompileContext, type PredicateFn, type RowMode, type ValueFn } from "./codegen.js";
import { DerivedRows, withDerived, type TableRows } from "./derived.js";
import { CallRows } from "./table-calls.js";
import { callColumnsRead } from "./call-columns.js";
import { ALL_COLUMNS } from "./json-table.js";
import { JSON_TABLE_SHAPE } from "../planner/table-functions.js";
import { keptHashes } from "./kept-hashes.js";
import { MAX_RECURSIVE_ROWS, RecursiveRows } from "./recursive.js";
import { compileFilter, type FilterFn } from "./filter.js";
import { TooManyTuples, copyTuple, impliedByKey, prepareJoin, runJoin, type Emit, type Outer, type PreparedJoin, type Tuple } from "./join.js";
import { orderItems, sortSpec } from "./order.js";
import { compileProjection, type ProjectFn } from "./project.js";
import { SubqueryRunner, type SubqueryNode } from "./subquery.js";
import { compileWindows, type WindowFn } from "./window.js";
import type { Column, Stores, StoredRow, TableStore } from "./table-store.js";
import { rowKeyIn } from "./collation.js";

export interface PreparedSelect {
  readonly plan: SelectPlan;
  /** The plan's access path, a subquery's outer values in it read as the parameters they are at run time. */
  readonly access: AccessPath;
  /** A `key-in-subquery` path's runner: the IN term's, so the subquery runs once for both. */
  readonly keyIn: SubqueryRunner | undefined;
  readonly firstFilter: FilterFn | undefined;
  /**
   * With an index range: the first table's filter as a test the walk
   * applies, so a walk in ORDER BY's order stops at the limit and one in
   * table order sorts back only the rows that pass.
   */
  readonly firstTest: PredicateFn | undefined;
  readonly joins: readonly PreparedJoin[];
  /** Per join: the WHERE conjuncts whose last source is the one it joins, run on its output. */
  readonly afterJoin: readonly (PredicateFn | undefined)[];
  readonly aggregate: AggregateFn | undefined;
  readonly having: PredicateFn | undefined;
  /** The window stage: after the grouping, before DISTINCT, ORDER BY and the projection, which read its rows. */
  readonly window: WindowFn | undefined;
  readonly sortKeys: readonly ValueFn[];
  readonly project: ProjectFn;
  /** With DISTINCT: every result row as an array, to compare rows before they are shaped. */
  readonly projectArrays: ProjectFn | undefined;
  /** Its projection cannot fail (plain columns, constants, parameters): a long answer may be projected when read. */
  readonly lateProjection: boolean;
  /** What the statement starts and ends with each execution, at any depth (shared by its subqueries' prepared selects). */
  readonly runners: readonly PerExecution[];
  /** A compound select's selects, prepared each on its own (the rest of this one is its first's). */
  readonly compound: PreparedCompound | undefined;
  /** The derived tables among the sources, each made once per execution. */
  readonly derived: readonly TableRows[];
}

/** What a statement starts and ends with each execution: its subqueries' runners and its derived tables' rows. */
export interface PerExecution {
  /** Absent for what starts empty at each execution (a derived table's rows, made when first read). */
  begin?(stores: Stores): void;
  end(): void;
}

interface PreparedCompound {
  readonly first: PreparedSelect;
  readonly steps: readonly { readonly op: CompoundOperator; readonly select: PreparedSelect }[];
}

function all(terms: readonly BoundExpr[]): BoundExpr | undefined {
  if (terms.length === 0) return undefined;
  return terms.length === 1 ? terms[0] : { kind: "and", operands: terms };
}

/**
 * What compiling a statement's subqueries needs (`context`), and the runners
 * they get at any depth, which the statement starts afresh at each execution.
 */
export interface SubqueryScope {
  readonly context: CompileContext;
  /** Grows as the statement is prepared: each subquery's runner, each derived table's rows. */
  readonly runners: PerExecution[];
}

/** `positionOf(table, column)` finds a column's position; `paramCount` is the statement's number of parameters (outer values follow). */
export function subqueryScope(positionOf: (table: string, column: string) => number, paramCount: number): SubqueryScope {
  const runners: PerExecution[] = [];
  const byNode = new Map<SubqueryNode, SubqueryRunner>();
  const context: CompileContext = {
    outerBase: paramCount,
    runner(node) {
      // One runner per node, though the node's code is compiled more than once (a DISTINCT select list is).
      let runner = byNode.get(node);
      if (runner === undefined) {
        const sub = prepareWith(node.plan, positionOf, context, runners);
        runner = new SubqueryRunner(node, (stores, params) => selectRows(sub, stores, params), paramCount);
        byNode.set(node, runner);
        runners.push(runner);
      }
      return runner;
    },
  };
  return { context, runners };
}

/** `positionOf(table, column)` finds a joined table's column position for hash/index joins. */
export function prepareSelect(plan: SelectPlan, positionOf: (table: string, column: string) => number, paramCount: number): PreparedSelect {
  const scope = subqueryScope(positionOf, paramCount);
  return prepareWith(plan, positionOf, scope.context, scope.runners);
}

/**
 * A select prepared in a statement's `scope` (UPDATE … FROM's join, whose
 * SET is compiled in the same scope): the statement starts and ends
 * `scope.runners`. Its table functions make every column: the statement
 * reads its tuples beyond the plan.
 */
export function prepareSelectIn(plan: SelectPlan, positionOf: (table: string, column: string) => number, scope: SubqueryScope): PreparedSelect {
  return prepareWith(plan, positionOf, scope.context, scope.runners, true);
}

function prepareWith(
  plan: SelectPlan,
  positionOf: (table: string, column: string) => number,
  context: CompileContext,
  runners: PerExecution[],
  readAll = false,
): PreparedSelect {
  if (plan.compound !== undefined) {
    const first = prepareWith(firstSelect(plan), positionOf, context, runners, readAll);
    const steps = plan.compound.steps.map((step) => ({ op: step.op, select: prepareWith(step.plan, positionOf, context, runners) }));
    return { ...first, plan, compound: { first, steps } };
  }
  const derived: TableRows[] = [];
  const derivedColumns = new Map<string, readonly string[]>();
  const arrays = (select: SelectPlan) => {
    const prepared = prepareWith(select, positionOf, context, runners);
    return (stores: Stores, params: readonly Value[]): Value[][] => selectRows(prepared, stores, params).rows as Value[][];
  };
  for (const [i, source] of plan.sources.entries()) {
    // The rows a recursive select runs over: `RecursiveRows` hands them in as this table.
    if (source.working !== undefined) derivedColumns.set(source.table, source.working.columns);
    if (source.call !== undefined) {
      const args = source.call.lateral ? [] : source.call.args.map((a) => compileValue(a, "row", context));
      derived.push(new CallRows(source.table, source.call, args, readAll ? ALL_COLUMNS : callColumnsRead(plan, i)));
      derivedColumns.set(source.table, JSON_TABLE_SHAPE.columns);
      continue;
    }
    if (source.derived === undefined) continue;
    const { recursion, types } = source.derived;
    const correlated = source.derived.correlated === true;
    if (recursion === undefined) derived.push(new DerivedRows(source.table, types, arrays(source.derived.select), correlated));
    else {
      const { limit, offset } = recursion;
      derived.push(
        new RecursiveRows(source.table, types, {
          name: recursion.name,
          working: recursion.working,
          union: recursion.op === "union",
          tagged: recursion.tagged,
          initial: arrays(source.derived.select),
          steps: recursion.steps.map((step) => {
            const prepared = prepareWith(step, positionOf, context, runners);
            return { rows: (stores, params, max, made) => stepRows(prepared, stores, params, max, made), driven: step.sources[0]?.working !== undefined };
          }),
          bounds: (params) => bounds(limit, offset, params),
        }, correlated),
      );
    }
    derivedColumns.set(source.table, source.derived.columns);
  }
  runners.push(...derived);
  const columnOf = (table: string, column: string): number => derivedColumns.get(table)?.indexOf(column) ?? positionOf(table, column);
  const joined = plan.joins.length > 0;
  const sourceMode: RowMode = joined ? "tuple" : "row";
  // After a grouping, HAVING, ORDER BY and the select list read group rows; after a window stage, ORDER BY and the list read window rows.
  const mode: RowMode = plan.group === undefined ? sourceMode : { groupKeys: plan.group.keys.length };
  const resultMode: RowMode = plan.window === undefined ? mode : { groupKeys: plan.window.carried.length };
  const firstTable = plan.sources[0]?.table ?? "";
  const terms = conjuncts(plan.where).filter((t) => !impliedByAccess(t, plan.access, (c) => columnOf(firstTable, c)));
  const place = wherePlacement(plan.joins);
  const first = joined ? terms.filter((t) => place(t) === 0) : terms;
  const firstWhere = all(first);
  const walked = plan.access.kind === "index-range";
  return {
    plan,
    access: outerAsParams(plan.access, context.outerBase),
    keyIn: keyInRunner(plan.access, plan.where, context),
    firstFilter: firstWhere === undefined || walked ? undefined : compileFilter(firstWhere, context),
    firstTest: firstWhere === undefined || !walked ? undefined : compilePredicate(firstWhere, "row", context),
    joins: plan.joins.map((j) => {
      const table = plan.sources[j.source]?.table ?? "";
      return prepareJoin(j, table, (c) => columnOf(table, c), context, plan.sources[j.source]?.call);
    }),
    afterJoin: plan.joins.map((j) => {
      // An inner join may match on a WHERE equality (a comma join's): its key then guarantees it.
      const table = plan.sources[j.source]?.table ?? "";
      const implied = j.type === "inner" ? impliedByKey(j, (c) => columnOf(table, c)) : () => false;
      const here = all(terms.filter((t) => place(t) === j.source && !implied(t)));
      return here === undefined ? undefined : compilePredicate(here, "tuple", context);
    }),
    aggregate: plan.group === undefined ? undefined : compileAggregate(plan.group, sourceMode, context),
    having: plan.having === undefined ? undefined : compilePredicate(plan.having, mode, context),
    window: plan.window === undefined ? undefined : compileWindows(plan.window, mode, context),
    sortKeys: plan.orderBy.map((k) => compileValue(k.expr, resultMode, context)),
    project: compileProjection(plan.columns, plan.output, resultMode, context),
    projectArrays: plan.distinct ? compileProjection(plan.columns, "arrays", resultMode, context) : undefined,
    runners,
    lateProjection: plan.columns.every((c) => c.expr.kind === "column" || c.expr.kind === "const" || c.expr.kind === "param"),
    compound: undefined,
    derived,
  };
}

/** A compound plan's first select alone: its rows as arrays, in no order, uncut (ORDER BY, LIMIT and OFFSET are the whole's). */
function firstSelect(plan: SelectPlan): SelectPlan {
  const { compound: _compound, limit: _limit, offset: _offset, ...first } = plan;
  return { ...first, orderBy: [], output: "arrays" };
}

/** Whether the access path walks an index in ORDER BY's order, so no sort is needed. */
function orderServed(plan: SelectPlan): boolean {
  return plan.access.kind === "index-range" && plan.access.order !== "table";
}

/** The access path with a subquery's outer values read as the parameters they are at run time. */
function outerAsParams(path: AccessPath, base: number): AccessPath {
  const swap = (v: BoundExpr): BoundExpr => (v.kind === "outer" ? { kind: "param", index: base + v.index } : v);
  switch (path.kind) {
    case "scan":
    case "single-row":
    case "key-in-subquery":
      return path;
    case "index-range":
      return { ...path, equal: path.equal.map(swap) };
    default:
      return { ...path, values: path.values.map(swap) };
  }
}

/** A limit or offset's value (`checkParams` saw that a slot holds an integer; `bounds` reads a negative one). */
function count(c: Count, params: readonly Value[]): number {
  return typeof c === "number" ? c : (params[c.index] as number);
}

/**
 * A select's OFFSET and LIMIT for these parameters, as SQLite reads them: a
 * negative offset is 0 and a negative limit none (`LIMIT -1`; a literal
 * one is dropped when SQL is lowered, a parameter's value arrives here).
 */
function bounds(limit: Count | undefined, offset: Count | undefined, params: readonly Value[]): { readonly offset: number; readonly limit: number | undefined } {
  const skip = offset === undefined ? 0 : Math.max(0, count(offset, params));
  const take = limit === undefined ? undefined : count(limit, params);
  return { offset: skip, limit: take === undefined || take < 0 ? undefined : take };
}

type Item = StoredRow | Tuple | Value[];
type Row = Record<string, Value> | Value[];
/** `t`: the heap columns of the first source (one source) or of each (a join); group rows ignore it. */
type Fn<T> = (r: unknown, p: readonly Value[], t: Heaps) => T;
type Heaps = readonly Column[] | readonly (readonly Column[])[];
/** The columns of no table (a select without FROM reads none). */
const NO_COLUMNS: readonly Column[] = Object.freeze([]);

/** Runs a statement's prepared select: its subqueries start afresh. */
export function runSelect(prepared: PreparedSelect, stores: Stores, params: readonly Value[]): RowsResult {
  for (const runner of prepared.runners) runner.begin?.(stores);
  try {
    return selectRows(prepared, stores, params);
  } finally {
    for (const runner of prepared.runners) runner.end();
  }
}

function selectRows(prepared: PreparedSelect, base: Stores, params: readonly Value[]): RowsResult {
  if (prepared.compound !== undefined) return compoundRows(prepared, prepared.compound, base, params);
  const plan = prepared.plan;
  const { offset, limit } = bounds(plan.limit, plan.offset, params);
  const keep = limit === undefined ? undefined : offset + limit;
  const names = plan.columns.map((c) => c.name);
  if (keep === 0) return rowsResult(names, []);
  // Each derived table's rows, read by this execution as a table's.
  if (prepared.derived.length === 0) return selectFrom(prepared, base, params, offset, keep);
  const first = prefixRead(prepared, keep);
  if (first === undefined) return selectFrom(prepared, withDerived(base, prepared.derived, params), params, offset, keep);
  // Only the first rows of a recursive table are read: make as many as the limit, then twice as many, … until the answer is whole or the recursion ends.
  for (let wanted = keep!; ; wanted *= 2) {
    const result = selectFrom(prepared, withDerived(base, prepared.derived, params, { table: first, wanted }), params, offset, keep);
    if (result.rowCount === keep! - offset || first.complete) return result;
  }
}

/**
 * The recursive table a select reads first, when the select's answer over
 * the first rows of it is the first rows of its whole answer — rows pass
 * from it in order, through filters and joins, to a LIMIT, with no sort,
 * grouping or window between — so a LIMIT over a recursion that would not
 * end stops it, as in SQLite.
 */
function prefixRead(prepared: PreparedSelect, keep: number | undefined): RecursiveRows | undefined {
  const plan = prepared.plan;
  if (keep === undefined || plan.group !== undefined || plan.window !== undefined || plan.orderBy.length > 0) return undefined;
  const first = prepared.derived.find((t) => t.name === plan.sources[0]?.table);
  return first instanceof RecursiveRows ? first : undefined;
}

/**
 * The tuples of a join with nothing after its sources (UPDATE … FROM's:
 * `planner/plan.ts`, `UpdatePlan.from`), each handed to `each` as the last
 * join makes it — a scratch tuple, reused: copy what is kept — and the
 * sources' heaps, which the tuples' rows are read in. The caller starts and
 * ends the statement's runners around it (its derived tables' rows and
 * subqueries' answers live until then).
 */
export function joinTuples(prepared: PreparedSelect, base: Stores, params: readonly Value[], each: (tuple: Tuple) => void): readonly (readonly Column[])[] {
  const from = sourcesOf(prepared, prepared.derived.length === 0 ? base : withDerived(base, prepared.derived, params), params);
  if (from.heaps === undefined) throw new StoreError("internal_error", "UPDATE … FROM without a join");
  // The statement reads the tuples it keeps after the join: a lateral call's rows must stay.
  sourceRows(
    from,
    undefined,
    (tuple) => {
      each(tuple as Tuple);
      return undefined;
    },
    false,
  );
  return from.heaps;
}

/**
 * A recursive select's rows (`recursive.ts`) over `base`, which holds the
 * rows it runs over: at most `max`, as arrays, each handed to `made` as it
 * is made, which keeps it or not (a recursion counts what its rows hold,
 * and drops what UNION would, before the next is made: a repeat is never
 * kept to be dropped later); a join before its last that makes more than
 * `MAX_RECURSIVE_ROWS` tuples is `TooManyTuples`.
 * Such a select has nothing between its sources and its rows (no grouping,
 * window, DISTINCT, ORDER BY, LIMIT or OFFSET: `planner/bind-recursive.ts`).
 */
export function stepRows(prepared: PreparedSelect, base: Stores, params: readonly Value[], max: number, made: ((row: Value[]) => boolean) | undefined): Value[][] {
  // It runs again and again over a few rows at a time: a derived table it joins is hashed once, not each time.
  const from = sourcesOf(prepared, prepared.derived.length === 0 ? base : withDerived(base, prepared.derived, params, undefined, keptHashes), params);
  const arrays = prepared.project as unknown as Fn<Value[]>;
  if (from.heaps === undefined && made === undefined) {
    // Without joins and with every row kept, a row the first table's filter passes is a row: the filter stops at `max`.
    const items = sourceItems(from, max);
    const rows = new Array<Value[]>(items.length);
    for (let i = 0; i < items.length; i++) rows[i] = arrays(items[i], params, from.columns);
    return rows;
  }
  const project: Fn<Value[] | undefined> =
    made === undefined
      ? arrays
      : (item, p, h) => {
          const row = arrays(item, p, h);
          return made(row) ? row : undefined;
        };
  return sourceRows(from, max, project, true, MAX_RECURSIVE_ROWS);
}

/**
 * A select over `stores`, which hold its derived tables' rows. A recursive
 * select runs through `stepRows` instead: the same sources, but rows
 * handed one by one to the recursion as they are made (to count or drop),
 * a bound on the tuples of its joins, and none of the stages after the
 * sources (`bind-recursive.ts` refuses them) — kept apart so the hot path
 * of every other select carries none of that.
 */
function selectFrom(prepared: PreparedSelect, stores: Stores, params: readonly Value[], offset: number, keep: number | undefined): RowsResult {
  const plan = prepared.plan;
  const names = plan.columns.map((c) => c.name);
  const project = prepared.project as unknown as Fn<Row>;
  // Nothing between the sources and the result (no grouping, DISTINCT or sort to do): a scan can stop early, a join project as it goes.
  const sorted = plan.orderBy.length > 0 && !orderServed(plan);
  const streaming = plan.group === undefined && plan.window === undefined && !plan.distinct && !sorted;
  const from = sourcesOf(prepared, stores, params);
  const heaps = from.heaps;
  const t: Heaps = heaps ?? from.columns;
  const distinct = prepared.projectArrays === undefined ? undefined : distinctRows(prepared, params, t);
  // DISTINCT keeps the first rows it meets: with no ORDER BY it may stop at the limit.
  const distinctStop = plan.orderBy.length === 0 ? keep : undefined;

  let items: readonly Item[];
  if (prepared.aggregate !== undefined) {
    // A join's tuples are grouped as it makes them; a table's rows in one loop.
    const grouped = prepared.aggregate(params, t);
    if (heaps === undefined) grouped.addAll(sourceItems(from, undefined));
    else sourceRows(from, undefined, grouped.add, true);
    items = grouped.groups(prepared.having as unknown as GroupTest | undefined);
  } else if (heaps !== undefined && prepared.window === undefined && (distinct !== undefined || streaming)) {
    // Nothing needs every tuple at once: the last join hands each to DISTINCT or the projection as it makes it, and stops at the limit.
    if (distinct !== undefined) return distinctResult(plan, names, sourceRows(from, distinctStop, distinct, true), offset, keep);
    const emit = offset === 0 ? project : skipping(offset, project);
    return rowsResult(names, sourceRows(from, keep === undefined ? undefined : keep - offset, emit, true));
  } else {
    items = sourceItems(from, streaming ? keep : undefined);
  }
  if (prepared.window !== undefined) items = prepared.window(items, params, t);
  if (distinct !== undefined) {
    const rows: Value[][] = [];
    for (const item of items) {
      const row = distinct(item, params, t);
      if (row !== undefined && rows.push(row) === distinctStop) break;
    }
    return distinctResult(plan, names, rows, offset, keep);
  }

  if (sorted) {
    const specs = prepared.sortKeys.map((key, i) => ({ key: (item: Item) => (key as unknown as Fn<Value>)(item, params, t), ...sortSpec(plan.orderBy[i]!) }));
    items = orderItems(items, specs, keep);
  }
  if (offset > 0 || (keep !== undefined && keep < items.length)) items = items.slice(offset, keep);
  // The items may be the table's own array (a scan), which later writes change: a late projection keeps a copy.
  if (items.length >= LATE_PROJECTION_AT && prepared.lateProjection) return lateRowsResult(names, items.slice(), project, params, t);
  const rows = new Array<Row>(items.length);
  for (let i = 0; i < items.length; i++) rows[i] = project(items[i], params, t);
  return rowsResult(names, rows);
}

/** `emit` after the first `offset` tuples, which it drops (OFFSET over a join that projects as it goes). */
function skipping(offset: number, emit: Fn<Row>): Fn<Row | undefined> {
  let skip = offset;
  return (t, p, h) => {
    if (skip === 0) return emit(t, p, h);
    skip--;
    return undefined;
  };
}

function rowsResult(columns: readonly string[], rows: Row[]): RowsResult {
  return { kind: "rows", columns, rows, rowCount: rows.length };
}

/** Answers of at least this many rows are projected when read (see the header). */
export const LATE_PROJECTION_AT = 1024;

/** Rows `from` (inclusive) to `to` (exclusive) of a late-projected answer, projected now. */
export type RowSlices = (from: number, to: number) => Row[];

const lateAnswers = new WeakMap<RowsResult, RowSlices>();

/** How to read `result`'s rows a slice at a time without projecting them all; undefined for an answer already projected. */
export function rowSlices(result: RowsResult): RowSlices | undefined {
  return lateAnswers.get(result);
}

/** A result of `items` (in the heaps `t`) projected on first access, registered for `rowSlices`. */
function lateRowsResult(columns: readonly string[], items: readonly Item[], project: Fn<Row>, params: readonly Value[], t: Heaps): RowsResult {
  const rowCount = items.length;
  const slice: RowSlices = (from, to) => {
    const rows = new Array<Row>(to - from);
    for (let i = from; i < to; i++) rows[i - from] = project(items[i], params, t);
    return rows;
  };
  let rows: Row[] | undefined;
  // A getter on the object itself (not a class): JSON.stringify, spreads and deep equality see a plain `rows` key, in its place.
  const result: RowsResult = {
    kind: "rows",
    columns,
    get rows() {
      return (rows ??= slice(0, rowCount));
    },
    rowCount,
  };
  lateAnswers.set(result, slice);
  return result;
}

/**
 * Where a select reads its rows or tuples: its stores (with its derived
 * tables' rows), the first table's store and heap columns, and — when it
 * joins — every source's heap columns, which its tuples are read in.
 */
interface Sources {
  readonly prepared: PreparedSelect;
  readonly stores: Stores;
  readonly store: TableStore | undefined;
  readonly params: readonly Value[];
  readonly columns: readonly Column[];
  readonly heaps: readonly (readonly Column[])[] | undefined;
}

function sourcesOf(prepared: PreparedSelect, stores: Stores, params: readonly Value[]): Sources {
  const plan = prepared.plan;
  const first = plan.sources[0];
  const store = first === undefined ? undefined : stores.store(first.table);
  const columns = store === undefined ? NO_COLUMNS : store.heap.columns;
  const heaps = plan.joins.length === 0 ? undefined : plan.sources.map((s, i) => (i === 0 ? columns : stores.store(s.table).heap.columns));
  return { prepared, stores, store, params, columns, heaps };
}

/**
 * The rows (or join tuples) the query reads: the access path, the first
 * table's filter, then the joins with the WHERE terms each completes.
 * `stopAt`: a select without joins may stop after that many rows.
 */
function sourceItems(from: Sources, stopAt: number | undefined): readonly Item[] {
  const { prepared, store, params, columns, heaps } = from;
  if (heaps === undefined) return firstRows(prepared, store, params, columns, stopAt);
  return joined(from, heaps, firstRows(prepared, store, params, columns, undefined), copyTuple, undefined, false);
}

/**
 * The query's rows or join tuples, each handed to `emit` — a projection,
 * DISTINCT's — as the last join makes it (or, without joins, as read):
 * what it returns (undefined: nothing), at most `stopAt` of them.
 * `consumes`: `emit` keeps nothing that reads a tuple's rows after it
 * returns (`runJoin`). `tupleBound`: a join before the last that makes
 * more tuples is `TooManyTuples`.
 */
function sourceRows<T>(from: Sources, stopAt: number | undefined, emit: Fn<T | undefined>, consumes: boolean, tupleBound?: number): T[] {
  const { prepared, store, params, columns, heaps } = from;
  // Without joins (a recursive step's: `stepRows`) `emit` may drop a row (UNION's repeats): the filter reads them all, not `stopAt`.
  const rows = firstRows(prepared, store, params, columns, undefined);
  if (heaps !== undefined) return joined(from, heaps, rows, emit, stopAt, consumes, tupleBound);
  const out: T[] = [];
  for (let i = 0; i < rows.length; i++) {
    const made = emit(rows[i], params, columns);
    if (made !== undefined && out.push(made) === stopAt) break;
  }
  return out;
}

/** The first table's rows: the access path, then its filter, stopping after `stopAt` rows. */
function firstRows(prepared: PreparedSelect, store: TableStore | undefined, params: readonly Value[], columns: readonly Column[], stopAt: number | undefined): readonly StoredRow[] {
  const access = prepared.access;
  const max = stopAt ?? -1;
  if (access.kind === "index-range" && store !== undefined) {
    const test = prepared.firstTest as unknown as Fn<boolean> | undefined;
    return rangeRows(access, store, params, max, test === undefined ? undefined : (row) => test(row, params, columns));
  }
  const base = accessRows(access, store, params, prepared.keyIn);
  return prepared.firstFilter ? prepared.firstFilter(base, params, max, columns) : base;
}

/**
 * The joins over the first table's `rows`, each with the WHERE terms it
 * completes: what `emit` made of each tuple of the last (`copyTuple`: the
 * tuples; undefined: nothing), at most `stopAt` (`runJoin`, as `consumes`).
 */
function joined<T>(
  from: Sources,
  heaps: readonly (readonly Column[])[],
  rows: readonly StoredRow[],
  emit: Emit<T>,
  stopAt: number | undefined,
  consumes: boolean,
  tupleBound?: number,
): T[] {
  const { prepared, stores, params } = from;
  // The first join reads the first table's rows; each later one the tuples of the joins before it.
  let tuples: Tuple[] | undefined;
  const last = prepared.joins.length - 1;
  for (const [i, join] of prepared.joins.entries()) {
    // A WHERE term is decided at the join `where-placement.ts` places it at (its last source's, or a later RIGHT/FULL one):
    // an inner join tests it with ON; after an outer join it filters the joined tuples.
    const filter = prepared.afterJoin[i] as unknown as ((t: Tuple, p: readonly Value[], h: readonly (readonly Column[])[]) => boolean) | undefined;
    const inner = join.step.type === "inner";
    const store = stores.store(join.table);
    const outer: Outer = tuples === undefined ? { rows } : { tuples };
    if (i === last) {
      // After an outer join the filter sees each tuple as it is made: a tuple it drops is neither emitted nor counted.
      const sink: Emit<T> = filter === undefined || inner ? emit : (t, p, h) => (filter(t, p, h) ? emit(t, p, h) : undefined);
      return runJoin<T>(join, outer, store, params, heaps, sink, inner ? filter : undefined, stopAt ?? -1, consumes);
    }
    tuples = runJoin(join, outer, store, params, heaps, undefined, inner ? filter : undefined, tupleBound === undefined ? -1 : tupleBound + 1);
    if (tupleBound !== undefined && tuples.length > tupleBound) throw new TooManyTuples();
    if (filter && !inner) tuples = tuples.filter((t) => filter(t, params, heaps));
  }
  throw new StoreError("internal_error", "A join list without joins");
}

/**
 * DISTINCT: each result row once (the first met), compared as `=` does —
 * 1 and 1.0 are one value, NULLs are equal here. The function projects an
 * item (stored row, join tuple, group or window row) to its result row as
 * an array, and returns it the first time it meets the row, undefined
 * after: a join hands it its tuples as it makes them (`Emit`).
 */
function distinctRows(prepared: PreparedSelect, params: readonly Value[], t: Heaps): Fn<Value[] | undefined> & Emit<Value[]> {
  const toArray = prepared.projectArrays as unknown as Fn<Value[]>;
  const seen = new Set<unknown>();
  const rowKey = rowKeyIn(prepared.plan.columns.map((c) => collationOf(c.expr)));
  return (item) => {
    const row = toArray(item, params, t);
    const key = rowKey(row);
    if (seen.has(key)) return undefined;
    seen.add(key);
    return row;
  };
}

/** DISTINCT's rows, ordered by the result columns the sort keys are, cut to OFFSET and LIMIT, in the plan's output shape. */
function distinctResult(plan: SelectPlan, names: readonly string[], rows: Value[][], offset: number, keep: number | undefined): RowsResult {
  return rowsResult(names, shaped(plan, orderAndCut(plan, rows, offset, keep)));
}

/** Result rows (as arrays) ordered by the result columns the sort keys are, then cut to OFFSET and LIMIT. */
function orderAndCut(plan: SelectPlan, rows: Value[][], offset: number, keep: number | undefined): Value[][] {
  if (plan.orderBy.length > 0) {
    const specs = plan.orderBy.map((k) => ({ key: (row: Value[]) => row[k.output ?? 0] as Value, ...sortSpec(k) }));
    rows = orderItems(rows, specs, keep);
  }
  return offset > 0 || (keep !== undefined && keep < rows.length) ? rows.slice(offset, keep) : rows;
}

/** Result rows as arrays in the plan's output shape. */
function shaped(plan: SelectPlan, rows: Value[][]): Row[] {
  if (plan.output === "arrays") return rows;
  return rows.map((row) => {
    const o: Record<string, Value> = {};
    plan.columns.forEach((c, i) => Object.defineProperty(o, c.name, { value: row[i] ?? null, enumerable: true, writable: true, configurable: true }));
    return o;
  });
}


/**
 * A compound select: the first select's rows, then each step's combined
 * with them, left to right — UNION ALL appends; UNION keeps each distinct
 * row once (the first met); INTERSECT keeps the distinct rows the step also
 * has, EXCEPT those it lacks — then ordered by result columns and cut.
 */
function compoundRows(prepared: PreparedSelect, compound: PreparedCompound, stores: Stores, params: readonly Value[]): RowsResult {
  const plan = prepared.plan;
  const names = plan.columns.map((c) => c.name);
  const { offset, limit } = bounds(plan.limit, plan.offset, params);
  const keep = limit === undefined ? undefined : offset + limit;
  if (keep === 0) return rowsResult(names, []);
  const arrays = (select: PreparedSelect): Value[][] => selectRows(select, stores, params).rows as Value[][];
  let rows = arrays(compound.first);
  const rowKey = rowKeyIn(plan.compound?.collations?.map((c) => (c === "binary" ? undefined : c)) ?? []);
  // After a step that drops repeats, the rows are distinct and these are their keys: a UNION after it keys only its new rows.
  let distinct: Set<unknown> | undefined;
  for (const step of compound.steps) {
    const next = arrays(step.select);
    if (step.op === "union-all") {
      rows = rows.concat(next);
      distinct = undefined;
      continue;
    }
    const seen = step.op === "union" && distinct !== undefined ? distinct : new Set<unknown>();
    const kept: Value[][] = seen === distinct ? rows : [];
    const keepOnce = (row: Value[], key: unknown): void => {
      if (seen.has(key)) return;
      seen.add(key);
      kept.push(row);
    };
    if (step.op === "union") {
      if (seen !== distinct) for (const row of rows) keepOnce(row, rowKey(row));
      for (const row of next) keepOnce(row, rowKey(row));
    } else {
      const other = new Set(next.map(rowKey));
      const wanted = step.op === "intersect";
      for (const row of rows) {
        const key = rowKey(row);
        if (other.has(key) === wanted) keepOnce(row, key);
      }
    }
    rows = kept;
    distinct = seen;
  }
  return rowsResult(names, shaped(plan, orderAndCut(plan, rows, offset, keep)));
}
