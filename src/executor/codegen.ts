/**
 * Compiles bound expressions into JavaScript source, once per plan, turned
 * into functions with `new Function` and cached by source text.
 *
 * Safety rule: generated source never holds user text. Constants (and the
 * result keys of a projection) live in a `c` array passed as an argument and
 * are read by index into locals `cN`; parameters are read from `p` into
 * locals `pN`. A stored row is an id (`r`, or `r[source]` in a join tuple)
 * and its columns are arrays of its table's heap, passed in as `t` (one
 * source's columns, or per source in a join) and read once per call into
 * locals `colN` (`colS_N` per source): a column is `colN[r]`. A row of values
 * (a row to be written: checks, RETURNING) is `r[column]`. Every index is
 * checked to be a safe integer before it is written, and operators come
 * from a fixed table. Because the source depends only on the plan's shape
 * (and which columns hold numbers), two queries differing in literal
 * values share one compiled factory.
 *
 * A number column holds NaN for NULL: read as a value it becomes null
 * (`(x = colN[r]) === x ? x : null`), but a comparison that only needs to
 * know whether it IS TRUE reads it raw, since no `=`, `<`, `<=`, `>`, `>=`
 * with NaN is true — as with a NULL.
 *
 * Three-valued logic: `value()` yields true/false/null; `truth()` yields a
 * plain JS boolean meaning "is TRUE", which is what WHERE and ON need and is
 * cheaper (no temporaries for simple comparisons).
 *
 * Numbers: integer and real share JS numbers, so where the two compute
 * differently (`/`) the static type decides, and a value typed `integer` or
 * `number` counts as an integer only while it is a safe integer (an integer
 * result beyond ±(2^53−1) is a real, CONTRACT §11; an integral parameter is
 * an integer). Helpers the generated code calls — text comparison, division,
 * LIKE, CAST, the functions — come in through `h`, never through the source.
 */

import type { ColumnType, Value } from "../commands/types.js";
import { StoreError, assertNever } from "../errors.js";
import { castValue } from "../planner/casts.js";
import type { BoundExpr, CompareOp, OrderOp, RowCollation, RowSubquery, StaticType, TextCollation } from "../planner/plan.js";
import { typeOf } from "../planner/static-types.js";
import { rowTypeOf } from "../planner/table-functions.js";
import { STRICT_FUNCTIONS, replace, typeName, type StrictFunction, type TypedTextFunction } from "./functions.js";
import { JSON_CALLS, jsonCall } from "./json-codegen.js";
import * as json from "./json-functions.js";
import { printf } from "./printf.js";
import { concat, concatWs, quote } from "./text-functions.js";
import { collationKey, comparer } from "./collation.js";
import { RowList, type ListedValue } from "./row-list.js";
import { compileGlob } from "./glob.js";
import { compileLike, type LikeMatcher } from "./like.js";
import type { SubqueryNode, SubqueryRunner } from "./subquery.js";
import { isNumericType } from "./table-store.js";
import { compareText, compareUntyped } from "./value-order.js";

const NO_FEEDS: readonly Value[] = Object.freeze([]);

/** A value typed only when read (`assert-type`): itself if NULL or of `family`, else `type_mismatch`. */
function checkFamily(value: Value, family: "text" | "number" | "boolean", of: string): Value {
  if (value === null || typeof value === family || (family === "text" && typeof value === "string")) return value;
  const got = typeof value === "string" ? "text" : typeof value;
  throw new StoreError("type_mismatch", `${of} takes ${family === "number" ? "a number" : `a ${family}`}, got ${got} (a value read from JSON)`);
}

/** `a / b` for numbers that are integers or not depending on their values: integer division truncates. */
function divide(a: number, b: number): number | null {
  if (b === 0) return null;
  return Number.isSafeInteger(a) && Number.isSafeInteger(b) ? Math.trunc(a / b) : a / b;
}

/** `a % b` as SQLite: both operands truncated to integers first (a real operand makes the result real, which the type says). */
function remainder(a: number, b: number): number | null {
  const divisor = Math.trunc(b);
  return divisor === 0 ? null : Math.trunc(a) % divisor;
}

/**
 * Compiled LIKE patterns met at run time (a pattern from a column or a
 * parameter), by escape then pattern, so a lookup builds no key; each map
 * drops its oldest entry past the limit.
 */
const likeCache = new Map<string | undefined, Map<string, LikeMatcher>>();
const LIKE_CACHE_LIMIT = 256;

/** GLOB patterns met at run time, as `likeCache`. */
const globCache = new Map<string, LikeMatcher>();

/** `text GLOB pattern` for a pattern known only at run time. */
function glob(text: string, pattern: string): boolean {
  let matcher = globCache.get(pattern);
  if (matcher === undefined) {
    matcher = compileGlob(pattern);
    if (globCache.size >= LIKE_CACHE_LIMIT) globCache.delete(globCache.keys().next().value as string);
    globCache.set(pattern, matcher);
  }
  return matcher.test(text);
}

