/**
 * SQLite's date and time functions — date, time, datetime, julianday,
 * unixepoch, strftime — ported from its date.c (3.53) state for state, so
 * every input SQLite reads reads the same here and every input it refuses
 * is NULL here too (`test/executor/datetime-differential.test.ts` holds the
 * two side by side).
 *
 * A moment is a `Moment`: milliseconds of Julian day (`jd`) and/or its
 * calendar fields, each part valid or not, as SQLite's DateTime. Parsing a
 * time value fills what the text gives, each modifier converts between the
 * parts as it needs them, and the output computes what it prints. The
 * arithmetic keeps C's: integer division truncates, `(int)` truncates,
 * and dates out of range (-4713 to 9999) are errors, which are NULL.
 *
 * 'now' is the statement's instant (`statement-clock.ts`). 'localtime' and
 * 'utc' convert with the server process's time zone (its `TZ`, a zone name
 * such as Europe/Paris: V8 reads no POSIX rule string like `EST5EDT,M3.2.0`),
 * as SQLite's localtime_r does. Inside a CHECK neither is allowed
 * (`steadily`).
 */

import type { Value } from "../commands/types.js";
import { readingZone, statementNow } from "./statement-clock.js";

const DAY_MS = 86_400_000;
/** The Julian day of 1970-01-01 00:00 UTC, in milliseconds. */
const UNIX_EPOCH_JD_MS = 210_866_760_000_000;
/** 9999-12-31 23:59:59.999, the last moment SQLite's dates hold. */
const MAX_JD_MS = 464_269_060_799_999;

interface Moment {
  jd: number;
  Y: number;
  M: number;
  D: number;
  h: number;
  m: number;
  tz: number;
  s: number;
  validJD: boolean;
  validYMD: boolean;
  validHMS: boolean;
  nFloor: number;
  /** `s` holds the time value as a raw number (a Julian day, or seconds for 'unixepoch'/'auto'). */
  rawS: boolean;
  isError: boolean;
  useSubsec: boolean;
  isUtc: boolean;
  isLocal: boolean;
}

function moment(): Moment {
  return { jd: 0, Y: 0, M: 0, D: 0, h: 0, m: 0, tz: 0, s: 0, validJD: false, validYMD: false, validHMS: false, nFloor: 0, rawS: false, isError: false, useSubsec: false, isUtc: false, isLocal: false };
}

/** C's integer division and `(int)` cast: toward zero. */
const idiv = (a: number, b: number): number => Math.trunc(a / b);

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";
const isSpace = (c: string | undefined): boolean => c === " " || c === "\t" || c === "\n" || c === "\v" || c === "\f" || c === "\r";
/** SQLite folds ASCII letters only when it compares names ('NOW', 'Start Of Month'). */
const asciiLower = (s: string): string => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
const same = (a: string, b: string): boolean => asciiLower(a) === asciiLower(b);

/** The largest value of each field letter of a getDigits format. */
const MAX: Readonly<Record<string, number>> = { a: 12, b: 14, c: 24, d: 31, e: 59, f: 14712 };

/**
 * SQLite's getDigits: fields of a format like "40f-21a-21d" (4 digits,
 * at least 0, at most 14712, then '-'; …) read from `z` at `at`; every
 * field or none.
 */
function digits(z: string, at: number, format: string): number[] | undefined {
  const out: number[] = [];
  for (let f = 0; f < format.length; f += 4) {
    const count = Number(format[f]);
    const min = Number(format[f + 1]);
    const max = MAX[format[f + 2]!]!;
    const next = format[f + 3];
    let value = 0;
    for (let i = 0; i < count; i++, at++) {
      if (!isDigit(z[at])) return undefined;
      value = value * 10 + Number(z[at]);
    }
    if (value < min || value > max || (next !== undefined && z[at] !== next)) return undefined;
    out.push(value);
    at++;
  }
  return out;
}

