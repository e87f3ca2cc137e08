/**
 * Binds a `select` command: sources (FROM with its alias, then each JOIN),
 * ON and WHERE conditions, the select list, ORDER BY, LIMIT/OFFSET.
 * Produces a plan that scans and nested-loops; the passes in `passes.ts`
 * pick better paths.
 *
 * `*` is each source's declared columns then its computed fields; with joins
 * the keys are qualified by alias, else table name, source by source. A
 * listed column keeps the name as written as its result key; an expression
 * is named by its `as`. Without a table (`SELECT 1 + 1`) there are no
 * sources and the list is evaluated once. An ORDER BY `column` names a
 * result column first (`ORDER BY total`), else a source column; an ORDER BY
 * `expr` that is an integer literal is a column number (another literal a
 * constant). GROUP BY, HAVING or
 * an aggregate make the query grouped (`bind-group.ts`); with DISTINCT the
 * sort keys must be result columns. A compound select (`bindCompound`) binds
 * each of its selects so and joins them; a derived table in FROM or JOIN
 * binds its select apart from the sources beside it (in a subquery, reading
 * the enclosing queries through the subquery's link) and is read as a table
 * (`derived-table.ts`).
 */

import type { Collation, CompoundArm, CompoundOperator, FromSource, OrderBy, ParamSlot, SelectColumn, SelectCommand } from "../commands/types.js";
import { isValidIdentifier } from "../commands/names.js";
import { StoreError, type SourcePosition } from "../errors.js";
import { AggregateCollector, DerivedLink, ExprBinder, bindContext, columnOf, settle, type Beside, type BindContext, type Enclosing } from "./bind-expr.js";
import { bindGroupBy, overGroups } from "./bind-group.js";
import { bindCalls } from "./bind-call.js";
import { bindJoins } from "./bind-join.js";
import { simplifyOuterJoins } from "./outer-joins.js";
import { bindWithTable, withTableSource } from "./bind-recursive.js";
import { WindowCarry, WindowCollector, holdsWindow, sortOrder } from "./bind-window.js";
import type { BoundExpr, CompoundStep, Count, DerivedTable, OutputColumn, ParamUse, Plan, SelectPlan, SortKey, Source, TableCall, WindowCall, Windowing } from "./plan.js";
import { derivedTableInfo, derivedTableName, describeDerived } from "./derived-table.js";
import { exprCollation, textual } from "./collation.js";
import { Scope, type ScopeSource } from "./scope.js";
import { VISIBLE_COLUMNS, callTableInfo, isTableFunction } from "./table-functions.js";
import { familyOf, typeOf, unify } from "./static-types.js";
import type { Catalog, TableInfo } from "./table-info.js";
import { sameExprKey } from "./walk.js";
import type { SourceSpans } from "./source-spans.js";

export function checkName(name: string, what: string): string {
  if (!isValidIdentifier(name)) throw new StoreError("invalid_name", `Invalid ${what} name ${JSON.stringify(name)}`);
  return name;
}

/** `position`: where SQL text named the table, for the error (lowering's INSERT without a column list). */
export function requireTable(catalog: Catalog, name: string, position?: SourcePosition): TableInfo {
  checkName(name, "table");
  const table = catalog.table(name);
  if (!table) throw new StoreError("table_not_found", `Table "${name}" does not exist`, position === undefined ? {} : { position });
  return table;
}

/** A limit or offset: a count ≥ 0 as written, or a slot whose value is checked when bound. */
function bindCount(value: number | ParamSlot | undefined, clause: "limit" | "offset", context: BindContext): Count | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "object") {
    const use = (): void => context.params.use(value.index, { kind: "count", clause } satisfies ParamUse);
    if (context.spans === undefined) use();
    else context.spans.at(value, use);
    return { kind: "param", index: value.index };
  }
  if (!Number.isSafeInteger(value) || value < 0) throw new StoreError("invalid_request", `${clause} must be an integer ≥ 0`);
  return value;
}

/**
 * The sources of a select: FROM (under its alias, if any) and each JOIN.
 * `written`: how many of the joins the statement wrote (UPDATE … FROM adds
 * its table as one more, which leaves FROM's derived table unjoined).
 */
