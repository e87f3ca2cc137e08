/**
 * Binds a wire expression (CONTRACT §5, §11) into a typed `BoundExpr`.
 *
 * This is where type rules live (see `static-types.ts`): text never meets a
 * number or a boolean, arithmetic takes numbers, `||` and LIKE take text,
 * AND/OR/NOT/WHERE/ON/CHECK and CASE's conditions take booleans — all
 * `type_mismatch`, never a coercion. A parameter's type is not known until
 * values arrive, so each slot records what it must hold (`ParamUse`) and
 * the executor checks it before any row is read; an expression whose type
 * rests on parameters alone (a CASE of `?`s) passes such a requirement down
 * to them (`constrain`).
 *
 * Misuse that is not a type error — an unknown function, a wrong argument
 * count, a bad ESCAPE — is `sql_error` for SQL and `invalid_request` for
 * JSON (CONTRACT §11): the caller says which through `BindContext.misuse`.
 */

import { withTables, type WithTables } from "./bind-recursive.js";
import type { AggregateName, Expression, SelectCommand } from "../commands/types.js";
import { StoreError, assertNever, type ErrorCode } from "../errors.js";
import { castValue } from "./casts.js";
import { comparisonCollation, explicitCollation, exprCollation, textual } from "./collation.js";
import { FUNCTIONS, HINTS, argKind, arity, functionNamed, hintNamed, readsClock, type Hint } from "./functions.js";
import type { AggregateCall, BoundExpr, CompareOp, FunctionName, OutputColumn, ParamUse, RowCollation, RowSubquery, SelectPlan, StaticType, SubqueryStrategy, TextCollation } from "./plan.js";
import { Numbering } from "./numbering.js";
import { Scope, sourceColumnType, tableScope, type Resolved, type ScopeSource } from "./scope.js";
import { WINDOW_ONLY, WindowCollector, bindWindowCall } from "./bind-window.js";
import { describeFamily, familyOf, literalType, numericType, typeOf, unify, type Family } from "./static-types.js";
import type { TableInfo } from "./table-info.js";
import { asDocument, rowTypeOf } from "./table-functions.js";
import type { SourceSpans } from "./source-spans.js";
import { children, some } from "./walk.js";

export { literalType, typeOf } from "./static-types.js";

export const MAX_DEPTH = 256;

/**
 * Collects what each parameter slot must hold; the first typed use of a
 * slot wins, except that a use only `checkParams` checks (`RUN_CHECKED`: a
 * count, a frame offset, an ESCAPE) wins over one the bind already holds
 * the value to — a slot used twice (`?1` in `LIMIT ?1` and `WHERE a = ?1`)
 * is typed as its value in expressions, and its count still checked. Two
 * such uses no one value meets (`LIMIT ?1` and `ESCAPE ?1`) are refused.
 */
export class ParamUses {
  private readonly uses: (ParamUse | undefined)[] = [];

  constructor(private readonly misuse: Extract<ErrorCode, "sql_error" | "invalid_request"> = "sql_error") {}

  use(index: number, use: ParamUse): void {
    const current = this.uses[index];
    if (current === undefined || current.kind === "any") this.uses[index] = use;
    else if (RUN_CHECKED.has(use.kind)) this.uses[index] = RUN_CHECKED.has(current.kind) ? this.both(index, current, use) : use;
  }

  /** The use of the two a value must meet that asks the more of it: a count (an integer ≥ 0) meets every frame offset; an ESCAPE meets neither. */
  private both(index: number, a: ParamUse, b: ParamUse): ParamUse {
    const rank = (u: ParamUse): number => (u.kind === "count" ? 2 : u.kind === "frame-offset" ? (u.whole ? 1 : 0) : -1);
    if (a.kind === b.kind && a.kind === "escape") return a;
    if (rank(a) < 0 || rank(b) < 0) throw new StoreError(this.misuse, `Parameter ?${index + 1} is both ${describeUse(a)} and ${describeUse(b)}: no one value is both`);
    return rank(a) >= rank(b) ? a : b;
  }

  list(): ParamUse[] {
    const out: ParamUse[] = [];
    for (let i = 0; i < this.uses.length; i++) out.push(this.uses[i] ?? { kind: "any" });
    return out;
  }
}

/** The uses whose value only `checkParams` checks, as it runs: the bind holds none of them. */
const RUN_CHECKED: ReadonlySet<ParamUse["kind"]> = new Set(["count", "frame-offset", "escape"]);

function describeUse(use: ParamUse): string {
  return use.kind === "count" ? `a ${use.clause.toUpperCase()} count` : use.kind === "escape" ? "an ESCAPE character" : "a window frame's offset";
}

/**
 * What one bind shares across its expressions: the parameter uses, the code
 * misuse is reported with, and (where subqueries may stand) how a subquery's
 * select is bound — `bind-select.ts` supplies it, so this module needs no
 * import of it.
 */
export interface BindContext {
  readonly params: ParamUses;
  readonly misuse: Extract<ErrorCode, "sql_error" | "invalid_request">;
  readonly subquery?: (select: SelectCommand, outer: OuterLink) => SelectPlan;
  /** The WITH tables whose selects are being bound, innermost last (`bind-recursive.ts`). */
  readonly withTables: WithTables;
  readonly names: NameState;
  /** Where a command lowered from SQL text came from: errors binding its parts point there (`source-spans.ts`). */
  readonly spans?: SourceSpans;
  /** The next id of a row subquery (`row-subquery`): one count for the whole statement, so ids never meet. */
  readonly rowIds: { next: number };
}

/** What name resolution keeps across one bind (`ExprBinder.identifier`). */
export interface NameState {
  /** The sources beside each derived table whose select is being bound, outermost first: no name in it reads those (no LATERAL). */
  readonly beside: Beside[];
  /** For each WITH table being bound, the qualifiers its select read as a table name behind an alias: where one stands beside it, it is bound again (and refused) (`bindWithTable`). */
  readonly loose: Set<string>[];
}

/** The names of the sources of one FROM (aliases, and the tables behind them), and the derived or WITH table among them being bound. */
export interface Beside {
  readonly names: readonly string[];
  /** How a message names it: its name in FROM (none for a derived table without one), and a WITH table's own name (`withTable`; undefined for a derived table). */
  reading: { readonly withTable: string | undefined; readonly name: string | undefined } | undefined;
}

export function bindContext(sql = false, subquery?: BindContext["subquery"], spans?: SourceSpans): BindContext {
  const names: NameState = { beside: [], loose: [] };
  const misuse = sql ? ("sql_error" as const) : ("invalid_request" as const);
  const context = { params: new ParamUses(misuse), misuse, withTables: withTables(), names, rowIds: { next: 0 }, ...(spans === undefined ? {} : { spans }) };
  return subquery === undefined ? context : { ...context, subquery };
}

/** What a select's names read beyond its own sources (`ExprBinder.outer`): a subquery's enclosing query, or the queries around a derived table. */
export type Enclosing = OuterLink | DerivedLink;

/**
 * A subquery's view of its enclosing query: a name the subquery's sources
 * do not have is bound by the enclosing `binder` (so it may be the
 * enclosing query's own outer value, for a subquery inside a subquery), and
 * the subquery reads it as `outer` value `index` — `feeds[index]`,
 * evaluated for each row of the enclosing query. A derived table of the
 * subquery (at any depth of FROM) reads its enclosing queries through the
 * same link (`DerivedLink`): its `outer` values are the subquery's own, so
 * it is made again whenever the subquery runs with other ones
 * (`DerivedTable.correlated`).
 */
export class OuterLink {
  private readonly numbering = new Numbering<BoundExpr>();

  constructor(readonly binder: ExprBinder) {}

  get feeds(): readonly BoundExpr[] {
    return this.numbering.items;
  }

  /** `name` named exactly by the enclosing query or one around it, as an outer value; undefined when none has it so. */
  exactly(name: string, depth: number): BoundExpr | undefined {
    const e = this.binder.exactly(name, depth, true);
    return e === undefined ? undefined : this.reference(e);
  }

