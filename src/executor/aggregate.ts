/**
 * Hash aggregation, compiled: one generated function per grouping finds
 * each row's group by its key values and updates the group's aggregates in
 * place — over a list of rows in one loop, with no call per row, or over
 * a join's tuples one at a time as the join makes them, so no list of
 * them is built.
 *
 * Groups are numbered in the order first met, and their state is kept by
 * column, not by group: one array per key and one per working value of an
 * aggregate (a sum, its compensation term, a count of values, a minimum, a
 * Set for DISTINCT), indexed by group number. A number written into an
 * array of numbers is stored as a raw double; written into a group's own
 * array (mixed keys and values) it would be a new heap object on every
 * update — the hashing aside, that boxing was most of the cost of
 * aggregating many groups. Groups live in nested Maps, one level per key
 * (a Map compares keys as `=` does: 1 and 1.0 are one group, NULLs one
 * group, text never equals a number), whose last level holds the group
 * number; a key with a collation (`GROUP BY x COLLATE nocase`) is looked
 * up by its collation key and keeps its group's first value. With no keys there is exactly one group, also over no rows: count
 * 0, the others NULL.
 *
 * The group rows everything after the grouping reads (`r[i]` is key i,
 * `r[k + j]` aggregate j) are built at the end, and HAVING, when there is
 * one, is tested on each as it is built: a group it refuses is never kept.
 *
 * Semantics (CONTRACT §11): count counts non-NULL values (`count(*)` rows);
 * sum of integers is an integer, NULL over no values (total: always a
 * real, 0.0 over none); a real sum uses
 * Kahan-Babuska (Neumaier) compensation, as SQLite's does, so adding 0.1 ten
 * times is 1; avg is that sum over the count; min and max compare as ORDER
 * BY does and skip NULL (texts in the argument's collation); DISTINCT
 * counts, sums and averages each value once (count and group_concat: each
 * text once in its collation, as first met);
 * group_concat joins the non-NULL values (text by then) in the order the
 * rows come, its separator between them, NULL over none (DISTINCT: each
 * value once, where it first came). An aggregate with a FILTER reads only
 * the rows it is true for (`filtered`).
 */

import type { Value } from "../commands/types.js";
import { assertNever } from "../errors.js";
import { collationOf } from "../planner/collation.js";
import type { AggregateCall, Grouping } from "../planner/plan.js";
import { typeOf } from "../planner/static-types.js";
import { collationKey, comparer } from "./collation.js";
import { Codegen, instantiate, type CompileContext, type RowMode } from "./codegen.js";
import { jsonArgument } from "./json-codegen.js";

/** A HAVING test on a group row. */
export type GroupTest = (row: Value[], p: readonly Value[]) => boolean;

/**
 * One execution's grouping (`t`: the heaps' columns of the rows or join
 * tuples it is fed): `add` updates the groups with one row or tuple (a
 * join's, as it makes it: returning nothing, it is a join's `emit`),
 * `addAll` with a list of them, in a loop; `groups` are the group rows —
 * keys then aggregate values — that pass `having`.
 */
export type AggregateFn = (p: readonly Value[], t?: unknown) => Grouped;

export interface Grouped {
  add(item: unknown): undefined;
  addAll(items: readonly unknown[]): void;
  groups(having: GroupTest | undefined): Value[][];
}

function slot(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error("invalid slot");
  return String(n);
}

/** One aggregate's code: its state arrays (name → value for a new group), its update per row, its final value. */
interface AggregateCode {
  readonly state: (readonly [string, string])[];
  readonly update: string;
  readonly final: string;
}

