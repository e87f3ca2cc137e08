/**
 * Outer joins a later condition makes inner (SQLite's and PostgreSQL's
 * outer-join simplification). A join's padded rows — NULLs for its right
 * source (LEFT, FULL) or for every source before it (RIGHT, FULL) — keep
 * those NULLs through every later join. A condition that filters the
 * joined tuples after the join and is never TRUE while those sources are
 * NULL (`o.amount > 10`, `o.id IS NOT NULL`, `o.x = ?`) drops every row
 * the padding made, so the join may leave them out: LEFT becomes inner,
 * RIGHT inner, FULL left, right or inner. The rows that remain are the
 * same rows; the planner then plans the join as the inner (or left) join
 * it is, so WHERE may narrow the first table, key the join and stop it
 * early under a LIMIT.
 *
 * The conditions that filter tuples after join `i`: WHERE's conjuncts, and
 * the ON conjuncts of a later inner or RIGHT join (a tuple no row of that
 * join matches is dropped; a padded tuple matches none, so dropping it
 * earlier changes no match). A FULL or LEFT join's ON drops nothing. Joins
 * are simplified last first, since one made RIGHT or inner filters with
 * its ON the joins before it.
 *
 * Whether a condition can be TRUE is found by evaluating it over what each
 * value may be — NULL, TRUE, FALSE, another value — with the padded
 * columns NULL and everything else anything (`possible`). Exact where SQL
 * is (`x IS NULL`, `x IS y`, `coalesce(x, 0) > 1` and an OR with a branch
 * that may be TRUE may all be TRUE), conservative elsewhere: a function
 * not known to give NULL for a NULL argument, a subquery or a parameter
 * that may be NULL may be anything.
 */

import { assertNever } from "../errors.js";
import type { BoundExpr, FunctionName, JoinStep } from "./plan.js";
import { conjuncts } from "./walk.js";

/** Bits of what a value may be. */
const NULL = 1;
const TRUE = 2;
const FALSE = 4;
/** A value that is neither NULL nor a boolean. */
const OTHER = 8;
const ANY = NULL | TRUE | FALSE | OTHER;
const BOOL = TRUE | FALSE;

/** Functions that are NULL when any argument is NULL (in storedb as in SQLite). */
const STRICT: ReadonlySet<FunctionName> = new Set<FunctionName>([
  "lower", "upper", "length", "octet_length", "trim", "ltrim", "rtrim", "substr", "instr", "abs", "round", "sign", "ceil", "floor", "trunc", "unicode", "max", "min",
  "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cos", "cosh", "degrees", "exp", "ln", "log", "log10", "log2", "mod", "pow", "radians", "sin", "sinh", "sqrt", "tan", "tanh",
]);

/** The joins with each outer join the filters after it make inner (or one-sided) in its place; the same array when none changes. */
export function simplifyOuterJoins(joins: readonly JoinStep[], where: BoundExpr | undefined): readonly JoinStep[] {
  if (joins.every((j) => j.type === "inner")) return joins;
  const out = [...joins];
  const filters = conjuncts(where);
  for (let i = out.length - 1; i >= 0; i--) {
    const j = out[i]!;
    if (j.type !== "inner") {
      const rejects = (padded: (source: number) => boolean): boolean => filters.some((t) => (possible(t, padded) & TRUE) === 0);
      const right = (j.type === "left" || j.type === "full") && rejects((s) => s === j.source);
      const left = (j.type === "right" || j.type === "full") && rejects((s) => s < j.source);
      const type = j.type === "left" ? (right ? "inner" : "left") : j.type === "right" ? (left ? "inner" : "right") : left && right ? "inner" : left ? "left" : right ? "right" : "full";
      if (type !== j.type) out[i] = { ...j, type };
    }
    // This join's ON filters the joins before it once it drops unmatched tuples (inner or RIGHT).
    const now = out[i]!.type;
    if (now === "inner" || now === "right") filters.push(...conjuncts(out[i]!.on));
  }
  return out.every((j, i) => j === joins[i]) ? joins : out;
}