  /** `name` as the enclosing query reads a table name behind an alias (`ExprBinder.loosely`), as an outer value. */
  loosely(name: string, depth: number): BoundExpr {
    return this.reference(this.binder.loosely(name, depth));
  }

  reference(e: BoundExpr): BoundExpr {
    const index = this.numbering.number(e);
    const rowType = rowTypeOf(e);
    if (rowType === undefined) return { kind: "outer", index, type: typeOf(e) };
    return { kind: "outer", index, type: typeOf(e), rowType: this.numbering.number(rowType) };
  }
}

/** A name a derived table's select asked the queries around it for, and what they answered (`DerivedLink.asked`). */
export interface Asked {
  readonly kind: "exactly" | "loosely";
  readonly name: string;
  readonly depth: number;
  /** The bound expression as JSON, `none`, or the error's code and message. */
  readonly answer: string;
}

/**
 * The queries around a derived table's (or WITH table's) select: those
 * enclosing the subquery it stands in (`link`; none at a statement's top),
 * never the sources beside it in FROM. It keeps what the select asked of
 * them and what they answered (`asked`, each name once): a WITH table bound
 * here is the same wherever they answer alike (`bindWithTable`).
 */
export class DerivedLink {
  readonly asked = new Map<string, Asked>();
  private answered = false;

  constructor(private readonly link: Enclosing | undefined) {}

  /** Whether a name of the select was read beyond it: its rows then follow the enclosing queries' values (`DerivedTable.correlated`). */
  get reads(): boolean {
    return this.answered;
  }

  exactly(name: string, depth: number): BoundExpr | undefined {
    return this.ask("exactly", name, depth);
  }

  loosely(name: string, depth: number): BoundExpr {
    return this.ask("loosely", name, depth)!;
  }

  private ask(kind: Asked["kind"], name: string, depth: number): BoundExpr | undefined {
    const key = `${kind} ${name}`;
    let e: BoundExpr | undefined;
    try {
      e = ask(this.link, kind, name, depth);
    } catch (error) {
      if (!this.asked.has(key)) this.asked.set(key, { kind, name, depth, answer: answerOf(undefined, error) });
      throw error;
    }
    if (!this.asked.has(key)) this.asked.set(key, { kind, name, depth, answer: answerOf(e) });
    if (e !== undefined) this.answered = true;
    return e;
  }
}

function ask(link: Enclosing | undefined, kind: Asked["kind"], name: string, depth: number): BoundExpr | undefined {
  if (kind === "exactly") return link?.exactly(name, depth);
  if (link === undefined) throw new StoreError("unknown_column", `Unknown column "${name}"`);
  return link.loosely(name, depth);
}

function answerOf(e: BoundExpr | undefined, error?: unknown): string {
  if (error === undefined) return e === undefined ? "none" : JSON.stringify(e);
  if (error instanceof StoreError) return `${error.code} ${error.message}`;
  throw error;
}

/**
 * Whether the queries around `link` answer each name `asked` as they did:
 * a select bound with those answers binds the same here, to the same outer
 * values by number. Asking registers what is found, as binding it again would.
 */
export function answersAlike(asked: ReadonlyMap<string, Asked>, link: Enclosing | undefined): boolean {
  for (const q of asked.values()) {
    let answer: string;
    try {
      answer = answerOf(ask(link, q.kind, q.name, q.depth));
    } catch (error) {
      answer = answerOf(undefined, error);
    }
    if (answer !== q.answer) return false;
  }
  return true;
}

/** How a subquery runs before the passes choose better: once if it reads nothing of the enclosing row. */
function strategyOf(outer: readonly BoundExpr[]): SubqueryStrategy {
  return outer.length === 0 ? { kind: "once" } : { kind: "per-row" };
}

/**
 * Refuses `name` read as a table name behind an alias when its qualifier
 * names a source beside a derived (or WITH) table whose select is being
 * bound: read so, it would silently name another table than the one the
 * writer meant (LATERAL, which SQLite refuses too). The message names the
 * table as written: SQL's WITH table that neither recurses nor lists its
 * columns is read as a derived table under its name, so that name is all
 * there is to say of it.
 */
function refuseBeside(beside: readonly Beside[], qualifier: string, name: string): void {
  const reading = beside.find((b) => b.reading !== undefined && b.names.includes(qualifier))?.reading;
  if (reading === undefined) return;
  const { withTable, name: as } = reading;
  // A WITH table read under an alias goes by both: `w (as z)`.
  const label = withTable !== undefined && as !== withTable ? `${withTable} (as ${as})` : as;
  const select = withTable !== undefined ? `the WITH table ${label}'s select` : as === undefined ? "the derived table's select" : `the select of ${as}`;
  const where = qualifier === as ? `"${qualifier}", its own name in FROM` : `"${qualifier}", which stands beside ${label ?? "it"} in FROM`;
  throw new StoreError(
    "unknown_column",
    `Unknown column "${name}": ${select} reads ${where}; the select of a derived or WITH table reads only its own sources and the queries enclosing the place it is read (no LATERAL: join on a condition instead)`,
  );
}

/** The first column `e` reads of a source not among `sources`. */
function columnOutside(e: BoundExpr, sources: readonly ScopeSource[]): Extract<BoundExpr, { kind: "column" }> | undefined {
  if (e.kind === "column") return sources.some((s) => s.index === e.source) ? undefined : e;
  for (const child of children(e)) {
    const found = columnOutside(child, sources);
    if (found !== undefined) return found;
  }
  return undefined;
}

function isUnknownColumn(error: unknown): boolean {
  return error instanceof StoreError && error.code === "unknown_column";
}

const AGGREGATE_NAMES: ReadonlySet<string> = new Set(["count", "sum", "total", "avg", "min", "max", "group_concat", "json_group_array", "json_group_object"]);

const OPS: Record<string, CompareOp> = { "=": "=", "!=": "<>", "<>": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">=" };

/**
 * The aggregates of one select, numbered in the order met: the same call
 * written twice (`count(*)` in the list and in HAVING) is one aggregate.
 */
export class AggregateCollector {
  private readonly numbering = new Numbering<AggregateCall>();

  get calls(): readonly AggregateCall[] {
    return this.numbering.items;
  }

  add(call: AggregateCall): BoundExpr {
    return { kind: "aggregate", index: this.numbering.number(call), type: call.type };
  }
}

export class ExprBinder {
  /**
   * `aggregates`: where an aggregate may stand (the select list, HAVING,
   * ORDER BY), the collector it goes to; elsewhere, the name of the clause,
   * for the error (`WHERE`, `ON`, `GROUP BY`).
   */
  constructor(
    readonly scope: Scope,
    readonly context: BindContext,
    readonly aggregates: AggregateCollector | string = "this clause",
    /** Inside a subquery or a derived table: the queries around it, for the names its own sources lack. */
    readonly outer?: Enclosing,
    /** Every clause's but the list's own: the select list, whose result names stand for their expressions where no source column has the name (as SQLite; `resultNamed`). */
    readonly results?: readonly OutputColumn[],
    /** Where a window function may stand (the select list, ORDER BY), the collector it goes to; elsewhere, the clause's name for the error (default: `aggregates`'s). */
    readonly windows?: WindowCollector | string,
  ) {}

  get params(): ParamUses {
    return this.context.params;
  }

  misuse(message: string): StoreError {
    return new StoreError(this.context.misuse, message);
  }

  bind(e: Expression, depth = 0): BoundExpr {
    const spans = this.context.spans;
    return spans === undefined ? this.node(e, depth) : spans.at(e, () => this.node(e, depth));
  }

  /** `run()`, an error located where SQL text wrote `node` (`SourceSpans.at`). */
  at<T>(node: object, run: () => T): T {
    const spans = this.context.spans;
    return spans === undefined ? run() : spans.at(node, run);
  }

  /** `run()` for plain name `index` of `list` (a select list, RETURNING), an error located where SQL text wrote it. */
  atItem<T>(list: object, index: number, run: () => T): T {
    const spans = this.context.spans;
    return spans === undefined ? run() : spans.atItem(list, index, run);
  }