export function bindSources(cmd: SelectCommand, catalog: Catalog, context: BindContext, written = (cmd.joins ?? []).length, outer?: Enclosing): ScopeSource[] {
  if (cmd.table === undefined && cmd.from === undefined) {
    if (cmd.as !== undefined || (cmd.joins ?? []).length > 0) throw new StoreError("invalid_request", "as and joins need a table");
    return [];
  }
  const joined = written > 0;
  const items = [cmd, ...(cmd.joins ?? [])];
  // The names a derived table among them must not read (`NameState.beside`): an alias, and the table behind it too.
  const names = items.flatMap((item) => [item.as, item.table ?? (item.from?.kind === "function" || item.from?.kind === "with" ? item.from.name : undefined)].filter((name) => name !== undefined));
  const beside: Beside = { names, reading: undefined };
  context.names.beside.push(beside);
  try {
    return items.map((item, index) => {
      const from = item.from;
      beside.reading = from === undefined || from.kind === "function" ? undefined : from.kind === "with" ? { withTable: from.name, name: item.as ?? from.name } : { withTable: undefined, name: item.as };
      return bindSource(cmd, item, index, index > 0 || joined, catalog, context, outer);
    });
  } finally {
    context.names.beside.pop();
  }
}

/**
 * A table, or a derived table: its select bound apart from the sources
 * beside it (no LATERAL, as in SQLite), its rows as arrays. In a subquery
 * (`outer`) it reads the queries enclosing the subquery, as SQL's derived
 * tables do, and is then made again as the subquery runs with other values
 * of theirs (`DerivedTable.correlated`). In a join a derived table needs
 * an alias: it has no name of its own for qualified names, `*`'s keys or
 * messages to use.
 */
function bindSource(
  cmd: SelectCommand,
  item: { readonly table?: string; readonly from?: FromSource; readonly as?: string },
  index: number,
  joined: boolean,
  catalog: Catalog,
  context: BindContext,
  outer: Enclosing | undefined,
): ScopeSource {
  const alias = item.as === undefined ? {} : { alias: checkName(item.as, "alias") };
  if (item.from === undefined) {
    if (item.table === undefined) throw new StoreError("invalid_request", "A join names a table, or a select as its from");
    const table = item.table;
    const read = (): TableInfo => requireTable(catalog, table);
    return withTableSource(cmd, checkName(table, "table"), item.as, index, context) ?? { table: context.spans?.at(item, read) ?? read(), name: item.as ?? table, index, ...alias };
  }
  if (item.table !== undefined) throw new StoreError("invalid_request", "A source is a table or a select (from), not both");
  if (item.from.kind === "function") {
    // Its arguments are bound once every source is known (`bind-call.ts`); unaliased, it answers to the function's name, as in SQLite.
    const { name, args } = item.from;
    if (!isTableFunction(name)) throw new StoreError(context.misuse, `No table function is named "${name}": FROM and JOIN call json_each or json_tree`);
    if (args.length < 1 || args.length > 2) throw new StoreError(context.misuse, `${name}() takes a JSON document and, optionally, a path: got ${args.length} argument(s)`);
    const as = item.as === undefined ? name : checkName(item.as, "alias");
    return { table: callTableInfo(derivedTableName(index)), name: as, alias: as, index, call: name };
  }
  if (item.from.kind === "with") {
    // A WITH table answers to its own name, as SQL's reference to one does.
    const name = checkName(item.as ?? item.from.name, "alias");
    checkName(item.from.name, "WITH table");
    const bind = (select: SelectCommand, link: DerivedLink): SelectPlan => bindSelectPlan(select, catalog, context, link);
    const derived = bindWithTable(item.from, context, bind, (value, clause) => bindCount(value, clause, context), outer);
    return { table: derivedTableInfo(index, derived), name, alias: name, index, derived };
  }
  if (joined && item.as === undefined) throw new StoreError(context.misuse, "A derived table in a join needs an alias: (SELECT …) AS name");
  const link = new DerivedLink(outer);
  const described = describeDerived(bindSelectPlan({ ...item.from, output: "arrays" }, catalog, context, link), context.misuse);
  const derived: DerivedTable = link.reads ? { ...described, correlated: true } : described;
  const table = derivedTableInfo(index, derived);
  return { table, name: item.as ?? table.name, index, derived, ...alias };
}