/** What `e` may be when the columns of the sources `padded` accepts are NULL and everything else may be anything. */
export function possible(e: BoundExpr, padded: (source: number) => boolean): number {
  const of = (x: BoundExpr): number => possible(x, padded);
  switch (e.kind) {
    case "column":
      return padded(e.source) ? NULL : ANY;
    case "const":
      return e.value === null ? NULL : e.value === true ? TRUE : e.value === false ? FALSE : OTHER;
    case "param":
      // A plan is bound per parameter types (`param-types.ts`): a typed slot holds a value of that type.
      return e.type === undefined ? ANY : e.type === "null" ? NULL : e.type === "boolean" ? BOOL : OTHER;
    case "compare":
    case "arithmetic":
    case "concat":
      return strict([e.left, e.right], of, e.kind === "compare" ? NULL | BOOL : NULL | OTHER);
    case "negate":
    case "cast":
    case "assert-type":
      return strict([e.expr], of, ANY);
    case "in":
    case "between":
      // NULL IN (…) and NULL BETWEEN … are NULL (the list is never empty); a NULL bound or listed value may be FALSE or NULL.
      return strict([e.expr], of, NULL | BOOL);
    case "like":
    case "glob":
      return strict([e.expr, e.pattern], of, NULL | BOOL);
    // Row values: the first pair is always compared, and a NULL there makes the answer NULL.
    case "row-compare":
      return strict([e.left[0]!, e.right[0]!], of, NULL | BOOL);
    case "row-between":
      return strict([e.expr[0]!], of, NULL | BOOL);
    case "collate":
      // A collation changes how its value compares, not the value.
      return of(e.expr);
    // What its body may be, the row's values being anything.
    case "row-subquery":
      return of(e.body);
    case "function":
      if (STRICT.has(e.name)) return strict(e.args, of, ANY);
      // replace(x, '', NULL) is x: only its text and pattern make it NULL.
      if (e.name === "replace") return strict(e.args.slice(0, 2), of, ANY);
      // The first non-NULL argument, or NULL: one of theirs.
      if (e.name === "coalesce" || e.name === "ifnull") return e.args.reduce((m, a) => m | of(a), 0);
      // nullif(a, b) is a or NULL.
      if (e.name === "nullif") return of(e.args[0]!) | NULL;
      return ANY;
    case "is-null": {
      const m = of(e.expr);
      const yes = (m & NULL ? TRUE : 0) | (m & ~NULL ? FALSE : 0);
      return e.not ? swap(yes) : yes;
    }
    case "is": {
      const l = of(e.left);
      const r = of(e.right);
      let yes = 0;
      if (l & NULL && r & NULL) yes |= TRUE;
      if ((l & NULL && r & ~NULL) || (l & ~NULL && r & NULL)) yes |= FALSE;
      if (l & ~NULL && r & ~NULL) yes |= BOOL;
      return e.not ? swap(yes) : yes;
    }
    case "not":
      return swap(of(e.expr));
    case "and":
      return e.operands.map(of).reduce((a, b) => logic(a, b, and3));
    case "or":
      return e.operands.map(of).reduce((a, b) => logic(a, b, or3));
    case "case":
      // One of its branches, or NULL without ELSE.
      return e.whens.reduce((m, w) => m | of(w.then), e.else === undefined ? NULL : of(e.else));
    case "outer":
    case "row-column":
    case "subquery":
    case "exists":
    case "in-subquery":
    // A NULL in the row value may still meet a FALSE pair in every row.
    case "row-in":
    case "group-key":
    case "aggregate":
    case "window":
      return ANY;
    default:
      return assertNever(e, "expression");
  }
}

/** NULL when an argument is surely NULL, else what the operator may give. */
function strict(args: readonly BoundExpr[], of: (x: BoundExpr) => number, otherwise: number): number {
  return args.some((a) => of(a) === NULL) ? NULL : otherwise;
}

/** TRUE and FALSE exchanged (NOT), NULL kept; another value read as either. */
function swap(m: number): number {
  return (m & NULL) | (m & TRUE ? FALSE : 0) | (m & FALSE ? TRUE : 0) | (m & OTHER ? BOOL : 0);
}

type Three = typeof NULL | typeof TRUE | typeof FALSE;

function and3(a: Three, b: Three): Three {
  if (a === FALSE || b === FALSE) return FALSE;
  return a === NULL || b === NULL ? NULL : TRUE;
}

function or3(a: Three, b: Three): Three {
  if (a === TRUE || b === TRUE) return TRUE;
  return a === NULL || b === NULL ? NULL : FALSE;
}

/** What a two-valued logical operator may give over operands that may be `a` and `b` (another value read as TRUE or FALSE). */
function logic(a: number, b: number, op: (x: Three, y: Three) => Three): number {
  const values = (m: number): Three[] => [NULL, TRUE, FALSE].filter((v) => m & v || (v !== NULL && m & OTHER)) as Three[];
  let out = 0;
  for (const x of values(a)) for (const y of values(b)) out |= op(x, y);
  return out;
}
