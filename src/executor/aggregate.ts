/**
 * Hash aggregation, compiled: one generated function per grouping loops
 * over the rows (or join tuples), finds each row's group by its key values
 * and updates the group's aggregates in place, with no call per row.
 *
 * A group is one array: its key values, then one slot per aggregate (the
 * group row everything after the grouping reads: `r[i]` is key i, `r[k + j]`
 * aggregate j), then working slots some aggregates need — a count for avg,
 * a compensation term for a real sum, a Set for DISTINCT — dropped when the
 * aggregates are final. Groups live in nested Maps, one level per key (a
 * Map compares keys as `=` does: 1 and 1.0 are one group, NULLs one group,
 * text never equals a number), and come out in the order first met. With
 * no keys there is exactly one group, also over no rows: count 0, the
 * others NULL.
 *
 * Semantics (CONTRACT §11): count counts non-NULL values (`count(*)` rows);
 * sum of integers is an integer, NULL over no values; a real sum uses
 * Kahan-Babuska (Neumaier) compensation, as SQLite's does, so adding 0.1 ten
 * times is 1; avg is that sum over the count; min and max compare as ORDER
 * BY does and skip NULL; DISTINCT counts, sums and averages each value once.
 */

import type { Value } from "../commands/types.js";
import { assertNever } from "../errors.js";
import type { AggregateCall, Grouping } from "../planner/plan.js";
import { typeOf } from "../planner/static-types.js";
import { Codegen, instantiate, type CompileContext, type RowMode } from "./codegen.js";

/** The group rows of `items`: keys then aggregate values. */
export type AggregateFn = (items: readonly unknown[], p: readonly Value[]) => Value[][];

function slot(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error("invalid slot");
  return String(n);
}

export function compileAggregate(group: Grouping, mode: RowMode, context?: CompileContext): AggregateFn {
  const g = new Codegen(mode, context);
  const k = group.keys.length;
  const width = k + group.aggregates.length;
  let extra = width;
  const init: string[] = group.keys.map((_, i) => `k${slot(i)}`);
  const extras: string[] = [];
  const updates: string[] = [];
  const finals: string[] = [];

  group.aggregates.forEach((call: AggregateCall, j) => {
    const s = `g_[${slot(k + j)}]`;
    const arg = call.arg === undefined ? undefined : g.value(call.arg);
    const real = call.arg !== undefined && typeOf(call.arg) !== "integer";
    if (call.arg === undefined || arg === undefined) {
      init.push("0");
      updates.push(`${s}++;`);
      return;
    }
    if (call.distinct && call.name !== "min" && call.name !== "max") {
      const set = `g_[${slot(extra++)}]`;
      extras.push("new Set()");
      init.push("null");
      updates.push(`if ((v_ = ${arg}) !== null) ${set}.add(v_);`);
      switch (call.name) {
        case "count":
          finals.push(`${s} = ${set}.size;`);
          break;
        case "sum":
          finals.push(`${s} = h.sum(${set}, ${real});`);
          break;
        case "avg":
          finals.push(`${s} = ${set}.size === 0 ? null : h.sum(${set}, true) / ${set}.size;`);
          break;
        default:
          return assertNever(call.name, "aggregate");
      }
      return;
    }
    switch (call.name) {
      case "count":
        init.push("0");
        updates.push(`if (${arg} !== null) ${s}++;`);
        return;
      case "sum":
      case "avg": {
        init.push("null");
        let add = `${s} = ${s} === null ? v_ : ${s} + v_;`;
        if (real) {
          const c = `g_[${slot(extra++)}]`;
          extras.push("0");
          add = `if (${s} === null) ${s} = v_; else { t_ = ${s} + v_; ${c} += Math.abs(${s}) >= Math.abs(v_) ? (${s} - t_) + v_ : (v_ - t_) + ${s}; ${s} = t_; }`;
          finals.push(`if (${s} !== null) ${s} += ${c};`);
        }
        if (call.name === "avg") {
          const n = `g_[${slot(extra++)}]`;
          extras.push("0");
          updates.push(`if ((v_ = ${arg}) !== null) { ${add} ${n}++; }`);
          finals.push(`if (${s} !== null) ${s} = ${s} / ${n};`);
        } else {
          updates.push(`if ((v_ = ${arg}) !== null) { ${add} }`);
        }
        return;
      }
      case "min":
      case "max": {
        init.push("null");
        const t = typeOf(call.arg);
        const op = call.name === "min" ? "<" : ">";
        const better = t === "text" ? `h.text(v_, ${s}) ${op} 0` : t === "unknown" ? `h.cmp(v_, ${s}) ${op} 0` : `v_ ${op} ${s}`;
        updates.push(`if ((v_ = ${arg}) !== null && (${s} === null || ${better})) ${s} = v_;`);
        return;
      }
      default:
        return assertNever(call.name, "aggregate");
    }
  });

  const fresh = `[${[...init, ...extras].join(", ")}]`;
  const keyValues = group.keys.map((key, i) => `const k${slot(i)} = ${g.value(key)};`).join(" ");
  let find: string;
  if (k === 0) find = "";
  else {
    // One Map per key level; the last level holds the groups.
    const levels: string[] = [];
    let map = "root_";
    for (let i = 0; i < k - 1; i++) {
      const next = `m${slot(i)}_`;
      levels.push(`let ${next} = ${map}.get(k${slot(i)}); if (${next} === undefined) { ${next} = new Map(); ${map}.set(k${slot(i)}, ${next}); }`);
      map = next;
    }
    const last = `k${slot(k - 1)}`;
    levels.push(`g_ = ${map}.get(${last}); if (g_ === undefined) { g_ = ${fresh}; ${map}.set(${last}, g_); groups_.push(g_); }`);
    find = levels.join(" ");
  }
  const source = `${g.constants()}
return function aggregate(items, p) {
  ${g.declarations()}
  const groups_ = [];
  const root_ = new Map();
  let g_, v_, t_;
  ${k === 0 ? `g_ = [${[...init, ...extras].join(", ")}]; groups_.push(g_);` : ""}
  for (let i_ = 0, n_ = items.length; i_ < n_; i_++) {
    const r = items[i_];
    ${keyValues}
    ${find}
    ${updates.join("\n    ")}
  }
  for (let i_ = 0; i_ < groups_.length; i_++) {
    g_ = groups_[i_];
    ${finals.join(" ")}
    g_.length = ${slot(width)};
  }
  return groups_;
};`;
  return instantiate<AggregateFn>(source, g.consts);
}
