/**
 * SQLite's JSON functions over text documents (`planner/functions.ts`
 * types them; `json-codegen.ts` compiles their calls). Each takes SQL
 * values and a function name for its messages, and answers what SQLite
 * 3.45+ answers, with storedb's booleans: JSON `true`/`false` are TRUE and
 * FALSE here, and a boolean is written as `true`/`false` (SQLite has 1 and
 * 0 for both).
 *
 * A document that is not JSON is SQLite's "malformed JSON", a path the walk
 * cannot read "bad JSON path"; both are 400 `invalid_request`, raised as
 * the row is read, like any run-time error of a value.
 *
 * JSON values going into a document (json_array, json_object, json_quote,
 * json_group_array…) are written from SQL values by `encode`; a text that
 * is itself JSON — the result of a JSON function, SQLite's "JSON subtype" —
 * goes in as JSON instead: the compiler decides which from the argument's
 * expression (`json-codegen.ts`).
 */

import type { Value } from "../commands/types.js";
import { StoreError } from "../errors.js";
import { castValue } from "../planner/casts.js";
import { arrowPath, compilePath, type JsonPath } from "./json-path.js";
import { TooDeep, edit as editTree, parseTree, patch as patchTree, render, type EditMode } from "./json-edit.js";
import { BadJsonPath, MalformedJson, arrayLength, jsonTypeName, locate, minify, sqlValue, validate } from "./json-text.js";

/**
 * The scanner's errors as the statement's, named by `label` (`json_extract()`,
 * `->>`): "json_extract(): malformed JSON". Each function catches them
 * itself: a closure per call would cost a row its allocation.
 */
export function failure(label: string, error: unknown): unknown {
  if (error instanceof MalformedJson) return new StoreError("invalid_request", `${label}: malformed JSON`);
  if (error instanceof BadJsonPath) return new StoreError("invalid_request", `${label}: bad JSON path: '${error.message}'`);
  if (error instanceof TooDeep) return new StoreError("invalid_request", `${label}: ${error.message}`);
  return error;
}

const realText = (n: number): string => castValue(n, "real", "text") as string;

/**
 * Paths met at run time (from a column or a parameter) compiled once each,
 * the oldest dropped past the limit. A path longer than `CACHED_PATH_TEXT`
 * is compiled each time: 256 paths of 200 KB kept hundreds of MB, and so
 * long a path is rare enough that compiling it again costs little beside
 * the walk of its document.
 */
export class PathCache {
  private readonly paths = new Map<string, JsonPath>();

  get(key: string): JsonPath | undefined {
    return this.paths.get(key);
  }

  /** `path`, kept under `key` unless the key is too long to keep. */
  keep(key: string, path: JsonPath): JsonPath {
    if (key.length > CACHED_PATH_TEXT) return path;
    if (this.paths.size >= PATH_CACHE_LIMIT) this.paths.delete(this.paths.keys().next().value as string);
    this.paths.set(key, path);
    return path;
  }
}

const PATH_CACHE_LIMIT = 256;
const CACHED_PATH_TEXT = 1024;
const paths = new PathCache();
/** Right operands of `->`/`->>`, by kind and text (`1` the index, `'1'` the key). */
const arrows = new PathCache();

export function pathOf(text: string): JsonPath {
  return paths.get(text) ?? paths.keep(text, compilePath(text));
}

/** The path `->`/`->>` read from their right operand (`real`: it is typed real, so `1.0` is a key). */
export function arrowPathOf(operand: string | number, real: boolean): JsonPath {
  const key = `${typeof operand === "number" ? (real ? "r" : "n") : "t"}${operand}`;
  return arrows.get(key) ?? arrows.keep(key, compilePath(arrowPath(operand, real, realText), typeof operand === "number" ? (real ? realText(operand) : String(operand)) : operand));
}

const ROOT = compilePath("$");