/** `text LIKE pattern [ESCAPE escape]` for a pattern known only at run time. */
function like(text: string, pattern: string, escape: string | undefined): boolean {
  let patterns = likeCache.get(escape);
  if (patterns === undefined) {
    if (likeCache.size >= LIKE_CACHE_LIMIT) likeCache.delete(likeCache.keys().next().value);
    likeCache.set(escape, (patterns = new Map()));
  }
  let matcher = patterns.get(pattern);
  if (matcher === undefined) {
    matcher = compileLike(pattern, escape);
    if (patterns.size >= LIKE_CACHE_LIMIT) patterns.delete(patterns.keys().next().value as string);
    patterns.set(pattern, matcher);
  }
  return matcher.test(text);
}

/** The sum of a DISTINCT aggregate's values, NULL for none; compensated (Neumaier) for reals, as the other sums. */
function sumOf(values: Iterable<number>, real: boolean): number | null {
  let sum: number | null = null;
  let compensation = 0;
  for (const v of values) {
    if (sum === null) sum = v;
    else if (!real) sum += v;
    else {
      const t: number = sum + v;
      compensation += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
      sum = t;
    }
  }
  return sum === null ? null : sum + compensation;
}

/** The strict functions, by their position in `FUNCTION_ORDER`: generated code calls `h.fn[i]`. */
const FUNCTION_ORDER = Object.keys(STRICT_FUNCTIONS) as StrictFunction[];

/** Helpers generated code may call, passed in as `h`. */
const HELPERS = Object.freeze({
  text: compareText,
  cmp: compareUntyped,
  div: divide,
  mod: remainder,
  like,
  glob,
  cast: (value: Value, from: StaticType, to: ColumnType) => castValue(value, from, to),
  fn: FUNCTION_ORDER.map((name) => STRICT_FUNCTIONS[name]),
  replace,
  typed: { printf, concat, concat_ws: concatWs, quote } satisfies Record<TypedTextFunction, unknown>,
  typeName,
  sum: sumOf,
  num: (v: number): number | null => (v === v ? v : null),
  json,
  need: checkFamily,
});

/**
 * `row`: expressions over one stored row `r` (an id; its heap's columns
 * `t`); `tuple`: over a join tuple `r` of stored rows (their heaps'
 * columns `t[source]`); `values`: over a row of values `r` (not stored);
 * `values-tuple`: over a tuple `r` of such rows; `{ groupKeys: n }`: over
 * a group row `r` — its n key values, then its aggregates' values — or a
 * window row, its n carried values then its window calls' values.
 */
export type RowMode = "row" | "tuple" | "values" | "values-tuple" | { readonly groupKeys: number };

function int(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new StoreError("internal_error", "Invalid index in generated code");
  return String(n);
}

const JS_OP: Record<CompareOp, string> = { "=": "===", "<>": "!==", "<": "<", "<=": "<=", ">": ">", ">=": ">=" };

/**
 * What compiling a query's code needs beyond the expressions: a runner for
 * each subquery it holds (the runners live in the constants, so the
 * generated code calls them without any of their text in its source), and,
 * inside a subquery, where its outer values start among the parameters.
 */
export interface CompileContext {
  readonly runner: (node: SubqueryNode) => SubqueryRunner;
  /** Outer value `i` is parameter `outerBase + i` (the statement's own parameters come first). */
  readonly outerBase: number;
}

export class Codegen {
  readonly consts: unknown[] = [];
  private temps = 0;
  private readonly params = new Set<number>();
  /** Parameters also read as `qN`: NULL replaced by NaN, which no `=`, `<`, `<=`, `>`, `>=` is true for. */
  private readonly nanParams = new Set<number>();
  /** The temporary holding each row subquery's row, by id, where its `row-column`s are compiled. */
  private readonly rows = new Map<number, string>();
  /** Heap columns read, as `[local, source, column]`. */
  private readonly heapColumns = new Map<string, readonly [number, number]>();

  constructor(
    readonly mode: RowMode,
    private readonly context?: CompileContext,
  ) {}

  /**
   * Declares the temporaries, parameter values and heap columns used so
   * far: put it at the top of the generated function, so loops read
   * locals, not `p[i]`.
   */
  declarations(): string {
    return `${this.temporaries()} ${this.parameters()} ${this.columns()}`;
  }

  /** Declares the temporaries used so far (none: nothing). */
  temporaries(): string {
    return this.temps === 0 ? "" : `let ${Array.from({ length: this.temps }, (_, i) => `t${i}`).join(", ")};`;
  }

