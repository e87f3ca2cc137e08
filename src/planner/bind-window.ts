/**
 * Window functions (CONTRACT §11): a `window` expression bound into a
 * `WindowCall`, and the rewrite that makes the select list and ORDER BY
 * read the window stage's rows.
 *
 * A call's arguments, PARTITION BY and ORDER BY are expressions over the
 * rows the stage reads — source rows, or groups when the query is grouped
 * (they may hold aggregates, never another window function). A window
 * ORDER BY `column` names a source column (as in SQLite, not a result
 * name) and an integer literal there is a constant. The frame is checked as
 * SQLite checks it: a frame may not start after it ends, offsets are
 * numbers ≥ 0 (whole for ROWS and GROUPS), and RANGE with an offset sorts
 * by exactly one number.
 */

import type { Collation, Expression, FrameAggregateName, FrameBoundSpec, OrderBy, WindowFrameSpec, WindowFunctionName } from "../commands/types.js";
import { assertNever } from "../errors.js";
import type { ExprBinder } from "./bind-expr.js";
import type { BoundExpr, FrameBound, SortKey, StaticType, WindowCall, WindowFrame } from "./plan.js";
import { exprCollation, textual } from "./collation.js";
import { Numbering } from "./numbering.js";
import { typeOf } from "./static-types.js";
import { mapChildren, some } from "./walk.js";

type WindowName = WindowFunctionName | FrameAggregateName;

/** Each window function's argument count: [least, most]. */
const ARITY: Record<WindowName, readonly [number, number]> = {
  row_number: [0, 0],
  rank: [0, 0],
  dense_rank: [0, 0],
  percent_rank: [0, 0],
  cume_dist: [0, 0],
  ntile: [1, 1],
  lag: [1, 3],
  lead: [1, 3],
  first_value: [1, 1],
  last_value: [1, 1],
  nth_value: [2, 2],
  count: [0, 1],
  sum: [1, 1],
  total: [1, 1],
  avg: [1, 1],
  min: [1, 1],
  max: [1, 1],
  group_concat: [1, 1],
};

/** The names that are window functions only (no aggregate, no scalar function): without OVER they are misuse. */
export const WINDOW_ONLY: ReadonlySet<string> = new Set<WindowFunctionName>(["row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead", "first_value", "last_value", "nth_value"]);

/** The default frame: the partition's first row to the current row's last peer. */
const DEFAULT_FRAME: WindowFrame = { units: "range", start: { kind: "unbounded-preceding" }, end: { kind: "current-row" }, exclude: "no others" };

/**
 * The window calls of one select, numbered in the order met: the same call
 * written twice is one.
 */
export class WindowCollector {
  private readonly numbering = new Numbering<WindowCall>();

  get calls(): readonly WindowCall[] {
    return this.numbering.items;
  }

  add(call: WindowCall): BoundExpr {
    return { kind: "window", index: this.numbering.number(call), type: call.type };
  }
}

/** `e`'s call, bound with `binder` (which refuses window functions in it). */
export function bindWindowCall(e: Extract<Expression, { type: "window" }>, binder: ExprBinder, depth: number): WindowCall {
  const name = e.name;
  const [least, most] = ARITY[name];
  const written = e.args ?? [];
  if (written.length < least || written.length > most) {
    const expected = least === most ? `${least} argument${least === 1 ? "" : "s"}` : `${least} to ${most} arguments`;
    throw binder.misuse(`${name}() takes ${expected}, got ${written.length}`);
  }
  if (e.separator !== undefined && name !== "group_concat") throw binder.misuse(`${name}() takes no separator: only group_concat does`);
  if (e.filter !== undefined && WINDOW_ONLY.has(name)) throw binder.misuse(`FILTER goes only with aggregate window functions (count, sum, total, avg, min, max, group_concat), not ${name}()`);
  const args = written.map((a) => binder.bind(a, depth));
  const over = e.over;
  const partition = (over.partitionBy ?? []).map((p) => binaryOnly(binder.bind(p, depth), undefined, binder, "PARTITION BY"));
  const order = (over.orderBy ?? []).map((item) => sortKey(item, binder, depth));
  const frame = over.frame === undefined ? DEFAULT_FRAME : bindFrame(over.frame, order, binder);
  let type: StaticType;
  switch (name) {
    case "row_number":
    case "rank":
    case "dense_rank":
      type = "integer";
      break;
    case "percent_rank":
    case "cume_dist":
      type = "real";
      break;
    case "ntile":
      args[0] = binder.expect(args[0]!, "number", "ntile()");
      type = "integer";
      break;
    case "lag":
    case "lead":
      if (args[1] !== undefined) args[1] = binder.expect(args[1], "number", `${name}()`);
      // The default stands where the row is missing: one type with the value.
      if (args[2] === undefined) type = typeOf(args[0]!);
      else {
        // The checked value and default: one read from JSON beside a typed other is checked as read.
        const unified = binder.unifyAll([args[0]!, args[2]], `${name}()`);
        [args[0], args[2]] = unified.list as [BoundExpr, BoundExpr];
        type = unified.type;
      }
      break;
    case "first_value":
    case "last_value":
      type = typeOf(args[0]!);
      break;
    case "nth_value":
      args[1] = binder.expect(args[1]!, "number", "nth_value()");
      type = typeOf(args[0]!);
      break;
    case "count":
    case "sum":
    case "total":
    case "avg":
    case "min":
    case "max":
    case "group_concat": {
      // Over the rows the stage reads, as the arguments: aggregates of a grouped query may stand in it (as in SQLite), window functions not.
      const filter = e.filter === undefined ? {} : { filter: binder.filter(e.filter, depth, "window") };
      // count(*) takes no argument and counts rows.
      if (args[0] === undefined) return { name, args, partition, order, frame, type: "integer", ...filter };
      const typed = binder.aggregateArgument(name, args[0]);
      const call = { name, args: [typed.arg], partition, order, frame, type: typed.type, ...filter };
      return name === "group_concat" ? { ...call, separator: e.separator ?? "," } : call;
    }
    default:
      return assertNever(name, "window function");
  }
  return { name, args, partition, order, frame, type };
}