/** A result name: any text but `__proto__`, which as a key of a result object would be its prototype. */
function resultName(name: string): string {
  if (name === "__proto__") throw new StoreError("invalid_name", `Invalid result name "__proto__"`);
  return name;
}

export function bindColumns(columns: "*" | readonly SelectColumn[], sources: readonly ScopeSource[], all: ExprBinder): OutputColumn[] {
  const out: OutputColumn[] = [];
  // Named as `*` names them: qualified by source when there are several.
  const qualified = sources.length > 1;
  // `*` shows a USING column once, where its leftmost source's column stands, holding what the bare name reads: named as
  // that source's column while it is its value, by its bare name once a RIGHT or FULL join coalesced it (as SQLite names
  // it). `t.*` shows every column of t as t's own, named `t.c`: a bare name there could meet another result column's.
  const allOf = (s: ScopeSource, everySource: boolean): void => {
    const qualify = (c: string): string => (qualified ? `${s.name}.${c}` : c);
    const push = (c: string, expr: () => BoundExpr): void => {
      const merged = everySource ? all.scope.merged.find((m) => m.name === c && m.covers.has(s.index)) : undefined;
      if (merged !== undefined && Math.min(...merged.covers) === s.index) out.push({ name: merged.leftmost ? qualify(c) : c, expr: merged.expr, column: c });
      else if (merged === undefined) out.push({ name: qualify(c), expr: expr(), column: c });
    };
    // A table function's hidden columns (json, root) are read by name only, as in SQLite.
    const shown = s.call === undefined ? s.table.columns : s.table.columns.slice(0, VISIBLE_COLUMNS);
    shown.forEach((c, column) => push(c, () => columnOf(s, column, qualify(c))));
    for (const [c, expr] of s.table.computed) push(c, () => all.bindComputed(s, expr));
  };
  if (columns === "*") {
    if (sources.length === 0) throw all.misuse("* needs a table: SELECT without FROM lists its columns");
    for (const s of sources) allOf(s, true);
    return out;
  }
  if (columns.length === 0) throw new StoreError("invalid_request", "columns must name at least one column");
  for (const [index, c] of columns.entries()) {
    if (typeof c !== "string") out.push({ name: resultName(c.as), expr: all.bind(c.expr) });
    else all.atItem(columns, index, () => (c.endsWith(".*") ? allOf(sourceNamed(all.scope, c.slice(0, -2)), false) : out.push({ name: c, expr: all.bind({ type: "identifier", name: c }), column: c.slice(c.indexOf(".") + 1) })));
  }
  return out;
}

/** The source `t.*` names: its alias, else its table's name (`Scope.named`, exact). */
function sourceNamed(scope: Scope, name: string): ScopeSource {
  const matches = scope.named(name, true).filter((s) => s.qualifiedOnly !== true);
  if (matches.length === 0) throw new StoreError("unknown_column", `No source named "${name}" for ${name}.*`);
  if (matches.length > 1) throw new StoreError("ambiguous_column", `${name}.* is ambiguous: several sources are named "${name}"`);
  return matches[0]!;
}

/** Object rows have one key per name: two result columns of one name would lose one (CONTRACT §11). */
export function checkDistinctNames(columns: readonly OutputColumn[]): void {
  const seen = new Set<string>();
  for (const c of columns) {
    if (seen.has(c.name)) throw new StoreError("invalid_request", `Two result columns are named "${c.name}": rename one with as`);
    seen.add(c.name);
  }
}

/** `all` binds the list; `named` is the same binder that also reads result names (an expression over an alias: `ORDER BY abs(total)`). */
function bindOrderBy(items: readonly OrderBy[], columns: readonly OutputColumn[], all: ExprBinder, named: ExprBinder): SortKey[] {
  return items.map((item): SortKey => {
    const key = (expr: BoundExpr): SortKey => sortKey(expr, item);
    if ("column" in item) {
      // A result name wins over a source column of that name, as in SQLite.
      const result = columns.find((c) => c.name === item.column);
      return key(result ? result.expr : all.at(item, () => all.bind({ type: "identifier", name: item.column })));
    }
    // A column number or a result name under COLLATE is still one (as SQLite): the outermost COLLATE is the key's.
    let e = item.expr;
    let wrapped: Collation | undefined;
    while (e.type === "collate") {
      wrapped ??= e.collation;
      e = e.expr;
    }
    if (e.type === "literal" && Number.isInteger(e.value)) {
      const column = columns[(e.value as number) - 1];
      if (column === undefined) {
        throw all.misuse(`ORDER BY column number ${e.value} is out of range: the select list has ${columns.length} column(s)`);
      }
      return sortKey(column.expr, item, wrapped ?? exprCollation(column.expr));
    }
    const result = e !== item.expr && e.type === "identifier" ? columns.find((c) => c.name === e.name) : undefined;
    if (result !== undefined) return sortKey(result.expr, item, wrapped);
    return key(named.bind(item.expr));
  });
}