  private node(e: Expression, depth: number): BoundExpr {
    if (depth > MAX_DEPTH) throw new StoreError("invalid_request", `Expression nested deeper than ${MAX_DEPTH} levels`);
    const next = depth + 1;
    switch (e.type) {
      case "literal":
        return { kind: "const", value: e.value };
      case "param":
        this.params.use(e.index, { kind: "any" });
        return e.literal === undefined ? { kind: "param", index: e.index } : { kind: "param", index: e.index, type: e.literal };
      case "identifier":
        return this.identifier(e.name, depth);
      case "comparison": {
        const op = e.op === "is" || e.op === "is not" ? e.op : Object.hasOwn(OPS, e.op) ? OPS[e.op] : undefined;
        if (op === undefined) throw new StoreError("invalid_request", `Unknown comparison operator "${e.op}"`);
        const l = this.rowOrValue(e.left, next);
        const r = this.rowOrValue(e.right, next);
        if (isRow(l) || isRow(r)) return enclosed(this.rowComparison(op, this.pairs(l, r, e.op)), l, r);
        if (op === "is" || op === "is not") return this.nullSafe(l, r, op);
        const [left, right] = this.comparable(l, r, e.op);
        return { kind: "compare", op, left, right, ...collated(comparisonCollation(left, right)) };
      }
      case "is-null":
        return { kind: "is-null", expr: this.bind(e.expr, next), not: e.not === true };
      case "and":
      case "or": {
        if (e.operands.length === 0) throw new StoreError("invalid_request", `"${e.type}" needs at least one operand`);
        const operands = e.operands.map((o) => this.boolean(o, next, e.type.toUpperCase()));
        return { kind: e.type, operands };
      }
      case "not":
        return { kind: "not", expr: this.boolean(e.expr, next, "NOT") };
      case "binary": {
        if (e.op === "->" || e.op === "->>") return this.bindCall(e.op, [e.left, e.right], next);
        if (e.op === "||") {
          const left = this.expect(this.bind(e.left, next), "text", "||");
          const right = this.expect(this.bind(e.right, next), "text", "||");
          return { kind: "concat", left, right };
        }
        const left = this.expect(this.bind(e.left, next), "number", e.op);
        const right = this.expect(this.bind(e.right, next), "number", e.op);
        return { kind: "arithmetic", op: e.op, left, right, type: numericType([typeOf(left), typeOf(right)]) };
      }
      case "negate": {
        const expr = this.expect(this.bind(e.expr, next), "number", "unary -");
        return { kind: "negate", expr, type: numericType([typeOf(expr)]) };
      }
      case "in": {
        if (e.select !== undefined) {
          if (e.values !== undefined) throw new StoreError("invalid_request", "IN takes values or a select, not both");
          const left = this.rowOrValue(e.expr, next);
          if (isRow(left)) return enclosed(this.rowIn(left, e.select, e.not === true), left);
          let expr = left;
          const sub = this.subplan(e.select);
          let column: BoundExpr;
          [expr, column] = this.comparable(expr, this.oneColumn(sub.plan, "A subquery after IN"), "IN");
          // The subquery's column comes back checked where it is read from JSON: the plan runs that one.
          let plan = withFirstColumn(sub.plan, column);
          if (plan.compound !== undefined) {
            const steps = plan.compound.steps.map((step) => {
              let checked: BoundExpr;
              [expr, checked] = this.comparable(expr, step.plan.columns[0]!.expr, "IN");
              return { ...step, plan: withFirstColumn(step.plan, checked) };
            });
            plan = { ...plan, compound: { ...plan.compound, steps } };
          }
          // SQLite compares with the collation of the last select's column (a compound's), as `=` would.
          const last = plan.compound === undefined ? plan : plan.compound.steps[plan.compound.steps.length - 1]!.plan;
          const collation = comparisonCollation(expr, last.columns[0]!.expr);
          return { kind: "in-subquery", exprs: [expr], plan, outer: sub.outer, strategy: strategyOf(sub.outer), not: e.not === true, ...(collation === undefined ? {} : { collations: [collation] }) };
        }
        if (e.values === undefined || e.values.length === 0) throw new StoreError("invalid_request", "IN needs at least one value");
        const operand = this.rowOrValue(e.expr, next);
        if (isRow(operand)) return this.rowInList(operand, e.values, e.not === true, next);
        let expr = operand;
        const values = e.values.map((v) => {
          let value: BoundExpr;
          [expr, value] = this.comparable(expr, this.bind(v, next), "IN");
          return value;
        });
        // As SQLite: a list of one constant is `expr = value` (its parser rewrites it so); any other list takes the operand's own collation only.
        const single = values.length === 1 && !some(values[0]!, readsRows);
        const collation = single ? comparisonCollation(expr, values[0]!) : textual(exprCollation(expr), [expr, ...values]);
        return { kind: "in", expr, values, not: e.not === true, ...collated(collation) };
      }
      case "between": {
        const x = this.rowOrValue(e.expr, next);
        const lo = this.rowOrValue(e.low, next);
        const hi = this.rowOrValue(e.high, next);
        if (isRow(x) || isRow(lo) || isRow(hi)) return enclosed(this.rowBetween(x, lo, hi, e.not === true), x, lo, hi);
        let expr = x;
        let low: BoundExpr;
        let high: BoundExpr;
        [expr, low] = this.comparable(expr, lo, "BETWEEN");
        [expr, high] = this.comparable(expr, hi, "BETWEEN");
        const lowCollation = comparisonCollation(expr, low);
        const highCollation = comparisonCollation(expr, high);
        return {
          kind: "between",
          expr,
          low,
          high,
          not: e.not === true,
          ...(lowCollation === undefined ? {} : { lowCollation }),
          ...(highCollation === undefined ? {} : { highCollation }),
        };
      }
      case "like":
        return this.like(e, next);
      case "glob": {
        const expr = this.expect(this.bind(e.expr, next), "text", "GLOB");
        const pattern = this.expect(this.bind(e.pattern, next), "text", "GLOB");
        return { kind: "glob", expr, pattern, not: e.not === true };
      }
      case "collate":
        return { kind: "collate", expr: this.bind(e.expr, next), collation: e.collation };
      case "case":
        return this.caseExpr(e, next);
      case "cast": {
        // A cast of a literal is a constant: `7.0` from SQL arrives as CAST(7 AS real) and must plan as one (and weigh no more than one).
        // But CAST(NULL AS type) stays a cast: a bare NULL has no type, and this is how a column of NULLs is given one.
        if (e.expr.type === "literal" && e.expr.value !== null) {
          const value = castValue(e.expr.value, literalType(e.expr.value), e.as);
          return e.as === "real" && typeof value === "number" && Number.isInteger(value) ? { kind: "const", value, type: "real" } : { kind: "const", value };
        }
        return { kind: "cast", expr: this.bind(e.expr, next), to: e.as };
      }
      case "function":
        return this.call(e.name, e.args, next);
      case "aggregate":
        return this.aggregate(e, next);
      case "window":
        return this.window(e, next);
      case "subquery": {
        const { plan, outer } = this.subplan(e.select);
        if (e.column !== undefined) {
          if (e.column >= plan.columns.length) throw this.misuse(`The subquery selects ${plural(plan.columns.length, "column")}: it has no column ${e.column} (0-based)`);
          return subqueryColumn(plan, outer, e.column);
        }
        this.oneColumn(plan, "A subquery used as a value");
        return scalarSubquery(plan, outer);
      }
      case "row":
        throw this.misuse(ROW_MISUSED);
      case "exists": {
        const { plan, outer } = this.subplan(e.select);
        return { kind: "exists", plan, outer, strategy: strategyOf(outer), not: e.not === true };
      }
      default:
        return assertNever(e, "expression type");
    }
  }