  /** Declares the parameter values read so far. */
  parameters(): string {
    const parts: string[] = [];
    for (const i of this.params) parts.push(`const p${int(i)} = p[${int(i)}];`);
    for (const i of this.nanParams) parts.push(`const q${int(i)} = p${int(i)} === null ? NaN : p${int(i)};`);
    return parts.join(" ");
  }

  /**
   * Declares the heap columns read so far, taken from `t` as they are now:
   * a heap may replace a column by a longer copy as it grows (`RowHeap`),
   * so code that lives while rows are made — an aggregate a join feeds as
   * it makes its tuples, among them a lateral call's — declares them
   * again at each call, not once for good.
   */
  columns(): string {
    const parts: string[] = [];
    for (const [local, [source, column]] of this.heapColumns) parts.push(`const ${local} = ${this.mode === "tuple" ? `t[${int(source)}]` : "t"}[${int(column)}];`);
    return parts.join(" ");
  }

  /** Binds the constants to locals of the factory (put it before `return function`). */
  constants(): string {
    return this.consts.map((_, i) => `const c${int(i)} = c[${int(i)}];`).join(" ");
  }

  const(value: unknown): string {
    this.consts.push(value);
    return `c${int(this.consts.length - 1)}`;
  }

  temp(): string {
    return `t${int(this.temps++)}`;
  }

  /** A column read as stored: for a number column of a heap, NaN for NULL. */
  private rawColumn(e: Extract<BoundExpr, { kind: "column" }>): string {
    const { source, column } = e;
    const mode = this.mode;
    if (typeof mode === "object") throw new StoreError("internal_error", "Group-mode code cannot read a source column");
    if ((mode === "row" || mode === "values") && source !== 0) throw new StoreError("internal_error", "Row-mode code cannot read a joined source");
    if (mode === "values") return `r[${int(column)}]`;
    if (mode === "values-tuple") return `r[${int(source)}][${int(column)}]`;
    const local = mode === "row" ? `col${int(column)}` : `col${int(source)}_${int(column)}`;
    this.heapColumns.set(local, [source, column]);
    return mode === "row" ? `${local}[r]` : `${local}[r[${int(source)}]]`;
  }

  /** Whether a column is read from a heap's number array (NaN for NULL). */
  private numericColumn(e: BoundExpr): e is Extract<BoundExpr, { kind: "column" }> {
    return e.kind === "column" && (this.mode === "row" || this.mode === "tuple") && isNumericType(e.type);
  }

  /** For a stored number column, its read as stored (NaN for NULL: test it with `x === x`); undefined for any other expression. */
  rawNumber(e: BoundExpr): string | undefined {
    return this.numericColumn(e) ? this.rawColumn(e) : undefined;
  }

  private column(e: Extract<BoundExpr, { kind: "column" }>): string {
    const raw = this.rawColumn(e);
    if (!this.numericColumn(e)) return raw;
    return `h.num(${raw})`;
  }

  private nanParam(index: number): string {
    this.params.add(index);
    this.nanParams.add(index);
    return `q${int(index)}`;
  }

  private isLeaf(e: BoundExpr): boolean {
    return e.kind === "const" || e.kind === "param" || e.kind === "column";
  }

  /** `a op b` for two non-null operands, by their static types; texts in `collation` when it is given. */
  private compareCode(op: CompareOp, left: BoundExpr, right: BoundExpr, a: string, b: string, collation?: TextCollation): string {
    if (collation !== undefined) return `${this.collated(collation)}(${a}, ${b}) ${JS_OP[op]} 0`;
    const lt = typeOf(left);
    const rt = typeOf(right);
    if (lt === "unknown" && rt === "unknown") return `h.cmp(${a}, ${b}) ${JS_OP[op]} 0`;
    if (op === "=" || op === "<>") return `${a} ${JS_OP[op]} ${b}`;
    if (lt === "text" || rt === "text") return `h.text(${a}, ${b}) ${JS_OP[op]} 0`;
    return `${a} ${JS_OP[op]} ${b}`;
  }

  /** The comparer of two non-NULL values in `collation`, as a constant (one per collation and compile). */
  private collated(collation: TextCollation): string {
    return this.const(comparer(collation));
  }