/** SQLite's sqlite3AtoF, whole text only: a decimal number, white space around it allowed. */
function number(text: string): number | undefined {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text[start])) start++;
  while (end > start && isSpace(text[end - 1])) end--;
  const t = text.slice(start, end);
  // No nested quantifier over one class: linear however long the digits run (`\d+\.?\d*` backtracked quadratically).
  return /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(t) ? Number(t) : undefined;
}

function error(p: Moment): void {
  Object.assign(p, moment());
  p.isError = true;
}

function clearYmdHmsTz(p: Moment): void {
  p.validYMD = false;
  p.validHMS = false;
  p.tz = 0;
}

/** A zone suffix (`Z`, `+HH:MM`, `-HH:MM`) and nothing else after it; false if the text has more. */
function parseTimezone(z: string, at: number, p: Moment): boolean {
  while (isSpace(z[at])) at++;
  p.tz = 0;
  const c = z[at];
  if (c === "Z" || c === "z") {
    at++;
    p.isLocal = false;
    p.isUtc = true;
  } else if (c === "-" || c === "+") {
    const f = digits(z, at + 1, "20b:20e");
    if (f === undefined) return false;
    at += 6;
    p.tz = (c === "-" ? -1 : 1) * (f[1]! + f[0]! * 60);
    if (p.tz === 0) {
      p.isLocal = false;
      p.isUtc = true;
    }
  } else {
    return c === undefined;
  }
  while (isSpace(z[at])) at++;
  return at >= z.length;
}

/** `HH:MM[:SS[.fff]]` and an optional zone, from `at` to the end. */
function parseHhMmSs(z: string, at: number, p: Moment): boolean {
  const hm = digits(z, at, "20c:20e");
  if (hm === undefined) return false;
  at += 5;
  let s = 0;
  let ms = 0;
  if (z[at] === ":") {
    const sec = digits(z, at + 1, "20e");
    if (sec === undefined) return false;
    s = sec[0]!;
    at += 3;
    if (z[at] === "." && isDigit(z[at + 1])) {
      let scale = 1;
      at++;
      while (isDigit(z[at])) {
        ms = ms * 10 + Number(z[at]);
        scale *= 10;
        at++;
      }
      ms /= scale;
      // Truncated, so sub-millisecond digits never round up into the next second.
      if (ms > 0.999) ms = 0.999;
    }
  }
  p.validJD = false;
  p.rawS = false;
  p.validHMS = true;
  p.h = hm[0]!;
  p.m = hm[1]!;
  p.s = s + ms;
  return parseTimezone(z, at, p);
}

function computeJD(p: Moment): void {
  if (p.validJD) return;
  let [Y, M, D] = p.validYMD ? [p.Y, p.M, p.D] : [2000, 1, 1];
  if (Y < -4713 || Y > 9999 || p.rawS) return error(p);
  if (M <= 2) {
    Y--;
    M += 12;
  }
  const A = idiv(Y + 4800, 100);
  const B = 38 - A + idiv(A, 4);
  const X1 = idiv(36525 * (Y + 4716), 100);
  const X2 = idiv(306001 * (M + 1), 10000);
  p.jd = Math.trunc((X1 + X2 + D + B - 1524.5) * DAY_MS);
  p.validJD = true;
  if (p.validHMS) {
    p.jd += p.h * 3_600_000 + p.m * 60_000 + Math.trunc(p.s * 1000 + 0.5);
    if (p.tz !== 0) {
      p.jd -= p.tz * 60_000;
      p.validYMD = false;
      p.validHMS = false;
      p.tz = 0;
      p.isUtc = true;
      p.isLocal = false;
    }
  }
}

/** Days past the end of a short month (2023-02-31: 3), which the 'floor' modifier takes back. */
function computeFloor(p: Moment): void {
  if (p.D <= 28 || (1 << p.M) & 0x15aa) p.nFloor = 0;
  else if (p.M !== 2) p.nFloor = p.D === 31 ? 1 : 0;
  else if (p.Y % 4 !== 0 || (p.Y % 100 === 0 && p.Y % 400 !== 0)) p.nFloor = p.D - 28;
  else p.nFloor = p.D - 29;
}

