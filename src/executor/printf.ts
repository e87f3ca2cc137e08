/**
 * SQLite's printf(format, …) (also `format`): `%[flags][width][.precision]
 * [l|ll]type` with flags `-+ 0#,!`, `*` for a width or precision read from
 * the arguments, and the types d i u x X o p r f e E g G s z q Q w c n %.
 *
 * Arguments are read the way SQLite reads them: a number conversion of a
 * text takes its numeric prefix, of NULL zero; a text conversion of NULL is
 * the empty text; a missing argument is NULL. An unknown or unfinished
 * conversion ends the text there (NULL if nothing came before it). Two
 * choices are storedb's own: widths and precisions count characters, never
 * bytes (SQLite counts bytes unless `!` is given, and can cut a character
 * in two), and a boolean reads as 1 or 0 in a number and as `true` or
 * `false` in a text, as CAST reads it. Real digits follow SQLite: at most
 * 16 significant (26 with `!`), then zeros.
 */

import type { Value } from "../commands/types.js";
import type { StaticType } from "../planner/plan.js";
import { castValue } from "../planner/casts.js";
import { StoreError } from "../errors.js";

/** A width or precision past this would build texts no answer could carry. */
const MAX_WIDTH = 100_000;
/** The longest text one call may build: a format of many wide conversions is refused, not built. */
const MAX_LENGTH = 1_000_000;
/** Significant digits SQLite's conversion keeps before it writes zeros, and with `!`. */
const SIGNIFICANT = 16;
const SIGNIFICANT_BANG = 26;

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

interface Spec {
  left: boolean;
  /** `!`: a real keeps `.0` and drops other trailing zeros, and has up to 26 digits. */
  bang: boolean;
  plus: string; // "", "+" or " ": the sign written before a number that is not negative
  zero: boolean;
  alternate: boolean;
  comma: boolean;
  width: number;
  precision: number | undefined;
}

/** Reads arguments in turn; past the last one each read is NULL. */
class Args {
  private next = 0;
  constructor(
    private readonly values: readonly Value[],
    private readonly types: readonly StaticType[],
  ) {}

  take(): [Value, StaticType] {
    const i = this.next++;
    return i < this.values.length ? [this.values[i]!, this.types[i] ?? "unknown"] : [null, "null"];
  }

  integer(): bigint {
    const [value, type] = this.take();
    const n = value === null ? 0 : (castValue(value, type, "integer") as number | null) ?? 0;
    if (Number.isSafeInteger(n)) return BigInt(n);
    // Beyond 2^53 an integral double is exact in a bigint; SQLite clamps it to 64 bits.
    const big = BigInt(n);
    return big > INT64_MAX ? INT64_MAX : big < INT64_MIN ? INT64_MIN : big;
  }

  real(): number {
    const [value, type] = this.take();
    const n = value === null ? 0 : castValue(value, type, "real");
    return typeof n === "number" ? n : 0;
  }

  text(): string | null {
    const [value, type] = this.take();
    return value === null ? null : (castValue(value, type, "text") as string);
  }

  /** A `*` width or precision: an integer argument. */
  count(): number {
    const n = Number(this.integer());
    if (Math.abs(n) > MAX_WIDTH) throw tooWide();
    return n;
  }
}

function tooWide(): StoreError {
  return new StoreError("invalid_request", `printf(): a width or precision is at most ${MAX_WIDTH}`);
}

function tooLong(): StoreError {
  return new StoreError("invalid_request", `printf(): the text would be longer than ${MAX_LENGTH} characters`);
}