  /** JS for the expression's SQL value: a Value, with NULL as `null`. */
  value(e: BoundExpr): string {
    switch (e.kind) {
      case "const":
        return this.const(e.value);
      case "param":
        this.params.add(e.index);
        return `p${int(e.index)}`;
      case "column":
        return this.column(e);
      case "compare": {
        const a = this.temp();
        const b = this.temp();
        return `((${a} = ${this.value(e.left)}) === null || (${b} = ${this.value(e.right)}) === null ? null : ${this.compareCode(e.op, e.left, e.right, a, b, e.collation)})`;
      }
      case "is-null":
        return `(${this.value(e.expr)} ${e.not ? "!==" : "==="} null)`;
      case "is": {
        // Values are JS primitives with NULL as null, so strict equality is SQL's null-safe IS (1 and 1.0 are one number).
        if (e.collation === undefined) return `(${this.value(e.left)} ${e.not ? "!==" : "==="} ${this.value(e.right)})`;
        const [a, b] = [this.temp(), this.temp()];
        // Both sides read first: NULL IS NULL needs the right side's value when the left is NULL.
        const equal = `((${a} = ${this.value(e.left)}), (${b} = ${this.value(e.right)}), ${a} === null || ${b} === null ? ${a} === ${b} : ${this.compareCode("=", e.left, e.right, a, b, e.collation)})`;
        return e.not ? `!${equal}` : equal;
      }
      case "and":
      case "or": {
        // AND: any FALSE → FALSE, else any NULL → NULL, else TRUE. OR is the dual.
        const decisive = e.kind === "and" ? "false" : "true";
        const temps = e.operands.map(() => this.temp());
        const tests = e.operands.map((o, i) => `(${temps[i]} = ${this.value(o)}) === ${decisive}`).join(" || ");
        const nulls = temps.map((t) => `${t} === null`).join(" || ");
        return `(${tests} ? ${decisive} : ${nulls} ? null : ${e.kind === "and" ? "true" : "false"})`;
      }
      case "not":
        return this.not3(this.value(e.expr));
      case "arithmetic":
        return this.arithmetic(e);
      case "concat": {
        const [a, b] = [this.temp(), this.temp()];
        return `((${a} = ${this.value(e.left)}) === null || (${b} = ${this.value(e.right)}) === null ? null : ${a} + ${b})`;
      }
      case "negate": {
        const t = this.temp();
        return `((${t} = ${this.value(e.expr)}) === null ? null : -${t})`;
      }
      case "in":
        return this.inList(e);
      case "between": {
        const [x, lo, hi, a, b] = [this.temp(), this.temp(), this.temp(), this.temp(), this.temp()];
        const ge = this.compareCode(">=", e.expr, e.low, x, lo, e.lowCollation);
        const le = this.compareCode("<=", e.expr, e.high, x, hi, e.highCollation);
        // x >= low AND x <= high, three-valued; NOT BETWEEN is its negation.
        const both = `((${lo} = ${this.value(e.low)}), (${hi} = ${this.value(e.high)}), (${a} = ${lo} === null ? null : ${ge}), (${b} = ${hi} === null ? null : ${le}), ${a} === false || ${b} === false ? false : ${a} === null || ${b} === null ? null : true)`;
        const result = e.not ? this.not3(both) : both;
        return `((${x} = ${this.value(e.expr)}) === null ? null : ${result})`;
      }
      case "like":
        return this.like(e);
      case "glob":
        return this.glob(e);
      case "collate":
        return this.value(e.expr);
      case "case":
        return this.caseExpr(e);
      case "cast": {
        const t = this.temp();
        return `((${t} = ${this.value(e.expr)}) === null ? null : h.cast(${t}, ${this.const(typeOf(e.expr))}, ${this.const(e.to)}))`;
      }
      case "function":
        return this.call(e);
      case "assert-type":
        if (e.document === true) {
          const type = rowTypeOf(e.expr);
          return `h.json.cellDocument(${this.value(e.expr)}, ${type === undefined ? "null" : this.value(type)})`;
        }
        return `h.need(${this.value(e.expr)}, ${this.const(e.type)}, ${this.const(e.of)})`;
      case "group-key":
        return `r[${int(e.index)}]`;
      case "aggregate":
      case "window":
        return `r[${int(this.groupKeys() + e.index)}]`;
      case "outer": {
        if (this.context === undefined) throw new StoreError("internal_error", "A subquery's outer value needs a compile context");
        const index = this.context.outerBase + e.index;
        this.params.add(index);
        return `p${int(index)}`;
      }
      case "subquery":
        return `${this.runner(e)}.scalar(p, ${this.feeds(e.outer)}, ${int(e.column ?? 0)})`;
      case "exists":
        return `${this.runner(e)}.exists(p, ${this.feeds(e.outer)})`;
      case "row-subquery": {
        // The row once, into a temporary its body's row-columns read.
        const run = this.rowSubquery(e);
        const body = this.value(e.body);
        this.rows.delete(e.id);
        return `(${run}, ${body})`;
      }
      case "row-column": {
        const row = this.rows.get(e.id);
        if (row === undefined) throw new StoreError("internal_error", `A row-column reads row subquery ${e.id}, which does not enclose it`);
        return `(${row}[${int(e.column)}] ?? null)`;
      }
      case "in-subquery": {
        if (e.exprs.length === 1) return `${this.runner(e)}.contains(p, ${this.value(e.exprs[0]!)}, ${this.feeds(e.outer)})`;
        // A row value: its values go into one array made with the code (the runner reads them at once), so a row allocates none.
        const scratch = this.const(e.exprs.map(() => null));
        const fill = e.exprs.map((x, i) => `${scratch}[${int(i)}] = ${this.value(x)}`).join(", ");
        return `(${fill}, ${this.runner(e)}.containsRow(p, ${scratch}, ${this.feeds(e.outer)}))`;
      }
      case "row-compare":
        return this.lexicographic(
          e.op,
          e.left.map((x) => this.value(x)),
          e.left,
          e.right,
          e.collations,
        );
      case "row-in":
        return this.rowInList(e);
      case "row-between": {
        // The row's values once, for both comparisons.
        const xs = e.expr.map(() => this.temp());
        const [ge, le] = [this.temp(), this.temp()];
        const first = e.expr.map((x, i) => `(${xs[i]} = ${this.value(x)})`).join(", ");
        const low = this.lexicographic(">=", xs, e.expr, e.low, e.lowCollations);
        const high = this.lexicographic("<=", xs, e.expr, e.high, e.highCollations);
        const both = `((${ge} = ${low}) === false || (${le} = ${high}) === false ? false : ${ge} === null || ${le} === null ? null : true)`;
        return `(${first}, ${e.not ? this.not3(both) : both})`;
      }
      default:
        return assertNever(e, "expression");
    }
  }