function parseYyyyMmDd(z: string, p: Moment): boolean {
  const negative = z[0] === "-";
  let at = negative ? 1 : 0;
  const ymd = digits(z, at, "40f-21a-21d");
  if (ymd === undefined) return false;
  at += 10;
  while (isSpace(z[at]) || z[at] === "T") at++;
  if (!parseHhMmSs(z, at, p)) {
    if (at < z.length) return false;
    p.validHMS = false;
  }
  p.validJD = false;
  p.validYMD = true;
  p.Y = negative ? -ymd[0]! : ymd[0]!;
  p.M = ymd[1]!;
  p.D = ymd[2]!;
  computeFloor(p);
  if (p.tz !== 0) computeJD(p);
  return true;
}

function setToNow(p: Moment): void {
  p.jd = statementNow() + UNIX_EPOCH_JD_MS;
  p.validJD = true;
  p.isUtc = true;
  p.isLocal = false;
  clearYmdHmsTz(p);
}

function setRawNumber(p: Moment, r: number): void {
  p.s = r;
  p.rawS = true;
  if (r >= 0 && r < 5373484.5) {
    p.jd = Math.trunc(r * DAY_MS + 0.5);
    p.validJD = true;
  }
}

function parseDateOrTime(z: string, p: Moment): boolean {
  if (parseYyyyMmDd(z, p) || parseHhMmSs(z, 0, p)) return true;
  if (same(z, "now")) {
    setToNow(p);
    return true;
  }
  const r = number(z);
  if (r !== undefined) {
    setRawNumber(p, r);
    return true;
  }
  if (same(z, "subsec") || same(z, "subsecond")) {
    p.useSubsec = true;
    setToNow(p);
    return true;
  }
  return false;
}

const validJulianDay = (jd: number): boolean => jd >= 0 && jd <= MAX_JD_MS;

function computeYMD(p: Moment): void {
  if (p.validYMD) return;
  if (!p.validJD) {
    p.Y = 2000;
    p.M = 1;
    p.D = 1;
  } else if (!validJulianDay(p.jd)) {
    return error(p);
  } else {
    const Z = idiv(p.jd + 43_200_000, DAY_MS);
    const alpha = Math.trunc((Z + 32044.75) / 36524.25) - 52;
    const A = Z + 1 + alpha - idiv(alpha + 100, 4) + 25;
    const B = A + 1524;
    const C = Math.trunc((B - 122.1) / 365.25);
    const D = idiv(36525 * (C & 32767), 100);
    const E = Math.trunc((B - D) / 30.6001);
    const X1 = Math.trunc(30.6001 * E);
    p.D = B - D - X1;
    p.M = E < 14 ? E - 1 : E - 13;
    p.Y = p.M > 2 ? C - 4716 : C - 4715;
  }
  p.validYMD = true;
}

function computeHMS(p: Moment): void {
  if (p.validHMS) return;
  computeJD(p);
  const dayMs = (p.jd + 43_200_000) % DAY_MS;
  p.s = (dayMs % 60_000) / 1000;
  const dayMin = idiv(dayMs, 60_000);
  p.m = dayMin % 60;
  p.h = idiv(dayMin, 60);
  p.rawS = false;
  p.validHMS = true;
}

function computeYmdHms(p: Moment): void {
  computeYMD(p);
  computeHMS(p);
}

/** Converts a UTC moment to the process's local time; years outside 1970–2037 through an equivalent year, as SQLite does. */
function toLocaltime(p: Moment): void {
  readingZone();
  computeJD(p);
  let yearDiff = 0;
  let t: number;
  if (p.jd < UNIX_EPOCH_JD_MS || p.jd > 213_014_145_600_000 /* 2038-01-18 */) {
    const x = { ...p };
    computeYmdHms(x);
    yearDiff = 2000 + (x.Y % 4) - x.Y;
    x.Y += yearDiff;
    x.validJD = false;
    computeJD(x);
    t = idiv(x.jd, 1000) - UNIX_EPOCH_JD_MS / 1000;
  } else {
    t = idiv(p.jd, 1000) - UNIX_EPOCH_JD_MS / 1000;
  }
  const local = new Date(t * 1000);
  p.Y = local.getFullYear() - yearDiff;
  p.M = local.getMonth() + 1;
  p.D = local.getDate();
  p.h = local.getHours();
  p.m = local.getMinutes();
  p.s = local.getSeconds() + (p.jd % 1000) * 0.001;
  p.validYMD = true;
  p.validHMS = true;
  p.validJD = false;
  p.rawS = false;
  p.tz = 0;
  p.isError = false;
}

