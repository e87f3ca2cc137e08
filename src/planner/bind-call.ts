/**
 * Binds the table functions of a select's FROM and JOINs (json_each,
 * json_tree: `table-functions.ts`) once every source is known, so that an
 * argument naming a later source is refused by name rather than reported
 * unknown. Arguments may read the sources before the call — SQLite's
 * `FROM t, json_each(t.tags)` — which makes it lateral: its rows are made
 * again for each tuple so far, by its join's `lateral` strategy, which no
 * pass replaces. A lateral call cannot be the right side of a RIGHT or
 * FULL join: the rows it would pad with NULLs are made from the very
 * tuples it pads.
 */

import type { TableFunctionCall } from "../commands/types.js";
import { ExprBinder, type BindContext, type Enclosing } from "./bind-expr.js";
import type { BoundExpr, JoinStep, OutputColumn, TableCall } from "./plan.js";
import type { Scope, ScopeSource } from "./scope.js";
import { asDocument } from "./table-functions.js";
import { some } from "./walk.js";

/** A FROM or JOIN item as written: a table function's call is its `from`. */
interface Item {
  readonly from?: { readonly kind: string };
}

export interface BoundCalls {
  /** Per source: its call, if it is a table function's. */
  readonly calls: readonly (TableCall | undefined)[];
  /** The joins, a lateral call's with the `lateral` strategy. */
  readonly steps: readonly JoinStep[];
}

/** `items[i]` is what `sources[i]` was bound from (FROM's, then each JOIN's). */
/** `results`: the select list, whose result names an argument may read where no source has the name (as SQLite's). */
export function bindCalls(
  items: readonly Item[],
  sources: readonly ScopeSource[],
  scope: Scope,
  steps: readonly JoinStep[],
  context: BindContext,
  outer: Enclosing | undefined,
  results?: readonly OutputColumn[],
): BoundCalls {
  if (sources.every((s) => s.call === undefined)) return { calls: [], steps };
  const joins = steps.slice();
  const calls = sources.map((source, i): TableCall | undefined => {
    if (source.call === undefined) return undefined;
    const call = items[i]!.from as TableFunctionCall;
    const what = `${call.name}()`;
    const binder = new ExprBinder(scope, context, what, outer, results);
    // The document may be a value a table function read (`json_each(j.value)`): its JSON text.
    const args = call.args.map((a, n) => {
      const bound = binder.bind(a);
      return n === 0 ? asDocument(bound, what, (e) => binder.expect(e, "text", what)) : binder.expect(bound, "text", what);
    });
    const later = firstColumnFrom(args, i);
    if (later !== undefined) {
      const named = sources[later.source]!.name;
      throw binder.misuse(`${what} reads "${later.name}" of ${named}, which comes ${later.source === i ? "from the call itself" : "after it"}: a table function's arguments read only the sources before it`);
    }
    const lateral = args.some((a) => some(a, (x) => x.kind === "column"));
    if (lateral) {
      const step = joins[i - 1]!;
      if (step.type === "right" || step.type === "full") {
        throw binder.misuse(`${what} reads the sources before it, so it cannot be the right side of a ${step.type.toUpperCase()} JOIN: the rows it would pad are made from the rows it pads`);
      }
      joins[i - 1] = { ...step, strategy: { kind: "lateral" } };
    }
    return { name: call.name, args, lateral };
  });
  return { calls, steps: joins };
}

/** The first column the arguments read of source `from` or a later one. */
function firstColumnFrom(args: readonly BoundExpr[], from: number): Extract<BoundExpr, { kind: "column" }> | undefined {
  let found: Extract<BoundExpr, { kind: "column" }> | undefined;
  for (const a of args) {
    some(a, (x) => {
      if (x.kind === "column" && x.source >= from && found === undefined) found = x;
      return found !== undefined;
    });
  }
  return found;
}
