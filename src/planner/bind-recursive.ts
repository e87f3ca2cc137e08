/**
 * WITH tables (`{kind: "with"}`): a derived table with column names of its
 * own and a name it may read itself by — SQL's `WITH [RECURSIVE] t(a, b)
 * AS (…)`, as SQLite reads it.
 *
 * A compound select whose later selects read the table's name in their
 * FROM or a JOIN is recursive: the selects before the first such one make
 * the first rows (the initial select); the rest (the recursive selects),
 * joined by one operator, UNION or UNION ALL, run over the rows made
 * before (SQLite's queue: `executor/recursive.ts`). The binder checks
 * SQLite's rules: the name is read once per recursive select and nowhere
 * else in the table's select (not in the initial select, a subquery or a
 * derived table: SQLite's "circular reference"), nor as the right side
 * of a LEFT JOIN, and a recursive select neither aggregates nor calls a
 * window function. Beyond SQLite, a
 * recursive select has no DISTINCT and the compound no ORDER BY (which in
 * SQLite picks the next row from its queue): refused rather than answered
 * otherwise.
 *
 * Each recursive select is driven from the rows it runs over
 * (`recursive-drive.ts`). When the executor cannot take their rows in
 * queue order as they come — several recursive selects, or one that could
 * not be driven so — each yields one more column, the id of the row it ran
 * over (`Recursion.tagged`).
 *
 * The table's column types are the initial select's, unified with what
 * the recursive selects yield as a compound's are; since those read the
 * table, they are bound again when a column widens (integer to real), so
 * at most once per column. Every binding of a WITH table is kept
 * (`WithTables.bound`), and one is reused wherever the queries around the
 * place it is read answer its names as they did for it, however often the
 * selects around it are bound again: a table is bound at most once per
 * distinct set of such answers (one per type a column it reads widens
 * through), so nested or chained recursive tables bind in time linear in
 * their depth.
 */

import type { CompoundArm, SelectCommand, WithTable } from "../commands/types.js";
import { StoreError } from "../errors.js";
import { DerivedLink, answersAlike, type Asked, type BindContext, type Enclosing, type NameState } from "./bind-expr.js";
import { derivedColumns, derivedTableInfo, describeDerived, readFromJson, selectCollations, selectTypes, storedType } from "./derived-table.js";
import type { Count, DerivedTable, OutputColumn, SelectPlan, StaticType, TableShape } from "./plan.js";
import { driveFrom } from "./recursive-drive.js";
import type { ScopeSource } from "./scope.js";
import { typeOf, unify } from "./static-types.js";

/**
 * A WITH table while its select is bound: its name, read anywhere in it,
 * is the table — in the FROM or a JOIN of `arm` (a recursive select being
 * bound) once, the rows it runs over (`shape`); anywhere else an error.
 */
export interface WithFrame {
  readonly name: string;
  arm: SelectCommand | undefined;
  shape: TableShape | undefined;
  reads: number;
}

/** The WITH tables of one bind: those whose selects are being bound, innermost last, and those bound already. */
export interface WithTables {
  readonly frames: WithFrame[];
  /** Each WITH table's bindings, newest first: any that holds is reused (`bindWithTable`). */
  readonly bound: Map<WithTable, BoundWith[]>;
}

/**
 * A WITH table's binding, under the names of the frames it was bound in (a
 * name read in it is a stored table only outside those), with what its
 * select asked of the queries around the place it was read and what they
 * answered (`asked`), and the qualifiers it read as a table name behind an
 * alias (`loose`).
 */
interface BoundWith {
  readonly frames: string;
  readonly asked: ReadonlyMap<string, Asked>;
  readonly loose: ReadonlySet<string>;
  readonly derived: DerivedTable;
}

export function withTables(): WithTables {
  return { frames: [], bound: new Map() };
}

type BindSelect = (cmd: SelectCommand, link: DerivedLink) => SelectPlan;
type BindCount = (value: SelectCommand["limit"], clause: "limit" | "offset") => Count | undefined;

