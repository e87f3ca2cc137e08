/**
 * The engine's plan cache for JSON commands: a command that runs on a plan
 * cached by another command of its shape (a hit) answers exactly as it does
 * on a fresh engine (a miss) — the same result bytes, or the same error code
 * and message — and leaves the same rows. Every JSON select, insert,
 * update and delete of the conformance suite is replayed that way, as
 * written and with its literals changed for others of their type; then edge
 * cases one by one (NULL and boolean literals, literal against literal, IS
 * NULL and NOT of a literal, update and insert values, limits), and the
 * schema changes that must clear the cache.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { snapshotValues } from "../../src/catalog/snapshot.js";
import { Engine } from "../../src/catalog/engine.js";
import type { Change } from "../../src/catalog/types.js";
import type { PlanResult, RowsResult } from "../../src/commands/results.js";
import type { Command, Expression, Value } from "../../src/commands/types.js";
import { parseCommand } from "../../src/commands/validate.js";
import { StoreError } from "../../src/errors.js";
import { sameShape, shapeOf, type ParameterizableCommand } from "../../src/planner/parameterize.js";
import { errorCases } from "../conformance/cases-errors.js";
import { aggregateCases } from "../conformance/cases-aggregates.js";
import { compoundCases } from "../conformance/cases-compound.js";
import { derivedCases } from "../conformance/cases-derived.js";
import { expressionCases } from "../conformance/cases-expressions.js";
import { filterCases } from "../conformance/cases-filter.js";
import { joinCases } from "../conformance/cases-join.js";
import { readCases } from "../conformance/cases-read.js";
import { writeCases } from "../conformance/cases-write.js";
import { fixtureEngine } from "../conformance/fixture.js";
import { storeErrorOf } from "../support/store-error.js";

interface Seen {
  readonly outcome: string;
  readonly changes: readonly Change[];
}

/** Runs a command; the outcome as bytes (result JSON, or error code, message and entries). */
function run(engine: Engine, command: Command): Seen {
  try {
    const { result, changes } = engine.execute(command);
    return { outcome: JSON.stringify(result), changes };
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    return { outcome: JSON.stringify({ code: error.code, message: error.message, errors: error.errors }), changes: [] };
  }
}

/** `probe` after `warm` has cached its shape (and been undone), against `probe` on a fresh engine. */
function hitMatchesMiss(fresh: () => Engine, warm: Command, probe: Command): string {
  const cached = fresh();
  cached.undo(run(cached, warm).changes);
  const hit = run(cached, probe);
  const clean = fresh();
  const miss = run(clean, probe);
  const what = JSON.stringify({ warm, probe });
  assert.is(hit.outcome, miss.outcome, what);
  assert.equal(cached.snapshot().map(snapshotValues), clean.snapshot().map(snapshotValues), `same rows after: ${what}`);
  return miss.outcome;
}

const LIKELIHOOD = (x: Expression, p: Expression): Expression => ({ type: "function", name: "likelihood", args: [x, p] });

const HINTS = new Set(["likely", "unlikely", "likelihood"]);
const STRINGS = ["u2", "Paris", "new", "", "zz"];
const INTEGERS = [17, 100, 0, -1];
const REALS = [2.5, -0.25, 1e3 + 0.5];

