/**
 * CSV text to typed values: what a column's type makes of a field, and
 * what type a column's fields suggest when `import` creates the table.
 *
 * Converting is lenient where nothing is lost (`007` into an integer column
 * is 7, `TRUE` into a boolean one is true) and otherwise leaves the text as
 * it is, so the engine refuses the row with its own `type` error naming the
 * column and row. An empty field is NULL (`csv.ts`).
 *
 * Inferring is strict, so a created table never changes what the file
 * says: a column is integer only if every field is a canonical integer (no
 * leading zeros: `007` is an identifier, not a number) within 2^53, real if
 * every field is a decimal number of that shape (`0.5`, `-3`, `1e6`),
 * boolean if every field is `true` or `false`, and text otherwise, also
 * when it has no values at all (`csv-types.ts` applies these rules to a
 * file's bytes). JSON Lines carry their own types: a column
 * is what its values are (integers and reals mix as real); values of two
 * kinds in one column are refused before anything is written.
 */

import type { ColumnType, Value } from "../../commands/types.js";
import { StoreError } from "../../errors.js";

const CANONICAL_INTEGER = /^-?(?:0|[1-9]\d*)$/;
const CANONICAL_REAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const ANY_INTEGER = /^[+-]?\d+$/;
const ANY_REAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

export type FieldConverter = (text: string) => Value;

function toInteger(text: string): Value {
  if (text === "") return null;
  if (!ANY_INTEGER.test(text)) return text;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

function toReal(text: string): Value {
  if (text === "") return null;
  if (!ANY_REAL.test(text)) return text;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

function toBoolean(text: string): Value {
  if (text === "") return null;
  const lower = text.toLowerCase();
  return lower === "true" ? true : lower === "false" ? false : text;
}

function toText(text: string): Value {
  return text === "" ? null : text;
}

/** What a CSV field becomes in a column of `type`. */
export function fieldConverter(type: ColumnType): FieldConverter {
  switch (type) {
    case "integer":
      return toInteger;
    case "real":
      return toReal;
    case "boolean":
      return toBoolean;
    case "text":
      return toText;
  }
}

/** A column's inferred type so far: `undefined` while it has only empty fields. */
export type Seen = ColumnType | undefined;

/** The type a CSV field's text suggests on its own (`csv-types.ts` reads most fields' shapes from their bytes, and asks this for the rest). */
export function classify(text: string): ColumnType {
  if (text === "true" || text === "false") return "boolean";
  if (CANONICAL_INTEGER.test(text)) return Number.isSafeInteger(Number(text)) ? "integer" : "text";
  if (CANONICAL_REAL.test(text)) return Number.isFinite(Number(text)) ? "real" : "text";
  return "text";
}

/** A column's type after one more value of type `next`. */
export function join(seen: Seen, next: ColumnType): ColumnType {
  if (seen === undefined || seen === next) return next;
  if ((seen === "integer" && next === "real") || (seen === "real" && next === "integer")) return "real";
  return "text";
}

function jsonKind(value: unknown): ColumnType | "other" {
  switch (typeof value) {
    case "string":
      return "text";
    case "boolean":
      return "boolean";
    case "number":
      return Number.isSafeInteger(value) ? "integer" : "real";
    default:
      return "other";
  }
}

/** Infers JSON Lines columns (in first-seen order) and their types from every record. */
export class JsonInference {
  readonly #seen = new Map<string, Seen>();

  /** `record` is the parsed object of data record `index` (0-based). */
  observe(record: Readonly<Record<string, unknown>>, index: number): void {
    for (const key of Object.keys(record)) {
      const value = record[key];
      const state = this.#seen.get(key);
      if (value === null) {
        if (!this.#seen.has(key)) this.#seen.set(key, undefined);
        continue;
      }
      const kind = jsonKind(value);
      if (kind === "other") throw new StoreError("validation_failed", `Record ${index + 1}: "${key}" holds ${Array.isArray(value) ? "an array" : "an object"}; a column holds text, numbers or booleans.`, { errors: [{ row: index, column: key, code: "type", message: "not a scalar" }] });
      const numeric = (state === "integer" || state === "real") && (kind === "integer" || kind === "real");
      if (state !== undefined && state !== kind && !numeric) {
        throw new StoreError("validation_failed", `Record ${index + 1}: "${key}" holds ${kind === "text" ? "text" : `a ${kind}`} after values of type ${state}; create the table first to choose its type.`, {
          errors: [{ row: index, column: key, code: "type", message: `mixed ${state} and ${kind}` }],
        });
      }
      this.#seen.set(key, join(state, kind));
    }
  }

  columns(): [string, ColumnType][] {
    return [...this.#seen].map(([name, type]) => [name, type ?? "text"]);
  }
}