/** `json_extract(doc, path)` and `->>`: the value's SQL value, NULL when there is none. */
export function extract(name: string, doc: string, path: JsonPath): Value {
  try {
    const span = locate(doc, path);
    return span.start < 0 ? null : sqlValue(doc, span);
  } catch (error) {
    throw failure(name, error);
  }
}

/** `->`: the value as minified JSON text, NULL when there is none. */
export function extractJson(name: string, doc: string, path: JsonPath): string | null {
  try {
    const span = locate(doc, path);
    return span.start < 0 ? null : minify(doc, span.start, span.end);
  } catch (error) {
    throw failure(name, error);
  }
}

/** `json_extract(doc, p1, p2, …)`: a JSON array of the values as written (null for none). */
export function extractMany(name: string, doc: string, list: readonly JsonPath[]): string {
  try {
    const items = list.map((path) => {
      const span = locate(doc, path);
      return span.start < 0 ? "null" : minify(doc, span.start, span.end);
    });
    return `[${items.join(",")}]`;
  } catch (error) {
    throw failure(name, error);
  }
}

/**
 * A single-path json_extract (`asJson`) or `->>` as an argument of a JSON
 * builder, as SQLite passes its value on: a scalar as its SQL value writes
 * it (`1.50` is the real 1.5, `1E2` the real `100.0`, a string decoded and
 * quoted again); an array or object as JSON from json_extract (SQLite's
 * JSON subtype), as a string of its text from `->>`.
 */
export function extractArgument(name: string, doc: string | null, path: JsonPath | null, asJson: boolean): string {
  if (doc === null || path === null) return "null";
  try {
    const span = locate(doc, path);
    if (span.start < 0) return "null";
    const c = doc.charCodeAt(span.start);
    if (c === 123 || c === 91) {
      const text = minify(doc, span.start, span.end);
      return asJson ? text : quoteText(text);
    }
    const value = sqlValue(doc, span);
    // An integer past 2^53 has no double of its own: its digits go on as written, as SQLite copies an int64 (one past int64 is a real there too).
    if (typeof value === "number" && !Number.isSafeInteger(value) && isInt64Text(doc, span.start, span.end)) return doc.slice(span.start, span.end);
    return encode(value, jsonTypeName(doc, span.start, span.end) === "real");
  } catch (error) {
    throw failure(name, error);
  }
}

/**
 * A table function's value (json_each's `value`, `atom`, `key`) as an
 * argument of a JSON builder, as SQLite passes it on: an array or object
 * as JSON (its JSON subtype), a real as a real, by the row's `type`
 * (`null` for `key`, whose type is not the value's); NULL is JSON null.
 */
export function cellArgument(value: Value, type: Value): string {
  // `atom` is NULL on a container's row, whose type is the container's: JSON null, as SQLite passes a NULL.
  if (value === null) return "null";
  if (type === "object" || type === "array") return value as string;
  return encode(value, type === "real");
}

/**
 * A table function's value where a JSON document is read, as SQLite reads
 * the value's text: a text as it is (an array's or object's is JSON; a
 * string's is read as JSON text, `'12'` the number), a number or boolean
 * as JSON (a real by the row's `type`), NULL as NULL.
 */