/** The command with every literal and `set` value swapped for another of its type (variant k): an integer for an integer, a real for a real. */
function vary(node: unknown, k: number, inSet = false): unknown {
  const number = (v: number): number => (Number.isInteger(v) ? INTEGERS[k % INTEGERS.length]! : REALS[k % REALS.length]!);
  const other = (v: unknown): unknown =>
    typeof v === "string" ? STRINGS[k % STRINGS.length] : typeof v === "number" ? number(v) : typeof v === "boolean" ? (k % 2 === 0 ? !v : v) : v;
  if (inSet) return Object.fromEntries(Object.entries(node as Record<string, unknown>).map(([c, v]) => [c, typeof v === "object" && v !== null ? vary(v, k) : other(v)]));
  if (Array.isArray(node)) return node.map((x) => vary(x, k));
  if (typeof node !== "object" || node === null) return node;
  const o = node as Record<string, unknown>;
  if (o.type === "literal") return { ...o, value: other(o.value) };
  // unixepoch's texts ('subsec' or not), bare or inside hints, decide its type: they are its shape, not values.
  if (o.type === "function" && String(o.name).toLowerCase() === "unixepoch") {
    const text = (a: Record<string, unknown>): boolean =>
      a.type === "literal" ? typeof a.value === "string" : a.type === "function" && HINTS.has(String(a.name).toLowerCase()) && text((a.args as Record<string, unknown>[])[0]!);
    return { ...o, args: (o.args as Record<string, unknown>[]).map((a) => (text(a) ? a : vary(a, k))) };
  }
  // likelihood's p is checked as written: shape too.
  if (o.type === "function" && String(o.name).toLowerCase() === "likelihood" && Array.isArray(o.args)) {
    return { ...o, args: (o.args as unknown[]).map((a, i) => (i === 1 ? a : vary(a, k))) };
  }
  // Column numbers, and with GROUP BY or DISTINCT the literals bind matches across clauses, are the query's shape, not values: they stay.
  const order = (items: unknown): unknown => (items as Record<string, Record<string, unknown> | undefined>[]).map((item) => (item.expr?.type === "literal" ? item : vary(item, k)));
  const group = (items: unknown): unknown => (items as Record<string, unknown>[]).map((item) => (item.type === "literal" ? item : vary(item, k)));
  const inlined = (Array.isArray(o.groupBy) && o.groupBy.length > 0) || o.distinct === true;
  const keep = new Set(inlined ? ["columns", "groupBy", "having", "orderBy"] : []);
  return Object.fromEntries(
    Object.entries(o).map(([key, v]) => [
      key,
      keep.has(key) ? v : key === "orderBy" ? order(v) : key === "groupBy" ? group(v) : key === "rows" && Array.isArray(v) ? v.map((row) => vary(row, k, true)) : vary(v, k, key === "set"),
    ]),
  );
}

test("every JSON select, insert, update and delete of the conformance suite answers alike on a hit and a miss", () => {
  let replayed = 0;
  for (const entry of [...readCases, ...joinCases, ...writeCases, ...errorCases, ...expressionCases, ...aggregateCases, ...compoundCases, ...derivedCases, ...filterCases]) {
    let command: Command;
    try {
      command = parseCommand(entry.json);
    } catch {
      continue; // refused before the engine: nothing to cache
    }
    const target = command.kind === "explain" ? command.command : command;
    if (target.kind !== "select" && target.kind !== "insert" && target.kind !== "update" && target.kind !== "delete") continue;
    for (let k = -1; k < 4; k++) {
      const variant = (k < 0 ? command : vary(command, k)) as Command;
      if (command.kind !== "explain") {
        const a = shapeOf(command as ParameterizableCommand);
        const b = shapeOf(variant as ParameterizableCommand);
        if (a && b) assert.ok(sameShape(a.tokens, b.tokens), `${entry.name}: a variant keeps the shape`);
      }
      hitMatchesMiss(fixtureEngine, command, variant);
      replayed++;
    }
  }
  assert.ok(replayed > 300, `replayed ${replayed}`);
});

const I = (name: string): Expression => ({ type: "identifier", name });
const L = (value: Value): Expression => ({ type: "literal", value });
const C = (op: string, left: Expression, right: Expression): Expression => ({ type: "comparison", op, left, right }) as Expression;
const NOT = (expr: Expression): Expression => ({ type: "not", expr });
const ISNULL = (expr: Expression, not = false): Expression => ({ type: "is-null", expr, not });
const users = (where: Expression, extra: Record<string, unknown> = {}): Command => ({ kind: "select", table: "users", columns: ["id", "name"], where, ...extra }) as Command;
const setUsers = (set: Record<string, Value>, where: Expression): Command => ({ kind: "update", table: "users", set, where });
const addUsers = (rows: Record<string, Value>[], extra: Record<string, unknown> = {}): Command => ({ kind: "insert", table: "users", rows, ...extra }) as Command;
const upsert = (set: Record<string, unknown>, where?: Expression) => ({ onConflict: { target: ["id"], action: "update", set, ...(where === undefined ? {} : { where }) } });