/** '+N unit' modifiers: name, the largest |N| (a C float, as SQLite's table holds it), seconds per unit. */
const UNITS: readonly (readonly [string, number, number])[] = [
  ["second", Math.fround(4.6427e14), 1],
  ["minute", Math.fround(7.7379e12), 60],
  ["hour", Math.fround(1.2897e11), 3600],
  ["day", Math.fround(5373485), 86400],
  ["month", Math.fround(176546), 2_592_000],
  ["year", Math.fround(14713), 31_536_000],
];

/** Moves a month or year count past the year's ends into the year. */
function normalizeMonth(p: Moment): void {
  const x = p.M > 0 ? idiv(p.M - 1, 12) : idiv(p.M - 12, 12);
  p.Y += x;
  p.M -= x * 12;
}

/** SQLite's parseModifier: false when the modifier does not apply (the result is then NULL). */
function applyModifier(z: string, p: Moment, index: number): boolean {
  const lower = asciiLower(z);
  switch (lower[0]) {
    case "a":
      if (lower !== "auto") return false;
      if (index > 1) return false;
      if (!p.rawS || p.validJD) p.rawS = false;
      else if (p.s >= -210_866_760_000 && p.s <= 253_402_300_799) {
        clearYmdHmsTz(p);
        p.jd = Math.trunc(p.s * 1000 + UNIX_EPOCH_JD_MS + 0.5);
        p.validJD = true;
        p.rawS = false;
      }
      return true;
    case "c":
      if (lower !== "ceiling") return false;
      computeJD(p);
      clearYmdHmsTz(p);
      p.nFloor = 0;
      return true;
    case "f":
      if (lower !== "floor") return false;
      computeJD(p);
      p.jd -= p.nFloor * DAY_MS;
      clearYmdHmsTz(p);
      return true;
    case "j":
      if (lower !== "julianday" || index > 1) return false;
      if (!(p.validJD && p.rawS)) return false;
      p.rawS = false;
      return true;
    case "l":
      if (lower !== "localtime") return false;
      if (!p.isLocal) toLocaltime(p);
      p.isUtc = false;
      p.isLocal = true;
      return true;
    case "u":
      if (lower === "unixepoch" && p.rawS) {
        if (index > 1) return false;
        const r = p.s * 1000 + UNIX_EPOCH_JD_MS;
        if (!(r >= 0 && r < 464_269_060_800_000)) return false;
        clearYmdHmsTz(p);
        p.jd = Math.trunc(r + 0.5);
        p.validJD = true;
        p.rawS = false;
        return true;
      }
      if (lower !== "utc") return false;
      if (!p.isUtc) toUtc(p);
      return true;
    case "w": {
      if (!lower.startsWith("weekday ")) return false;
      const n = number(z.slice(8));
      if (n === undefined || !(n >= 0 && n < 7) || !Number.isInteger(n)) return false;
      computeYmdHms(p);
      p.tz = 0;
      p.validJD = false;
      computeJD(p);
      let day = idiv(p.jd + 129_600_000, DAY_MS) % 7;
      if (day > n) day -= 7;
      p.jd += (n - day) * DAY_MS;
      clearYmdHmsTz(p);
      return true;
    }
    case "s": {
      if (!lower.startsWith("start of ")) {
        if (lower !== "subsec" && lower !== "subsecond") return false;
        p.useSubsec = true;
        return true;
      }
      if (!p.validJD && !p.validYMD && !p.validHMS) return false;
      computeYMD(p);
      p.validHMS = true;
      p.h = p.m = 0;
      p.s = 0;
      p.rawS = false;
      p.tz = 0;
      p.validJD = false;
      const unit = lower.slice(9);
      if (unit === "month") p.D = 1;
      else if (unit === "year") p.M = p.D = 1;
      else if (unit !== "day") return false;
      return true;
    }
    case "+":
    case "-":
    case "0":
    case "1":
    case "2":
    case "3":
    case "4":
    case "5":
    case "6":
    case "7":
    case "8":
    case "9":
      return shift(z, p);
    default:
      return false;
  }
}