/** What an ORDER BY item's span is kept on: the item for a plain column, else its expression. */
function writtenOrder(item: OrderBy): object {
  return "column" in item ? item : item.expr;
}

/** A sort key over `expr`: the item's direction and NULL place, and its collation, else the expression's own. */
function sortKey(expr: BoundExpr, item: OrderBy, own: Collation | undefined = exprCollation(expr)): SortKey {
  const collation = textual(item.collation ?? own, [expr]);
  return { expr, ...sortOrder(item), ...(collation === undefined ? {} : { collation }) };
}

/** The context to bind a statement in: its subqueries, wherever they stand, are selects over `catalog`. */
export function queryContext(catalog: Catalog, sql: boolean, spans?: SourceSpans): BindContext {
  const context: BindContext = bindContext(sql, (select, outer) => bindSelectPlan(select, catalog, context, outer), spans);
  return context;
}

export function bindSelect(cmd: SelectCommand, catalog: Catalog, sql: boolean, spans?: SourceSpans): Plan {
  const context = queryContext(catalog, sql, spans);
  return { statement: bindSelectPlan(cmd, catalog, context), params: context.params.list() };
}

/** A select's plan; with `outer`, a subquery of the query that link leads to, or a derived table inside such a subquery (its result read as arrays). */
export function bindSelectPlan(cmd: SelectCommand, catalog: Catalog, context: BindContext, outer?: Enclosing): SelectPlan {
  if (cmd.compound !== undefined) return bindCompound(cmd, cmd.compound, catalog, context, outer);
  const sources = bindSources(cmd, catalog, context, undefined, outer);
  const joined = bindJoins(cmd.joins ?? [], sources, context, outer);
  const scope = new Scope(sources, false, joined.merged);
  const aggregates = new AggregateCollector();
  const windows = new WindowCollector();
  // The select list, HAVING and ORDER BY may hold aggregates; WHERE, ON and GROUP BY may not. Window functions stand only in the list and ORDER BY.
  const all = new ExprBinder(scope, context, aggregates, outer, undefined, windows);

  // The list binds first: every other clause reads its result names where no source has the name, as SQLite resolves them (`ExprBinder.resultNamed`).
  let columns = bindColumns(cmd.columns, sources, all);
  const { calls: tableCalls, steps } = bindCalls([cmd, ...(cmd.joins ?? [])], sources, scope, joined.steps(columns), context, outer, columns);
  const where: BoundExpr | undefined = cmd.where === undefined ? undefined : new ExprBinder(scope, context, "WHERE", outer, columns).boolean(cmd.where, 0, "WHERE");
  const output = outer === undefined ? (cmd.output ?? "objects") : "arrays";
  if (output === "objects") checkDistinctNames(columns);
  const keys = bindGroupBy(cmd.groupBy ?? [], new ExprBinder(scope, context, "GROUP BY", outer, columns));
  if (keys.some(holdsWindow)) throw all.misuse("GROUP BY cannot group by a window function");
  const havingBinder = new ExprBinder(scope, context, aggregates, outer, columns, "HAVING");
  let having = cmd.having === undefined ? undefined : havingBinder.boolean(cmd.having, 0, "HAVING");
  if (having !== undefined && holdsWindow(having)) throw all.misuse("HAVING cannot read a window function: filter on it in an enclosing select");
  // In an ORDER BY expression a name no source has may be a result name, as in HAVING (and SQLite).
  let orderBy = bindOrderBy(cmd.orderBy ?? [], columns, all, new ExprBinder(scope, context, aggregates, outer, columns, windows));
  const limit = bindCount(cmd.limit, "limit", context);
  const offset = bindCount(cmd.offset, "offset", context);

  // GROUP BY, HAVING or any aggregate makes the query grouped: what follows reads groups.
  const grouped = keys.length > 0 || having !== undefined || aggregates.calls.length > 0;
  let calls: readonly WindowCall[] = windows.calls;
  if (grouped) {
    // The list item, HAVING or ORDER BY item written, when known: where an ungrouped column's error points.
    const written = cmd.columns !== "*" && cmd.columns.length === columns.length && cmd.columns.every((c) => typeof c !== "string" || !c.endsWith(".*")) ? cmd.columns : undefined;
    const inList = (i: number, run: () => BoundExpr): BoundExpr => {
      const item = written?.[i];
      return item === undefined ? run() : typeof item === "string" ? all.atItem(written!, i, run) : all.at(item.expr, run);
    };
    columns = columns.map((c, i) => ({ ...c, expr: inList(i, () => overGroups(c.expr, keys, all, "the select list")) }));
    if (having !== undefined) having = all.at(cmd.having!, () => overGroups(having!, keys, all, "HAVING"));
    orderBy = orderBy.map((k, i) => ({ ...k, expr: all.at(writtenOrder(cmd.orderBy![i]!), () => overGroups(k.expr, keys, all, "ORDER BY")) }));
    const over = (e: BoundExpr): BoundExpr => overGroups(e, keys, all, "a window function");
    calls = calls.map((c) => ({
      ...c,
      args: c.args.map(over),
      partition: c.partition.map(over),
      order: c.order.map((k) => ({ ...k, expr: over(k.expr) })),
      ...(c.filter === undefined ? {} : { filter: over(c.filter) }),
    }));
  }
  // Window functions make the select list and ORDER BY read window rows: what they read of each row is carried into it.
  let window: Windowing | undefined;
  if (calls.length > 0) {
    const carry = new WindowCarry();
    columns = columns.map((c) => ({ ...c, expr: carry.over(c.expr) }));
    orderBy = orderBy.map((k) => ({ ...k, expr: carry.over(k.expr) }));
    window = { carried: carry.carried, calls };
  }
  const distinct = cmd.distinct === true;
  if (distinct) orderBy = orderBy.map((k) => ({ ...k, output: outputOf(k.expr, columns, all) }));

  const plan: SelectPlan = {
    kind: "select",
    sources: sources.map((s, i) => planSource(s, tableCalls[i])),
    access: sources.length === 0 ? { kind: "single-row" } : { kind: "scan" },
    // An outer join whose padded rows WHERE drops is planned as the inner (or one-sided) join it then is.
    joins: simplifyOuterJoins(steps, where),
    ...(where === undefined ? {} : { where }),
    ...(grouped ? { group: { keys, aggregates: aggregates.calls } } : {}),
    ...(having === undefined ? {} : { having }),
    ...(window === undefined ? {} : { window }),
    distinct,
    orderBy,
    ...(limit === undefined ? {} : { limit }),
    ...(offset === undefined ? {} : { offset }),
    output,
    columns,
  };
  return plan;
}