/** [name, warm, probe, expected error code of the probe (else a result)]. */
const EDGES: [string, Command, Command, string?][] = [
  ["a compound, another joined select", users(C("=", I("id"), L("u1")), { compound: [{ op: "union", select: users(C("=", I("id"), L("u2"))) }] }),
    users(C("=", I("id"), L("u1")), { compound: [{ op: "union", select: users(C("=", I("id"), L("u3"))) }] })],
  ["NULLS FIRST, then NULLS LAST", users(L(true), { orderBy: [{ column: "name", nulls: "first" }] }), users(L(true), { orderBy: [{ column: "name", nulls: "last" }] })],
  ["a derived table, another select in it", { kind: "select", from: users(C("=", I("id"), L("u1"))), columns: ["name"] } as Command, { kind: "select", from: users(C("=", I("id"), L("u2"))), columns: ["name"] } as Command],
  ["a select, then the same with a compound", users(C("=", I("id"), L("u1"))), users(C("=", I("id"), L("u1")), { compound: [{ op: "union-all", select: users(C("=", I("id"), L("u2"))) }] })],
  ["pk lookup, another key", users(C("=", I("id"), L("u1"))), users(C("=", I("id"), L("u3")))],
  ["pk lookup, then NULL", users(C("=", I("id"), L("u1"))), users(C("=", I("id"), L(null)))],
  ["NULL, then NULL", users(C("=", I("id"), L(null))), users(C("=", I("id"), L(null)))],
  ["text key, then a number", users(C("=", I("id"), L("u1"))), users(C("=", I("id"), L(1))), "type_mismatch"],
  ["integer column, then a real", users(C(">", I("age"), L(18))), users(C(">", I("age"), L(17.5)))],
  ["integer column, then text", users(C(">", I("age"), L(18))), users(C(">", I("age"), L("18"))), "type_mismatch"],
  ["real column, then an integer", users(C("<", I("score"), L(8.5))), users(C("<", I("score"), L(9)))],
  ["WHERE true, then false", users(L(true)), users(L(false))],
  ["WHERE true, then NULL", users(L(true)), users(L(null))],
  ["WHERE true, then an integer", users(L(true)), users(L(1)), "type_mismatch"],
  ["WHERE true, then a real", users(L(true)), users(L(1.5)), "type_mismatch"],
  ["WHERE NULL, then text", users(L(null)), users(L("yes")), "type_mismatch"],
  ["literal = literal", users(C("=", L(1), L(1))), users(C("=", L(1), L(2)))],
  ["literal < literal, text", users(C("<", L("a"), L("b"))), users(C("<", L("b"), L("a")))],
  ["literal < literal, boolean", users(C("<", L(false), L(true))), users(C("<", L(true), L(false)))],
  ["literal = literal, then mixed types", users(C("=", L(1), L(1))), users(C("=", L(1), L("1"))), "type_mismatch"],
  ["NULL = number, then NULL = text", users(C("=", L(null), L(1))), users(C("=", L(null), L("a")))],
  ["IS NULL of a literal", users(ISNULL(L(5))), users(ISNULL(L(7)))],
  ["IS NULL of NULL", users(ISNULL(L(null), true)), users(ISNULL(L(null)))],
  ["NOT true, then NOT false", users(NOT(L(true))), users(NOT(L(false)))],
  ["NOT true, then NOT NULL", users(NOT(L(true))), users(NOT(L(null)))],
  ["NOT true, then NOT 1", users(NOT(L(true))), users(NOT(L(1))), "type_mismatch"],
  ["computed field", users(C("=", I("adult"), L(true))), users(C("=", I("adult"), L(false)))],
  ["limit", users(L(true), { limit: 1 }), users(L(true), { limit: 2, offset: 1 })],
  ["limit, then a negative one", users(L(true), { limit: 1 }), users(L(true), { limit: -1 }), "invalid_request"],
  ["the next page", users(L(true), { limit: 2, offset: 0 }), users(L(true), { limit: 2, offset: 2 })],
  ["a page past the end", users(L(true), { limit: 2, offset: 0 }), users(L(true), { limit: 2, offset: 1000 })],
  ["limit, then limit 0", users(L(true), { limit: 3 }), users(L(true), { limit: 0 })],
  ["ordered pages (top-k)", users(L(true), { orderBy: [{ column: "name", direction: "desc" }], limit: 2, offset: 1 }), users(L(true), { orderBy: [{ column: "name", direction: "desc" }], limit: 3, offset: 2 })],
  ["filtered pages", users(C(">", I("age"), L(18)), { limit: 1, offset: 0 }), users(C(">", I("age"), L(20)), { limit: 1, offset: 1 })],
  [
    "join with a literal in ON",
    { kind: "select", table: "users", columns: ["users.id", "o.amount"], joins: [{ type: "inner", table: "orders", as: "o", on: { type: "and", operands: [C("=", I("o.user_id"), I("users.id")), C(">", I("o.amount"), L(50))] } }] },
    { kind: "select", table: "users", columns: ["users.id", "o.amount"], joins: [{ type: "inner", table: "orders", as: "o", on: { type: "and", operands: [C("=", I("o.user_id"), I("users.id")), C(">", I("o.amount"), L(200))] } }] },
  ],
  [
    "ambiguous column, a miss either way",
    { kind: "select", table: "users", columns: ["users.id"], joins: [{ type: "inner", table: "orders", on: C("=", I("orders.user_id"), I("users.id")) }], where: C("=", I("users.id"), L("u1")) },
    { kind: "select", table: "users", columns: ["users.id"], joins: [{ type: "inner", table: "orders", on: C("=", I("orders.user_id"), I("users.id")) }], where: C("=", I("id"), L("u1")) },
    "ambiguous_column",
  ],
  ["unknown column", users(C("=", I("id"), L("u1"))), users(C("=", I("idd"), L("u1"))), "unknown_column"],
  ["update, another value", setUsers({ age: 30 }, C("=", I("id"), L("u1"))), setUsers({ age: 40 }, C("=", I("id"), L("u5")))],
  ["update, a value outside the type", setUsers({ age: 30 }, C("=", I("id"), L("u1"))), setUsers({ age: 31.5 }, C("=", I("id"), L("u5"))), "validation_failed"],
  ["update, text into an integer", setUsers({ age: 30 }, C("=", I("id"), L("u1"))), setUsers({ age: "x" }, C("=", I("id"), L("u5"))), "validation_failed"],
  ["update, NULL into a required column", setUsers({ name: "A" }, C("=", I("id"), L("u1"))), setUsers({ name: null }, C("=", I("id"), L("u5"))), "validation_failed"],
  ["update, a duplicate key", setUsers({ id: "u9" }, C("=", I("id"), L("u4"))), setUsers({ id: "u2" }, C("=", I("id"), L("u4"))), "constraint_violation"],
  ["update every row", setUsers({ note: "n" }, L(true)), setUsers({ note: "m" }, L(true))],
  ["delete, then one that is referenced", { kind: "delete", table: "users", where: C("=", I("id"), L("u4")) }, { kind: "delete", table: "users", where: C("=", I("id"), L("u1")) }, "constraint_violation"],
  ["insert, another row", addUsers([{ id: "n1", name: "N", age: 30 }]), addUsers([{ id: "n2", name: "M", age: 40 }])],
  ["insert, a real into an integer column", addUsers([{ id: "n1", name: "N", age: 30 }]), addUsers([{ id: "n2", name: "M", age: 31.5 }]), "validation_failed"],
  ["insert, text into an integer column", addUsers([{ id: "n1", name: "N", age: 30 }]), addUsers([{ id: "n2", name: "M", age: "x" }]), "validation_failed"],
  ["insert, NULL into a required column", addUsers([{ id: "n1", name: "N" }]), addUsers([{ id: "n2", name: null }]), "validation_failed"],
  ["insert, a duplicate key", addUsers([{ id: "n1", name: "N" }]), addUsers([{ id: "u1", name: "N" }]), "constraint_violation"],
  ["insert, the second row a duplicate", addUsers([{ id: "n1", name: "N" }, { id: "n2", name: "M" }]), addUsers([{ id: "n3", name: "N" }, { id: "n3", name: "M" }]), "constraint_violation"],
  ["insert, other columns", addUsers([{ id: "n1", name: "N", age: 30 }]), addUsers([{ id: "n2", name: "M", city: "Oslo" }])],
  ["insert, an unknown column", addUsers([{ id: "n1", name: "N" }]), addUsers([{ id: "n2", name: "M", nope: 1 }]), "validation_failed"],
  ["insert into a computed field", addUsers([{ id: "n1", name: "N" }]), addUsers([{ id: "n2", name: "M", adult: true }]), "validation_failed"],
  ["insert, defaults and a check", { kind: "insert", table: "orders", rows: [{ id: 90, user_id: "u1", amount: 5 }] }, { kind: "insert", table: "orders", rows: [{ id: 91, user_id: "u2", amount: -5 }] }, "validation_failed"],
  ["insert, a foreign key with no parent", { kind: "insert", table: "orders", rows: [{ id: 90, user_id: "u1", amount: 5 }] }, { kind: "insert", table: "orders", rows: [{ id: 91, user_id: "nobody", amount: 5 }] }, "constraint_violation"],
  ["insert, returning", addUsers([{ id: "n1", name: "N", age: 30 }], { returning: ["id", { expr: { type: "binary", op: "+", left: I("age"), right: L(1) }, as: "next" }] }), addUsers([{ id: "n2", name: "M", age: 40 }], { returning: ["id", { expr: { type: "binary", op: "+", left: I("age"), right: L(10) }, as: "next" }] })],
  ["upsert, another value", addUsers([{ id: "u1", name: "N" }], upsert({ name: "A" })), addUsers([{ id: "u2", name: "M" }], upsert({ name: "B" }))],
  ["upsert, an expression and a where", addUsers([{ id: "u1", name: "N", age: 1 }], upsert({ age: { type: "binary", op: "+", left: I("age"), right: L(1) } }, C(">", I("age"), L(0)))), addUsers([{ id: "u2", name: "M", age: 1 }], upsert({ age: { type: "binary", op: "+", left: I("age"), right: L(5) } }, C(">", I("age"), L(100))))],
  ["upsert, then do nothing", addUsers([{ id: "u1", name: "N" }], upsert({ name: "A" })), addUsers([{ id: "u2", name: "M" }], { onConflict: { action: "nothing" } })],
  ["insert, then a select of the rows", addUsers([{ id: "n1", name: "N" }]), { kind: "insert", table: "users", select: users(C("=", I("id"), L("u1")), { columns: [{ expr: L("n9"), as: "id" }, "name"] }) } as Command],
  ["delete by a range", { kind: "delete", table: "orders", where: C(">", I("amount"), L(200)) }, { kind: "delete", table: "orders", where: C(">", I("amount"), L(50.5)) }],
  // likelihood's p is checked as written: shape, never a slot, so a plan cached for 0.5 never answers for 1.5.
  ["likelihood, another p", users(LIKELIHOOD(C(">", I("age"), L(18)), L(0.5))), users(LIKELIHOOD(C(">", I("age"), L(30)), L(0.25)))],
  ["likelihood, then p out of range", users(LIKELIHOOD(C(">", I("age"), L(18)), L(0.5))), users(LIKELIHOOD(C(">", I("age"), L(18)), L(1.5))), "invalid_request"],
  ["likelihood, then p an integer", users(LIKELIHOOD(C(">", I("age"), L(18)), L(0.5))), users(LIKELIHOOD(C(">", I("age"), L(18)), L(1))), "invalid_request"],
  ["likelihood of a whole real, then of an integer", users(LIKELIHOOD(L(true), { type: "cast", expr: L(1), as: "real" })), users(LIKELIHOOD(L(true), L(1))), "invalid_request"],
];