/** The formatted text; NULL for a NULL format, or when nothing was written before an unknown conversion (or at all: `printf('')`). */
export function printf(types: readonly StaticType[], format: Value, ...values: Value[]): string | null {
  if (typeof format !== "string") return null;
  const args = new Args(values, types.slice(1));
  let out = "";
  let wrote = false;
  let i = 0;
  const n = format.length;
  while (i < n) {
    const percent = format.indexOf("%", i);
    if (percent < 0) {
      out += format.slice(i);
      wrote = true;
      break;
    }
    if (percent > i) wrote = true;
    out += format.slice(i, percent);
    i = percent + 1;
    if (i >= n) {
      out += "%";
      wrote = true;
      break;
    }
    const spec: Spec = { left: false, bang: false, plus: "", zero: false, alternate: false, comma: false, width: 0, precision: undefined };
    for (; i < n; i++) {
      const c = format[i];
      if (c === "-") spec.left = true;
      else if (c === "+" || c === " ") spec.plus = c;
      else if (c === "0") spec.zero = true;
      else if (c === "#") spec.alternate = true;
      else if (c === ",") spec.comma = true;
      else if (c === "!") spec.bang = true;
      else break;
    }
    if (format[i] === "*") {
      const w = args.count();
      if (w < 0) spec.left = true;
      spec.width = Math.abs(w);
      i++;
    } else {
      const start = i;
      while (i < n && format.charCodeAt(i) >= 48 && format.charCodeAt(i) <= 57) i++;
      spec.width = start === i ? 0 : Number(format.slice(start, i));
    }
    if (format[i] === ".") {
      i++;
      if (format[i] === "*") {
        spec.precision = Math.abs(args.count());
        i++;
      } else {
        const start = i;
        while (i < n && format.charCodeAt(i) >= 48 && format.charCodeAt(i) <= 57) i++;
        spec.precision = start === i ? 0 : Number(format.slice(start, i));
      }
    }
    if (spec.width > MAX_WIDTH || (spec.precision ?? 0) > MAX_WIDTH) throw tooWide();
    if (format[i] === "l") i += format[i + 1] === "l" ? 2 : 1;
    const type = format[i++];
    const piece = type === undefined ? null : convert(type, spec, args);
    if (piece === null) break;
    out += piece;
    wrote = true;
    if (out.length > MAX_LENGTH) throw tooLong();
  }
  if (out.length > MAX_LENGTH) throw tooLong();
  return wrote ? out : null;
}

function convert(type: string, spec: Spec, args: Args): string | null {
  switch (type) {
    case "d":
    case "i":
      return integer(args.integer(), spec, 10, false);
    case "u":
      return integer(BigInt.asUintN(64, args.integer()), { ...spec, plus: "" }, 10, false);
    case "x":
    case "X": {
      const digits = integer(BigInt.asUintN(64, args.integer()), { ...spec, plus: "" }, 16, spec.alternate);
      return type === "X" ? digits.toUpperCase() : digits;
    }
    case "p":
      // SQLite's pointer conversion: upper-case digits after a lower-case 0x.
      return integer(BigInt.asUintN(64, args.integer()), { ...spec, plus: "" }, 16, spec.alternate, "", true);
    case "r": {
      // An ordinal's precision counts its suffix, and it takes no commas.
      const value = args.integer();
      const suffix = ordinal(value);
      return integer(value, { ...spec, comma: false, precision: spec.precision === undefined ? undefined : spec.precision - suffix.length }, 10, false, suffix);
    }
    case "o":
      return integer(BigInt.asUintN(64, args.integer()), { ...spec, plus: "" }, 8, spec.alternate);
    case "f":
    case "e":
    case "E":
    case "g":
    case "G":
      return real(args.real(), type, spec);
    case "s":
    case "z":
      return pad(characters(args.text() ?? "", spec.precision), spec);
    case "c": {
      // SQLite writes a NUL for an empty text or NULL: the first byte of its C string.
      const first = [...(args.text() ?? "")][0] ?? "\0";
      return pad(first.repeat(Math.max(1, spec.precision ?? 1)), spec);
    }
    case "q":
    case "w":
    case "Q": {
      // NULL reads as the text (NULL), or NULL for %Q, cut by the precision as any text.
      const text = args.text();
      const quote = type === "w" ? '"' : "'";
      const escaped = characters(text ?? (type === "Q" ? "NULL" : "(NULL)"), spec.precision).replaceAll(quote, quote + quote);
      return pad(type === "Q" && text !== null ? `'${escaped}'` : escaped, spec);
    }
    case "%":
      return pad("%", { ...spec, zero: false });
    case "n":
      return "";
    default:
      return null;
  }
}

