/**
 * The scalar functions of CONTRACT §11 as the binder sees them: how many
 * arguments each takes, which family each argument must be, and the type of
 * the result. The executor implements the same names (`executor/functions.ts`,
 * a table typed by `FunctionName`, so a name added here without an
 * implementation does not compile).
 *
 * Names are case-insensitive on every surface (`LOWER(x)` is `lower(x)`).
 * Semantics follow SQLite's built-ins: `lower`/`upper` change ASCII letters
 * only, lengths and positions count characters (code points), `round`
 * returns a real, `sign` an integer, and `ceil`/`floor`/`trunc` keep an
 * integer an integer. `iif` is no entry here: it is CASE (`bind-expr.ts`),
 * as in SQLite, which compiles it to the same code; nor are the planner
 * hints `likely`, `unlikely` and `likelihood` (`HINTS`), which are their
 * argument.
 */

import type { BoundExpr, FunctionName, StaticType } from "./plan.js";
import { numericType, unify, type Family } from "./static-types.js";

/**
 * What an argument may be: one family, anything (typeof), a time value (a
 * text or a number: a Julian day, or seconds with 'unixepoch'), or the
 * right operand of `->`/`->>` (a text path or key, or a number index), or
 * a JSON document (a text, or a value a table function read, taken as its
 * JSON text: `json_extract(value, '$.x')`).
 */
export type ArgKind = Family | "any" | "time" | "path" | "json";

interface Signature {
  readonly min: number;
  /** `Infinity` for coalesce and char. */
  readonly max: number;
  /**
   * The kind of each argument by position (the last `repeat` repeat), or `same`: all arguments of one
   * family, whichever it is (coalesce, ifnull, nullif).
   */
  readonly args: readonly ArgKind[] | "same";
  /** How many of the last `args` repeat as a group (default 1): json_object's name and value; the count past the others must be a multiple. */
  readonly repeat?: number;
  readonly result: (args: readonly StaticType[], name: string, bound: readonly BoundExpr[]) => StaticType;
  /**
   * The result's type rests on the values of text arguments written as
   * constants (unixepoch's 'subsec'): the JSON plan cache keeps them in the
   * command and its shape instead of making them slots (`parameterize.ts`).
   */
  readonly typedByText?: true;
}

const text = (): StaticType => "text";
const integer = (): StaticType => "integer";