for (const [name, warm, probe, code] of EDGES) {
  test(`hit = miss: ${name}`, () => {
    const outcome = hitMatchesMiss(fixtureEngine, warm, probe);
    if (code === undefined) assert.not.ok(JSON.parse(outcome).code, outcome);
    else assert.is(JSON.parse(outcome).code, code, outcome);
  });
}

test("a text inside likely, unlikely or likelihood types unixepoch as a bare one does: JSON answers as SQL, cached or not", () => {
  const F = (name: string, ...args: Expression[]): Expression => ({ type: "function", name, args });
  const typed = (arg: Expression): Command => ({ kind: "select", columns: [{ expr: F("typeof", F("unixepoch", L("2020-01-01"), arg)), as: "t" }] });
  const e = fixtureEngine();
  const answer = (command: Command): string => JSON.stringify(e.execute(command).result);
  const hinted: [string, (text: string) => Expression][] = [
    ["likely('%')", (text) => F("likely", L(text))],
    ["unlikely('%')", (text) => F("unlikely", L(text))],
    ["likelihood('%', 0.5)", (text) => LIKELIHOOD(L(text), L(0.5))],
    ["likely(unlikely('%'))", (text) => F("likely", F("unlikely", L(text)))],
  ];
  for (const [sql, json] of hinted) {
    // Another text first: its plan must not answer for 'subsec'.
    for (const text of ["+1 day", "subsec"]) {
      const expected = answer({ kind: "sql", sql: `SELECT typeof(unixepoch('2020-01-01', ${sql.replace("%", text)})) AS t`, params: [] });
      assert.is(answer(typed(json(text))), expected, `${sql} with '${text}'`);
    }
  }
  assert.match(answer(typed(F("likely", L("subsec")))), /"real"/);
});

