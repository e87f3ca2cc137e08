/**
 * JSON documents as SQLite's JSON functions read them: RFC 8259 text,
 * validated whole and walked in place, without building objects.
 *
 * SQLite keeps a document's text as written — numbers as their digits
 * (`1.50`, `1e2`), strings with their escapes, every member of an object
 * even when names repeat (a lookup finds the first) — and only takes out
 * white space. `JSON.parse` keeps none of that, so this module scans the
 * text itself: `locate` validates the whole document and finds a path's
 * value in the same pass, as a span of the text; the callers turn the span
 * into a SQL value (`sqlValue`), minified JSON text (`minify`) or a type
 * name. The text validated last is remembered until the statement ends,
 * so the next lookup in it (the same row's next function) stops at its
 * answer. Nesting deeper than
 * SQLite's 1,000 levels is malformed, as there.
 *
 * JSON5 (comments, unquoted names, trailing commas…), which SQLite also
 * reads, is malformed here (docs/decisions.md).
 */

import type { JsonPath } from "./json-path.js";

/** The document is not JSON; `json-functions.ts` reports it as SQLite's "malformed JSON". */
export class MalformedJson extends Error {}
/** A path step the walk reached is malformed: SQLite's "bad JSON path". */
export class BadJsonPath extends Error {}

/** SQLite's JSON_MAX_DEPTH: containers nested deeper are malformed, and an edit may make none deeper (`json-edit.ts`). */
export const MAX_DEPTH = 1000;

export function malformed(): never {
  throw new MalformedJson("malformed JSON");
}

/** The first position from `i` that is not JSON white space. Small, so the compiler inlines it: most tokens have no space before them. */
export function skipSpace(t: string, i: number): number {
  return t.charCodeAt(i) > 32 ? i : skipSpaceRun(t, i);
}

function skipSpaceRun(t: string, i: number): number {
  for (;;) {
    const c = t.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) {
      i++;
      spaced = true;
    } else return i;
  }
}

/** Set by `skipSpaceRun` when it skips any white space: whether the text validated has some (its values then need `minify`). */
let spaced = false;

/** Forgets the white space seen so far: `spaceSeen` then says whether the values skipped after have some. */
export function clearSpace(): void {
  spaced = false;
}

export function spaceSeen(): boolean {
  return spaced;
}

const isHex = (c: number): boolean => (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 102);

/** Set by `skipString`: whether the string it read holds an escape. */
let escaped = false;

/** Whether the string `skipString` read last holds an escape (to decode). */
export function stringEscaped(): boolean {
  return escaped;
}

/** The end of the string whose quote is at `i`. */
export function skipString(t: string, i: number): number {
  escaped = false;
  for (i++; ; ) {
    const c = t.charCodeAt(i);
    // Most characters are plain: one test, then the quote, the escape, and what may not stand raw.
    if (c > 34 && c !== 92) i++;
    else if (c === 34) return i + 1;
    else if (c === 92) {
      escaped = true;
      const e = t.charCodeAt(i + 1);
      if (e === 117 /* u */) {
        if (!(isHex(t.charCodeAt(i + 2)) && isHex(t.charCodeAt(i + 3)) && isHex(t.charCodeAt(i + 4)) && isHex(t.charCodeAt(i + 5)))) malformed();
        i += 6;
      } else if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) i += 2;
      else malformed();
    } else if (c >= 32) i++;
    else malformed(); // a raw control character, or the end of the text (NaN)
  }
}

function skipDigits(t: string, i: number): number {
  const from = i;
  for (let c = t.charCodeAt(i); c >= 48 && c <= 57; c = t.charCodeAt(++i));
  if (i === from) malformed();
  return i;
}

function skipNumber(t: string, i: number): number {
  if (t.charCodeAt(i) === 45) i++;
  if (t.charCodeAt(i) === 48) i++;
  else i = skipDigits(t, i);
  if (t.charCodeAt(i) === 46) i = skipDigits(t, i + 1);
  const e = t.charCodeAt(i);
  if (e === 101 || e === 69) {
    i++;
    const sign = t.charCodeAt(i);
    if (sign === 43 || sign === 45) i++;
    i = skipDigits(t, i);
  }
  return i;
}