  /** Binds an expression that must be boolean (WHERE, ON, CHECK, AND/OR/NOT operands, CASE conditions). */
  boolean(e: Expression, depth: number, where: string): BoundExpr {
    const bound = this.bind(e, depth);
    const t = typeOf(bound);
    if (t === "unknown") return this.settle(bound, "boolean", where);
    if (t !== "boolean" && t !== "null") throw new StoreError("type_mismatch", `${where} needs a boolean, got ${t}`);
    return bound;
  }

  /**
   * Checks that `e` can be of `family` where `of` takes it: an expression
   * typed only by parameters passes the requirement down to them; one typed
   * when it is read comes back wrapped in the check of each value.
   */
  expect(e: BoundExpr, family: Family, of: string): BoundExpr {
    const t = typeOf(e);
    if (t === "unknown") return this.settle(e, family, of);
    const f = familyOf(t);
    if (f !== undefined && f !== family) throw new StoreError("type_mismatch", `${of} takes ${describeFamily(family)}, got ${t}`);
    return e;
  }

  /** `e`, of unknown type, required to be of `family`: its parameters constrained, its values from run time checked as read. */
  private settle(e: BoundExpr, family: Family, of: string): BoundExpr {
    return settle(this.params, e, family, of);
  }

  /**
   * A name: a column of this select's sources named exactly (by alias, or
   * table name when unaliased), else of the enclosing queries' so, outward
   * through subqueries and derived tables alike (a correlation); only when
   * no level has it so, a table name behind an alias (`loosely`). So an
   * enclosing query's table is never passed over for a table name an alias
   * hides here.
   */
  private identifier(name: string, depth: number): BoundExpr {
    const exact = this.exactly(name, depth);
    if (exact !== undefined) return exact;
    const dot = name.indexOf(".");
    if (dot > 0) {
      const qualifier = name.slice(0, dot);
      refuseBeside(this.context.names.beside, qualifier, name);
      for (const loose of this.context.names.loose) loose.add(qualifier);
    }
    return this.loosely(name, depth);
  }

  /**
   * `name` named exactly here (or a result name), else in an enclosing
   * query; undefined when no level has it so. `inSubquery`: asked by a
   * subquery of this select (`OuterLink`).
   */
  exactly(name: string, depth: number, inSubquery = false): BoundExpr | undefined {
    let r: Resolved;
    try {
      r = this.scope.resolve(name, true);
    } catch (error) {
      if (!isUnknownColumn(error)) throw error;
      const later = this.scope.laterSource(name);
      // Only an ON has later sources: SQLite would read this one (or refuse, after an outer join); storedb's ON does not read it.
      if (later !== undefined) throw this.misuse(`"${name}" reads ${later.name}, which is joined after this ON: an ON reads only the sources joined before it`);
      const result = name.includes(".") ? undefined : this.results?.find((c) => c.name === name);
      if (result !== undefined) return this.resultNamed(name, result.expr, inSubquery);
      return this.outer?.exactly(name, depth);
    }
    return this.resolved(r, name, depth);
  }

  /**
   * A result name read where no source column has the name stands for its
   * expression, as SQLite's alias does (`WHERE k > 1` for `a + 1 AS k`),
   * unless this clause cannot hold what the expression holds: an aggregate
   * where aggregates are not allowed (WHERE, ON, GROUP BY); a window
   * function anywhere but ORDER BY, and never through a subquery (its value
   * exists only after the window stage); a source this clause does not see
   * (an ON reading a source joined after it).
   */
  private resultNamed(name: string, expr: BoundExpr, inSubquery: boolean): BoundExpr {
    const clause = typeof this.aggregates === "string" ? this.aggregates : undefined;
    if (clause !== undefined && some(expr, (x) => x.kind === "aggregate")) {
      throw this.misuse(`"${name}" is a result column holding an aggregate, and aggregates are not allowed in ${clause}${clause === "WHERE" ? ": filter on it in HAVING" : ""}`);
    }
    if ((inSubquery || !(this.windows instanceof WindowCollector)) && some(expr, (x) => x.kind === "window")) {
      const where = inSubquery ? "a subquery" : typeof this.windows === "string" ? this.windows : (clause ?? "this clause");
      throw this.misuse(`"${name}" is a result column holding a window function, and ${where} cannot read it: only the select list and ORDER BY hold window functions`);
    }
    const unseen = columnOutside(expr, this.scope.sources);
    if (unseen !== undefined) {
      throw this.misuse(`"${name}" is a result column reading "${unseen.name}", which is joined after this ${clause ?? "clause"}: it reads only the sources joined before it`);
    }
    return expr;
  }

  /**
   * `name` with a qualifier that is a table name behind an alias: first
   * among this select and the subqueries it stands in, up to a derived
   * table's select — the outermost query first, as before derived tables
   * read enclosing queries, so such a name keeps the meaning it had — then
   * among the queries around that derived table, the same way. This level's
   * error when none has it.
   */
  loosely(name: string, depth: number): BoundExpr {
    try {
      return this.looselyUpToDerived(name, depth);
    } catch (error) {
      let around = this.outer;
      while (around instanceof OuterLink) around = around.binder.outer;
      if (around === undefined || !isUnknownColumn(error)) throw error;
      try {
        return around.loosely(name, depth);
      } catch (outerError) {
        throw isUnknownColumn(outerError) ? error : outerError;
      }
    }
  }

  private looselyUpToDerived(name: string, depth: number): BoundExpr {
    const outer = this.outer;
    if (outer instanceof OuterLink) {
      try {
        return outer.reference(outer.binder.looselyUpToDerived(name, depth));
      } catch (error) {
        if (!isUnknownColumn(error)) throw error;
      }
    }
    return this.resolved(this.scope.resolve(name), name, depth);
  }

  private resolved(r: Resolved, name: string, depth: number): BoundExpr {
    if (r.kind === "column") return columnOf(r.source, r.column, name);
    if (r.kind === "merged") return r.merged.expr;
    return this.bindComputed(r.source, r.expr, depth + 1);
  }

  /** A computed field inlined: its expression sees only its own table's stored columns, at its source's position. */
  bindComputed(source: ScopeSource, expr: Expression, depth = 0): BoundExpr {
    const inner = new ExprBinder(new Scope([{ table: source.table, name: source.table.name, index: source.index }], true), this.context, "a computed field");
    return inner.bind(expr, depth);
  }

  private like(e: Extract<Expression, { type: "like" }>, depth: number): BoundExpr {
    const expr = this.expect(this.bind(e.expr, depth), "text", "LIKE");
    const pattern = this.expect(this.bind(e.pattern, depth), "text", "LIKE");
    const not = e.not === true;
    if (e.escape === undefined) return { kind: "like", expr, pattern, not };
    if (typeof e.escape === "string") {
      if ([...e.escape].length !== 1) throw this.misuse(`ESCAPE takes one character, got ${JSON.stringify(e.escape)}`);
      return { kind: "like", expr, pattern, escape: { kind: "const", value: e.escape }, not };
    }
    this.params.use(e.escape.index, { kind: "escape" });
    return { kind: "like", expr, pattern, escape: { kind: "param", index: e.escape.index }, not };
  }

  private caseExpr(e: Extract<Expression, { type: "case" }>, depth: number, what = "CASE"): BoundExpr {
    if (e.when.length === 0) throw new StoreError("invalid_request", "CASE needs at least one WHEN");
    let operand = e.operand === undefined ? undefined : this.bind(e.operand, depth);
    const whens = e.when.map((w) => {
      let when: BoundExpr;
      if (operand === undefined) when = this.boolean(w.when, depth, what === "CASE" ? "CASE WHEN" : what);
      // The operand comes back checked when read from JSON against a typed WHEN: CASE compares that one.
      else {
        [operand, when] = this.comparable(operand, this.bind(w.when, depth), "CASE");
        const collation = comparisonCollation(operand, when);
        if (collation !== undefined) return { when, then: this.bind(w.then, depth), collation };
      }
      return { when, then: this.bind(w.then, depth) };
    });
    let otherwise = e.else === undefined ? undefined : this.bind(e.else, depth);
    const results = whens.map((w) => w.then);
    if (otherwise !== undefined) results.push(otherwise);
    const { type, list } = this.unifyAll(results, what);
    whens.forEach((w, i) => (w.then = list[i]!));
    if (otherwise !== undefined) otherwise = list[whens.length];
    const bound: { -readonly [K in keyof Extract<BoundExpr, { kind: "case" }>]: Extract<BoundExpr, { kind: "case" }>[K] } = { kind: "case", whens, type };
    if (operand !== undefined) bound.operand = operand;
    if (otherwise !== undefined) bound.else = otherwise;
    return bound;
  }