test("a parameter slot in a JSON command still needs values, cached shape or not", () => {
  const e = fixtureEngine();
  const slotted = users({ type: "comparison", op: "=", left: I("id"), right: { type: "param", index: 0 } });
  for (let i = 0; i < 2; i++) assert.match(run(e, slotted).outcome, /Parameter slots need values/);
});

test("explain binds the command as written: literals show, whatever is cached", () => {
  const e = fixtureEngine();
  run(e, users(C("=", I("id"), L("u1"))));
  const plan = (e.execute({ kind: "explain", command: users(C("=", I("id"), L("u3"))) as never }).result as PlanResult).plan;
  assert.equal(plan.statement.kind === "select" && plan.statement.access, { kind: "primary-key-lookup", columns: ["id"], values: [{ kind: "const", value: "u3" }] });
  assert.equal(plan.params, []);
  run(e, users(L(true), { limit: 1, offset: 2 }));
  const paged = (e.execute({ kind: "explain", command: users(L(true), { limit: 5, offset: 10 }) as never }).result as PlanResult).plan;
  assert.ok(paged.statement.kind === "select" && paged.statement.limit === 5 && paged.statement.offset === 10, "limit and offset show as written");
  assert.equal(paged.params, []);
});

test("group_concat's separator is part of the shape: two separators, two plans", () => {
  const e = fixtureEngine();
  const joined = (separator: string): Value => {
    const column = { expr: { type: "aggregate", name: "group_concat", arg: I("name"), separator } as Expression, as: "v" };
    const r = e.execute({ kind: "select", table: "users", columns: [column], where: C("<>", I("id"), L("u3")) }).result as RowsResult;
    return (r.rows[0] as Record<string, Value>).v as Value;
  };
  assert.is(joined(", "), "Ada, Bob, Dee, Eve");
  assert.is(joined("/"), "Ada/Bob/Dee/Eve");
  const sumWithSeparator = { kind: "select", table: "users", columns: [{ expr: { type: "aggregate", name: "sum", arg: I("age"), separator: "," }, as: "v" }] } as Command;
  e.execute({ kind: "select", table: "users", columns: [{ expr: { type: "aggregate", name: "sum", arg: I("age") }, as: "v" }] });
  assert.is(storeErrorOf(() => e.execute(sumWithSeparator)).code, "invalid_request");
});