  /** SQL's three-valued NOT of `code`'s answer: NULL stays NULL. */
  private not3(code: string): string {
    const t = this.temp();
    return `((${t} = ${code}) === null ? null : !${t})`;
  }

  /**
   * Row values `left op right` in order (`left` as code: the values, or
   * temporaries holding them): each pair but the last decides by `op`
   * without its equality unless equal, the last by `op`; a NULL in a pair
   * reached makes the answer NULL. Flat code (an `&&` chain), however long the row.
   */
  private lexicographic(op: OrderOp, left: readonly string[], leftExprs: readonly BoundExpr[], right: readonly BoundExpr[], collations: readonly RowCollation[] | undefined): string {
    const result = this.temp();
    const strict: CompareOp = op === "<" || op === "<=" ? "<" : ">";
    const last = right.length - 1;
    const steps: string[] = [];
    let decide = "";
    for (let i = 0; i <= last; i++) {
      const [a, b] = [this.temp(), this.temp()];
      const collation = collations?.[i] ?? undefined;
      const l = leftExprs[i]!;
      const r = right[i]!;
      const nulls = `(${a} = ${left[i]}) === null || (${b} = ${this.value(r)}) === null`;
      if (i === last) decide = `(${nulls} ? null : ${this.compareCode(op, l, r, a, b, collation ?? undefined)})`;
      // Equal: go on (true); else the answer is in `result` (false ends the chain).
      else steps.push(`(${nulls} ? (${result} = null, false) : ${this.compareCode("=", l, r, a, b, collation ?? undefined)} || (${result} = ${this.compareCode(strict, l, r, a, b, collation ?? undefined)}, false))`);
    }
    return steps.length === 0 ? decide : `(${steps.join(" && ")} ? ${decide} : ${result})`;
  }

  /**
   * `(a, b) [NOT] IN ((x1, y1), …)`: the row value's values once, then each
   * row's `=` with them (three-valued AND of its pairs), OR'ed three-valued.
   */
  private rowInList(e: Extract<BoundExpr, { kind: "row-in" }>): string {
    const lookup = this.rowListLookup(e);
    if (lookup !== undefined) return lookup;
    const xs = e.exprs.map(() => this.temp());
    const first = e.exprs.map((x, i) => `(${xs[i]} = ${this.value(x)})`).join(", ");
    const rowTemps = e.rows.map(() => this.temp());
    const rows = e.rows.map((row) => {
      const pairTemps = row.map(() => this.temp());
      const pairs = row.map((v, i) => {
        const t = this.temp();
        const equal = this.compareCode("=", e.exprs[i]!, v, xs[i]!, t, e.collations?.[i] ?? undefined);
        return `(${pairTemps[i]} = (${t} = ${this.value(v)}) === null || ${xs[i]} === null ? null : ${equal}) === false`;
      });
      return `(${pairs.join(" || ")} ? false : ${pairTemps.map((t) => `${t} === null`).join(" || ")} ? null : true)`;
    });
    const any = `(${rows.map((r, k) => `(${rowTemps[k]} = ${r}) === true`).join(" || ")} ? true : ${rowTemps.map((t) => `${t} === null`).join(" || ")} ? null : false)`;
    return `(${first}, ${e.not ? this.not3(any) : any})`;
  }