  /**
   * The unified type of expressions that may each be the result (CASE
   * branches, coalesce arguments): one family, whose requirement then
   * reaches the parameters among them; two parameters alone must at least
   * agree with each other.
   */
  unifyAll(list: readonly BoundExpr[], what: string): { type: StaticType; list: readonly BoundExpr[] } {
    const type = unify(list.map(typeOf), what);
    const family = familyOf(type);
    if (family !== undefined) return { type, list: list.map((e) => (typeOf(e) === "unknown" ? this.settle(e, family, what) : e)) };
    const params = list.filter((e): e is Extract<BoundExpr, { kind: "param" }> => e.kind === "param");
    for (let i = 1; i < params.length; i++) this.linkParams(params[i - 1]!.index, params[i]!.index);
    return { type, list };
  }

  /** A subquery's plan, bound with this binder as its enclosing query, and the outer values it reads. */
  private subplan(select: SelectCommand): { plan: SelectPlan; outer: readonly BoundExpr[] } {
    if (this.context.subquery === undefined) throw this.misuse(`Subqueries are not allowed in ${typeof this.aggregates === "string" ? this.aggregates : "this place"}`);
    const link = new OuterLink(this);
    const plan = this.context.subquery(select, link);
    return { plan, outer: link.feeds };
  }

  /**
   * A comparison's operand: one value, or a row value's values — a `row`,
   * or a subquery of several columns (a `row-subquery` the comparison is
   * then the body of, its values `row-column`s of it: the plan once). A row
   * value anywhere else is refused (`node`).
   */
  private rowOrValue(e: Expression, depth: number): BoundExpr | RowValue {
    if (e.type === "row") {
      return this.at(e, () => {
        if (!Array.isArray(e.items) || e.items.length < 2) throw new StoreError("invalid_request", "A row value holds at least 2 values");
        if (e.items.length > MAX_ROW_VALUES) throw this.misuse(`A row value holds at most ${MAX_ROW_VALUES} values, not ${e.items.length}`);
        return { row: e.items.map((item) => this.bind(item, depth + 1)), subqueries: [] };
      });
    }
    if (e.type !== "subquery" || e.column !== undefined) return this.bind(e, depth);
    return this.at(e, () => {
      const { plan, outer } = this.subplan(e.select);
      if (plan.columns.length > MAX_ROW_VALUES) throw this.misuse(`A row value holds at most ${MAX_ROW_VALUES} values, not ${plan.columns.length}`);
      return plan.columns.length > 1 ? this.rowOf(plan, outer) : scalarSubquery(plan, outer);
    });
  }

  /** A subquery's plan as a row value: one `row-subquery` (a new id) and a `row-column` per column. */
  private rowOf(plan: SelectPlan, outer: readonly BoundExpr[]): RowValue {
    const id = this.context.rowIds.next++;
    const node: RowSubquery = { kind: "row-subquery", id, plan, outer, strategy: strategyOf(outer) };
    return { row: plan.columns.map((_, column) => ({ kind: "row-column", id, column, type: columnType(plan, column) })), subqueries: [node] };
  }

  /**
   * `SET (a, b, …) = (SELECT x, y, …)`: the subquery as a row of as many
   * values as `columns` (refused, `at` where the row value was written, when it selects
   * another number of columns, `*` included), its values `row-column`s.
   */
  rowAssignment(select: SelectCommand, columns: readonly string[], at: object): { readonly subquery: RowSubquery; readonly values: readonly BoundExpr[] } {
    return this.at(at, () => {
      const { plan, outer } = this.subplan(select);
      const n = plan.columns.length;
      if (n !== columns.length) throw this.misuse(`SET (${columns.join(", ")}) = (SELECT …): ${plural(columns.length, "column")} assigned ${plural(n, "value")}; the subquery selects one value per column`);
      const { row, subqueries } = this.rowOf(plan, outer);
      return { subquery: subqueries[0]!, values: row };
    });
  }

  /** Two row values' pairs (one side may be a single value, refused unless the other is one too), each pair checked to compare as `op`. */
  private pairs(l: BoundExpr | RowValue, r: BoundExpr | RowValue, op: string): Pair[] {
    const left = isRow(l) ? l.row : [l];
    const right = isRow(r) ? r.row : [r];
    if (left.length !== right.length) throw this.misuse(`${sizeOf(left.length, "A")} is compared with ${sizeOf(right.length, "a")}: a row value compares with a row value of as many values`);
    return left.map((x, i) => {
      const [a, b] = this.comparable(x, right[i]!, op);
      return { left: a, right: b, collation: comparisonCollation(a, b) ?? null };
    });
  }

  /**
   * Row values compared (SQLite's rules): `=` and IS are the AND of their
   * pairs' comparisons, `<>` and IS NOT the OR (each value read once, and
   * the passes see plain equalities: key lookups, hash joins); an ordering
   * is one `row-compare`, lexicographic.
   */
  private rowComparison(op: CompareOp | "is" | "is not", pairs: readonly Pair[]): BoundExpr {
    if (op === "<" || op === "<=" || op === ">" || op === ">=") {
      const collations = pairs.map((p) => p.collation);
      return { kind: "row-compare", op, left: pairs.map((p) => p.left), right: pairs.map((p) => p.right), ...rowCollations("collations", collations) };
    }
    if (op === "is" || op === "is not") {
      const operands = pairs.map((p) => this.nullSafe(p.left, p.right, op));
      return { kind: op === "is" ? "and" : "or", operands };
    }
    const operands: BoundExpr[] = pairs.map((p) => ({ kind: "compare", op, left: p.left, right: p.right, ...collated(p.collation ?? undefined) }));
    return { kind: op === "=" ? "and" : "or", operands };
  }

  /** `(a, b) [NOT] BETWEEN (l1, l2) AND (h1, h2)`: three row values of as many values. */
  private rowBetween(x: BoundExpr | RowValue, lo: BoundExpr | RowValue, hi: BoundExpr | RowValue, not: boolean): BoundExpr {
    const low = this.pairs(x, lo, "BETWEEN");
    // A value checked as read against `low` is checked again against `high`: the same check.
    const high = this.pairs({ row: low.map((p) => p.left), subqueries: [] }, hi, "BETWEEN");
    return {
      kind: "row-between",
      expr: high.map((p) => p.left),
      low: low.map((p) => p.right),
      high: high.map((p) => p.right),
      not,
      ...rowCollations("lowCollations", low.map((p) => p.collation)),
      ...rowCollations("highCollations", high.map((p) => p.collation)),
    };
  }

  /**
   * `(a, b) [NOT] IN ((x1, y1), …)`: rows of as many values. SQLite reads
   * the list as `IN (VALUES …)`, so each pair compares in the collation `=`
   * takes with the last row's value (a compound's column's, as for `IN
   * (SELECT …)`); a list of one row is the row value's `=`.
   */
  private rowInList(left: RowValue, values: readonly Expression[], not: boolean, depth: number): BoundExpr {
    const width = left.row.length;
    const exprs = [...left.row];
    const subqueries: RowSubquery[] = [];
    const rows = values.map((v) => {
      const row = this.rowOrValue(v, depth);
      if (isRow(row)) subqueries.push(...row.subqueries);
      const items = isRow(row) ? row.row : [row];
      if (items.length !== width) this.at(v, () => {
        throw this.misuse(`IN's list holds ${sizeOf(items.length, "a")} where the row value before it has ${width} values: each item is a row value of as many`);
      });
      return items.map((item, i) => {
        let value: BoundExpr;
        [exprs[i], value] = this.comparable(exprs[i]!, item, "IN");
        return value;
      });
    });
    const items = { row: [], subqueries };
    if (rows.length === 1) {
      const equal = this.rowComparison("=", exprs.map((x, i) => ({ left: x, right: rows[0]![i]!, collation: comparisonCollation(x, rows[0]![i]!) ?? null })));
      return enclosed(not ? { kind: "not", expr: equal } : equal, left, items);
    }
    const last = rows[rows.length - 1]!;
    const collations = exprs.map((x, i) => comparisonCollation(x, last[i]!) ?? null);
    return enclosed({ kind: "row-in", exprs, rows, not, ...rowCollations("collations", collations) }, left, items);
  }