test("an aggregate's filter is part of the shape: none, one, and one where another command has json_group_object's value", () => {
  const agg = (extra: Record<string, unknown>): Command =>
    ({ kind: "select", table: "users", columns: [{ expr: { type: "aggregate", name: "sum", arg: I("age"), ...extra }, as: "v" }] }) as Command;
  const older = C(">", I("age"), L(30));
  assert.is(hitMatchesMiss(fixtureEngine, agg({}), agg({ filter: older })), hitMatchesMiss(fixtureEngine, agg({ filter: C("<", I("age"), L(0)) }), agg({ filter: older })));
  assert.match(hitMatchesMiss(fixtureEngine, agg({}), agg({ filter: older })), '"v":88');
  const object = (extra: Record<string, unknown>): Command =>
    ({ kind: "select", table: "users", columns: [{ expr: { type: "aggregate", name: "json_group_object", arg: I("name"), ...extra }, as: "v" }] }) as Command;
  // Value and filter hold the same expression: the filter alone leaves json_group_object without its values.
  assert.match(hitMatchesMiss(fixtureEngine, object({ value: older }), object({ filter: older })), '"code":"invalid_request"');
  const window = (extra: Record<string, unknown>): Command =>
    ({ kind: "select", table: "users", columns: [{ expr: { type: "window", name: "count", args: [], ...extra, over: {} }, as: "v" }] }) as Command;
  assert.match(hitMatchesMiss(fixtureEngine, window({}), window({ filter: older })), '"v":2');
});