export const FUNCTIONS: Readonly<Record<FunctionName, Signature>> = {
  lower: { min: 1, max: 1, args: ["text"], result: text },
  upper: { min: 1, max: 1, args: ["text"], result: text },
  length: { min: 1, max: 1, args: ["text"], result: integer },
  trim: { min: 1, max: 2, args: ["text", "text"], result: text },
  ltrim: { min: 1, max: 2, args: ["text", "text"], result: text },
  rtrim: { min: 1, max: 2, args: ["text", "text"], result: text },
  substr: { min: 2, max: 3, args: ["text", "number", "number"], result: text },
  replace: { min: 3, max: 3, args: ["text", "text", "text"], result: text },
  instr: { min: 2, max: 2, args: ["text", "text"], result: integer },
  abs: { min: 1, max: 1, args: ["number"], result: (args) => numericType(args) },
  round: { min: 1, max: 2, args: ["number", "number"], result: () => "real" },
  coalesce: { min: 2, max: Infinity, args: "same", result: (args, name) => unify(args, `${name}()`) },
  ifnull: { min: 2, max: 2, args: "same", result: (args, name) => unify(args, `${name}()`) },
  nullif: { min: 2, max: 2, args: "same", result: nullifType },
  typeof: { min: 1, max: 1, args: ["any"], result: text },
  sign: { min: 1, max: 1, args: ["number"], result: integer },
  ceil: { min: 1, max: 1, args: ["number"], result: (args) => numericType(args) },
  floor: { min: 1, max: 1, args: ["number"], result: (args) => numericType(args) },
  trunc: { min: 1, max: 1, args: ["number"], result: (args) => numericType(args) },
  char: { min: 0, max: Infinity, args: ["number"], result: text },
  unicode: { min: 1, max: 1, args: ["text"], result: integer },
  hex: { min: 1, max: 1, args: ["text"], result: text },
  // Bytes of the text's UTF-8 form; a number is refused as length() refuses it (SQLite measures its text form).
  octet_length: { min: 1, max: 1, args: ["text"], result: integer },
  // SQLite's date and time functions: a time value (none: 'now'), then modifiers.
  date: { min: 0, max: Infinity, args: ["time", "text"], result: text },
  time: { min: 0, max: Infinity, args: ["time", "text"], result: text },
  datetime: { min: 0, max: Infinity, args: ["time", "text"], result: text },
  julianday: { min: 0, max: Infinity, args: ["time", "text"], result: () => "real" },
  unixepoch: { min: 0, max: Infinity, args: ["time", "text"], result: (_, __, bound) => unixepochType(bound), typedByText: true },
  strftime: { min: 1, max: Infinity, args: ["text", "time", "text"], result: text },
  // SQLite's JSON functions over text documents (`executor/json-functions.ts`). One path extracts a value typed when it is read.
  json: { min: 1, max: 1, args: ["json"], result: text },
  json_valid: { min: 1, max: 2, args: ["json", "number"], result: () => "boolean" },
  json_extract: { min: 2, max: Infinity, args: ["json", "text"], result: (args) => (args.length === 2 ? "unknown" : "text") },
  json_type: { min: 1, max: 2, args: ["json", "text"], result: text },
  json_array_length: { min: 1, max: 2, args: ["json", "text"], result: integer },
  json_array: { min: 0, max: Infinity, args: ["any"], result: text },
  json_object: { min: 0, max: Infinity, args: ["text", "any"], repeat: 2, result: text },
  json_quote: { min: 1, max: 1, args: ["any"], result: text },
  json_set: { min: 1, max: Infinity, args: ["json", "text", "any"], repeat: 2, result: text },
  json_insert: { min: 1, max: Infinity, args: ["json", "text", "any"], repeat: 2, result: text },
  json_replace: { min: 1, max: Infinity, args: ["json", "text", "any"], repeat: 2, result: text },
  json_remove: { min: 1, max: Infinity, args: ["json", "text"], result: text },
  json_patch: { min: 2, max: 2, args: ["json", "json"], result: text },
  "->": { min: 2, max: 2, args: ["json", "path"], result: text },
  "->>": { min: 2, max: 2, args: ["json", "path"], result: () => "unknown" },
  // With two arguments or more min and max compare their arguments; with one they are the aggregates.
  max: { min: 2, max: Infinity, args: "same", result: (args, name) => unify(args, `${name}()`) },
  min: { min: 2, max: Infinity, args: "same", result: (args, name) => unify(args, `${name}()`) },
  printf: { min: 1, max: Infinity, args: ["text", "any"], result: text },
  concat: { min: 1, max: Infinity, args: ["any"], result: text },
  concat_ws: { min: 2, max: Infinity, args: ["text", "any"], result: text },
  quote: { min: 1, max: 1, args: ["any"], result: text },
  random: { min: 0, max: 0, args: [], result: integer },
  acos: mathOf(1),
  acosh: mathOf(1),
  asin: mathOf(1),
  asinh: mathOf(1),
  atan: mathOf(1),
  atan2: mathOf(2),
  atanh: mathOf(1),
  cos: mathOf(1),
  cosh: mathOf(1),
  degrees: mathOf(1),
  exp: mathOf(1),
  ln: mathOf(1),
  log: { min: 1, max: 2, args: ["number"], result: () => "real" },
  log10: mathOf(1),
  log2: mathOf(1),
  mod: mathOf(2),
  pi: mathOf(0),
  pow: mathOf(2),
  radians: mathOf(1),
  sin: mathOf(1),
  sinh: mathOf(1),
  sqrt: mathOf(1),
  tan: mathOf(1),
  tanh: mathOf(1),
};

/** A math function of `n` numbers, whose answer is always a real (as SQLite's: `pow(2, 2)` is 4.0). */
function mathOf(n: number): Signature {
  return { min: n, max: n, args: ["number"], result: () => "real" };
}

/** The functions whose text result is JSON (SQLite's JSON subtype): a JSON builder takes it in as JSON, not as a string. */
export const JSON_RESULT: ReadonlySet<FunctionName> = new Set(["json", "json_array", "json_object", "json_quote", "json_set", "json_insert", "json_replace", "json_remove", "json_patch", "->"]);

/** The kind of argument `i` of a call of `signature`: positions past `args` take its last `repeat` kinds in turn. */
export function argKind(signature: Signature, i: number): ArgKind {
  const kinds = signature.args as readonly ArgKind[];
  if (i < kinds.length) return kinds[i]!;
  const repeat = signature.repeat ?? 1;
  return kinds[kinds.length - repeat + ((i - kinds.length) % repeat)]!;
}

const SUBSEC = new Set(["subsec", "subsecond"]);

const TIME_FUNCTIONS: ReadonlySet<FunctionName> = new Set(["date", "time", "datetime", "julianday", "unixepoch", "strftime"]);
/** Arguments that make a date function read the clock or the process's time zone ('subsec' too, as a time value). */
const UNSTEADY = new Set(["now", "localtime", "utc"]);