export function compileAggregate(group: Grouping, mode: RowMode, context?: CompileContext): AggregateFn {
  const g = new Codegen(mode, context);
  let arrays = 0;
  const array = (): string => `a${slot(arrays++)}_`;
  const codes = group.aggregates.map((call) => filtered(call, unfiltered(call, array, g), g));
  const k = group.keys.length;
  const keys = group.keys.map((_, i) => `k${slot(i)}_`);
  // What each key level is looked up by: its value, or its collation key.
  const lookups = group.keys.map((key, i) => {
    const collation = collationOf(key);
    return collation === undefined ? `k${slot(i)}` : `${g.const(collationKey(collation))}(k${slot(i)})`;
  });
  const state = codes.flatMap((c) => c.state);
  const declare = [...keys, ...state.map(([name]) => name)].map((name) => `const ${name} = [];`).join(" ");
  const open = [...keys.map((key, i) => `${key}.push(k${slot(i)});`), ...state.map(([name, init]) => `${name}.push(${init});`)].join(" ");
  let find: string;
  if (k === 0) find = "";
  else {
    // One Map per key level; the last level holds the group numbers.
    const levels: string[] = [];
    let map = "root_";
    for (let i = 0; i < k - 1; i++) {
      const next = `m${slot(i)}_`;
      levels.push(`let ${next} = ${map}.get(${lookups[i]}); if (${next} === undefined) { ${next} = new Map(); ${map}.set(${lookups[i]}, ${next}); }`);
      map = next;
    }
    // A collation key is computed once, not again for the `set` of a new group.
    let last = lookups[k - 1]!;
    if (last !== `k${slot(k - 1)}`) {
      levels.push(`c_ = ${last};`);
      last = "c_";
    }
    levels.push(`g_ = ${map}.get(${last}); if (g_ === undefined) { g_ = n_++; ${map}.set(${last}, g_); ${open} }`);
    find = levels.join(" ");
  }
  const keyValues = group.keys.map((key, i) => `const k${slot(i)} = ${g.value(key)};`).join(" ");
  const row = `[${[...keys.map((key) => `${key}[g_]`), ...codes.map((c) => c.final)].join(", ")}]`;
  // One row's update, the same code fed a row at a time (`add`: a join's tuples, as it makes them) or a list in a loop (`addAll`).
  // Each takes the heaps' columns afresh (`Codegen.columns`): a join may make rows into a heap between two `add`s (a lateral call's), replacing a column it outgrew.
  const update = `${g.temporaries()} let g_ = 0, v_, s_, t_, c_; ${keyValues} ${find} ${codes.map((c) => c.update).join("\n    ")}`;
  const source = `${g.constants()}
return function aggregate(p, t) {
  ${g.parameters()}
  ${declare}
  const root_ = new Map();
  let n_ = 0;
  ${k === 0 ? `n_ = 1; ${state.map(([name, init]) => `${name}.push(${init});`).join(" ")}` : ""}
  return {
    add(r) {
      ${g.columns()}
      ${update}
    },
    addAll(items) {
      ${g.columns()}
      for (let i_ = 0, l_ = items.length; i_ < l_; i_++) {
        const r = items[i_];
        ${update}
      }
    },
    groups(having) {
      let g_, t_;
      const groups_ = [];
      for (g_ = 0; g_ < n_; g_++) {
        const row_ = ${row};
        if (having === undefined || having(row_, p)) groups_.push(row_);
      }
      return groups_;
    },
  };
};`;
  return instantiate<AggregateFn>(source, g.consts);
}

/** One aggregate's code, its FILTER aside. */
function unfiltered(call: AggregateCall, array: () => string, g: Codegen): AggregateCode {
  // The JSON aggregates write their arguments themselves (NULL too).
  if (call.arg === undefined || call.name === "json_group_array" || call.name === "json_group_object") return aggregateCode(call, undefined, "", array, g);
  // A number column is read as stored, its NULL a NaN: no conversion per row, and `v_ === v_` skips it.
  const raw = g.rawNumber(call.arg);
  const arg = raw ?? g.value(call.arg);
  return aggregateCode(call, arg, raw === undefined ? `(v_ = ${arg}) !== null` : `(v_ = ${arg}) === v_`, array, g);
}

/**
 * An aggregate with a FILTER updates its state only for a row the filter
 * is true for: the row's group is still found (and made) first, so a group
 * none of whose rows pass keeps its state as made, the aggregate's value
 * over no rows (count 0, sum NULL, total 0.0, json_group_array `[]`), as
 * in SQLite. The test is inlined before the update; without a filter the
 * code is the same as ever.
 */
function filtered(call: AggregateCall, code: AggregateCode, g: Codegen): AggregateCode {
  if (call.filter === undefined) return code;
  return { ...code, update: `if (${g.truth(call.filter)}) { ${code.update} }` };
}

/**
 * json_group_array and json_group_object: each row's value written as JSON
 * (NULL too, as `null`), kept in a list per group and joined at the end;
 * over no rows `[]` and `{}`. A row whose member name is NULL adds no
 * member, as in SQLite.
 */
function jsonAggregateCode(call: AggregateCall, array: () => string, g: Codegen): AggregateCode {
  const list = array();
  const item = jsonArgument(g, call.value ?? call.arg!);
  if (call.value === undefined) return { state: [[list, "[]"]], update: `${list}[g_].push(${item});`, final: `"[" + ${list}[g_].join(",") + "]"` };
  const update = `if ((t_ = ${g.value(call.arg!)}) !== null) ${list}[g_].push(h.json.member(t_, ${item}));`;
  return { state: [[list, "[]"]], update, final: `"{" + ${list}[g_].join(",") + "}"` };
}

/**
 * The state, update and final value of one aggregate over the group `g_`;
 * `arg` is its argument's code (undefined for `count(*)`). Number state
 * starts at 0 in arrays that then hold only numbers; whether a sum or
 * average saw any value is its count, and a numeric minimum or maximum
 * starts as NaN (no stored value is NaN) and is NULL if still NaN.
 * `present` sets `v_` to the argument's value and says whether it is not
 * NULL.
 */