  /** `(x1, x2, …) [NOT] IN (SELECT y1, y2, …)`: the subquery selects as many columns, each compared with its value as `=` would. */
  private rowIn(left: RowValue, select: SelectCommand, not: boolean): BoundExpr {
    const sub = this.subplan(select);
    const width = left.row.length;
    if (sub.plan.columns.length !== width) throw this.misuse(`A subquery after IN selects ${plural(sub.plan.columns.length, "column")}, not ${width} as the row value before it`);
    const exprs = [...left.row];
    // Each column comes back checked where it is read from JSON, in every select of a compound.
    const check = (plan: SelectPlan): SelectPlan => {
      let columns = plan.columns;
      for (let i = 0; i < width; i++) {
        const [x, column] = this.comparable(exprs[i]!, columns[i]!.expr, "IN");
        exprs[i] = x;
        if (column !== columns[i]!.expr) columns = columns.map((c, j) => (j === i ? { ...c, expr: column } : c));
      }
      return columns === plan.columns ? plan : { ...plan, columns };
    };
    let plan = check(sub.plan);
    if (plan.compound !== undefined) {
      const steps = plan.compound.steps.map((step) => ({ ...step, plan: check(step.plan) }));
      plan = { ...plan, compound: { ...plan.compound, steps } };
    }
    // As a single value's IN: each pair in the collation `=` would take, the last select's column for a compound's.
    const last = plan.compound === undefined ? plan : plan.compound.steps[plan.compound.steps.length - 1]!.plan;
    const collations = exprs.map((x, i) => comparisonCollation(x, last.columns[i]!.expr) ?? null);
    return { kind: "in-subquery", exprs, plan, outer: sub.outer, strategy: strategyOf(sub.outer), not, ...rowCollations("collations", collations) };
  }

  private oneColumn(plan: SelectPlan, what: string): BoundExpr {
    const column = plan.columns[0];
    if (plan.columns.length !== 1 || column === undefined) throw this.misuse(`${what} selects one column, not ${plan.columns.length}`);
    return column.expr;
  }

  /** An aggregate: its argument over source rows (where no aggregate may nest), collected for the grouping. */
  private aggregate(e: Extract<Expression, { type: "aggregate" }>, depth: number): BoundExpr {
    const collector = this.aggregates;
    if (typeof collector === "string") {
      throw this.misuse(`${e.name}() is an aggregate, and aggregates are not allowed in ${collector}`);
    }
    const inner = new ExprBinder(this.scope, this.context, "another aggregate's argument", this.outer);
    const distinct = e.distinct === true;
    if (e.separator !== undefined && e.name !== "group_concat") throw this.misuse(`${e.name}() takes no separator: only group_concat does`);
    const filter = e.filter === undefined ? {} : { filter: this.filter(e.filter, depth, "group") };
    if (e.arg === undefined) {
      if (e.name !== "count") throw this.misuse(`${e.name}() takes 1 argument, got 0 (only count takes none, as count(*))`);
      if (distinct) throw this.misuse("count(DISTINCT) needs an argument");
      this.ownRows(e.name, filter.filter);
      return collector.add({ name: "count", distinct: false, type: "integer", ...filter });
    }
    const arg = inner.bind(e.arg, depth);
    this.ownRows(e.name, arg, filter.filter);
    // An explicit COLLATE in the argument stays on the result, as in SQLite: `max(x COLLATE nocase) = 'a'` compares without case.
    const own = explicitCollation(arg);
    const add = (call: AggregateCall): BoundExpr => {
      const ref = collector.add(call);
      return own === undefined ? ref : { kind: "collate", expr: ref, collation: own };
    };
    const typed = inner.aggregateArgument(e.name, arg);
    if (e.name === "group_concat") return add({ name: e.name, ...typed, distinct, separator: e.separator ?? ",", ...filter });
    if (e.name === "json_group_array" || e.name === "json_group_object") {
      if (distinct) throw this.misuse(`${e.name}() cannot take DISTINCT`);
      if ((e.value !== undefined) !== (e.name === "json_group_object")) throw this.misuse(e.value === undefined ? `${e.name}() takes a "value" beside its "arg" (the names)` : `${e.name}() takes no "value": only json_group_object does`);
      if (e.value === undefined) return add({ name: e.name, ...typed, distinct, ...filter });
      return add({ name: e.name, ...typed, distinct, value: inner.bind(e.value, depth), ...filter });
    }
    if (e.value !== undefined) throw this.misuse(`${e.name}() takes no "value": only json_group_object does`);
    return add({ name: e.name, ...typed, distinct, ...filter });
  }

  /**
   * An aggregate of the enclosing query's values only — its argument and
   * FILTER reading an outer value and none of its own query's columns —
   * would belong to that query in SQL (SQLite moves even `count(*) FILTER
   * (WHERE outer.x)` there); storedb does not move it, and refuses it.
   */
  private ownRows(name: string, ...parts: (BoundExpr | undefined)[]): void {
    const reads = (kind: BoundExpr["kind"]): boolean => parts.some((part) => part !== undefined && some(part, (x) => x.kind === kind));
    if (reads("outer") && !reads("column")) throw this.misuse(`${name}() in a subquery reads only the enclosing query's columns: aggregate them in the enclosing query`);
  }

  /**
   * An aggregate's FILTER (WHERE …): a boolean as WHERE is (`type_mismatch`
   * otherwise), with no window function in it. A grouping's (`group`) is
   * over source rows, so no aggregate either; a window aggregate's
   * (`window`) is over the rows the window stage reads, as its argument,
   * so a grouped query's aggregates may stand in it, as in SQLite. An
   * error in it is located at it.
   */
  filter(e: Expression, depth: number, of: "group" | "window"): BoundExpr {
    const where = "an aggregate's FILTER";
    const binder = of === "group" ? new ExprBinder(this.scope, this.context, where, this.outer) : new ExprBinder(this.scope, this.context, this.aggregates, this.outer, undefined, where);
    return this.at(e, () => binder.boolean(e, depth, "FILTER"));
  }

  /**
   * An aggregate's argument checked and its result typed — a grouping's or
   * a window's: sum, total and avg take numbers; group_concat joins the text CAST
   * makes of its values (SQLite converts them the same way).
   */
  aggregateArgument(name: AggregateName, arg: BoundExpr): { arg: BoundExpr; type: StaticType } {
    switch (name) {
      case "count":
        return { arg, type: "integer" };
      case "sum": {
        const checked = this.expect(arg, "number", "sum()");
        return { arg: checked, type: numericType([typeOf(checked)]) };
      }
      case "total":
      case "avg":
        return { arg: this.expect(arg, "number", `${name}()`), type: "real" };
      case "min":
      case "max":
        return { arg, type: typeOf(arg) };
      case "group_concat":
        return { arg: typeOf(arg) === "text" ? arg : { kind: "cast", expr: arg, to: "text" }, type: "text" };
      case "json_group_array":
        return { arg, type: "text" };
      case "json_group_object":
        return { arg: this.expect(arg, "text", "json_group_object()"), type: "text" };
      default:
        return assertNever(name, "aggregate");
    }
  }