/** The name a recursive table's rows of the last step go by in its recursive selects' plans: no valid identifier, so no query can name it. */
export function workingTableName(name: string): string {
  return `(recursive ${name})`;
}

/**
 * A source `cmd` names `table` by: the rows it runs over, when it is
 * a WITH table being bound and `cmd` one of its recursive selects; undefined
 * when no WITH table being bound has that name (a stored table, then).
 */
export function withTableSource(cmd: SelectCommand, table: string, as: string | undefined, index: number, context: BindContext): ScopeSource | undefined {
  const frame = context.withTables.frames.findLast((f) => f.name === table);
  if (frame === undefined) return undefined;
  if (frame.arm !== cmd || frame.shape === undefined) {
    throw new StoreError(context.misuse, `Circular reference to WITH table "${table}": it reads itself only in the FROM or a JOIN of a recursive select (one after UNION [ALL] that starts from its first rows), not in a subquery, a derived table or its first select`);
  }
  if (++frame.reads > 1) throw new StoreError(context.misuse, `A recursive select of WITH table "${table}" reads it twice: each reads it once`);
  const name = as ?? table;
  return { table: derivedTableInfo(index, frame.shape, workingTableName(table)), name, alias: name, index, working: frame.shape };
}

const MEMBERS_OF_THE_WHOLE = ["compound", "orderBy", "limit", "offset", "output"] as const;

/**
 * A WITH table's rows as a derived table: recursive when a select of its
 * compound reads its name. Read inside a subquery, its select reads the
 * queries enclosing that place (`outer`), as SQLite's does: a name it does
 * not have is theirs.
 *
 * Each of its bindings is kept and holds wherever the queries around the
 * place it is read answer what its select asked of them alike (and no
 * qualifier it read behind an alias stands beside it there): a recursive
 * select around it is bound again when its columns widen, each time with
 * new links to its enclosing queries, and a column it reads may be an
 * integer in one pass and real in the next. Were only the last binding
 * kept, tables chained so would each be bound again in every pass of the
 * one reading them, and so the tables they read: exponential. Bound again
 * only where no binding kept reads alike.
 */
export function bindWithTable(table: WithTable, context: BindContext, bind: BindSelect, count: BindCount, outer: Enclosing | undefined): DerivedTable {
  const frames = context.withTables.frames.map((f) => f.name).join("\0");
  const kept = context.withTables.bound.get(table) ?? [];
  // Newest first: the binding of the pass before is the likeliest. Asking registers what is found, as binding anew would,
  // so one that does not hold may leave the subquery an outer value it does not read (it runs per row, to the same answer).
  const bound = kept.find((b) => b.frames === frames && holds(b, context.names, outer));
  if (bound !== undefined) {
    for (const loose of context.names.loose) for (const qualifier of bound.loose) loose.add(qualifier);
    return bound.derived;
  }
  const link = new DerivedLink(outer);
  const loose = new Set<string>();
  context.names.loose.push(loose);
  let derived: DerivedTable;
  try {
    derived = bindAnew(table, context, (select) => bind(select, link), count);
  } finally {
    context.names.loose.pop();
  }
  if (link.reads) derived = { ...derived, correlated: true };
  context.withTables.bound.set(table, [{ frames, asked: link.asked, loose, derived }, ...kept]);
  return derived;
}

/** Whether `bound` is the binding here: no qualifier it read behind an alias stands beside it, and `outer` answers its names alike. */
function holds(bound: BoundWith, names: NameState, outer: Enclosing | undefined): boolean {
  for (const qualifier of bound.loose) if (names.beside.some((b) => b.names.includes(qualifier))) return false;
  return answersAlike(bound.asked, outer);
}