export function cellDocument(value: Value, type: Value): string | null {
  if (value === null || typeof value === "string") return value;
  return encode(value, type === "real");
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Whether `doc[start, end)` is a JSON integer (no fraction, no exponent) within SQLite's int64. */
function isInt64Text(doc: string, start: number, end: number): boolean {
  const text = doc.slice(start, end);
  if (!/^-?\d+$/.test(text)) return false;
  const n = BigInt(text);
  return n >= INT64_MIN && n <= INT64_MAX;
}

export function json(name: string, doc: string): string {
  try {
    const span = locate(doc, ROOT);
    return minify(doc, span.start, span.end);
  } catch (error) {
    throw failure(name, error);
  }
}

/**
 * `json_valid(x [, flags])`: SQLite's flags say which forms count — 1 RFC
 * 8259 text, 2 JSON5 text, 4 and 8 JSONB. Only text is read here, and only
 * RFC 8259, so text is valid under 1 or 2 when it is JSON, never under 4
 * or 8 alone.
 */
export function valid(doc: string, flags: Value = 1): boolean {
  const forms = typeof flags === "number" ? Math.trunc(flags) : NaN;
  if (!(forms >= 1 && forms <= 15)) throw new StoreError("invalid_request", "FLAGS parameter to json_valid() must be between 1 and 15");
  if ((forms & 3) === 0) return false;
  try {
    validate(doc);
    return true;
  } catch (error) {
    if (error instanceof MalformedJson) return false;
    throw error;
  }
}

export function type(name: string, doc: string, path: JsonPath = ROOT): string | null {
  try {
    const span = locate(doc, path);
    return span.start < 0 ? null : jsonTypeName(doc, span.start, span.end);
  } catch (error) {
    throw failure(name, error);
  }
}

export function length(name: string, doc: string, path: JsonPath = ROOT): number | null {
  try {
    const span = locate(doc, path);
    return span.start < 0 ? null : arrayLength(doc, span.start);
  } catch (error) {
    throw failure(name, error);
  }
}

// JSON.stringify's escapes, except that SQLite writes other control characters as \u00XX and leaves U+2028/U+2029 alone (as JSON.stringify does).
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

/** A text as a JSON string, escaped as SQLite escapes it. */
export function quoteText(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/**
 * A SQL value as a JSON value: a text quoted, a number as CAST writes it
 * (a real as `2.0`: `real` says the value is typed real), a boolean as
 * `true`/`false`, NULL as `null`.
 */
export function encode(value: Value, real: boolean): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return quoteText(value);
    case "boolean":
      return value ? "true" : "false";
    default:
      // JSON has no infinity: SQLite writes an overflow as a number that reads back as one.
      if (value === Infinity || value === -Infinity) return value > 0 ? "9.0e+999" : "-9.0e+999";
      return real || !Number.isSafeInteger(value) ? realText(value) : String(value);
  }
}

/** `json_array(…)`: its arguments already written as JSON. */
export function array(...items: string[]): string {
  return `[${items.join(",")}]`;
}

/** One `"name":value` of an object: the name a text (a NULL one is SQLite's error), the value already written as JSON. */
export function member(name: Value, value: string): string {
  if (typeof name !== "string") throw new StoreError("invalid_request", "JSON object labels must be TEXT, got NULL");
  return `${quoteText(name)}:${value}`;
}

/** `json_object(k, v, …)`: names and values in turn (values already written as JSON). */
export function object(...members: Value[]): string {
  const out: string[] = [];
  for (let i = 0; i < members.length; i += 2) out.push(member(members[i]!, members[i + 1] as string));
  return `{${out.join(",")}}`;
}

/**
 * json_set, json_insert, json_replace (`pairs`: path, value written as
 * JSON, …; a NULL path is skipped, as SQLite does) and json_remove (paths
 * only; the compiler makes a NULL path a NULL result).
 */
export function edit(label: string, mode: EditMode, doc: string, pairs: readonly (JsonPath | string | null)[]): string | null {
  try {
    let root: ReturnType<typeof editTree> = parseTree(doc);
    const step = mode === "remove" ? 1 : 2;
    for (let i = 0; i < pairs.length && root !== null; i += step) {
      const path = pairs[i] as JsonPath | null;
      if (path !== null) root = editTree(root, path, mode, mode === "remove" ? undefined : parseTree(pairs[i + 1] as string));
    }
    return root === null ? null : render(root);
  } catch (error) {
    throw failure(label, error);
  }
}

export function patch(label: string, doc: string, with_: string): string {
  try {
    return render(patchTree(parseTree(doc), parseTree(with_)));
  } catch (error) {
    throw failure(label, error);
  }
}
