/**
 * Compiles calls of the JSON functions (`json-functions.ts`) and of `->`,
 * `->>`. A path written as a constant is compiled once, with the plan, and
 * reaches the generated code as a constant; one from a column or parameter
 * is compiled when met, through a cache.
 *
 * A value going into a JSON document is written as JSON by its
 * expression (`jsonArgument`): the text of a JSON function is JSON already
 * (SQLite's JSON subtype), a single-path json_extract is JSON when it finds
 * an array or object, a number read by it or `->>` is written as its JSON
 * text's type says (`1E2` as the real `100.0`), anything else is its SQL
 * value written as JSON; a table function's value (json_each's) as its row's
 * `type` says.
 */

import { FUNCTIONS, JSON_RESULT } from "../planner/functions.js";
import type { BoundExpr, FunctionName } from "../planner/plan.js";
import { rowTypeOf } from "../planner/table-functions.js";
import { typeOf } from "../planner/static-types.js";
import type { Codegen } from "./codegen.js";
import { arrowPathOf, pathOf } from "./json-functions.js";

export type JsonFunction = Extract<FunctionName, `json${string}` | "->" | "->>">;

type Call = Extract<BoundExpr, { kind: "function" }>;

/** The calls compiled here: every function of `JsonFunction`'s names (the JSON aggregates are no functions). */
export const JSON_CALLS: ReadonlySet<FunctionName> = new Set((Object.keys(FUNCTIONS) as FunctionName[]).filter((name) => name.startsWith("json") || name === "->" || name === "->>"));

/** How messages name the call: `json_extract()`, or the operator. */
function label(e: Call): string {
  return e.name.startsWith("-") ? e.name : `${e.name}()`;
}

/** A path argument's code: a compiled constant, or compiled from the value in `temp` when the row is read. */
function path(g: Codegen, arg: BoundExpr, temp: string): string {
  if (arg.kind === "const" && typeof arg.value === "string") return g.const(pathOf(arg.value));
  return `h.json.pathOf(${temp})`;
}

/** `->`/`->>`'s right operand as a path: compiled with the plan when constant. */
function arrowPath(g: Codegen, arg: BoundExpr, temp: string): string {
  const real = typeOf(arg) === "real";
  if (arg.kind === "const" && (typeof arg.value === "string" || typeof arg.value === "number")) return g.const(arrowPathOf(arg.value, real));
  return `h.json.arrowPathOf(${temp}, ${real})`;
}

/** `(a = …) === null || (b = …) === null ? null : call(a, b)`: NULL when an argument is. */
function strict(g: Codegen, args: readonly BoundExpr[], call: (temps: readonly string[]) => string): string {
  const temps = args.map(() => g.temp());
  const nulls = args.map((a, i) => `(${temps[i]} = ${g.value(a)}) === null`).join(" || ");
  return `(${nulls} ? null : ${call(temps)})`;
}

/** Whether the text an expression yields is JSON (SQLite's JSON subtype): a JSON function's, json_extract's of several paths. */
function isJsonText(e: BoundExpr): boolean {
  return e.kind === "function" && (JSON_RESULT.has(e.name) || (e.name === "json_extract" && e.args.length > 2));
}

/** Code for `e`'s value as JSON text (never NULL: NULL is `null`). */
export function jsonArgument(g: Codegen, e: BoundExpr): string {
  const t = g.temp();
  if ((e.kind === "column" || e.kind === "outer") && e.type === "unknown") {
    // Only a table function's columns read from JSON are of no type (read here or by a subquery): the row's `type` says what its value is.
    const type = rowTypeOf(e);
    return `h.json.cellArgument(${g.value(e)}, ${type === undefined ? "null" : g.value(type)})`;
  }
  if (isJsonText(e)) return `((${t} = ${g.value(e)}) === null ? "null" : ${t})`;
  if (e.kind === "function" && (e.name === "json_extract" || e.name === "->>")) {
    const [doc, at] = e.args as [BoundExpr, BoundExpr];
    const p = g.temp();
    const where = e.name === "->>" ? arrowPath(g, at, p) : path(g, at, p);
    return `((${t} = ${g.value(doc)}), (${p} = ${g.value(at)}), h.json.extractArgument(${g.const(label(e))}, ${t}, ${p} === null ? null : ${where}, ${e.name === "json_extract"}))`;
  }
  return `h.json.encode(${g.value(e)}, ${typeOf(e) === "real"})`;
}

export function jsonCall(g: Codegen, e: Call): string {
  const name = g.const(label(e));
  const args = e.args;
  switch (e.name as JsonFunction) {
    case "json":
      return strict(g, args, ([doc]) => `h.json.json(${name}, ${doc})`);
    case "json_valid": {
      // A NULL document is NULL; NULL flags are SQLite's error, which `valid` raises.
      const doc = g.temp();
      return `((${doc} = ${g.value(args[0]!)}) === null ? null : h.json.valid(${doc}${args[1] === undefined ? "" : `, ${g.value(args[1])}`}))`;
    }
    case "json_extract":
      if (args.length === 2) return strict(g, args, ([doc, p]) => `h.json.extract(${name}, ${doc}, ${path(g, args[1]!, p!)})`);
      return strict(g, args, ([doc, ...ps]) => `h.json.extractMany(${name}, ${doc}, [${ps.map((p, i) => path(g, args[i + 1]!, p)).join(", ")}])`);
    case "->":
      return strict(g, args, ([doc, p]) => `h.json.extractJson(${name}, ${doc}, ${arrowPath(g, args[1]!, p!)})`);
    case "->>":
      return strict(g, args, ([doc, p]) => `h.json.extract(${name}, ${doc}, ${arrowPath(g, args[1]!, p!)})`);
    case "json_type":
    case "json_array_length": {
      const fn = e.name === "json_type" ? "type" : "length";
      return strict(g, args, ([doc, p]) => `h.json.${fn}(${name}, ${doc}${p === undefined ? "" : `, ${path(g, args[1]!, p)}`})`);
    }
    case "json_array":
      return `h.json.array(${args.map((a) => jsonArgument(g, a)).join(", ")})`;
    case "json_object":
      return `h.json.object(${args.map((a, i) => (i % 2 === 0 ? g.value(a) : jsonArgument(g, a))).join(", ")})`;
    case "json_quote":
      return jsonArgument(g, args[0]!);
    case "json_set":
    case "json_insert":
    case "json_replace": {
      const mode = g.const(e.name.slice(5));
      const doc = g.temp();
      const pairs = args.slice(1).map((a, i) => {
        if (i % 2 === 1) return jsonArgument(g, a);
        const p = g.temp();
        return `((${p} = ${g.value(a)}) === null ? null : ${path(g, a, p)})`;
      });
      return `((${doc} = ${g.value(args[0]!)}) === null ? null : h.json.edit(${name}, ${mode}, ${doc}, [${pairs.join(", ")}]))`;
    }
    case "json_remove":
      return strict(g, args, ([doc, ...ps]) => `h.json.edit(${name}, "remove", ${doc}, [${ps.map((p, i) => path(g, args[i + 1]!, p)).join(", ")}])`);
    case "json_patch":
      return strict(g, args, ([doc, with_]) => `h.json.patch(${name}, ${doc}, ${with_})`);
  }
}