function aggregateCode(call: AggregateCall, arg: string | undefined, present: string, array: () => string, g: Codegen): AggregateCode {
  if (call.name === "json_group_array" || call.name === "json_group_object") return jsonAggregateCode(call, array, g);
  if (arg === undefined || call.arg === undefined) {
    const n = array();
    return { state: [[n, "0"]], update: `${n}[g_]++;`, final: `${n}[g_]` };
  }
  const type = typeOf(call.arg);
  const real = type !== "integer";
  // DISTINCT, min and max compare texts in the argument's own collation (`max(x COLLATE nocase)`).
  const collation = collationOf(call.arg);
  if (call.distinct && collation !== undefined && (call.name === "count" || call.name === "group_concat")) {
    // Each value's collation key, mapped to the value first met with it.
    const map = array();
    const update = `if (${present} && !${map}[g_].has(t_ = ${g.const(collationKey(collation))}(v_))) ${map}[g_].set(t_, v_);`;
    if (call.name === "count") return { state: [[map, "new Map()"]], update, final: `${map}[g_].size` };
    const separator = g.const(call.separator ?? ",");
    return { state: [[map, "new Map()"]], update, final: `((t_ = ${map}[g_]).size === 0 ? null : [...t_.values()].join(${separator}))` };
  }
  if (call.name === "group_concat") {
    // The separator comes in as a constant: no user text in generated source.
    const separator = g.const(call.separator ?? ",");
    if (!call.distinct) {
      const s = array();
      return { state: [[s, "null"]], update: `if (${present}) ${s}[g_] = (t_ = ${s}[g_]) === null ? v_ : t_ + ${separator} + v_;`, final: `${s}[g_]` };
    }
    const set = array();
    return { state: [[set, "new Set()"]], update: `if (${present}) ${set}[g_].add(v_);`, final: `((t_ = ${set}[g_]).size === 0 ? null : [...t_].join(${separator}))` };
  }
  if (call.distinct && call.name !== "min" && call.name !== "max") {
    const set = array();
    const state: [string, string][] = [[set, "new Set()"]];
    const update = `if (${present}) ${set}[g_].add(v_);`;
    switch (call.name) {
      case "count":
        return { state, update, final: `${set}[g_].size` };
      case "sum":
        return { state, update, final: `h.sum(${set}[g_], ${real})` };
      case "total":
        return { state, update, final: `(h.sum(${set}[g_], true) ?? 0)` };
      case "avg":
        return { state, update, final: `((t_ = ${set}[g_]).size === 0 ? null : h.sum(t_, true) / t_.size)` };
      default:
        return assertNever(call.name, "aggregate");
    }
  }
  switch (call.name) {
    case "count": {
      const n = array();
      return { state: [[n, "0"]], update: `if (${present}) ${n}[g_]++;`, final: `${n}[g_]` };
    }
    case "sum":
    case "total":
    case "avg": {
      const [sum, n] = [array(), array()];
      const state: [string, string][] = [
        [sum, "0"],
        [n, "0"],
      ];
      let add = `${sum}[g_] += v_;`;
      let total = `${sum}[g_]`;
      if (real || call.name === "total") {
        const c = array();
        state.push([c, "0"]);
        add = `s_ = ${sum}[g_]; t_ = s_ + v_; ${c}[g_] += Math.abs(s_) >= Math.abs(v_) ? (s_ - t_) + v_ : (v_ - t_) + s_; ${sum}[g_] = t_;`;
        total = `(${sum}[g_] + ${c}[g_])`;
      }
      const update = `if (${present}) { ${add} ${n}[g_]++; }`;
      const final = call.name === "sum" ? `(${n}[g_] === 0 ? null : ${total})` : call.name === "total" ? total : `(${n}[g_] === 0 ? null : ${total} / ${n}[g_])`;
      return { state, update, final };
    }
    case "min":
    case "max": {
      const m = array();
      const op = call.name === "min" ? "<" : ">";
      if (type === "integer" || type === "real" || type === "number") {
        // NaN until the first value: `!(m <= v)` holds for NaN, so it takes any value.
        const keep = call.name === "min" ? "<=" : ">=";
        return {
          state: [[m, "NaN"]],
          update: `if (${present} && !(${m}[g_] ${keep} v_)) ${m}[g_] = v_;`,
          final: `((t_ = ${m}[g_]) !== t_ ? null : t_)`,
        };
      }
      const better =
        collation !== undefined ? `${g.const(comparer(collation))}(v_, t_) ${op} 0` : type === "text" ? `h.text(v_, t_) ${op} 0` : type === "unknown" ? `h.cmp(v_, t_) ${op} 0` : `v_ ${op} t_`;
      return {
        state: [[m, "null"]],
        update: `if (${present} && ((t_ = ${m}[g_]) === null || ${better})) ${m}[g_] = v_;`,
        final: `${m}[g_]`,
      };
    }
    default:
      return assertNever(call.name, "aggregate");
  }
}