/** 'utc': the UTC moment whose local time is `p`, found as SQLite does, by up to four guesses. */
function toUtc(p: Moment): void {
  readingZone();
  computeJD(p);
  const original = p.jd;
  let guess = original;
  let err = 0;
  let count = 0;
  do {
    const probe = moment();
    guess -= err;
    probe.jd = guess;
    probe.validJD = true;
    toLocaltime(probe);
    computeJD(probe);
    err = probe.jd - original;
  } while (err !== 0 && count++ < 3);
  Object.assign(p, moment());
  p.jd = guess;
  p.validJD = true;
  p.isUtc = true;
}

/** The numeric modifiers: ±N unit, ±HH:MM[:SS[.fff]], ±YYYY-MM-DD [HH:MM]. */
function shift(z: string, p: Moment): boolean {
  const sign = z[0];
  let n = 1;
  for (; n < z.length; n++) {
    const c = z[n];
    if (c === ":" || isSpace(c)) break;
    if (c === "-") {
      if (n === 5 && digits(z, 1, "40f") !== undefined) break;
      if (n === 6 && digits(z, 1, "50f") !== undefined) break;
    }
  }
  let r = number(z.slice(0, n));
  if (r === undefined) return false;
  let timeAt = 0;
  if (z[n] === "-") {
    // ±YYYY-MM-DD: years, months (0–11) and days (0–30) in one.
    if (sign !== "+" && sign !== "-") return false;
    const ymd = digits(z, 1, n === 5 ? "40f-20a-20d" : "50f-20a-20d");
    if (ymd === undefined) return false;
    const base = n === 5 ? 0 : 1;
    const [Y, M] = [ymd[0]!, ymd[1]!];
    let D = ymd[2]!;
    if (M >= 12 || D >= 31) return false;
    computeYmdHms(p);
    p.validJD = false;
    if (sign === "-") {
      p.Y -= Y;
      p.M -= M;
      D = -D;
    } else {
      p.Y += Y;
      p.M += M;
    }
    normalizeMonth(p);
    computeFloor(p);
    computeJD(p);
    p.validHMS = false;
    p.validYMD = false;
    p.jd += D * DAY_MS;
    const rest = base + 11;
    if (rest >= z.length) return true;
    if (!isSpace(z[rest]) || digits(z, rest + 1, "20c:20e") === undefined) return false;
    timeAt = rest + 1;
    n = 2;
  }
  if (z[timeAt + n] === ":") {
    // ±HH:MM[:SS[.fff]]: a time of day added or taken away.
    const tx = moment();
    const from = isDigit(z[timeAt]) ? timeAt : timeAt + 1;
    if (!parseHhMmSs(z, from, tx)) return false;
    computeJD(tx);
    tx.jd -= 43_200_000;
    tx.jd -= idiv(tx.jd, DAY_MS) * DAY_MS;
    if (sign === "-") tx.jd = -tx.jd;
    computeJD(p);
    clearYmdHmsTz(p);
    p.jd += tx.jd;
    return true;
  }
  let at = n;
  while (isSpace(z[at])) at++;
  let unit = z.slice(at);
  if (unit.length < 3 || unit.length > 10) return false;
  unit = asciiLower(unit);
  if (unit.endsWith("s")) unit = unit.slice(0, -1);
  computeJD(p);
  const rounder = r < 0 ? -0.5 : 0.5;
  p.nFloor = 0;
  const entry = UNITS.findIndex(([name, limit]) => name === unit && r! > -limit && r! < limit);
  if (entry >= 0) {
    const [name, , seconds] = UNITS[entry]!;
    if (name === "month" || name === "year") {
      computeYmdHms(p);
      if (name === "month") {
        p.M += Math.trunc(r);
        normalizeMonth(p);
      } else {
        p.Y += Math.trunc(r);
      }
      computeFloor(p);
      p.validJD = false;
      r -= Math.trunc(r);
    }
    computeJD(p);
    p.jd += Math.trunc(r * 1000 * seconds + rounder);
  }
  clearYmdHmsTz(p);
  return entry >= 0;
}