  /**
   * A list of rows of constants and parameters, the row value's types known
   * (as `inList`'s Set of constants): one `RowList` lookup, the row value's
   * values (their collation keys where a pair has one) in one array made
   * with the code, so a row allocates none.
   */
  private rowListLookup(e: Extract<BoundExpr, { kind: "row-in" }>): string | undefined {
    if (e.exprs.some((x) => typeOf(x) === "unknown")) return undefined;
    const listed = (v: BoundExpr): v is ListedValue => v.kind === "const" || v.kind === "param";
    if (!e.rows.every((row) => row.every(listed))) return undefined;
    const keys = e.exprs.map((_, i) => {
      const collation = e.collations?.[i] ?? null;
      return collation === null ? undefined : collationKey(collation);
    });
    const list = this.const(new RowList(e.rows as readonly (readonly ListedValue[])[], keys));
    const scratch = this.const(e.exprs.map(() => null));
    const fill = e.exprs.map((x, i) => {
      const key = keys[i];
      if (key === undefined) return `${scratch}[${int(i)}] = ${this.value(x)}`;
      const t = this.temp();
      return `${scratch}[${int(i)}] = (${t} = ${this.value(x)}) === null ? null : ${this.const(key)}(${t})`;
    });
    const test = `${list}.test(p, ${scratch})`;
    return `(${fill.join(", ")}, ${e.not ? this.not3(test) : test})`;
  }

  /**
   * Code running `node` into a temporary (its row, or no values for none)
   * that `row-column`s of its id then read: a `row-subquery`'s body, or an
   * update's assignments (`assign.ts`).
   */
  rowSubquery(node: RowSubquery): string {
    const row = this.temp();
    this.rows.set(node.id, row);
    return `(${row} = ${this.runner(node)}.row(p, ${this.feeds(node.outer)}))`;
  }

  private runner(node: SubqueryNode): string {
    if (this.context === undefined) throw new StoreError("internal_error", "A subquery needs a compile context");
    return this.const(this.context.runner(node));
  }

  /** A subquery's outer values for the row at hand, as an array (a shared empty one when it reads none). */
  private feeds(outer: readonly BoundExpr[]): string {
    return outer.length === 0 ? this.const(NO_FEEDS) : `[${outer.map((e) => this.value(e)).join(", ")}]`;
  }

  private groupKeys(): number {
    if (typeof this.mode !== "object") throw new StoreError("internal_error", "Only group-mode code reads a group");
    return this.mode.groupKeys;
  }

  /** A number operand as an integer: statically for a real (never), else only while its value is a safe integer. */
  private arithmetic(e: Extract<BoundExpr, { kind: "arithmetic" }>): string {
    const [a, b] = [this.temp(), this.temp()];
    const operands = `(${a} = ${this.value(e.left)}) === null || (${b} = ${this.value(e.right)}) === null ? null`;
    switch (e.op) {
      case "+":
      case "-":
      case "*":
        return `(${operands} : ${a} ${e.op} ${b})`;
      case "/":
        // A real on either side makes it real division; otherwise the values decide.
        return e.type === "real" ? `(${operands} : ${b} === 0 ? null : ${a} / ${b})` : `(${operands} : h.div(${a}, ${b}))`;
      case "%":
        return `(${operands} : h.mod(${a}, ${b}))`;
      default:
        return assertNever(e.op, "arithmetic operator");
    }
  }

  /**
   * `x IN (v, ...)`: TRUE when x equals one of them, else NULL when x or one
   * of them is NULL, else FALSE. Non-NULL constants of a known type become
   * one Set lookup.
   */
  private inList(e: Extract<BoundExpr, { kind: "in" }>): string {
    const x = this.temp();
    const negate = (code: string): string => (e.not ? this.not3(code) : code);
    const known = typeOf(e.expr) !== "unknown";
    if (known && e.values.every((v) => v.kind === "const" && v.value !== null)) {
      const values = e.values.map((v) => (v as Extract<BoundExpr, { kind: "const" }>).value);
      if (e.collation === undefined) return negate(`((${x} = ${this.value(e.expr)}) === null ? null : ${this.const(new Set(values))}.has(${x}))`);
      // In a collation, the values and the operand meet by their keys.
      const key = collationKey(e.collation);
      return negate(`((${x} = ${this.value(e.expr)}) === null ? null : ${this.const(new Set(values.map(key)))}.has(${this.const(key)}(${x})))`);
    }
    const temps = e.values.map(() => this.temp());
    const tests = e.values.map((v, i) => `((${temps[i]} = ${this.value(v)}) !== null && ${this.compareCode("=", e.expr, v, x, temps[i]!, e.collation)})`).join(" || ");
    const nulls = temps.map((t) => `${t} === null`).join(" || ");
    return negate(`((${x} = ${this.value(e.expr)}) === null ? null : ${tests} ? true : ${nulls} ? null : false)`);
  }