/**
 * Whether a call reads the clock or the time zone, as written: no time
 * value ('now'), or a constant 'now', 'localtime' or 'utc'. A CHECK must
 * not (SQLite refuses the same): its answer would change after the row is
 * written, and a file that was valid would no longer load.
 */
export function readsClock(e: BoundExpr): boolean {
  if (e.kind !== "function" || !TIME_FUNCTIONS.has(e.name)) return false;
  if (e.args.length === (e.name === "strftime" ? 1 : 0)) return true;
  const timeAt = e.name === "strftime" ? 1 : 0;
  return e.args.some((a, i) => {
    if (a.kind !== "const" || typeof a.value !== "string") return false;
    const word = a.value.trim().toLowerCase();
    return UNSTEADY.has(word) || (i === timeAt && SUBSEC.has(word));
  });
}

/**
 * unixepoch() counts whole seconds unless 'subsec' asks for milliseconds (a
 * real). Written as constants, the arguments say which; one from a column
 * or parameter — the time value too, which may itself be 'subsec' — may or
 * may not be, so the result is then a number whose value decides
 * (integral: an integer). Hence `typedByText`.
 */
function unixepochType(args: readonly BoundExpr[]): StaticType {
  const isSubsec = (e: BoundExpr): boolean => e.kind === "const" && typeof e.value === "string" && SUBSEC.has(e.value.trim().toLowerCase());
  if (args.some(isSubsec)) return "real";
  return args.every((e) => e.kind === "const") ? "integer" : "number";
}

/** Other spellings SQLite accepts for the same function. */
const ALIASES: Readonly<Record<string, FunctionName>> = { ceiling: "ceil", power: "pow", format: "printf", substring: "substr" };

/**
 * SQLite's planner hints: `likely(x)`, `unlikely(x)` and `likelihood(x,
 * p)` are x — SQLite's code generator drops them, and storedb's planner
 * takes no hint — so the binder binds x in their place and no plan holds
 * a call of them. likelihood's p must be what SQLite's parser requires, a
 * real constant between 0.0 and 1.0 (`constant`): never a parameter, so
 * the JSON plan cache keeps it in the shape, not a slot (`parameterize.ts`).
 */
export type Hint = "likely" | "unlikely" | "likelihood";
export const HINTS: Readonly<Record<Hint, { readonly min: number; readonly max: number; readonly constant?: number }>> = {
  likely: { min: 1, max: 1 },
  unlikely: { min: 1, max: 1 },
  likelihood: { min: 2, max: 2, constant: 1 },
};

/** The hint a name (any case) stands for, if any. */
export function hintNamed(name: string): Hint | undefined {
  const lower = name.toLowerCase();
  return Object.hasOwn(HINTS, lower) ? (lower as Hint) : undefined;
}

/** The position of a call's argument that must be a constant as written (likelihood's p), if it has one. */
export function constantArgOf(name: unknown): number | undefined {
  const hint = typeof name === "string" ? hintNamed(name) : undefined;
  return hint === undefined ? undefined : HINTS[hint].constant;
}

/** nullif(a, b) is a or NULL: of a's type, once a and b are known to be of one family. */
function nullifType(args: readonly StaticType[], name: string): StaticType {
  const both = unify(args, `${name}()`);
  const first = args[0] ?? "null";
  return first === "unknown" ? both : first;
}

/** The names a call can use: not the operators `->` and `->>`. */
const NAMES: ReadonlyMap<string, FunctionName> = new Map([
  ...Object.keys(FUNCTIONS)
    .filter((name) => /^[a-z_][a-z0-9_]*$/.test(name))
    .map((name) => [name, name as FunctionName] as const),
  ...Object.entries(ALIASES),
]);

/** The function a name (any case) stands for, if any. */
export function functionNamed(name: string): FunctionName | undefined {
  return NAMES.get(name.toLowerCase());
}

/** "takes 1 argument", "takes 1 or 2 arguments", "takes at least 2 arguments". */
export function arity(signature: Pick<Signature, "min" | "max"> & Partial<Pick<Signature, "repeat" | "args">>): string {
  if (signature.repeat !== undefined && Array.isArray(signature.args)) {
    const fixed = signature.args.length - signature.repeat;
    return `takes ${fixed === 0 ? "an even number of arguments" : `${fixed} argument${fixed === 1 ? "" : "s"} then pairs`}`;
  }
  if (signature.max === Infinity) return `takes at least ${signature.min} argument${signature.min === 1 ? "" : "s"}`;
  if (signature.min === signature.max) return `takes ${signature.min} argument${signature.min === 1 ? "" : "s"}`;
  return `takes ${signature.min} to ${signature.max} arguments`;
}