/** A bound source as the plan holds it. */
export function planSource(s: ScopeSource, call?: TableCall): Source {
  return {
    table: s.table.name,
    name: s.name,
    ...(s.derived === undefined ? {} : { derived: s.derived }),
    ...(s.working === undefined ? {} : { working: s.working }),
    ...(call === undefined ? {} : { call }),
  };
}

/** With DISTINCT, a sort key is one of the result columns (a row of the result holds nothing else to sort by). */
function outputOf(key: BoundExpr, columns: readonly OutputColumn[], binder: ExprBinder): number {
  const text = sameExprKey(key);
  const index = columns.findIndex((c) => sameExprKey(c.expr) === text);
  if (index < 0) throw binder.misuse("With DISTINCT, ORDER BY takes only selected columns (by name, number or the same expression)");
  return index;
}

const OPERATOR_WORDS: Record<CompoundOperator, string> = { union: "UNION", "union-all": "UNION ALL", intersect: "INTERSECT", except: "EXCEPT" };

/**
 * A compound select: each select bound on its own (within the same
 * enclosing query, for a subquery), with as many columns as the first, each
 * column of one family in every select; the result's names are the first
 * select's. ORDER BY takes a result column by name or number only (SQLite
 * also takes a column of any select, or an expression equal to a result
 * column; storedb keeps to what names the result itself).
 */