/** The first `precision` characters (code points) of a text, all without a precision. */
function characters(text: string, precision: number | undefined): string {
  if (precision === undefined || precision >= text.length) return text;
  return [...text].slice(0, precision).join("");
}

function pad(body: string, spec: Spec): string {
  const length = body.length < spec.width ? [...body].length : body.length;
  if (length >= spec.width) return body;
  const fill = " ".repeat(spec.width - length);
  return spec.left ? body + fill : fill + body;
}

/** A real's sign, then zeros to the width unless left-justified, then spaces. */
function signed(negative: boolean, digits: string, spec: Spec): string {
  const sign = negative ? "-" : spec.plus;
  if (spec.zero && !spec.left && sign.length + digits.length < spec.width) digits = "0".repeat(spec.width - sign.length - digits.length) + digits;
  return pad(sign + digits, spec);
}

function integer(value: bigint, spec: Spec, radix: 10 | 16 | 8, alternate: boolean, suffix = "", upper = false): string {
  const negative = value < 0n;
  let digits = (negative ? -value : value).toString(radix);
  if (upper) digits = digits.toUpperCase();
  // The zero flag pads the digits to the width (less the sign and an ordinal's suffix), left-justified too, and before commas go in, as SQLite does ('%,08d' of 12345 is 00,012,345).
  const least = spec.zero ? Math.max(spec.precision ?? 0, spec.width - (negative || spec.plus !== "" ? 1 : 0) - suffix.length) : (spec.precision ?? 0);
  if (digits.length < least) digits = "0".repeat(least - digits.length) + digits;
  if (spec.comma && radix === 10) digits = group(digits);
  let prefix = "";
  if (alternate && value !== 0n) prefix = radix === 16 ? "0x" : "0";
  return pad((negative ? "-" : spec.plus) + prefix + digits + suffix, spec);
}

/** %r: 1st, 2nd, 3rd, 4th, 11th, 21st… */
function ordinal(value: bigint): string {
  const n = value < 0n ? -value : value;
  if (n % 100n >= 11n && n % 100n <= 13n) return "th";
  return ["th", "st", "nd", "rd"][Number(n % 10n)] ?? "th";
}

/** Thousands separators in a run of digits, in one pass. */
function group(digits: string): string {
  const head = digits.length % 3 || 3;
  const parts = [digits.slice(0, head)];
  for (let k = head; k < digits.length; k += 3) parts.push(digits.slice(k, k + 3));
  return parts.join(",");
}

function real(x: number, type: string, spec: Spec): string {
  const negative = x < 0;
  const abs = Math.abs(x);
  const precision = spec.precision ?? 6;
  const most = spec.bang ? SIGNIFICANT_BANG : SIGNIFICANT;
  // An overflow is SQLite's word for it in every conversion (%E too), not digits made of "Infinity".
  if (abs === Infinity) return signed(negative, "Inf", { ...spec, zero: false });
  // A point is written when digits follow it, with `#`, and always with `!`.
  const point = spec.alternate || spec.bang;
  let body: string;
  switch (type) {
    case "f":
      body = fixed(abs, precision, point, most);
      break;
    case "e":
    case "E":
      body = exponential(abs, precision, point, most);
      break;
    default:
      body = general(abs, precision, point, most);
  }
  // SQLite's rule: %g drops trailing zeros unless `#`, %f and %e with `!`; `!` then keeps one zero after the point.
  const generic = type === "g" || type === "G";
  if (generic ? !spec.alternate : spec.bang) body = trailingZeros(body, spec.bang);
  if (spec.comma) {
    const at = body.search(/[.e]/);
    const whole = at < 0 ? body : body.slice(0, at);
    if (/^\d+$/.test(whole)) body = group(whole) + body.slice(whole.length);
  }
  if (type === "E" || type === "G") body = body.toUpperCase();
  return signed(negative, body, spec);
}