function bindAnew(table: WithTable, context: BindContext, bind: (cmd: SelectCommand) => SelectPlan, count: BindCount): DerivedTable {
  const misuse = (message: string): StoreError => new StoreError(context.misuse, message);
  const name = table.name;
  const { compound = [], orderBy = [], limit, offset, output: _output, ...core } = table.select;
  const selects: readonly SelectCommand[] = [core, ...compound.map((arm) => arm.select)];
  const first = selects.findIndex((s) => s.table === name || (s.joins ?? []).some((j) => j.table === name));
  const frame: WithFrame = { name, arm: undefined, shape: undefined, reads: 0 };
  context.withTables.frames.push(frame);
  try {
    if (first < 0) return describeDerived(bind({ ...table.select, output: "arrays" }), context.misuse, undefined, table.columns);
    if (first === 0) throw misuse(`WITH table "${name}" reads itself in its first select: a recursive table starts from a select that does not read it, then UNION [ALL] selects that do`);
    const arms = compound.slice(first - 1);
    const op = arms[0]!.op;
    if (op !== "union" && op !== "union-all") throw misuse(`Recursive WITH table "${name}" joins its recursive selects by UNION or UNION ALL, not ${op.toUpperCase()}`);
    for (const arm of arms) checkArm(arm, op, name, misuse);
    if (orderBy.length > 0) throw misuse(`ORDER BY in recursive WITH table "${name}" is not supported (SQLite's order of its queue): order the select that reads it`);
    const initialArms = compound.slice(0, first - 1);
    const select = bind({ ...core, ...(initialArms.length > 0 ? { compound: initialArms } : {}), output: "arrays" });
    const columns = derivedColumns(select, context.misuse, table.columns);
    // A column the first rows leave untyped (NULL, a bare parameter) takes the recursive selects' type, as SQLite's NULL takes any:
    // they are bound with it integer first, and again over the type they give it.
    const firstTypes = selectTypes(select);
    const bounds = { ...optional("limit", count(limit, "limit")), ...optional("offset", count(offset, "offset")) };
    const untyped = (type: StaticType): boolean => type === "null" || type === "unknown";
    // A column's collation is its first rows' (SQLite's, from the selects before the recursive ones).
    const collations = selectCollations(select);
    const collated = collations === undefined ? {} : { collations };
    for (let shape: TableShape = { ...collated, columns, types: firstTypes.map((type, j) => (untyped(type) ? "integer" : storedType(type, columns[j]!, context.misuse, "a derived table", readFromJson(select, j)))) }; ; ) {
      const steps = arms.map((arm) => bindStep(arm.select, frame, shape, bind, misuse));
      const types = firstTypes.map((type, j) => {
        const column = columns[j]!;
        const unified = unify([type, ...steps.map((step) => carriedType(step, j))], `Column ${j + 1} ("${column}") of recursive WITH table "${name}"`);
        return storedType(unified, column, context.misuse, "a derived table", readFromJson(select, j) || steps.some((step) => readFromJson(step, j)));
      });
      // A column widened by a recursive select (integer to real) is read as real by them too: bind them again over it.
      if (types.some((type, j) => type !== shape.types[j])) shape = { ...collated, columns: shape.columns, types };
      else {
        const tagged = steps.length > 1 || steps.some((step) => workingSource(step) !== 0);
        const recursion = { name, working: workingTableName(name), op, steps: tagged ? steps.map(tag) : steps, tagged, ...bounds };
        return { select, columns, types, ...collated, recursion };
      }
    }
  } finally {
    context.withTables.frames.pop();
  }
}

function optional<K extends string>(key: K, value: Count | undefined): { [P in K]?: Count } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: Count };
}

function checkArm(arm: CompoundArm, op: "union" | "union-all", name: string, misuse: (message: string) => StoreError): void {
  const s = arm.select;
  if (arm.op !== op) throw misuse(`Recursive WITH table "${name}" joins all its recursive selects by one operator (UNION or UNION ALL)`);
  if (s.table !== name && !(s.joins ?? []).some((j) => j.table === name)) {
    throw misuse(`A select after the first recursive select of WITH table "${name}" must read it too: its first rows come from the selects before`);
  }
  checkOuterJoins(s, name, misuse);
  const own = MEMBERS_OF_THE_WHOLE.find((member) => s[member] !== undefined);
  if (own !== undefined) throw misuse(`A recursive select of WITH table "${name}" has a ${own} of its own: the table's compound has one for all`);
}