function skipWord(t: string, i: number, word: string): number {
  if (!t.startsWith(word, i)) malformed();
  return i + word.length;
}

/** The end of the scalar (string, number, literal) whose first character `c` is at `i`, validated. */
function skipScalar(t: string, i: number, c: number): number {
  switch (c) {
    case 34:
      return skipString(t, i);
    case 116:
      return skipWord(t, i, "true");
    case 102:
      return skipWord(t, i, "false");
    case 110:
      return skipWord(t, i, "null");
    default:
      if (c === 45 || (c >= 48 && c <= 57)) return skipNumber(t, i);
      return malformed();
  }
}

/** The kind of each open container of `skipValue` (1: object), by depth: one array for every call, as calls never nest. */
const OPEN = new Uint8Array(MAX_DEPTH + 1);

/**
 * The end of the value starting at `i` (no space before it), validated;
 * `depth`: how deep it stands. One loop over the tokens with a stack of
 * open containers, not a call per value: most of a lookup's time is here.
 */
export function skipValue(t: string, i: number, depth: number): number {
  let c = t.charCodeAt(i);
  let open = 0;
  for (;;) {
    if (c === 123 || c === 91) {
      if (depth + open >= MAX_DEPTH) malformed();
      const object = c === 123;
      OPEN[open++] = object ? 1 : 0;
      i = skipSpace(t, i + 1);
      c = t.charCodeAt(i);
      if (c !== (object ? 125 : 93)) {
        if (object) {
          i = skipName(t, i);
          c = t.charCodeAt(i);
        }
        continue;
      }
      i++;
      open--;
    } else i = skipScalar(t, i, c);
    // After a value: close what ends here, or go on to the next member or element.
    for (;;) {
      if (open === 0) return i;
      i = skipSpace(t, i);
      c = t.charCodeAt(i);
      const object = OPEN[open - 1] === 1;
      if (c === 44) {
        i = skipSpace(t, i + 1);
        if (object) i = skipName(t, i);
        c = t.charCodeAt(i);
        break;
      }
      if (c !== (object ? 125 : 93)) malformed();
      i++;
      open--;
    }
  }
}

/** Reads `"name":` of an object member at `i` (after space); returns where its value starts. */
function skipName(t: string, i: number): number {
  if (t.charCodeAt(i) !== 34) malformed();
  i = skipSpace(t, skipString(t, i));
  if (t.charCodeAt(i) !== 58) malformed();
  return skipSpace(t, i + 1);
}

/** After a member or element at `i`: the start of the next one, or -(end + 1) when the container closes. */
function nextItem(t: string, i: number, close: number): number {
  i = skipSpace(t, i);
  const c = t.charCodeAt(i);
  if (c === 44) return skipSpace(t, i + 1);
  if (c === close) return -(i + 2);
  return malformed();
}

/** Throws `MalformedJson` unless `t` is one JSON value, with space around it at most. */
export function validate(t: string): void {
  if (t === lastValid) return;
  spaced = false;
  const start = skipSpace(t, 0);
  if (skipSpace(t, skipValue(t, start, 0)) !== t.length) malformed();
  remember(t);
}

/** `validate(t)`, then whether `t` holds any white space outside its strings (its values' text is then `minify`'s, else slices of it). */
export function validateSpaced(t: string): boolean {
  validate(t);
  return lastSpaced;
}

/** A value's place in its document: `start` < 0 when the path found none. */
export interface Span {
  start: number;
  end: number;
  /** A string value with escapes in it (to decode). */
  escaped: boolean;
}

/**
 * The document validated last. Another lookup in it — the next function
 * of the same row's document, as in `SELECT doc ->> 'a', doc ->> 'b'` —
 * need not validate it again, and stops once the path has its answer
 * (SQLite keeps its last parsed documents for the same reason).
 */