/** A window ORDER BY item: a source column by name, or an expression (an integer literal is a constant). */
function sortKey(item: OrderBy, binder: ExprBinder, depth: number): SortKey {
  const expr = "column" in item ? binder.bind({ type: "identifier", name: item.column }, depth) : binder.bind(item.expr, depth);
  return { expr: binaryOnly(expr, item.collation, binder, "ORDER BY"), ...sortOrder(item) };
}

/**
 * A window's partitions and peers are found by binary equality, so a
 * collation other than binary on a PARTITION BY or ORDER BY term is
 * refused rather than half honoured (sorted by it, grouped without it).
 */
function binaryOnly(expr: BoundExpr, collation: Collation | undefined, binder: ExprBinder, clause: string): BoundExpr {
  const other = textual(collation ?? exprCollation(expr), [expr]);
  if (other !== undefined) throw binder.misuse(`A window's ${clause} cannot take COLLATE ${other.toUpperCase()}: windows sort and group texts by BINARY only`);
  return expr;
}

/** An ORDER BY item's direction, and where its NULLs go when it says (a select's and a window's). */
export function sortOrder(item: OrderBy): Pick<SortKey, "direction" | "nulls"> {
  const direction = item.direction ?? "asc";
  return item.nulls === undefined ? { direction } : { direction, nulls: item.nulls };
}

/** Where a bound sits, for "a frame may not start after it ends". */
const PLACE: Record<FrameBound["kind"], number> = { "unbounded-preceding": 0, preceding: 1, "current-row": 2, following: 3, "unbounded-following": 4 };

function bindFrame(spec: WindowFrameSpec, order: readonly SortKey[], binder: ExprBinder): WindowFrame {
  const start = frameBound(spec.start, spec.units, "start", binder);
  const end = spec.end === undefined ? ({ kind: "current-row" } as const) : frameBound(spec.end, spec.units, "end", binder);
  if (start.kind === "unbounded-following") throw binder.misuse("A window frame cannot start at UNBOUNDED FOLLOWING");
  if (end.kind === "unbounded-preceding") throw binder.misuse("A window frame cannot end at UNBOUNDED PRECEDING");
  if (PLACE[start.kind] > PLACE[end.kind]) throw binder.misuse("A window frame cannot start after it ends (its start is FOLLOWING where its end is not, or its end PRECEDING where its start is not)");
  if (spec.units === "range" && (start.kind === "preceding" || start.kind === "following" || end.kind === "preceding" || end.kind === "following")) {
    if (order.length !== 1) throw binder.misuse(`RANGE with an offset PRECEDING or FOLLOWING needs exactly one ORDER BY term, got ${order.length}`);
    binder.expect(order[0]!.expr, "number", "RANGE with an offset");
  }
  return { units: spec.units, start, end, exclude: spec.exclude ?? "no others" };
}

function frameBound(spec: FrameBoundSpec, units: WindowFrameSpec["units"], which: "start" | "end", binder: ExprBinder): FrameBound {
  switch (spec) {
    case "unbounded preceding":
      return { kind: "unbounded-preceding" };
    case "current row":
      return { kind: "current-row" };
    case "unbounded following":
      return { kind: "unbounded-following" };
    default: {
      const [kind, offset] = "preceding" in spec ? (["preceding", spec.preceding] as const) : (["following", spec.following] as const);
      const whole = units !== "range";
      if (typeof offset === "object" && offset !== null && offset.type === "param") {
        binder.params.use(offset.index, { kind: "frame-offset", whole });
        return { kind, offset: { kind: "param", index: offset.index } };
      }
      if (typeof offset !== "number" || !Number.isFinite(offset) || offset < 0 || (whole && !Number.isSafeInteger(offset))) {
        throw binder.misuse(`The window frame's ${which} offset must be ${whole ? "an integer" : "a number"} ≥ 0, got ${JSON.stringify(offset)}`);
      }
      return { kind, offset };
    }
  }
}

export const holdsWindow = (e: BoundExpr): boolean => some(e, (x) => x.kind === "window");

/**
 * The select list and ORDER BY over window rows: each part that reads the
 * row (a source column, a group key, an aggregate) becomes a carried value,
 * the same part written twice one value. Constants, parameters and a
 * subquery's outer values read no row; a subquery's feeds are rewritten
 * like any other part.
 */
export class WindowCarry {
  private readonly numbering = new Numbering<BoundExpr>();

  get carried(): readonly BoundExpr[] {
    return this.numbering.items;
  }

  over(e: BoundExpr): BoundExpr {
    switch (e.kind) {
      case "column":
      case "group-key":
      case "aggregate":
        return { kind: "group-key", index: this.numbering.number(e), type: typeOf(e) };
      default:
        return mapChildren(e, (x) => this.over(x));
    }
  }
}