/** SQLite's isDate: the moment of a time value and its modifiers, or undefined (NULL) for anything it refuses. */
function momentOf(args: readonly Value[]): Moment | undefined {
  const p = moment();
  const first = args[0];
  if (first === undefined) setToNow(p);
  else if (typeof first === "number") setRawNumber(p, first);
  else if (typeof first !== "string" || !parseDateOrTime(cString(first), p)) return undefined;
  for (let i = 1; i < args.length; i++) {
    const modifier = args[i];
    if (typeof modifier !== "string" || !applyModifier(cString(modifier), p, i)) return undefined;
  }
  computeJD(p);
  if (p.isError || !validJulianDay(p.jd)) return undefined;
  // A lone YYYY-MM-DD past the 28th is shown normalized (2023-02-31 is 2023-03-03).
  if (args.length === 1 && p.validYMD && p.D > 28) p.validYMD = false;
  return p;
}

/** The text as SQLite's C code reads it: up to its first NUL. */
function cString(text: string): string {
  const nul = text.indexOf("\0");
  return nul < 0 ? text : text.slice(0, nul);
}

const two = (n: number): string => String(n % 100).padStart(2, "0");

/** C's `%0Nd`: zero-padded to `width`, a minus sign counted in it. */
function zeroPad(n: number, width: number): string {
  const digits = String(Math.abs(n));
  return n < 0 ? `-${digits.padStart(width - 1, "0")}` : digits.padStart(width, "0");
}

function dateText(p: Moment): string {
  computeYMD(p);
  const year = String(Math.abs(p.Y) % 10000).padStart(4, "0");
  return `${p.Y < 0 ? "-" : ""}${year}-${two(p.M)}-${two(p.D)}`;
}

function timeText(p: Moment): string {
  computeHMS(p);
  if (!p.useSubsec) return `${two(p.h)}:${two(p.m)}:${two(Math.trunc(p.s))}`;
  const ms = Math.trunc(1000 * p.s + 0.5);
  return `${two(p.h)}:${two(p.m)}:${two(idiv(ms, 1000))}.${String(ms % 1000).padStart(3, "0")}`;
}

function unixSeconds(p: Moment): number {
  return p.useSubsec ? (p.jd - UNIX_EPOCH_JD_MS) / 1000 : idiv(p.jd, 1000) - UNIX_EPOCH_JD_MS / 1000;
}