let lastValid: string | undefined;
/** Whether `lastValid` holds white space outside its strings. */
let lastSpaced = false;

function remember(t: string): void {
  lastValid = t;
  lastSpaced = spaced;
}

/** Lets go of the remembered document (the engine calls it as each statement ends), so a large one lives no longer than its statement. */
export function forgetDocument(): void {
  lastValid = undefined;
}

/** The walk in progress (one at a time: nothing here calls back out), and its answer, reused so a lookup allocates nothing. */
let text = "";
let steps: JsonPath["steps"] = [];
let badPath = false;
/** Walking a document known valid: stop at the answer (`done`) instead of reading on to validate. */
let known = false;
let done = false;
const found: Span = { start: -1, end: -1, escaped: false };

/**
 * Validates `t` and finds `path`'s value in it, in one pass: the members
 * and elements off the path are validated as they are skipped. Throws
 * `MalformedJson` for a document that is not JSON (whatever the path), then
 * `BadJsonPath` for a malformed step the walk reached. The span is valid
 * until the next call. `valid`: `t` is known to be JSON (`json-table.ts`
 * walks a minified copy of a document validated already).
 */
export function locate(t: string, path: JsonPath, valid = t === lastValid): Readonly<Span> {
  text = t;
  steps = path.steps;
  badPath = false;
  known = valid;
  spaced = false;
  done = false;
  found.start = -1;
  const start = skipSpace(t, 0);
  const end = walk(start, 0, 0);
  if (!known) {
    if (skipSpace(t, end) !== t.length) malformed();
    remember(t);
  }
  if (badPath) throw new BadJsonPath(path.text);
  return found;
}

/** Skips the value at `i`; `step`: the path step it is matched against (-1: off the path; the path's length: it is the value). */
function walk(i: number, step: number, depth: number): number {
  const t = text;
  if (step < 0) return skipValue(t, i, depth);
  if (step === steps.length) {
    const end = skipValue(t, i, depth);
    found.start = i;
    found.end = end;
    found.escaped = escaped;
    done = known;
    return end;
  }
  const s = steps[step]!;
  const c = t.charCodeAt(i);
  switch (s.kind) {
    case "error":
      if (!s.arrayOnly || c === 91) {
        badPath = true;
        done = known; // validation, when it runs, reads on: a malformed document outranks a bad path
      }
      return skipValue(t, i, depth);
    case "key":
      return c === 123 ? member(i, s.key, step, depth) : skipValue(t, i, depth);
    case "index":
    case "from-end":
      return c === 91 ? element(i, s, step, depth) : skipValue(t, i, depth);
  }
}

function member(i: number, key: string, step: number, depth: number): number {
  const t = text;
  if (depth >= MAX_DEPTH) malformed();
  i = skipSpace(t, i + 1);
  if (t.charCodeAt(i) === 125) return i + 1;
  let matched = false;
  for (;;) {
    if (t.charCodeAt(i) !== 34) malformed();
    const nameEnd = skipString(t, i);
    const match: boolean = !matched && nameIs(t, i, nameEnd, key);
    let at = skipSpace(t, nameEnd);
    if (t.charCodeAt(at) !== 58) malformed();
    at = skipSpace(t, at + 1);
    const end = walk(at, match ? step + 1 : -1, depth + 1);
    // In a known document the first match decides: found or not, nothing after it counts.
    if (done || (match && known)) return (done = true), end;
    i = nextItem(t, end, 125);
    matched ||= match;
    if (i < 0) return -i - 1;
  }
}

function element(i: number, s: Extract<JsonPath["steps"][number], { kind: "index" | "from-end" }>, step: number, depth: number): number {
  const t = text;
  if (depth >= MAX_DEPTH) malformed();
  const starts: number[] | undefined = s.kind === "from-end" ? [] : undefined;
  const wanted = s.kind === "index" ? s.index : -1;
  i = skipSpace(t, i + 1);
  let end: number;
  if (t.charCodeAt(i) === 93) end = i + 1;
  else {
    for (let k = 0; ; k++) {
      starts?.push(i);
      const at = walk(i, k === wanted ? step + 1 : -1, depth + 1);
      if (done || (k === wanted && known)) return (done = true), at;
      i = nextItem(t, at, 93);
      if (i < 0) break;
    }
    end = -i - 1;
  }
  // `[#-n]`: the element is known once the array is counted; it was validated on the way, so walking it again is cheap.
  if (starts !== undefined && s.kind === "from-end" && s.back > 0 && s.back <= starts.length) walk(starts[starts.length - s.back]!, step + 1, depth + 1);
  return end;
}

