/**
 * SQLite's math functions (3.35+): each answers a real. Where SQLite's
 * answer is not a number (`sqrt(-1)`, `ln(0)`, `mod(5, 0)`) or is infinite
 * (`exp(1000)`, `pow(0, -1)`) the answer is NULL: no value of an answer can
 * be infinite, the rule arithmetic's overflow follows too.
 */

/** A result as a real a column could hold: NaN and ±Infinity are NULL, -0 is 0. */
function finite(x: number): number | null {
  return Number.isFinite(x) ? x + 0 : null;
}

const unary =
  (f: (x: number) => number) =>
  (x: number): number | null =>
    finite(f(x));

export const MATH_FUNCTIONS = {
  acos: unary(Math.acos),
  acosh: unary(Math.acosh),
  asin: unary(Math.asin),
  asinh: unary(Math.asinh),
  atan: unary(Math.atan),
  atan2: (y: number, x: number) => finite(Math.atan2(y, x)),
  atanh: unary(Math.atanh),
  cos: unary(Math.cos),
  cosh: unary(Math.cosh),
  // SQLite multiplies by the constant ratio; (x * 180) / π rounds differently in the last place.
  degrees: unary((x) => x * (180 / Math.PI)),
  exp: unary(Math.exp),
  // ln(0) is -Infinity in JS and NULL in SQLite, as every value at or below 0.
  ln: unary((x) => (x > 0 ? Math.log(x) : NaN)),
  /** log(x) is log10(x); log(b, x) takes b as the base, which SQLite takes above 1 only. */
  log: (a: number, b?: number) => finite(b === undefined ? (a > 0 ? Math.log10(a) : NaN) : a > 1 && b > 0 ? Math.log(b) / Math.log(a) : NaN),
  log10: unary((x) => (x > 0 ? Math.log10(x) : NaN)),
  log2: unary((x) => (x > 0 ? Math.log2(x) : NaN)),
  // fmod: the sign of the dividend (JS % is the same).
  mod: (x: number, y: number) => finite(x % y),
  pi: () => Math.PI,
  pow: (x: number, y: number) => finite(x ** y),
  radians: unary((x) => x * (Math.PI / 180)),
  sin: unary(Math.sin),
  sinh: unary(Math.sinh),
  sqrt: unary(Math.sqrt),
  tan: unary(Math.tan),
  tanh: unary(Math.tanh),
} as const;

export type MathFunction = keyof typeof MATH_FUNCTIONS;