function bindCompound(cmd: SelectCommand, arms: readonly CompoundArm[], catalog: Catalog, context: BindContext, outer: Enclosing | undefined): SelectPlan {
  const misuse = (message: string): StoreError => new StoreError(context.misuse, message);
  const { compound: _compound, orderBy: _orderBy, limit: _limit, offset: _offset, output: _output, ...core } = cmd;
  const first = bindSelectPlan({ ...core, output: "arrays" }, catalog, context, outer);
  const steps = arms.map((arm): CompoundStep => {
    const word = OPERATOR_WORDS[arm.op];
    const s = arm.select;
    const own = (["compound", "orderBy", "limit", "offset", "output"] as const).find((member) => s[member] !== undefined);
    if (own !== undefined) throw misuse(`The select after ${word} has a ${own} of its own: the first select's ${own === "compound" ? "compound joins every select" : `${own} applies to the whole result`}`);
    const plan = bindSelectPlan({ ...s, output: "arrays" }, catalog, context, outer);
    if (plan.columns.length !== first.columns.length) {
      throw misuse(`The selects joined by ${word} must have as many columns each: ${first.columns.length} before it, ${plan.columns.length} after`);
    }
    return { op: arm.op, plan };
  });
  const types = first.columns.map((c, j) => unify([typeOf(c.expr), ...steps.map((step) => typeOf(step.plan.columns[j]!.expr))], `Result column ${j + 1} ("${c.name}") of the compound select`));
  // A column read from JSON in one select, of a known family in another, is checked as read: the compound's column is typed, and whatever reads it (a typed column) trusts that type.
  const settled = (plan: SelectPlan): SelectPlan => {
    let changed = false;
    const columns = plan.columns.map((c, j) => {
      const family = familyOf(types[j]!);
      if (family === undefined || typeOf(c.expr) !== "unknown") return c;
      changed = true;
      return { ...c, expr: settle(context.params, c.expr, family, `Result column ${j + 1} ("${first.columns[j]!.name}") of the compound select`) };
    });
    return changed ? { ...plan, columns } : plan;
  };
  // Each result column's collation: the first select's that has one (a column has binary), as SQLite's multiSelectCollSeq.
  const collations = first.columns.map((c, j): Collation => [c, ...steps.map((step) => step.plan.columns[j]!)].map((col) => exprCollation(col.expr)).find((x) => x !== undefined) ?? "binary");
  const checkedFirst = settled(first);
  const checkedSteps = steps.map((step) => ({ ...step, plan: settled(step.plan) }));
  const orderBy = (cmd.orderBy ?? []).map((item): SortKey => {
    let index = -1;
    // A name or number under COLLATE is still one: the outermost COLLATE is the key's.
    let wrapped: Collation | undefined;
    let e = "column" in item ? undefined : item.expr;
    while (e?.type === "collate") {
      wrapped ??= e.collation;
      e = e.expr;
    }
    const name = "column" in item ? item.column : e?.type === "identifier" ? e.name : undefined;
    if (name !== undefined) index = first.columns.findIndex((c) => c.name === name);
    else if (e?.type === "literal" && Number.isInteger(e.value)) {
      index = (e.value as number) - 1;
      if (index < 0 || index >= first.columns.length) throw misuse(`ORDER BY column number ${e.value} is out of range: the select list has ${first.columns.length} column(s)`);
    }
    if (index < 0) throw misuse(`ORDER BY of a compound select takes a result column's name or number${name !== undefined ? `, and no result column is named "${name}"` : ""}`);
    return { ...sortKey(first.columns[index]!.expr, item, wrapped ?? collations[index]), output: index };
  });
  const limit = bindCount(cmd.limit, "limit", context);
  const offset = bindCount(cmd.offset, "offset", context);
  const output = outer === undefined ? (cmd.output ?? "objects") : "arrays";
  if (output === "objects") checkDistinctNames(first.columns);
  return {
    ...checkedFirst,
    compound: { steps: checkedSteps, types, ...(collations.some((c) => c !== "binary") ? { collations } : {}) },
    orderBy,
    ...(limit === undefined ? {} : { limit }),
    ...(offset === undefined ? {} : { offset }),
    output,
  };
}