/** C's `%.16g`, for %J. */
function general16(x: number): string {
  if (x === 0) return "0";
  const exponent = Number(x.toExponential(15).split("e")[1]);
  const strip = (s: string): string => (s.includes(".") ? s.replace(/\.?0+$/, "") : s);
  if (exponent < -4 || exponent >= 16) {
    const [mantissa = "", exp = "0"] = x.toExponential(15).split("e");
    const e = Number(exp);
    return `${strip(mantissa)}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  return strip(x.toFixed(15 - exponent));
}

function daysAfterJan01(p: Moment): number {
  const jan01 = { ...p, validJD: false, M: 1, D: 1 };
  computeJD(jan01);
  return idiv(p.jd - jan01.jd + 43_200_000, DAY_MS);
}

const daysAfterMonday = (p: Moment): number => idiv(p.jd + 43_200_000, DAY_MS) % 7;
const daysAfterSunday = (p: Moment): number => idiv(p.jd + 129_600_000, DAY_MS) % 7;

/** The Thursday of `p`'s ISO week, whose year is the ISO year. */
function isoThursday(p: Moment): Moment {
  const y = { ...p, jd: p.jd + (3 - daysAfterMonday(p)) * DAY_MS, validYMD: false };
  computeYMD(y);
  return y;
}

/** One strftime conversion, or undefined for a letter SQLite does not know (the whole result is then NULL). */
function conversion(letter: string | undefined, x: Moment): string | undefined {
  const hour12 = x.h > 12 ? x.h - 12 : x.h === 0 ? 12 : x.h;
  switch (letter) {
    case "d":
      return zeroPad(x.D, 2);
    case "e":
      return String(x.D).padStart(2, " ");
    case "f":
      return Math.min(x.s, 59.999).toFixed(3).padStart(6, "0");
    case "F":
      return `${zeroPad(x.Y, 4)}-${zeroPad(x.M, 2)}-${zeroPad(x.D, 2)}`;
    case "G":
      return zeroPad(isoThursday(x).Y, 4);
    case "g":
      return zeroPad(isoThursday(x).Y % 100, 2);
    case "H":
      return zeroPad(x.h, 2);
    case "k":
      return String(x.h).padStart(2, " ");
    case "I":
      return zeroPad(hour12, 2);
    case "l":
      return String(hour12).padStart(2, " ");
    case "j":
      return zeroPad(daysAfterJan01(x) + 1, 3);
    case "J":
      return general16(x.jd / DAY_MS);
    case "m":
      return zeroPad(x.M, 2);
    case "M":
      return zeroPad(x.m, 2);
    case "p":
      return x.h >= 12 ? "PM" : "AM";
    case "P":
      return x.h >= 12 ? "pm" : "am";
    case "R":
      return `${zeroPad(x.h, 2)}:${zeroPad(x.m, 2)}`;
    case "s":
      return x.useSubsec ? unixSeconds(x).toFixed(3) : String(unixSeconds(x));
    case "S":
      return zeroPad(Math.trunc(x.s), 2);
    case "T":
      return `${zeroPad(x.h, 2)}:${zeroPad(x.m, 2)}:${zeroPad(Math.trunc(x.s), 2)}`;
    case "u":
      return String(daysAfterSunday(x) || 7);
    case "w":
      return String(daysAfterSunday(x));
    case "U":
      return zeroPad(idiv(daysAfterJan01(x) - daysAfterSunday(x) + 7, 7), 2);
    case "V":
      return zeroPad(idiv(daysAfterJan01(isoThursday(x)), 7) + 1, 2);
    case "W":
      return zeroPad(idiv(daysAfterJan01(x) - daysAfterMonday(x) + 7, 7), 2);
    case "Y":
      return zeroPad(x.Y, 4);
    case "%":
      return "%";
    default:
      return undefined;
  }
}

export function date(...args: Value[]): string | null {
  const p = momentOf(args);
  return p === undefined ? null : dateText(p);
}

export function time(...args: Value[]): string | null {
  const p = momentOf(args);
  return p === undefined ? null : timeText(p);
}

export function datetime(...args: Value[]): string | null {
  const p = momentOf(args);
  return p === undefined ? null : `${dateText(p)} ${timeText(p)}`;
}

export function julianday(...args: Value[]): number | null {
  const p = momentOf(args);
  return p === undefined ? null : p.jd / DAY_MS;
}

export function unixepoch(...args: Value[]): number | null {
  const p = momentOf(args);
  return p === undefined ? null : unixSeconds(p);
}

export function strftime(format: Value, ...args: Value[]): string | null {
  const x = typeof format === "string" ? momentOf(args) : undefined;
  if (x === undefined) return null;
  computeYmdHms(x);
  const text = cString(format as string);
  let out = "";
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== "%") {
      out += text[i];
      continue;
    }
    const piece = conversion(text[++i], x);
    if (piece === undefined) return null;
    out += piece;
  }
  return out;
}