  /** A window function call: its arguments and window over the rows the window stage reads (aggregates may stand there, window functions not). */
  private window(e: Extract<Expression, { type: "window" }>, depth: number): BoundExpr {
    const collector = this.windows;
    if (!(collector instanceof WindowCollector)) {
      const where = collector ?? (typeof this.aggregates === "string" ? this.aggregates : "this clause");
      throw this.misuse(`${e.name}() OVER (…) is a window function, and window functions are not allowed in ${where}: only in the select list and ORDER BY`);
    }
    const inner = new ExprBinder(this.scope, this.context, this.aggregates, this.outer, undefined, "another window function");
    return collector.add(bindWindowCall(e, inner, depth));
  }

  private call(name: string, args: readonly Expression[], depth: number): BoundExpr {
    if (name.toLowerCase() === "iif") return this.iif(args, depth);
    const hint = hintNamed(name);
    if (hint !== undefined) return this.hint(hint, args, depth);
    const fn: FunctionName | undefined = functionNamed(name);
    if (fn === undefined) {
      if (WINDOW_ONLY.has(name.toLowerCase())) throw this.misuse(`${name}() is a window function: it needs OVER (…) (JSON: {"type":"window","name":"${name.toLowerCase()}","over":{…}})`);
      if (AGGREGATE_NAMES.has(name.toLowerCase())) throw this.misuse(`${name}() is an aggregate: write {"type":"aggregate","name":"${name.toLowerCase()}"}`);
      throw this.misuse(`Unknown function ${name}()`);
    }
    return this.bindCall(fn, args, depth, name.toLowerCase());
  }

  /**
   * A call of a known function (or the operators `->`, `->>`): its arguments checked against its signature.
   * A wrong count names the function as written (`substring`, not the `substr` it stands for).
   */
  private bindCall(fn: FunctionName, args: readonly Expression[], depth: number, written: string = fn): BoundExpr {
    const signature = FUNCTIONS[fn];
    if ((fn === "max" || fn === "min") && args.length === 1) throw this.misuse(`${fn}() of one argument is an aggregate: write {"type":"aggregate","name":"${fn}"}`);
    const repeat = signature.repeat;
    const offPairs = repeat !== undefined && (args.length - (signature.args.length - repeat)) % repeat !== 0;
    if (args.length < signature.min || args.length > signature.max || offPairs) {
      throw this.misuse(`${written}() ${arity(signature)}, got ${args.length}`);
    }
    let bound: readonly BoundExpr[] = args.map((a) => this.bind(a, depth));
    let type: StaticType;
    if (signature.args === "same") {
      ({ list: bound } = this.unifyAll(bound, `${fn}()`));
      type = signature.result(bound.map(typeOf), fn, bound);
    } else {
      bound = bound.map((arg, i) => {
        const kind = argKind(signature, i);
        if (kind === "time" || kind === "path") {
          // A text or a number (a parameter is typed by its value, so a boolean one is refused here too); a text that reads as no time makes the result NULL.
          const what = kind === "time" ? "its time value" : "its path";
          if (typeOf(arg) === "boolean") throw new StoreError("type_mismatch", `${fn}() takes a text or a number as ${what}, got boolean`);
          return arg;
        }
        if (kind === "json") return asDocument(arg, `${fn}()`, (a) => this.expect(a, "text", `${fn}()`));
        return kind === "any" ? arg : this.expect(arg, kind, `${fn}()`);
      });
      type = signature.result(bound.map(typeOf), fn, bound);
    }
    return { kind: "function", name: fn, args: bound, type };
  }

  /**
   * `iif(c1, v1 [, c2, v2 …] [, else])` is the searched CASE it abbreviates,
   * as in SQLite (3.48+ takes the pairs; earlier only `iif(c, a, b)`): so
   * only the taken branch is evaluated, and branches unify as CASE's do.
   */
  private iif(args: readonly Expression[], depth: number): BoundExpr {
    if (args.length < 2) throw this.misuse(`iif() ${arity({ min: 2, max: Infinity })}, got ${args.length}`);
    const when: { when: Expression; then: Expression }[] = [];
    for (let i = 0; i + 1 < args.length; i += 2) when.push({ when: args[i]!, then: args[i + 1]! });
    const otherwise = args.length % 2 === 1 ? args[args.length - 1] : undefined;
    return this.caseExpr(otherwise === undefined ? { type: "case", when } : { type: "case", when, else: otherwise }, depth, "iif()");
  }

  /**
   * `likely(x)`, `unlikely(x)`, `likelihood(x, p)`: x, as SQLite compiles
   * them. likelihood's p is checked as SQLite's parser checks it (a real
   * written as a constant: `0.9`, `1.0`, not `1` nor `?` nor a column).
   */
  private hint(hint: Hint, args: readonly Expression[], depth: number): BoundExpr {
    const signature = HINTS[hint];
    if (args.length < signature.min || args.length > signature.max) throw this.misuse(`${hint}() ${arity(signature)}, got ${args.length}`);
    const x = this.bind(args[0]!, depth);
    if (signature.constant !== undefined) {
      const p = this.bind(args[signature.constant]!, depth);
      if (p.kind !== "const" || typeOf(p) !== "real" || !((p.value as number) >= 0 && (p.value as number) <= 1)) {
        throw this.misuse(`${hint}()'s second argument must be a real constant between 0.0 and 1.0 (such as 0.9 or 1.0), as in SQLite`);
      }
    }
    return x;
  }

  private linkParams(a: number, b: number): void {
    this.params.use(a, { kind: "compare-param", with: b });
    this.params.use(b, { kind: "compare-param", with: a });
  }

  /** `a IS b`, `a IS NOT b`: a NULL literal on either side is IS [NOT] NULL of the other; otherwise typed as `=`. */
  private nullSafe(bl: BoundExpr, br: BoundExpr, op: "is" | "is not"): BoundExpr {
    const not = op === "is not";
    if (br.kind === "const" && br.value === null) return { kind: "is-null", expr: bl, not };
    if (bl.kind === "const" && bl.value === null) return { kind: "is-null", expr: br, not };
    const [left, right] = this.comparable(bl, br, op.toUpperCase());
    return { kind: "is", left, right, not, ...collated(comparisonCollation(left, right)) };
  }

  /** `left = right` over two bound expressions (USING's equalities), typed as a written `=` is. */
  equality(left: BoundExpr, right: BoundExpr): BoundExpr {
    const [l, r] = this.comparable(left, right, "=");
    return { kind: "compare", op: "=", left: l, right: r, ...collated(comparisonCollation(l, r)) };
  }

  /**
   * Checks that two sides can be compared, and returns them: a side typed
   * when it is read, against a side of a known family, checked as read.
   * Two such sides (or one and a parameter) are compared by their values'
   * families, as two parameters are.
   */
  private comparable(left: BoundExpr, right: BoundExpr, op: string): [BoundExpr, BoundExpr] {
    const lt = typeOf(left);
    const rt = typeOf(right);
    const lf = familyOf(lt);
    const rf = familyOf(rt);
    if (left.kind === "param" && rf !== undefined) this.params.use(left.index, { kind: "compare", type: comparedType(rt) });
    else if (lt === "unknown" && rf !== undefined) left = this.settle(left, rf, op);
    if (right.kind === "param" && lf !== undefined) this.params.use(right.index, { kind: "compare", type: comparedType(lt) });
    else if (rt === "unknown" && lf !== undefined) right = this.settle(right, lf, op);
    // Two parameters: neither type is known until values arrive, so the pair is checked then, before any row is read.
    if (left.kind === "param" && right.kind === "param") this.linkParams(left.index, right.index);
    if (lf !== undefined && rf !== undefined && lf !== rf) throw new StoreError("type_mismatch", `Cannot compare ${lt} with ${rt} using ${op}`);
    return [left, right];
  }
}

/**
 * `e`, of unknown type, required to be of `family` where `of` takes it: the
 * parameters that decide its type constrained, and a value from run time
 * (JSON) wrapped in `assert-type`, checked as each row is read. Whatever
 * unifies types and keeps the expressions (CASE, coalesce, a compound's
 * columns, lag's default) must keep what this returns, or the value reaches
 * its typed use unchecked.
 */
