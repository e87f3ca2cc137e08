/**
 * The scalar functions of CONTRACT §11, as SQLite's built-ins behave
 * (`planner/functions.ts` types them). Each takes its arguments' values,
 * already checked for family by the binder and never NULL: all of these
 * are NULL when an argument is, which the compiled code tests before the
 * call. coalesce, ifnull and nullif exist to handle NULL and are compiled
 * inline instead (`codegen.ts`), as is typeof (NULL is its `'null'`, and
 * its answer rests on the argument's static type too), and replace takes
 * its NULLs as SQLite does. Text functions count characters as code
 * points, as SQLite counts UTF-8 characters, so `length('😀')` is 1.
 */

import type { Value } from "../commands/types.js";
import type { FunctionName } from "../planner/plan.js";
import type { JsonFunction } from "./json-codegen.js";
import { date, datetime, julianday, strftime, time, unixepoch } from "./datetime.js";
import { MATH_FUNCTIONS } from "./math-functions.js";
import { compareValues } from "./value-order.js";

const SURROGATE = /[\uD800-\uDFFF]/;

/** The code points of a text (its characters), as an array only when the text has any beyond U+FFFF. */
function characters(text: string): string | string[] {
  return SURROGATE.test(text) ? [...text] : text;
}

function lower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

function upper(s: string): string {
  return s.replace(/[a-z]+/g, (m) => m.toUpperCase());
}

/** Strips characters of `set` (default: space only, as SQLite) from the start and/or end. */
function strip(s: string, set: string, start: boolean, end: boolean): string {
  const drop = new Set(characters(set));
  const chars = [...s];
  let from = 0;
  let to = chars.length;
  if (start) while (from < to && drop.has(chars[from]!)) from++;
  if (end) while (to > from && drop.has(chars[to - 1]!)) to--;
  return from === 0 && to === chars.length ? s : chars.slice(from, to).join("");
}

/** SQLite's substr: 1-based, a negative start counts from the end, a negative length takes characters before the start. */
function substr(s: string, start: number, length?: number): string {
  const chars = characters(s);
  const len = chars.length;
  let p1 = Math.trunc(start);
  let p2 = length === undefined ? Infinity : Math.trunc(length);
  let negative = false;
  if (p2 < 0) {
    p2 = -p2;
    negative = true;
  }
  if (p1 < 0) {
    p1 += len;
    if (p1 < 0) {
      p2 += p1;
      if (p2 < 0) p2 = 0;
      p1 = 0;
    }
  } else if (p1 > 0) {
    p1--;
  } else if (p2 > 0) {
    p2--;
  }
  if (negative) {
    p1 -= p2;
    if (p1 < 0) {
      p2 += p1;
      p1 = 0;
    }
  }
  if (p1 + p2 > len) p2 = Math.max(0, len - p1);
  return typeof chars === "string" ? chars.slice(p1, p1 + p2) : chars.slice(p1, p1 + p2).join("");
}

function instr(s: string, sub: string): number {
  if (sub === "") return 1;
  const at = s.indexOf(sub);
  if (at < 0) return 0;
  return characters(s.slice(0, at)).length + 1;
}

/**
 * Rounds half away from zero at `digits` decimals, on the number as written
 * (its shortest decimal form): `round(2.675, 2)` is 2.68. SQLite rounds a
 * 17-digit approximation instead and can go either way on such ties.
 */
function round(x: number, digits: number): number {
  const places = Math.min(30, Math.max(0, Math.trunc(digits)));
  if (!(Math.abs(x) < 4503599627370496)) return x; // no fractional part to round
  const [mantissa = "0", exponentText = "0"] = Math.abs(x).toExponential().split("e");
  const decimal = mantissa.replace(".", "");
  const exponent = Number(exponentText);
  const keep = exponent + 1 + places; // significant digits left of the cut
  if (keep >= decimal.length) return x;
  let kept = keep <= 0 ? 0n : BigInt(decimal.slice(0, keep));
  if (keep >= 0 && decimal.charCodeAt(keep) >= 53 /* '5' */) kept += 1n;
  const magnitude = Number(`${kept}e${exponent + 1 - keep}`);
  return x < 0 ? -magnitude : magnitude;
}

