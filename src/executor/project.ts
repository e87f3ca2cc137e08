/**
 * Projection into result rows, compiled: one generated function builds an
 * object (keys in `columns` order, key strings passed as constants) or an
 * array per row.
 */

import type { Value } from "../commands/types.js";
import type { OutputColumn } from "../planner/plan.js";
import { Codegen, instantiate, type CompileContext, type RowMode } from "./codegen.js";

export type ProjectFn = (r: never, p: readonly Value[], t?: unknown) => Record<string, Value> | Value[];

export function compileProjection(columns: readonly OutputColumn[], output: "objects" | "arrays", mode: RowMode, context?: CompileContext): ProjectFn {
  const g = new Codegen(mode, context);
  if (output === "arrays") {
    const items = columns.map((c) => g.value(c.expr));
    return instantiate(`${g.constants()} return function project(r, p, t) { ${g.declarations()} return [${items.join(", ")}]; };`, g.consts);
  }
  const sets = columns.map((c) => `o[${g.const(c.name)}] = ${g.value(c.expr)};`);
  return instantiate(`${g.constants()} return function project(r, p, t) { ${g.declarations()} const o = {}; ${sets.join(" ")} return o; };`, g.consts);
}
