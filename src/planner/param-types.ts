/**
 * SQL parameters bind as the literals they hold (CONTRACT §11: a JSON
 * literal is an integer when integral): `? / 2` with 7 is 3, with 7.5 is
 * 3.75, and `? % ?` with -5 and -9.75 is the real -5.0. A value alone cannot
 * carry that through a computation (the JS number -5 does not remember it
 * came from a real), so a SQL statement is bound once per combination of
 * its parameters' types — the types of the ones in expressions, which are
 * the only ones whose type changes the plan (insert values, `set` values,
 * LIMIT/OFFSET and ESCAPE are checked as values) — with each such slot
 * typed as its literal, exactly as the JSON plan cache types its slots.
 *
 * `expressionSlots` finds those slots once per statement; `signatureOf`
 * names a combination of their types (a number, no string built, for up to
 * 20 slots); `withParamTypes` writes the types into the lowered command.
 */

import type { Command, ParamSlot, Value } from "../commands/types.js";
import type { SourceSpans } from "./source-spans.js";

type SlotType = NonNullable<ParamSlot["literal"]>;

const TYPES: readonly SlotType[] = ["null", "text", "integer", "real", "boolean"];

function typeCode(v: Value): number {
  if (v === null) return 0;
  switch (typeof v) {
    case "string":
      return 1;
    case "number":
      return Number.isInteger(v) ? 2 : 3;
    case "boolean":
      return 4;
    default:
      return 0;
  }
}

/**
 * The members of a command that hold expressions (where parameter types
 * matter), a derived table's select and a compound's other selects whole
 * among them. In `set` (an
 * update's, or an insert's `onConflict.set`), a bare slot is a value written
 * as is; only the values that are expressions count.
 */
const EXPRESSION_MEMBERS = ["from", "select", "where", "columns", "joins", "groupBy", "having", "compound", "orderBy", "returning", "set", "setRows", "onConflict", "command"] as const;

/** A `set`'s expressions: its values that are neither scalars nor a bare parameter slot. */
function setExpressions(set: unknown, visit: (expr: unknown) => unknown): unknown {
  if (typeof set !== "object" || set === null) return set;
  const record = set as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (typeof value !== "object" || value === null || (value as { type?: unknown }).type === "param") continue;
    const next = visit(value);
    if (next !== value) {
      out ??= Object.fromEntries(Object.keys(record).map((k) => [k, record[k]]));
      Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
    }
  }
  return out ?? set;
}

/** Calls `visit` for every parameter slot inside the expressions of `node` (not ESCAPE's). */
function eachSlot(node: unknown, visit: (slot: ParamSlot) => ParamSlot | undefined, spans?: SourceSpans): unknown {
  if (Array.isArray(node)) {
    let changed = false;
    const out = node.map((item) => {
      const next = eachSlot(item, visit, spans);
      if (next !== item) changed = true;
      return next;
    });
    if (changed) spans?.copied(node, out);
    return changed ? out : node;
  }
  if (typeof node !== "object" || node === null) return node;
  const record = node as Record<string, unknown>;
  if (record["type"] === "param" && typeof record["index"] === "number") return visit(record as unknown as ParamSlot) ?? node;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    if (key === "escape") continue;
    const next = eachSlot(record[key], visit, spans);
    if (next !== record[key]) (out ??= { ...record })[key] = next;
  }
  if (out !== undefined) spans?.copied(record, out);
  return out ?? node;
}

function expressionParts(command: Command): unknown[] {
  const record = command as unknown as Record<string, unknown>;
  const parts: unknown[] = [];
  for (const member of EXPRESSION_MEMBERS) {
    const part = record[member];
    if (part === undefined) continue;
    const collect = (expr: unknown): unknown => {
      parts.push(expr);
      return expr;
    };
    if (member === "command") parts.push(expressionParts(part as Command));
    else if (member === "set") setExpressions(part, collect);
    else if (member === "onConflict") {
      setExpressions((part as { set?: unknown }).set, collect);
      if ((part as { where?: unknown }).where !== undefined) parts.push((part as { where?: unknown }).where);
    }
    else parts.push(part);
  }
  return parts;
}

/** The parameters (by index, ascending) that stand inside expressions of a lowered statement. */
export function expressionSlots(command: Command): number[] {
  const found = new Set<number>();
  eachSlot(expressionParts(command), (slot) => {
    found.add(slot.index);
    return undefined;
  });
  return [...found].sort((a, b) => a - b);
}

/** The types of `values` at `slots`, as one key: a number for up to 20 slots, else a string. */
export function signatureOf(slots: readonly number[], values: readonly Value[]): number | string {
  if (slots.length <= 20) {
    let key = 0;
    for (const slot of slots) key = key * 5 + typeCode(values[slot] ?? null);
    return key;
  }
  return slots.map((slot) => typeCode(values[slot] ?? null)).join("");
}

/** The command with each slot of `slots` typed as the literal its value would be. */
/** `spans`: a SQL text's (`source-spans.ts`), given to each node copied. */
export function withParamTypes<C extends Command>(command: C, slots: readonly number[], values: readonly Value[], spans?: SourceSpans): C {
  if (slots.length === 0) return command;
  const typed = new Set(slots);
  const out: Record<string, unknown> = { ...(command as unknown as Record<string, unknown>) };
  const type = (node: unknown): unknown =>
    eachSlot(node, (slot) => (typed.has(slot.index) ? { ...slot, literal: TYPES[typeCode(values[slot.index] ?? null)]! } : undefined), spans);
  for (const member of EXPRESSION_MEMBERS) {
    if (out[member] === undefined) continue;
    if (member === "command") out[member] = withParamTypes(out[member] as Command, slots, values, spans);
    else if (member === "set") out[member] = setExpressions(out[member], type);
    else if (member === "onConflict") {
      const clause = out[member] as { set?: unknown; where?: unknown };
      out[member] = {
        ...clause,
        ...(clause.set === undefined ? {} : { set: setExpressions(clause.set, type) }),
        ...(clause.where === undefined ? {} : { where: type(clause.where) }),
      };
    }
    else out[member] = type(out[member]);
  }
  spans?.copied(command, out);
  return out as unknown as C;
}