/**
 * SQLite's replace: NULL for a NULL text or pattern, the text itself for an
 * empty pattern — even with a NULL replacement, which is NULL otherwise.
 */
export function replace(s: string | null, from: string | null, to: string | null): string | null {
  if (s === null || from === null) return null;
  if (from === "") return s;
  return to === null ? null : s.split(from).join(to);
}

/**
 * SQLite's typeof, in storedb's types: a number of static type real is
 * 'real'; any other is 'integer' while it is a safe integer (CONTRACT §11:
 * an integer result beyond ±(2^53−1) is a real; an integral parameter is an
 * integer). Booleans, which SQLite lacks, are 'boolean'.
 */
export function typeName(value: Value, real: boolean): string {
  if (value === null) return "null";
  if (typeof value === "string") return "text";
  if (typeof value === "boolean") return "boolean";
  return !real && Number.isSafeInteger(value) ? "integer" : "real";
}

/** SQLite's char(): a code point per argument (truncated); one no text can hold becomes U+FFFD, as SQLite writes for those out of range. */
function char(...codes: number[]): string {
  let out = "";
  for (const code of codes) {
    const c = Math.trunc(code);
    out += c < 0 || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff) ? "\uFFFD" : String.fromCodePoint(c);
  }
  return out;
}

/** The functions whose result is NULL when any argument is: the compiler tests the arguments, then calls these with non-NULL values. */
export type StrictFunction = Exclude<FunctionName, "coalesce" | "ifnull" | "nullif" | "replace" | "typeof" | JsonFunction | TypedTextFunction>;

/** The functions that write their arguments as text (`text-functions.ts`, `printf.ts`): they take NULL as SQLite does and read each argument's static type. */
export type TypedTextFunction = "printf" | "concat" | "concat_ws" | "quote";

/** The greatest (`sign` 1) or least (-1) of values of one family, none NULL. */
function extreme(sign: 1 | -1, values: Value[]): Value {
  let best = values[0]!;
  for (let i = 1; i < values.length; i++) if (compareValues(values[i]!, best) * sign > 0) best = values[i]!;
  return best;
}

/**
 * A random integer (SQLite's is 64 bits; storedb's integers stop at
 * ±(2^53−1)): 53 bits and a sign. Math.random has 52 random bits, so
 * `Math.random() * 2^53` would always be even: the bits come in two draws.
 */
function random(): number {
  const magnitude = Math.floor(Math.random() * 2 ** 26) * 2 ** 27 + Math.floor(Math.random() * 2 ** 27);
  return Math.random() < 0.5 && magnitude !== 0 ? -magnitude : magnitude;
}

export const STRICT_FUNCTIONS: Readonly<Record<StrictFunction, (...args: never[]) => Value>> = {
  lower,
  upper,
  length: (s: string) => characters(s).length,
  trim: (s: string, set = " ") => strip(s, set, true, true),
  ltrim: (s: string, set = " ") => strip(s, set, true, false),
  rtrim: (s: string, set = " ") => strip(s, set, false, true),
  substr,
  instr,
  abs: (x: number) => Math.abs(x),
  round: (x: number, digits = 0) => round(x, digits),
  sign: (x: number) => (x > 0 ? 1 : x < 0 ? -1 : 0),
  // `+ 0` turns -0 (ceil(-0.5)) into 0, as SQLite prints it.
  ceil: (x: number) => Math.ceil(x) + 0,
  floor: (x: number) => Math.floor(x) + 0,
  trunc: (x: number) => Math.trunc(x) + 0,
  char,
  unicode: (s: string) => s.codePointAt(0) ?? null,
  hex: (s: string) => Buffer.from(s, "utf8").toString("hex").toUpperCase(),
  // The bytes of the UTF-8 form, which hex() writes two digits for.
  octet_length: (s: string) => Buffer.byteLength(s, "utf8"),
  date,
  time,
  datetime,
  julianday,
  unixepoch,
  strftime,
  max: (...values: Value[]) => extreme(1, values),
  min: (...values: Value[]) => extreme(-1, values),
  random,
  ...MATH_FUNCTIONS,
};
