/**
 * The four column types as value rules (CONTRACT §3): `integer` is a safe
 * integer, `real` a finite number, `text` a string, `boolean` a boolean.
 * Nothing is coerced: 1.5 or 2^53 in an integer column is rejected.
 */

import type { ColumnType, Value } from "../commands/types.js";

const COLUMN_TYPES: readonly ColumnType[] = ["text", "integer", "real", "boolean"];

export function isColumnType(value: unknown): value is ColumnType {
  return typeof value === "string" && (COLUMN_TYPES as readonly string[]).includes(value);
}

/** Whether a non-null value fits a column type. */
export function fitsType(value: Value, type: ColumnType): boolean {
  switch (type) {
    case "text":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isSafeInteger(value);
    case "real":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
  }
}

export function describeValue(value: unknown): string {
  if (typeof value === "string") return value.length > 40 ? "a text" : JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  return Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : typeof value;
}