/** The mantissa without its trailing zeros after the point; a point left last goes, or keeps one zero (`!`). */
function trailingZeros(body: string, keepZero: boolean): string {
  const e = body.indexOf("e");
  const [mantissa, rest] = e < 0 ? [body, ""] : [body.slice(0, e), body.slice(e)];
  if (!mantissa.includes(".")) return body;
  const trimmed = mantissa.replace(/0+$/, "");
  return (trimmed.endsWith(".") ? (keepZero ? trimmed + "0" : trimmed.slice(0, -1)) : trimmed) + rest;
}

/**
 * `x` (> 0) to `n` significant digits as SQLite writes them: rounded half up
 * from one digit more than it keeps (so 810.93 stays 810.93 where the exact
 * 810.92999999999994998… would give …99999), at most `most` of them kept
 * (16, or 26 with `!`), then zeros. Returns the digits ("" when `n` < 1
 * and `x` rounds to nothing) and the power of ten of the first.
 */
function decimal(x: number, n: number, most: number): { digits: string; exponent: number } {
  const [mantissa = "0", power = "0"] = x.toExponential(most).split("e");
  const all = mantissa.replace(".", "");
  let exponent = Number(power);
  const keep = Math.min(n, most);
  if (keep < 0 || (keep === 0 && all.charCodeAt(0) < 53)) return { digits: "", exponent };
  let kept = all.slice(0, keep);
  if (all.charCodeAt(keep) >= 53 /* '5' */) {
    let carried = "";
    let k = kept.length - 1;
    for (; k >= 0 && kept[k] === "9"; k--) carried += "0";
    kept = k < 0 ? "1" + carried : kept.slice(0, k) + String(Number(kept[k]) + 1) + carried;
    if (kept.length > Math.max(keep, 1) || keep === 0) exponent++;
    kept = kept.slice(0, Math.max(keep, 1));
  }
  return { digits: kept.padEnd(Math.max(n, kept.length), "0"), exponent };
}

function fixed(x: number, precision: number, alwaysPoint: boolean, most: number): string {
  const point = precision > 0 || alwaysPoint ? "." : "";
  if (x === 0) return "0" + point + "0".repeat(precision);
  const magnitude = decimal(x, most + 1, most).exponent;
  const { digits, exponent } = decimal(x, magnitude + 1 + precision, most);
  if (digits === "") return "0" + point + "0".repeat(precision);
  const whole = exponent >= 0 ? digits.slice(0, exponent + 1).padEnd(exponent + 1, "0") : "0";
  const fraction = (exponent >= 0 ? digits.slice(exponent + 1) : "0".repeat(-exponent - 1) + digits).padEnd(precision, "0").slice(0, precision);
  return whole + point + fraction;
}

function exponential(x: number, precision: number, alwaysPoint: boolean, most: number): string {
  const { digits, exponent } = x === 0 ? { digits: "0".repeat(precision + 1), exponent: 0 } : decimal(x, precision + 1, most);
  const point = precision > 0 || alwaysPoint ? "." : "";
  return `${digits[0]}${point}${digits.slice(1)}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
}

/** %g: %e or %f at `precision` significant digits, by the rounded exponent (its trailing zeros are `real`'s to drop). */
function general(x: number, precision: number, alwaysPoint: boolean, most: number): string {
  const p = precision === 0 ? 1 : precision;
  const exponent = x === 0 ? 0 : decimal(x, p, most).exponent;
  return exponent < -4 || exponent >= p ? exponential(x, p - 1, alwaysPoint, most) : fixed(x, Math.max(0, p - 1 - exponent), alwaysPoint, most);
}