/** Whether the string `t[from, to)` (quotes included) is `key`, decoded. */
function nameIs(t: string, from: number, to: number, key: string): boolean {
  if (!escaped) return to - from - 2 === key.length && t.startsWith(key, from + 1);
  return decodeString(t, from, to) === key;
}

/** The text of the JSON string `t[from, to)` (quotes included); a lone surrogate escape becomes U+FFFD (no text here holds one). */
export function decodeString(t: string, from: number, to: number): string {
  return (JSON.parse(t.slice(from, to)) as string).replace(LONE_SURROGATE, "\uFFFD");
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `t[from, to)` without the white space between tokens: SQLite's form of a JSON value it returns. */
export function minify(t: string, from: number, to: number): string {
  let out = "";
  let run = from;
  for (let i = from; i < to; i++) {
    const c = t.charCodeAt(i);
    if (c === 34) i = skipString(t, i) - 1;
    else if (c === 32 || c === 10 || c === 13 || c === 9) {
      out += t.slice(run, i);
      run = i + 1;
    }
  }
  return run === from ? t.slice(from, to) : out + t.slice(run, to);
}

/**
 * The JSON number `t[from, to)` as a double (a number past the double
 * range is NULL: no column holds it). A short integer is read from its
 * digits, without a string cut out for `Number`.
 */
function numberValue(t: string, from: number, to: number): number | null {
  const negative = t.charCodeAt(from) === 45;
  if (to - from <= (negative ? 16 : 15)) {
    let n = 0;
    let i = negative ? from + 1 : from;
    for (; i < to; i++) {
      const d = t.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      n = n * 10 + d;
    }
    if (i === to) return negative ? 0 - n : n; // 0 - 0 is 0: -0 reads as SQLite's integer 0
  }
  const n = Number(t.slice(from, to));
  return Number.isFinite(n) ? n + 0 : null;
}

/** The SQL value of the JSON value `t[from, to)`: a string's text, a number, a boolean, NULL, or an array's or object's JSON text. */
export function sqlValue(t: string, span: Span): string | number | boolean | null {
  const { start, end } = span;
  switch (t.charCodeAt(start)) {
    case 34:
      return span.escaped ? decodeString(t, start, end) : t.slice(start + 1, end - 1);
    case 116:
      return true;
    case 102:
      return false;
    case 110:
      return null;
    case 123:
    case 91:
      return minify(t, start, end);
    default:
      return numberValue(t, start, end);
  }
}

/** SQLite's json_type() names: object, array, text, integer, real, true, false, null. */
export function jsonTypeName(t: string, start: number, end: number): string {
  switch (t.charCodeAt(start)) {
    case 123:
      return "object";
    case 91:
      return "array";
    case 34:
      return "text";
    case 116:
      return "true";
    case 102:
      return "false";
    case 110:
      return "null";
    default:
      for (let i = start; i < end; i++) {
        const c = t.charCodeAt(i);
        if (c === 46 || c === 101 || c === 69) return "real";
      }
      return "integer";
  }
}

/** The number of elements of the array at `start` (a valid value); 0 for anything else, as SQLite's json_array_length. */
export function arrayLength(t: string, start: number): number {
  if (t.charCodeAt(start) !== 91) return 0;
  let i = skipSpace(t, start + 1);
  if (t.charCodeAt(i) === 93) return 0;
  for (let n = 1; ; n++) {
    i = nextItem(t, skipValue(t, i, 0), 93);
    if (i < 0) return n;
  }
}
