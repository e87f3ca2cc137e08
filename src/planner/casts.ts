/**
 * CAST's value conversions (CONTRACT §11), shared by the binder, which folds
 * a cast of a constant, and the executor, which casts at run time.
 *
 * SQLite's rules where strict typing leaves room for them: a real becomes an
 * integer by truncation toward zero; a text becomes a number by its longest
 * numeric prefix after leading white space (`'12abc'` is 12, `'abc'` is 0,
 * `'1e3'` is 1 as an integer and 1000 as a real); a real becomes text in
 * SQLite's form (`3.0`, `0.1`, `1.0e+20`) with its shortest exact digits. Booleans are storedb's own: a
 * number is true when it is not 0, a boolean is the text `true` or `false`,
 * and the texts `true` and `false` (any case, white space around ignored)
 * are the booleans, any other text NULL. A result no column can hold (a
 * real beyond the double range) is NULL.
 */

import type { ColumnType, Value } from "../commands/types.js";
import type { StaticType } from "./plan.js";

/** SQLite's white space for numeric prefixes: space, tab, newline, vertical tab, form feed, carriage return. */
const INTEGER_PREFIX = /^[ \t\n\v\f\r]*([+-]?\d+)/;
const REAL_PREFIX = /^[ \t\n\v\f\r]*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/;

/** `value` (of static type `from`, for telling an integral real from an integer) as a `to`. */
export function castValue(value: Value, from: StaticType, to: ColumnType): Value {
  if (value === null) return null;
  switch (to) {
    case "integer":
      if (typeof value === "number") return Math.trunc(value) + 0;
      if (typeof value === "boolean") return value ? 1 : 0;
      return finite(Number(INTEGER_PREFIX.exec(value)?.[1] ?? 0));
    case "real":
      if (typeof value === "number") return value;
      if (typeof value === "boolean") return value ? 1 : 0;
      return finite(Number(REAL_PREFIX.exec(value)?.[1] ?? 0));
    case "text":
      if (typeof value === "string") return value;
      if (typeof value === "boolean") return value ? "true" : "false";
      return from !== "real" && Number.isSafeInteger(value) ? String(value) : formatReal(value);
    case "boolean":
      if (typeof value === "boolean") return value;
      if (typeof value === "number") return value !== 0;
      return booleanText(value);
  }
}

function finite(n: number): number | null {
  return Number.isFinite(n) ? n + 0 : null;
}

function booleanText(text: string): boolean | null {
  const word = text.trim().toLowerCase();
  return word === "true" ? true : word === "false" ? false : null;
}

/**
 * A real in SQLite's form — one digit kept after the point (`3.0`), an
 * exponent (`1.0e+20`, two digits at least) below 1e-4 or from 1e17 on —
 * with the fewest digits that read back as the same number. (SQLite writes
 * 15 digits when they read back, else 17 from an approximate conversion, so
 * for a number needing more than 15 its last digits can differ.)
 */
export function formatReal(value: number): string {
  if (value === 0) return "0.0";
  // SQLite's words for an overflow (1e308 * 10); toExponential's "Infinity" would be cut up below.
  if (value === Infinity) return "Inf";
  if (value === -Infinity) return "-Inf";
  const sign = value < 0 ? "-" : "";
  const [mantissa = "", exponentText = "0"] = Math.abs(value).toExponential().split("e");
  const exponent = Number(exponentText);
  const digits = mantissa.replace(".", "").replace(/0+$/, "") || "0";
  if (exponent < -4 || exponent >= 17) {
    const power = String(Math.abs(exponent)).padStart(2, "0");
    return `${sign}${digits[0]}.${digits.slice(1) || "0"}e${exponent < 0 ? "-" : "+"}${power}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  return `${sign}${whole}.${digits.slice(exponent + 1) || "0"}`;
}
