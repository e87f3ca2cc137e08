/**
 * Checks parameter values against what the plan says each slot must hold.
 * A comparison slot with the wrong type is 400 `type_mismatch` (the same as
 * a literal of that type would be); slots written into columns are checked
 * with the row, as 422 `validation_failed`.
 */

import type { Value } from "../commands/types.js";
import { SqlError, StoreError } from "../errors.js";
import type { ParamUse } from "../planner/plan.js";

function family(value: Value): string {
  return typeof value === "number" ? "number" : typeof value === "string" ? "text" : "boolean";
}

/**
 * A statement takes as many parameters as its highest parameter number
 * (`?3` alone takes three, `?, ?` two): the message says which numbers, so
 * it is true of `?NNN` and of plain `?` alike.
 */
export function paramCountError(taken: number, given: number): SqlError {
  const takes = taken === 0 ? "no parameters" : taken === 1 ? "1 parameter (?1)" : `${taken} parameters (?1 to ?${taken})`;
  return new SqlError("sql_error", `The statement takes ${takes} but ${given} ${given === 1 ? "was" : "were"} given`);
}

export function checkParams(uses: readonly ParamUse[], values: readonly Value[]): void {
  if (values.length !== uses.length) throw paramCountError(uses.length, values.length);
  for (let i = 0; i < uses.length; i++) {
    const use = uses[i] as ParamUse;
    const value = values[i] as Value;
    if (use.kind === "count") {
      // CONTRACT §11: a bound LIMIT or OFFSET is an integer ≥ 0 (SQL's literal `LIMIT -1` is lowered away before this).
      if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw new StoreError("invalid_request", `${use.clause} must be an integer ≥ 0`);
      continue;
    }
    if (use.kind === "frame-offset") {
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || (use.whole && !Number.isSafeInteger(value))) {
        throw new StoreError("invalid_request", `Parameter ${i + 1} is a window frame's offset and must be ${use.whole ? "an integer" : "a number"} ≥ 0`);
      }
      continue;
    }
    if (value === null) continue;
    if (use.kind === "compare") {
      const want = use.type === "integer" || use.type === "real" ? "number" : use.type;
      if (family(value) !== want) {
        throw new StoreError("type_mismatch", `Parameter ${i + 1} is compared with ${use.type} but is ${family(value)}`);
      }
    } else if (use.kind === "operand") {
      if (family(value) !== use.family) {
        throw new StoreError("type_mismatch", `Parameter ${i + 1} is an operand of ${use.of} and must be ${use.family === "text" ? "a text" : `a ${use.family}`}, but is ${family(value)}`);
      }
    } else if (use.kind === "escape") {
      if (typeof value !== "string" || [...value].length !== 1) {
        throw new StoreError("invalid_request", `Parameter ${i + 1} is an ESCAPE and must be one character`);
      }
    } else if (use.kind === "compare-param") {
      const other = values[use.with] as Value;
      if (other !== null && family(other) !== family(value)) {
        throw new StoreError("type_mismatch", `Parameter ${i + 1} (${family(value)}) is compared with parameter ${use.with + 1} (${family(other)})`);
      }
    }
  }
}