  private like(e: Extract<BoundExpr, { kind: "like" }>): string {
    const [text, pattern, escape] = [this.temp(), this.temp(), this.temp()];
    const constant = e.pattern.kind === "const" && (e.escape === undefined || e.escape.kind === "const");
    let test: string;
    let operands = `(${text} = ${this.value(e.expr)}) === null`;
    if (constant) {
      const p = (e.pattern as Extract<BoundExpr, { kind: "const" }>).value;
      const esc = e.escape === undefined ? undefined : (e.escape as Extract<BoundExpr, { kind: "const" }>).value;
      if (p === null || esc === null) return "null";
      test = `${this.const(compileLike(p as string, esc as string | undefined))}.test(${text})`;
    } else {
      operands += ` || (${pattern} = ${this.value(e.pattern)}) === null`;
      if (e.escape !== undefined) operands += ` || (${escape} = ${this.value(e.escape)}) === null`;
      test = `h.like(${text}, ${pattern}, ${e.escape === undefined ? "undefined" : escape})`;
    }
    return `(${operands} ? null : ${e.not ? "!" : ""}${test})`;
  }

  /** `text [NOT] GLOB pattern`: a constant pattern compiled once, else through the run-time cache. */
  private glob(e: Extract<BoundExpr, { kind: "glob" }>): string {
    const [text, pattern] = [this.temp(), this.temp()];
    const not = e.not ? "!" : "";
    if (e.pattern.kind === "const") {
      if (e.pattern.value === null) return "null";
      return `((${text} = ${this.value(e.expr)}) === null ? null : ${not}${this.const(compileGlob(e.pattern.value as string))}.test(${text}))`;
    }
    return `((${text} = ${this.value(e.expr)}) === null || (${pattern} = ${this.value(e.pattern)}) === null ? null : ${not}h.glob(${text}, ${pattern}))`;
  }

  /** Searched CASE: the first WHEN that IS TRUE; simple CASE: the first WHEN equal to the operand (never when either is NULL). */
  private caseExpr(e: Extract<BoundExpr, { kind: "case" }>): string {
    const otherwise = e.else === undefined ? "null" : this.value(e.else);
    if (e.operand === undefined) {
      return `(${e.whens.map((w) => `${this.truth(w.when)} ? ${this.value(w.then)} : `).join("")}${otherwise})`;
    }
    const [o, w] = [this.temp(), this.temp()];
    const operand = e.operand;
    const arms = e.whens.map((arm) => `(${o} !== null && (${w} = ${this.value(arm.when)}) !== null && ${this.compareCode("=", operand, arm.when, o, w, arm.collation)}) ? ${this.value(arm.then)} : `);
    return `((${o} = ${this.value(operand)}), ${arms.join("")}${otherwise})`;
  }

  private call(e: Extract<BoundExpr, { kind: "function" }>): string {
    if (JSON_CALLS.has(e.name)) return jsonCall(this, e);
    switch (e.name) {
      case "coalesce":
      case "ifnull": {
        const t = this.temp();
        const last = e.args.length - 1;
        return `(${e.args.map((a, i) => (i === last ? this.value(a) : `(${t} = ${this.value(a)}) !== null ? ${t} : `)).join("")})`;
      }
      case "replace":
        return `h.replace(${e.args.map((a) => this.value(a)).join(", ")})`;
      case "nullif": {
        const [a, b] = [this.temp(), this.temp()];
        const [left, right] = e.args as [BoundExpr, BoundExpr];
        return `((${a} = ${this.value(left)}) === null ? null : (${b} = ${this.value(right)}) !== null && ${this.compareCode("=", left, right, a, b)} ? null : ${a})`;
      }
      case "typeof": {
        const arg = e.args[0]!;
        return `h.typeName(${this.value(arg)}, ${typeOf(arg) === "real" ? "true" : "false"})`;
      }
      case "printf":
      case "concat":
      case "concat_ws":
      case "quote":
        return `h.typed.${e.name}(${[this.const(e.args.map(typeOf)), ...e.args.map((a) => this.value(a))].join(", ")})`;
      default: {
        const call = `h.fn[${int(FUNCTION_ORDER.indexOf(e.name as StrictFunction))}]`;
        if (e.args.length === 0) return `${call}()`;
        const temps = e.args.map(() => this.temp());
        const nulls = e.args.map((a, i) => `(${temps[i]} = ${this.value(a)}) === null`).join(" || ");
        return `(${nulls} ? null : ${call}(${temps.join(", ")}))`;
      }
    }
  }

