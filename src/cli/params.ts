/**
 * SQL parameters given on the command line.
 *
 * An argument that is a JSON number, `true`, `false`, `null` or a JSON
 * string in double quotes is that value; anything else is text as typed. So
 * `42` is a number, `'"42"'` the text 42, and `Ada` the text Ada — the
 * server then checks each value against what its `?` is compared with or
 * written to (CONTRACT §5: text never silently becomes a number).
 */

import type { Value } from "../commands/types.js";
import { UsageError } from "./failure.js";

const JSON_SCALAR = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|"(?:[^"\\]|\\.)*")$/;

export function parseParam(text: string, index: number): Value {
  if (!JSON_SCALAR.test(text)) return text;
  let value: Value;
  try {
    value = JSON.parse(text) as Value;
  } catch {
    throw new UsageError(`parameter ${index + 1}: ${text} is not a valid JSON string`);
  }
  if (typeof value === "number" && !Number.isFinite(value)) throw new UsageError(`parameter ${index + 1}: ${text} is not a finite number`);
  return value;
}

export function parseParams(texts: readonly string[]): Value[] {
  return texts.map(parseParam);
}
