/**
 * Auto-parameterization: commands that differ only in literal values of one
 * JSON type share a shape; anything that binds differently never does, how
 * ever its names read; `withSlots` puts slot n where literal n was; and what
 * the tokens cannot stand for is left to be bound as written.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Expression, Value } from "../../src/commands/types.js";
import { StoreError } from "../../src/errors.js";
import { checkParams } from "../../src/executor/params.js";
import { sameShape, shapeOf, withCountSlots, withSlots, type ParameterizableCommand } from "../../src/planner/parameterize.js";
import type { Plan, SelectPlan } from "../../src/planner/plan.js";

const I = (name: string): Expression => ({ type: "identifier", name });
const L = (value: Value): Expression => ({ type: "literal", value });
const EQ = (left: Expression, right: Expression): Expression => ({ type: "comparison", op: "=", left, right });
const LIKELIHOOD = (x: Expression, p: Expression): Expression => ({ type: "function", name: "likelihood", args: [x, p] });
const HINT = (name: "likely" | "unlikely", x: Expression): Expression => ({ type: "function", name, args: [x] });
const UNIXEPOCH = (modifier: Expression): Expression => ({ type: "function", name: "unixepoch", args: [L("2020-01-01"), modifier] });
const AND = (...operands: Expression[]): Expression => ({ type: "and", operands });
const OR = (...operands: Expression[]): Expression => ({ type: "or", operands });
const DIV = (left: Expression, right: Expression): Expression => ({ type: "binary", op: "/", left, right });
const COLL = (expr: Expression, collation: string): Expression => ({ type: "collate", expr, collation }) as Expression;
const sel = (extra: Record<string, unknown> = {}, table = "t"): ParameterizableCommand => ({ kind: "select", table, columns: "*", ...extra }) as ParameterizableCommand;
const where = (w: Expression): ParameterizableCommand => sel({ where: w });
const sub = (extra: Record<string, unknown> = {}, table = "s"): Record<string, unknown> => ({ kind: "select", table, columns: ["x"], ...extra });
const INSEL = (expr: Expression, select: Record<string, unknown>, not?: true): Expression => ({ type: "in", expr, select, ...(not ? { not } : {}) }) as unknown as Expression;
const EXISTS = (select: Record<string, unknown>, not?: true): Expression => ({ type: "exists", select, ...(not ? { not } : {}) }) as unknown as Expression;
const SUB = (select: Record<string, unknown>): Expression => ({ type: "subquery", select }) as unknown as Expression;
const ins = (rows: Record<string, unknown>[], extra: Record<string, unknown> = {}): ParameterizableCommand => ({ kind: "insert", table: "t", rows, ...extra }) as ParameterizableCommand;

function shape(cmd: unknown) {
  const s = shapeOf(cmd as ParameterizableCommand);
  if (s === undefined) throw new Error(`no shape for ${JSON.stringify(cmd)}`);
  return s;
}

const same = (a: unknown, b: unknown): boolean => {
  const x = shape(a);
  const y = shape(b);
  const equal = sameShape(x.tokens, y.tokens);
  if (equal) assert.is(x.hash, y.hash, "equal shapes hash alike");
  return equal;
};

test("commands differing only in literal values of one type share a shape", () => {
  const pairs: [unknown, unknown][] = [
    [where(EQ(I("id"), L("a"))), where(EQ(I("id"), L("zz")))],
    [where(EQ(I("n"), L(1))), where(EQ(I("n"), L(2)))],
    [where(EQ(I("n"), L(1.5))), where(EQ(I("n"), L(-0.25)))],
    [where(L(true)), where(L(false))],
    [where(EQ(L(1), L(2))), where(EQ(L(-3), L(0)))],
    [{ kind: "update", table: "t", set: { a: 1, b: "x" }, where: L(true) }, { kind: "update", table: "t", set: { a: 9, b: "" }, where: L(false) }],
    [{ kind: "delete", table: "t", where: EQ(I("id"), L(null)) }, { kind: "delete", table: "t", where: EQ(I("id"), L(null)) }],
    [{ kind: "delete", table: "t", as: "x", where: EQ(I("x.id"), L(1)) }, { kind: "delete", table: "t", as: "x", where: EQ(I("x.id"), L(7)) }],
    [where(LIKELIHOOD(EQ(I("a"), L(1)), L(0.5))), where(LIKELIHOOD(EQ(I("a"), L(2)), L(0.5)))], // x's literals are slots
    // UPDATE … FROM: its joins' and set's literals are slots too.
    [
      { kind: "update", table: "t", as: "a", from: { table: "u" }, joins: [{ type: "inner", table: "v", on: EQ(I("v.x"), L(1)) }], set: { a: 1 }, where: EQ(I("u.id"), L("k")) },
      { kind: "update", table: "t", as: "a", from: { table: "u" }, joins: [{ type: "inner", table: "v", on: EQ(I("v.x"), L(2)) }], set: { a: 5 }, where: EQ(I("u.id"), L("z")) },
    ],
    [where({ type: "is-null", expr: I("a"), not: false }), where({ type: "is-null", expr: I("a") })], // bind reads `not === true`
    [sel({ limit: 1 }), sel({ limit: 2 })], // pages of one query
    [sel({ limit: 10, offset: 0 }), sel({ limit: 0, offset: 990 })],
    [sel({ columns: [{ expr: DIV(I("a"), L(2)), as: "x" }] }), sel({ columns: [{ expr: DIV(I("a"), L(7)), as: "x" }] })], // without GROUP BY, list literals are slots
    [sel({ groupBy: [I("a")], where: EQ(I("b"), L(1)) }), sel({ groupBy: [I("a")], where: EQ(I("b"), L(5)) })], // WHERE's literals always are
    // A subquery's literals are slots of the one statement.
    [where(INSEL(I("a"), sub({ where: EQ(I("b"), L(1)) }))), where(INSEL(I("a"), sub({ where: EQ(I("b"), L(9)) })))],
    [where(EXISTS(sub({ where: EQ(I("b"), L("x")) }))), where(EXISTS(sub({ where: EQ(I("b"), L("y")) })))],
    [where(EQ(I("a"), SUB(sub({ columns: [{ expr: DIV(I("b"), L(2)), as: "h" }] })))), where(EQ(I("a"), SUB(sub({ columns: [{ expr: DIV(I("b"), L(4)), as: "h" }] }))))],
  ];
  for (const [a, b] of pairs) assert.ok(same(a, b), JSON.stringify([a, b]));
});

test("shapes that bind differently never share tokens, whatever their names hold", () => {
  const pairs: [unknown, unknown][] = [
    [where(EQ(I("id"), L("1"))), where(EQ(I("id"), L(1)))],
    [where(EQ(I("n"), L(1))), where(EQ(I("n"), L(2.5)))], // integer and real compute differently (`7 / 2`, `7.5 / 2`)
    [where(EQ(I("id"), L(null))), where(EQ(I("id"), L(false)))],
    [where(EQ(I("id"), I("x"))), where(EQ(I("id"), L("x")))], // a column named like a literal
    [sel({ columns: ["a", "b"] }), sel({ columns: ["a,b"] })],
    [sel({ columns: ["ab"] }), sel({ columns: ["a", "b"] })],
    [sel({ columns: ["a"] }), sel({ columns: "*" })],
    [sel({ columns: ["1"] }), sel({ columns: [] })], // a name that reads like a tag
    [where(AND(OR(I("a"), I("b")), I("c"))), where(AND(OR(I("a"), I("b"), I("c"))))],
    [where(AND(OR(I("a"), I("b")), I("c"))), where(OR(AND(I("a"), I("b")), I("c")))],
    [where(AND(I("a"), AND(I("b")))), where(AND(AND(I("a")), I("b")))],
    [where({ type: "not", expr: I("a") }), where(I("a"))],
    [where({ type: "is-null", expr: I("a"), not: true }), where({ type: "is-null", expr: I("a") })],
    [where({ type: "comparison", op: "<", left: I("a"), right: L(1) }), where({ type: "comparison", op: "<=", left: I("a"), right: L(1) })],
    [sel({ limit: 1 }), sel({ offset: 1 })],
    // With GROUP BY, bind matches the list's expressions with the keys: their literals are shape.
    [sel({ columns: [{ expr: DIV(I("a"), L(20)), as: "x" }], groupBy: [DIV(I("a"), L(20))] }), sel({ columns: [{ expr: DIV(I("a"), L(30)), as: "x" }], groupBy: [DIV(I("a"), L(20))] })],
    [sel({ columns: [{ expr: DIV(I("a"), L(2)), as: "x" }], distinct: true }), sel({ columns: [{ expr: DIV(I("a"), L(3)), as: "x" }], distinct: true })],
    [sel({ groupBy: [L(1)] }), sel({ groupBy: [L(2)] })], // column numbers
    [sel({ limit: 0 }), sel({})],
    [sel({ where: L(true) }), sel({})],
    [sel({ output: "arrays" }), sel({})],
    // Row values: which column of a subquery's row, and a row's size, are shape.
    [where(EQ(I("a"), { type: "subquery", select: sub({ columns: ["x", "y"] }), column: 0 } as unknown as Expression)), where(EQ(I("a"), { type: "subquery", select: sub({ columns: ["x", "y"] }), column: 1 } as unknown as Expression))],
    [where(EQ(I("a"), SUB(sub()))), where(EQ(I("a"), { type: "subquery", select: sub(), column: 0 } as unknown as Expression))],
    [where(EQ({ type: "row", items: [I("a"), I("b")] }, { type: "row", items: [L(1), L(2)] })), where(EQ({ type: "row", items: [I("a"), I("b"), L(1)] }, { type: "row", items: [L(2)] }))],
    [sel({ orderBy: [{ column: "a" }] }), sel({ orderBy: [{ column: "a", direction: "desc" }] })],
    [sel({ orderBy: [{ column: "a" }, { column: "b" }] }), sel({ orderBy: [{ column: "a", direction: "b" }] })],
    [sel({ joins: [{ type: "inner", table: "u", on: L(true) }] }), sel({ joins: [{ type: "inner", table: "u", as: "u", on: L(true) }] })],
    [sel({ joins: [{ type: "inner", table: "u", on: L(true) }] }), sel({ joins: [{ type: "left", table: "u", on: L(true) }] })],
    [sel({}, "t"), sel({}, "u")],
    [sel({ where: L(true) }), { kind: "delete", table: "t", where: L(true) }],
    [{ kind: "update", table: "t", set: { a: 1 }, where: L(true) }, { kind: "update", table: "t", set: { b: 1 }, where: L(true) }],
    [{ kind: "update", table: "t", set: { a: "1" }, where: L(true) }, { kind: "update", table: "t", set: { a: 1 }, where: L(true) }],
    [{ kind: "update", table: "t", set: { a: 1, b: 2 }, where: L(true) }, { kind: "update", table: "t", set: { b: 2, a: 1 }, where: L(true) }],
    [{ kind: "update", table: "t", set: { a: 1 }, where: L(true) }, { kind: "update", table: "t", from: { table: "u" }, set: { a: 1 }, where: L(true) }],
    [{ kind: "update", table: "t", from: { table: "u" }, set: { a: 1 }, where: L(true) }, { kind: "update", table: "t", from: { table: "u", as: "u" }, set: { a: 1 }, where: L(true) }],
    [{ kind: "update", table: "t", from: { table: "u" }, set: { a: 1 }, where: L(true) }, { kind: "update", table: "t", as: "u", set: { a: 1 }, where: L(true) }],
    [{ kind: "delete", table: "t", where: L(true) }, { kind: "delete", table: "t", as: "t", where: L(true) }],
    [{ kind: "delete", table: "t", as: "x", where: L(true) }, { kind: "delete", table: "t", as: "y", where: L(true) }],
    // likelihood's p is checked as written: shape, a cast of a literal too.
    [where(LIKELIHOOD(I("a"), L(0.5))), where(LIKELIHOOD(I("a"), L(0.75)))],
    [where(LIKELIHOOD(I("a"), { type: "cast", expr: L(1), as: "real" })), where(LIKELIHOOD(I("a"), { type: "cast", expr: L(0), as: "real" }))],
    // unixepoch's texts type it ('subsec' makes it real), through the hints too, which bind as their argument.
    [where(EQ(I("a"), UNIXEPOCH(HINT("likely", L("subsec"))))), where(EQ(I("a"), UNIXEPOCH(HINT("likely", L("utc")))))],
    [where(EQ(I("a"), UNIXEPOCH(LIKELIHOOD(HINT("unlikely", L("subsec")), L(0.5))))), where(EQ(I("a"), UNIXEPOCH(LIKELIHOOD(HINT("unlikely", L("utc")), L(0.5)))))],
    [{ kind: "update", table: "t", from: { table: "u" }, set: { a: 1 }, where: L(true) }, { kind: "update", table: "t", from: { table: "u" }, joins: [{ type: "cross", table: "v" }], set: { a: 1 }, where: L(true) }],
    [where(INSEL(I("a"), sub())), where({ type: "in", expr: I("a"), values: [L(1)] })],
    [where(INSEL(I("a"), sub())), where(INSEL(I("a"), sub(), true))],
    [where(EXISTS(sub())), where(EXISTS(sub(), true))],
    [where(EXISTS(sub())), where(EQ(SUB(sub()), L(true)))],
    [where(EXISTS(sub({ limit: 1 }))), where(EXISTS(sub({ limit: 2 })))], // a subquery's counts are shape: only the statement's become slots
    [where(EXISTS(sub({}, "u"))), where(EXISTS(sub({}, "v")))],
    // Collations and GLOB are shape.
    [where(EQ(I("a"), COLL(L("x"), "nocase"))), where(EQ(I("a"), COLL(L("x"), "rtrim")))],
    [where(EQ(I("a"), COLL(L("x"), "binary"))), where(EQ(I("a"), L("x")))],
    [sel({ orderBy: [{ column: "a", collation: "nocase" }] }), sel({ orderBy: [{ column: "a" }] })],
    [where({ type: "glob", expr: I("a"), pattern: L("x*") }), where({ type: "like", expr: I("a"), pattern: L("x*") })],
    [where({ type: "glob", expr: I("a"), pattern: L("x*") }), where({ type: "glob", expr: I("a"), pattern: L("x*"), not: true })],
    // An insert's rows: their number, their keys and their values' types are shape.
    [ins([{ a: 1 }]), ins([{ a: 1 }, { a: 2 }])],
    [ins([{ a: 1 }, {}]), ins([{}, { a: 1 }])],
    [ins([{ a: 1 }]), ins([{ b: 1 }])],
    [ins([{ a: 1, b: 2 }]), ins([{ b: 2, a: 1 }])],
    [ins([{ a: 1 }]), ins([{ a: "1" }])],
    [ins([{ a: 1 }]), ins([{ a: 1.5 }])],
    [ins([{ a: null }]), ins([{ a: false }])],
    [ins([{ a: 1 }]), ins([{ a: 1 }], { returning: "*" })],
    [ins([{ a: 1 }]), ins([{ a: 1 }], { onConflict: { action: "nothing" } })],
    [ins([{ a: 1 }], { onConflict: { action: "nothing" } }), ins([{ a: 1 }], { onConflict: { action: "replace" } })],
    [ins([{ a: 1 }], { onConflict: { action: "nothing" } }), ins([{ a: 1 }], { onConflict: { action: "nothing", target: ["a"] } })],
    [ins([{ a: 1 }], { onConflict: { action: "update", set: { a: 2 } } }), ins([{ a: 1 }], { onConflict: { action: "update", set: { a: 2 }, where: L(true) } })],
    [ins([{ a: 1 }], { onConflict: { action: "update", set: { a: 2 } } }), ins([{ a: 1 }], { onConflict: { action: "update", set: { a: I("excluded.a") } } })],
    [ins([{ a: 1 }]), { kind: "insert", table: "u", rows: [{ a: 1 }] }],
  ];
  for (const [a, b] of pairs) assert.not.ok(same(a, b), JSON.stringify([a, b]));
  // A column number under COLLATE is bound as written, never slotted.
  assert.is(shapeOf(sel({ groupBy: [COLL(L(1), "nocase")] })), undefined);
  assert.is(shapeOf(sel({ orderBy: [{ expr: COLL(L(2), "nocase") }] })), undefined);
  assert.ok(same(where(EQ(I("a"), COLL(L("x"), "nocase"))), where(EQ(I("a"), COLL(L("yy"), "nocase")))), "the literal under COLLATE is a slot");
});

test("values come in slot order, and withSlots puts slot n where literal n was", () => {
  const cmd: ParameterizableCommand = {
    kind: "select",
    table: "t",
    columns: ["a"],
    joins: [
      { type: "inner", table: "u", on: EQ(I("u.x"), L("j0")) },
      { type: "left", table: "v", on: AND(EQ(I("v.y"), L(1)), L(true)) },
    ],
    where: OR(EQ(I("a"), L(null)), { type: "not", expr: { type: "is-null", expr: L("w") } }),
  };
  assert.equal(shape(cmd).values, ["j0", 1, true, null, "w"]);
  const slotted = withSlots(cmd);
  assert.equal(fill(slotted, shape(cmd).values), cmd);
  assert.equal(shape(cmd).values, ["j0", 1, true, null, "w"], "the command itself is left as it was");

  // As the server parses it: `__proto__` is an own key there.
  const parsed = JSON.parse('{"kind":"update","table":"t","set":{"a":1,"__proto__":"p","b":null},"where":{"type":"comparison","op":"=","left":{"type":"identifier","name":"id"},"right":{"type":"literal","value":"k"}}}');
  const values = shape(parsed).values;
  assert.equal(values, [1, "p", null, "k"]);
  const updSlotted = withSlots(parsed as ParameterizableCommand) as unknown as { set: Record<string, unknown> };
  assert.equal(Object.keys(updSlotted.set), ["a", "__proto__", "b"], "every set key stays an own key");
  assert.equal(fill(updSlotted, values), parsed);

  // UPDATE … FROM: the joins' ON, then set, where and returning.
  const from: ParameterizableCommand = {
    kind: "update",
    table: "t",
    from: { table: "u" },
    joins: [{ type: "inner", table: "v", on: EQ(I("v.x"), L("j")) }],
    set: { a: 2, b: "s" },
    where: EQ(I("u.id"), L("w")),
    returning: [{ expr: EQ(I("a"), L(4)), as: "r" }],
  };
  assert.equal(shape(from).values, ["j", 2, "s", "w", 4]);
  assert.equal(fill(withSlots(from), shape(from).values), from);

  // An insert: the rows' values row by row, then the conflict clause's set and where, then returning.
  const upsert = JSON.parse(
    '{"kind":"insert","table":"t","rows":[{"a":1,"__proto__":"p"},{"b":null}],"onConflict":{"target":["a"],"action":"update","set":{"b":{"type":"binary","op":"+","left":{"type":"identifier","name":"b"},"right":{"type":"literal","value":2.5}},"c":"s"},"where":{"type":"literal","value":true}},"returning":[{"expr":{"type":"literal","value":"r"},"as":"x"}]}',
  );
  assert.equal(shape(upsert).values, [1, "p", null, 2.5, "s", true, "r"]);
  const insSlotted = withSlots(upsert as ParameterizableCommand) as unknown as { rows: Record<string, unknown>[] };
  assert.equal(Object.keys(insSlotted.rows[0]!), ["a", "__proto__"], "every row key stays an own key");
  assert.equal(fill(insSlotted, shape(upsert).values), upsert);
  assert.ok(same(upsert, { ...upsert, rows: [{ a: 7, ["__proto__"]: "q" }, { b: null }] }), "other values of the same types: one shape");
});

test("subqueries' literals are slots in text order, before the statement's counts", () => {
  const cmd = sel({
    where: AND(INSEL(I("a"), sub({ where: EQ(I("b"), L("s0")) })), { type: "in", expr: I("c"), values: [L(1), L(2)] }, EQ(SUB(sub({ where: EXISTS(sub({ where: EQ(I("d"), L(true)) })) })), L(3.5))),
    limit: 5,
  });
  const values = shape(cmd).values;
  assert.equal(values.slice(-1), [5]);
  assert.equal([...values].sort(), [1, 2, 3.5, 5, "s0", true].sort());
  assert.equal(fill(withSlots(cmd), values.slice(0, -1)), cmd);
});

test("a row value's literals are slots, and two rows of other literals share a shape", () => {
  const row = (...items: Expression[]): Expression => ({ type: "row", items });
  const cmd = (a: Value, b: Value) => where(AND(EQ(row(I("a"), I("b")), row(L(a), L(b))), INSEL(row(I("c"), L(b)), sub({ columns: ["x", "y"] }))));
  assert.ok(same(cmd(1, "x"), cmd(2, "y")));
  const values = shape(cmd(1, "x")).values;
  assert.equal(values, [1, "x", "x"]);
  assert.equal(fill(withSlots(cmd(1, "x")), values), cmd(1, "x"));
});

test("an update's setRows: its selects' literals are slots after set's, its columns shape", () => {
  const upd = (a: Value, k: Value, columns = ["a", "b"]) =>
    ({ kind: "update", table: "t", set: { c: a }, setRows: [{ columns, select: sub({ columns: ["x", "y"], where: EQ(I("k"), L(k)) }) }], where: EQ(I("id"), L(a)) }) as unknown as ParameterizableCommand;
  assert.ok(same(upd(1, "p"), upd(2, "q")));
  assert.not.ok(same(upd(1, "p"), upd(1, "p", ["b", "a"])));
  assert.not.ok(same(upd(1, "p"), { kind: "update", table: "t", set: { c: 1 }, where: EQ(I("id"), L(1)) }));
  const values = shape(upd(1, "p")).values;
  assert.equal(values, [1, "p", 1]);
  assert.equal(fill(withSlots(upd(1, "p")), values), upd(1, "p"));
});

test("a select's limit and offset are the slots after its literals", () => {
  const cmd = sel({ where: EQ(I("a"), L("x")), limit: 20, offset: 40 });
  assert.equal(shape(cmd).values, ["x", 20, 40]);
  assert.is(shape(cmd).literals, 1);
  assert.equal(shape(sel({ offset: 7 })).values, [7]);
  assert.is(shape(sel({ offset: 7 })).literals, 0);
  assert.equal(withSlots(cmd), { ...cmd, where: EQ(I("a"), { type: "param", index: 0, literal: "text" }) }, "withSlots leaves the counts to the plan");

  const statement = { kind: "select", sources: [], access: { kind: "scan" }, joins: [], distinct: false, orderBy: [], output: "objects", columns: [], limit: 20, offset: 40 } as SelectPlan;
  const plan = withCountSlots({ statement, params: [{ kind: "any" }] });
  assert.equal(plan.params, [{ kind: "any" }, { kind: "count", clause: "limit" }, { kind: "count", clause: "offset" }]);
  assert.ok(plan.statement.kind === "select" && plan.statement.offset !== undefined);
  assert.equal(plan.statement.kind === "select" && [plan.statement.limit, plan.statement.offset], [{ kind: "param", index: 1 }, { kind: "param", index: 2 }]);
  const onlyOffset: Plan = withCountSlots({ statement: { ...statement, limit: undefined }, params: [] });
  assert.equal(onlyOffset.statement.kind === "select" && [onlyOffset.statement.limit, onlyOffset.statement.offset], [undefined, { kind: "param", index: 0 }]);
  const none: Plan = { statement: { ...statement, limit: undefined, offset: undefined }, params: [] };
  assert.is(withCountSlots(none), none, "nothing to slot");

  // A count slot holds an integer ≥ 0, never NULL (CONTRACT §11; only SQL's literal LIMIT -1 is SQLite's no limit).
  checkParams(plan.params, ["x", 0, 9]);
  for (const bad of [-1, 1.5, null, "3", 2 ** 53]) {
    try {
      checkParams(plan.params, ["x", bad as Value, 0]);
      assert.unreachable(`accepted ${String(bad)}`);
    } catch (error) {
      assert.ok(error instanceof StoreError && error.code === "invalid_request" && /limit must be an integer/.test(error.message), String(error));
    }
  }
});

test("a window function's arguments are slots; its window's literals and frame are shape", () => {
  const W = (args: Expression[], over: Record<string, unknown>): Expression => ({ type: "window", name: "lag", args, over }) as unknown as Expression;
  const list = (e: Expression) => sel({ columns: [{ expr: e, as: "w" }] });
  const over = (p: Value, frame?: Record<string, unknown>) => ({ partitionBy: [DIV(I("a"), L(p))], orderBy: [{ column: "b" }, { expr: L(1), direction: "desc" }], ...(frame === undefined ? {} : { frame }) });
  assert.ok(same(list(W([I("x"), L(1), L(0)], over(2))), list(W([I("x"), L(3), L(9)], over(2)))), "arguments are slots");
  assert.not.ok(same(list(W([I("x")], over(2))), list(W([I("x")], over(3)))), "PARTITION BY literals are shape");
  const frame = (start: unknown, end?: unknown) => ({ units: "rows", start, ...(end === undefined ? {} : { end }) });
  assert.not.ok(same(list(W([I("x")], over(2, frame({ preceding: 1 })))), list(W([I("x")], over(2, frame({ preceding: 2 }))))), "offsets are shape");
  assert.not.ok(same(list(W([I("x")], over(2, frame("current row")))), list(W([I("x")], over(2, frame("current row", "current row"))))));
  assert.not.ok(same(list(W([I("x")], over(2, frame({ following: 1 })))), list(W([I("x")], over(2, frame({ preceding: 1 }))))));
  const cmd = list(W([I("x"), L(1), L("d")], over(2, frame({ preceding: 1 }, "unbounded following"))));
  assert.equal(shape(cmd).values, [1, "d"]);
  assert.equal(fill(withSlots(cmd), shape(cmd).values), cmd);
});

test("what the tokens cannot stand for is bound as written", () => {
  let deep: Expression = I("a");
  for (let i = 0; i < 300; i++) deep = { type: "not", expr: deep };
  const none: unknown[] = [
    where(EQ(I("a"), { type: "param", index: 0 })),
    where(EQ(I("a"), L(Number.NaN))),
    where(EQ(I("a"), L(Number.POSITIVE_INFINITY))),
    where(EQ(I("a"), { type: "literal", value: { x: 1 } } as unknown as Expression)),
    where(EQ(I("a"), { type: "literal" } as unknown as Expression)),
    where({ type: "bogus" } as unknown as Expression),
    where(deep),
    sel({ limit: -1 }),
    sel({ limit: 1.5 }),
    sel({ offset: "5" }),
    sel({ columns: "a" }),
    sel({}, 7 as unknown as string),
    { kind: "update", table: "t", set: { a: { type: "param", index: 0 } }, where: L(true) },
    { kind: "update", table: "t", set: [1], where: L(true) },
    { kind: "update", table: "t", from: { from: { kind: "select", table: "u", columns: "*" }, as: "d" }, set: { a: 1 }, where: L(true) },
    { kind: "update", table: "t", from: { table: "u" }, joins: [{ type: "inner", from: { kind: "select", table: "u", columns: "*" }, as: "d", on: L(true) }], set: { a: 1 }, where: L(true) },
    { kind: "delete", table: "t" },
    ins([{ a: { type: "param", index: 0 } }]),
    ins([{ a: { x: 1 } }]),
    ins([{ a: [1] }]),
    ins([{ a: Number.NaN }]),
    ins([[1]] as unknown as Record<string, unknown>[]),
    ins([null] as unknown as Record<string, unknown>[]),
    { kind: "insert", table: "t", rows: {} },
    { kind: "insert", table: "t", select: { kind: "select", table: "u", columns: "*" } },
    { kind: "insert", table: "t", rows: [{ a: 1 }], columns: ["a"] },
    ins([{ a: 1 }], { onConflict: { action: "update", set: { a: { type: "param", index: 0 } } } }),
    ins([{ a: 1 }], { onConflict: { action: "nothing", target: "a" } }),
  ];
  for (const c of none) assert.is(shapeOf(c as ParameterizableCommand), undefined, JSON.stringify(c));
  // A bulk insert past the tokens a caller caches is bound as written too.
  const bulk = ins(Array.from({ length: 200 }, (_, i) => ({ a: i, b: "x" })));
  assert.ok(shapeOf(bulk) !== undefined);
  assert.is(shapeOf(bulk, 100), undefined);
});

/** The inverse of withSlots: parameter slot n back to a literal (in `set`, a value) of values[n]. */
function fill(node: unknown, values: readonly Value[]): unknown {
  if (Array.isArray(node)) return node.map((x) => fill(x, values));
  if (typeof node !== "object" || node === null) return node;
  const o = node as Record<string, unknown>;
  if (o.type === "param") return { type: "literal", value: values[o.index as number] };
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, k === "set" ? fillSet(v, values) : k === "rows" ? (v as unknown[]).map((row) => fillSet(row, values)) : fill(v, values)]));
}

/** A `set` or an insert's row: a slot back to a value, an expression's slots back to literals. */
function fillSet(set: unknown, values: readonly Value[]): unknown {
  return Object.fromEntries(Object.entries(set as Record<string, { type: string; index: number }>).map(([k, v]) => [k, v.type === "param" ? values[v.index] : fill(v, values)]));
}

test.run();