/** Rows of `select * from t where a = 1`, as [column, value] pairs. */
function rowsOfT(e: Engine): [string, Value][][] {
  const r = e.execute({ kind: "select", table: "t", columns: "*", where: C("=", I("a"), L(1)) }).result as RowsResult;
  return r.rows.map((row) => r.columns.map((c) => [c, (row as Record<string, Value>)[c] as Value]));
}

const tableAB = (columns: Record<string, "integer" | "text">): Command => ({ kind: "create-table", schema: { name: "t", columns } });

test("create and drop clear the cache: a table rebuilt with other positions reads right", () => {
  const e = Engine.empty();
  e.execute(tableAB({ a: "integer", b: "text" }));
  e.execute({ kind: "insert", table: "t", rows: [{ a: 1, b: "x" }] });
  assert.equal(rowsOfT(e), [[["a", 1], ["b", "x"]]]);
  e.execute({ kind: "drop-table", table: "t" });
  e.execute(tableAB({ b: "text", a: "integer" }));
  e.execute({ kind: "insert", table: "t", rows: [{ a: 1, b: "y" }] });
  assert.equal(rowsOfT(e), [[["b", "y"], ["a", 1]]]);
});

test("undoing create and drop clears the cache too", () => {
  const e = Engine.empty();
  e.execute(tableAB({ a: "integer", b: "text" }));
  e.execute({ kind: "insert", table: "t", rows: [{ a: 1, b: "old" }] });
  const drop = e.execute({ kind: "drop-table", table: "t" }).changes;
  const create = e.execute(tableAB({ b: "text", a: "integer", c: "text" })).changes;
  e.execute({ kind: "insert", table: "t", rows: [{ a: 1, b: "new", c: "z" }] });
  assert.equal(rowsOfT(e), [[["b", "new"], ["a", 1], ["c", "z"]]]);
  e.undo(create);
  assert.match(run(e, { kind: "select", table: "t", columns: "*", where: C("=", I("a"), L(1)) }).outcome, /table_not_found/);
  e.undo(drop);
  assert.equal(rowsOfT(e), [[["a", 1], ["b", "old"]]]);
});

test.run();