/**
 * A recursive select reads its table on no side an outer join fills with
 * NULLs. As the right side of a LEFT, RIGHT or FULL join SQLite refuses it
 * ("ON clause references tables to its right"; run row by row, each
 * unmatched row would repeat per queued row). Before a RIGHT or FULL join
 * (its left side) SQLite runs the select once per queued row, adding the
 * joined table's unmatched rows again at each: the steps here run over
 * many queued rows at once and would add them once per run, so it is
 * refused too. Comma, CROSS, USING and NATURAL joins are inner joins.
 */
function checkOuterJoins(s: SelectCommand, name: string, misuse: (message: string) => StoreError): void {
  const joins = s.joins ?? [];
  const at = s.table === name ? 0 : joins.findIndex((j) => j.table === name) + 1;
  const own = at === 0 ? undefined : joins[at - 1]!.type;
  if (own === "left") {
    throw misuse(`A recursive select of WITH table "${name}" reads it as the right side of a LEFT JOIN: read it first (FROM ${name} LEFT JOIN …), as SQLite requires`);
  }
  if (own === "right" || own === "full") {
    throw misuse(`A recursive select of WITH table "${name}" reads it as the right side of a ${own.toUpperCase()} JOIN, which SQLite refuses: read it first (FROM ${name} LEFT JOIN …)`);
  }
  const later = joins.slice(at).find((j) => j.type === "right" || j.type === "full");
  if (later !== undefined) {
    throw misuse(`A recursive select of WITH table "${name}" reads it before a ${later.type.toUpperCase()} JOIN, which would add its unmatched rows again for each queued row: not supported; join ${name} by an inner or LEFT JOIN`);
  }
}

/** One recursive select, bound over the rows it runs over as `shape`. */
function bindStep(select: SelectCommand, frame: WithFrame, shape: TableShape, bind: (cmd: SelectCommand) => SelectPlan, misuse: (message: string) => StoreError): SelectPlan {
  const arm: SelectCommand = { ...select, output: "arrays" };
  frame.arm = arm;
  frame.shape = shape;
  frame.reads = 0;
  let plan: SelectPlan;
  try {
    plan = bind(arm);
  } finally {
    frame.arm = undefined;
    frame.shape = undefined;
  }
  const what = `A recursive select of WITH table "${frame.name}"`;
  if (plan.columns.length !== shape.columns.length) throw misuse(`${what} yields ${plan.columns.length} column(s), its first rows ${shape.columns.length}`);
  if (plan.group !== undefined) throw misuse(`${what} cannot aggregate (GROUP BY, HAVING or an aggregate function), as in SQLite: it runs over one row at a time, not the table`);
  if (plan.window !== undefined) throw misuse(`${what} cannot call a window function, as in SQLite`);
  if (plan.distinct) throw misuse(`${what} cannot be DISTINCT: join it by UNION to keep each row once`);
  return driveFrom(plan, workingSource(plan));
}

/** The type recursive select `step` gives column `j`: none when it carries the column on as it is (its type is the one being found). */
function carriedType(step: SelectPlan, j: number): StaticType {
  const e = step.columns[j]!.expr;
  return e.kind === "column" && e.source === workingSource(step) && e.column === j ? "null" : typeOf(e);
}

/** Where a recursive select reads the rows it runs over. */
function workingSource(plan: SelectPlan): number {
  return plan.sources.findIndex((source) => source.working !== undefined);
}

/** A recursive select that also yields the id of the row it ran over (its working table's hidden last column: `Recursion.tagged`). */
function tag(plan: SelectPlan): SelectPlan {
  const source = workingSource(plan);
  const width = plan.sources[source]!.working!.columns.length;
  const id: OutputColumn = { name: WORKING_ROW, expr: { kind: "column", source, column: width, name: WORKING_ROW, type: "integer" } };
  return { ...plan, columns: [...plan.columns, id] };
}

const WORKING_ROW = "(working row)";