/** Column `column` of `source` as named `name`, with its collation when it is a derived column with one. */
export function columnOf(source: ScopeSource, column: number, name: string): BoundExpr {
  const collation = source.table.collations?.[column];
  return { kind: "column", source: source.index, column, name, type: sourceColumnType(source, column), ...(collation === undefined ? {} : { collation }) };
}

export function settle(params: ParamUses, e: BoundExpr, family: Family, of: string): BoundExpr {
  constrain(params, e, family, of);
  return typedWhenRead(e) ? { kind: "assert-type", expr: e, type: family, of } : e;
}

/** Requires every parameter that decides `e`'s (unknown) type to be of `family`. */
function constrain(params: ParamUses, e: BoundExpr, family: Family, of: string): void {
  switch (e.kind) {
    case "param":
      params.use(e.index, { kind: "operand", family, of });
      return;
    case "case":
      for (const w of e.whens) if (typeOf(w.then) === "unknown") constrain(params, w.then, family, of);
      if (e.else !== undefined && typeOf(e.else) === "unknown") constrain(params, e.else, family, of);
      return;
    case "function":
      // Only coalesce and its kind take their type from their arguments (not `->>` from its document).
      if (FUNCTIONS[e.name].args === "same") for (const arg of e.args) if (typeOf(arg) === "unknown") constrain(params, arg, family, of);
      return;
    default:
      return;
  }
}

/**
 * Whether an expression of unknown type gets its type from a value read at
 * run time (a JSON value, or a group key, aggregate or subquery holding
 * one), not only from parameters, which are checked before any row.
 */
export function typedWhenRead(e: BoundExpr): boolean {
  if (typeOf(e) !== "unknown") return false;
  switch (e.kind) {
    case "param":
      return false;
    case "case":
      return e.whens.some((w) => typedWhenRead(w.then)) || (e.else !== undefined && typedWhenRead(e.else));
    case "function":
      return FUNCTIONS[e.name].args !== "same" || e.args.some(typedWhenRead);
    default:
      return true;
  }
}

/** Whether an expression reads anything of a row or a query (not a constant in SQLite's sense). */
function readsRows(e: BoundExpr): boolean {
  switch (e.kind) {
    case "column":
    case "outer":
    case "group-key":
    case "aggregate":
    case "window":
    case "subquery":
    case "exists":
    case "in-subquery":
      return true;
    default:
      return false;
  }
}

/** A node's `collation` member: present only when not binary, so plans without one read as before. */
function collated(collation: TextCollation | undefined): { collation?: TextCollation } {
  return collation === undefined ? {} : { collation };
}

/** A row value's values, as bound (`ExprBinder.rowOrValue`): never a `BoundExpr`, which is one value. */
interface RowValue {
  readonly row: readonly BoundExpr[];
  /** The row subqueries `row` reads (`row-column`s): the expression comparing it is their body (`enclosed`). */
  readonly subqueries: readonly RowSubquery[];
}

/** `e` as the body of the row subqueries the operands read (the first outermost, each run once when reached). */
function enclosed(e: BoundExpr, ...operands: readonly (BoundExpr | RowValue)[]): BoundExpr {
  const subqueries = operands.flatMap((x) => (isRow(x) ? x.subqueries : []));
  return subqueries.reduceRight<BoundExpr>((body, s) => ({ ...s, body }), e);
}

/** `n thing` or `n things`. */
function plural(n: number, thing: string): string {
  return `${n} ${thing}${n === 1 ? "" : "s"}`;
}

function isRow(x: BoundExpr | RowValue): x is RowValue {
  return "row" in x;
}

/** One pair of two row values, checked to compare, and the collation it compares in (null: binary). */
interface Pair {
  readonly left: BoundExpr;
  readonly right: BoundExpr;
  readonly collation: RowCollation;
}

/** SQLite's `SELECT (1, 2)` and the like: a row value where one value is needed. */
const ROW_MISUSED = "A row value (a, b, …) stands only where rows are compared (=, <>, <, <=, >, >=, IS [NOT], [NOT] BETWEEN, [NOT] IN (SELECT …)), beside a row value of as many values; not where one value is needed";

/** At most this many values in a row value (SQLite's default limit on a select's columns). */
export const MAX_ROW_VALUES = 2000;

function sizeOf(n: number, a: "A" | "a"): string {
  return n === 1 ? `${a} single value` : `${a} row value of ${n} values`;
}

/** A row comparison's collations under `key`, absent when every pair's is binary. */
function rowCollations<K extends string>(key: K, collations: readonly RowCollation[]): { [P in K]?: readonly RowCollation[] } {
  return (collations.every((c) => c === null) ? {} : { [key]: collations }) as { [P in K]?: readonly RowCollation[] };
}

/** A scalar subquery of one column: its value, typed as that column. */
function scalarSubquery(plan: SelectPlan, outer: readonly BoundExpr[]): BoundExpr {
  return { kind: "subquery", plan, outer, strategy: strategyOf(outer), type: columnType(plan, 0) };
}

/** Column `column` of a subquery's one row (JSON's `subquery` with `column`), typed as that column. */
function subqueryColumn(plan: SelectPlan, outer: readonly BoundExpr[], column: number): BoundExpr {
  return { kind: "subquery", plan, outer, strategy: strategyOf(outer), type: columnType(plan, column), column };
}

/** A select's column `i`'s type (a compound's, unified over its selects). */
function columnType(plan: SelectPlan, i: number): StaticType {
  return plan.compound?.types[i] ?? typeOf(plan.columns[i]!.expr);
}

/** `plan` with its first column's expression replaced (by the same one checked as read). */
function withFirstColumn(plan: SelectPlan, expr: BoundExpr): SelectPlan {
  if (plan.columns[0]!.expr === expr) return plan;
  return { ...plan, columns: [{ ...plan.columns[0]!, expr }, ...plan.columns.slice(1)] };
}

/** The column type a parameter compared with a value of type `t` is reported against. */
function comparedType(t: StaticType): "text" | "integer" | "real" | "boolean" {
  return t === "number" ? "real" : (t as "text" | "integer" | "real" | "boolean");
}

/**
 * Binds a column default given as an expression: constant — no column, no
 * parameter, no subquery or aggregate — but it may read the clock, which
 * an insert fixes per statement (`DEFAULT CURRENT_TIMESTAMP`). A name is
 * `unknown_column`: a default has no row to read.
 */
export function bindDefaultExpr(e: Expression): BoundExpr {
  const context = bindContext();
  let bound: BoundExpr;
  try {
    bound = new ExprBinder(new Scope([]), context, "a default").bind(e, 0);
  } catch (error) {
    if (error instanceof StoreError && error.code === "unknown_column") throw new StoreError("unknown_column", `${error.message}: a default is constant, it cannot read a column`);
    throw error;
  }
  if (context.params.list().length > 0) throw new StoreError("invalid_request", "A default cannot use parameters");
  return bound;
}

/** Binds a check or computed-field expression against its own table (stored columns only). */
export function bindTableExpr(table: TableInfo, e: Expression, mustBeBoolean: boolean): BoundExpr {
  const context = bindContext();
  const binder = new ExprBinder(tableScope(table, true), context, mustBeBoolean ? "a check" : "a computed field");
  const bound = mustBeBoolean ? binder.boolean(e, 0, "CHECK") : binder.bind(e, 0);
  if (context.params.list().length > 0) throw new StoreError("invalid_request", "Checks and computed fields cannot use parameters");
  if (mustBeBoolean && some(bound, readsClock)) {
    throw new StoreError("invalid_request", "A check cannot read the clock or the time zone ('now', 'localtime', 'utc'): its answer would change after the row is written");
  }
  if (some(bound, (x) => x.kind === "function" && x.name === "random")) {
    throw new StoreError("invalid_request", `${mustBeBoolean ? "A check" : "A computed field"} cannot call random(): its answer would change each time the row is read`);
  }
  return bound;
}
