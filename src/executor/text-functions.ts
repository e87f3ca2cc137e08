/**
 * Functions that write their arguments as text, which is why the compiled
 * call hands them each argument's static type: a real column's 3 is `3.0`,
 * as CAST writes it (`planner/casts.ts`). NULL is theirs to handle.
 */

import type { Value } from "../commands/types.js";
import type { StaticType } from "../planner/plan.js";
import { castValue, formatReal } from "../planner/casts.js";

function text(value: Value, type: StaticType): string {
  return castValue(value, type, "text") as string;
}

/** concat(a, …): the arguments as text, one after another, NULL ones left out (all NULL: ''), as SQLite 3.44. */
export function concat(types: readonly StaticType[], ...values: Value[]): string {
  let out = "";
  for (let i = 0; i < values.length; i++) if (values[i] !== null) out += text(values[i]!, types[i]!);
  return out;
}

/** concat_ws(separator, a, …): the non-NULL arguments joined by the separator; NULL when the separator is. */
export function concatWs(types: readonly StaticType[], separator: Value, ...values: Value[]): string | null {
  if (separator === null) return null;
  const parts: string[] = [];
  for (let i = 0; i < values.length; i++) if (values[i] !== null) parts.push(text(values[i]!, types[i + 1]!));
  return parts.join(text(separator, types[0]!));
}

/** quote(x): x as an SQL literal that reads back as the same value ('it''s', 3, 3.0, TRUE, NULL). */
export function quote(types: readonly StaticType[], value: Value): string {
  if (value === null) return "NULL";
  if (typeof value === "string") return `'${value.replaceAll("'", "''")}'`;
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  // An overflow as a literal that reads back as one (SQLite's), not CAST's 'Inf'.
  if (!Number.isFinite(value) && !Number.isNaN(value)) return value > 0 ? "9.0e+999" : "-9.0e+999";
  return types[0] !== "real" && Number.isSafeInteger(value) ? String(value) : formatReal(value);
}