  /** JS for "the expression IS TRUE": a plain boolean. */
  truth(e: BoundExpr): string {
    switch (e.kind) {
      case "const":
      case "param":
      case "column":
        return `(${this.value(e)} === true)`;
      case "compare": {
        if (this.isLeaf(e.left) && this.isLeaf(e.right) && e.collation === undefined) {
          const untyped = typeOf(e.left) === "unknown" && typeOf(e.right) === "unknown";
          const numeric = !untyped && (e.op === "=" || (typeOf(e.left) !== "text" && typeOf(e.right) !== "text"));
          if (e.op !== "<>" && numeric) {
            // A parameter as NaN when NULL, a number column as stored: no comparison with NaN is true, so no NULL test is needed.
            const nan = (x: BoundExpr): string | undefined => (x.kind === "param" ? this.nanParam(x.index) : this.numericColumn(x) ? this.rawColumn(x) : undefined);
            const qa = nan(e.left);
            const qb = nan(e.right);
            if (qa !== undefined || qb !== undefined) {
              const a = qa ?? this.value(e.left);
              const b = qb ?? this.value(e.right);
              // `=` is false against NULL anyway; an ordering needs a non-parameter side that may be NULL tested (JS has null < 1).
              const nullable = (x: BoundExpr, code: string | undefined): boolean => code === undefined && !(x.kind === "const" && x.value !== null);
              const guards = e.op === "=" ? [] : [nullable(e.left, qa) ? `${a} !== null` : "", nullable(e.right, qb) ? `${b} !== null` : ""];
              return `(${[...guards.filter((g) => g !== ""), `${a} ${JS_OP[e.op]} ${b}`].join(" && ")})`;
            }
          }
          const a = this.value(e.left);
          const b = this.value(e.right);
          // `x === c` with a non-null constant c is already false for NULL x: no NULL test needed.
          const leftSafe = e.left.kind === "const" && e.left.value !== null;
          const rightSafe = e.right.kind === "const" && e.right.value !== null;
          if (e.op === "=" && (leftSafe || rightSafe)) return `(${a} === ${b})`;
          const guards = [leftSafe ? "" : `${a} !== null`, rightSafe ? "" : `${b} !== null`].filter((g) => g !== "");
          return `(${[...guards, this.compareCode(e.op, e.left, e.right, a, b)].join(" && ")})`;
        }
        return `(${this.value(e)} === true)`;
      }
      case "is-null":
        return this.value(e);
      case "and":
        return `(${e.operands.map((o) => this.truth(o)).join(" && ")})`;
      case "or":
        return `(${e.operands.map((o) => this.truth(o)).join(" || ")})`;
      case "not":
        return `(${this.value(e.expr)} === false)`;
      case "is":
        return this.value(e);
      case "collate":
        return this.truth(e.expr);
      case "arithmetic":
      case "concat":
      case "negate":
      case "in":
      case "between":
      case "like":
      case "glob":
      case "case":
      case "cast":
      case "function":
      case "assert-type":
      case "group-key":
      case "aggregate":
      case "window":
      case "outer":
      case "subquery":
      case "exists":
      case "in-subquery":
      case "row-subquery":
      case "row-column":
      case "row-compare":
      case "row-between":
      case "row-in":
        return `(${this.value(e)} === true)`;
      default:
        return assertNever(e, "expression");
    }
  }
}

type Factory = (c: readonly unknown[], h: typeof HELPERS) => unknown;

const FACTORY_LIMIT = 512;
const factories = new Map<string, Factory>();

/**
 * Turns generated source (the body of a function of `c` and `h` that returns
 * the compiled function) into a function bound to its constants. Factories
 * are cached by source, least recently used dropped first.
 */
export function instantiate<F>(source: string, consts: readonly unknown[]): F {
  let factory = factories.get(source);
  if (factory) {
    factories.delete(source);
  } else {
    factory = new Function("c", "h", `"use strict";\n${source}`) as Factory;
    if (factories.size >= FACTORY_LIMIT) factories.delete(factories.keys().next().value as string);
  }
  factories.set(source, factory);
  return factory(consts, HELPERS) as F;
}

/** `(r, p, t) → Value`; `t`: the heap columns of `r` (see `RowMode`). */
export type ValueFn = (r: never, p: readonly Value[], t?: unknown) => Value;
/** `(r, p, t) → boolean`: the expression IS TRUE. */
export type PredicateFn = (r: never, p: readonly Value[], t?: unknown) => boolean;

export function compileValue(e: BoundExpr, mode: RowMode, context?: CompileContext): ValueFn {
  const g = new Codegen(mode, context);
  const body = g.value(e);
  return instantiate(`${g.constants()} return function value(r, p, t) { ${g.declarations()} return ${body}; };`, g.consts);
}

export function compilePredicate(e: BoundExpr, mode: RowMode, context?: CompileContext): PredicateFn {
  const g = new Codegen(mode, context);
  const body = g.truth(e);
  return instantiate(`${g.constants()} return function predicate(r, p, t) { ${g.declarations()} return ${body}; };`, g.consts);
}
