import { test } from "uvu";
import * as assert from "uvu/assert";
import { alias, and, avg, cast, col, count, countDistinct, eq, exists, filter, ge, gt, inQuery, isNotNull, isNull, le, lower, lt, ne, not, notExists, or, over, rowNumber, subquery, sum, val } from "../../src/api/expressions.js";
import { TableQuery } from "../../src/api/table-query.js";
import type { Result } from "../../src/commands/results.js";
import type { Command } from "../../src/commands/types.js";
import { parseCommand } from "../../src/commands/validate.js";
import { StoreError } from "../../src/errors.js";
import { rejectionOf } from "../support/store-error.js";

const RESULT: Result = { kind: "rows", columns: [], rows: [], rowCount: 0 };

/** A builder whose runner records what it was handed. */
function recorded(table = "users") {
  const seen: Command[] = [];
  const query = new TableQuery(table, async (command) => {
    seen.push(command);
    return RESULT;
  });
  return { query, seen };
}
const users = () => recorded().query;

test("expression helpers: strings on the left are columns, on the right values", () => {
  assert.equal(eq("name", "Ada"), { type: "comparison", op: "=", left: { type: "identifier", name: "name" }, right: { type: "literal", value: "Ada" } });
  assert.equal((eq("a", col("b")) as { right: unknown }).right, { type: "identifier", name: "b" });
  assert.equal((eq(val("x"), col("b")) as { left: unknown }).left, { type: "literal", value: "x" });
  assert.equal(eq(5, null), { type: "comparison", op: "=", left: { type: "literal", value: 5 }, right: { type: "literal", value: null } });
  assert.equal([ne, lt, le, gt, ge].map((f) => (f("a", 1) as { op: string }).op), ["<>", "<", "<=", ">", ">="]);
  assert.equal(isNull("a"), { type: "is-null", expr: { type: "identifier", name: "a" } });
  assert.equal(isNotNull("a"), { type: "is-null", expr: { type: "identifier", name: "a" }, not: true });
  assert.equal(and(val(true), val(false)), { type: "and", operands: [{ type: "literal", value: true }, { type: "literal", value: false }] });
  assert.equal(or(val(true)), { type: "or", operands: [{ type: "literal", value: true }] });
  assert.equal(not(val(true)), { type: "not", expr: { type: "literal", value: true } });
});

test("§11 helpers chain, and stay plain wire objects", () => {
  const total = col("price").mul(col("qty"));
  assert.equal(total, { type: "binary", op: "*", left: { type: "identifier", name: "price" }, right: { type: "identifier", name: "qty" } });
  assert.equal(JSON.parse(JSON.stringify(total.add(1).as("t"))), { expr: { type: "binary", op: "+", left: total, right: { type: "literal", value: 1 } }, as: "t" });
  assert.equal(Object.keys(lower("name").like("a%", "!")), ["type", "expr", "pattern", "escape"], "methods are not own keys");
  assert.equal(col("a").notIn(1, "x"), { type: "in", expr: { type: "identifier", name: "a" }, values: [{ type: "literal", value: 1 }, { type: "literal", value: "x" }], not: true });
  assert.equal(col("a").between(1, 2), { type: "between", expr: { type: "identifier", name: "a" }, low: { type: "literal", value: 1 }, high: { type: "literal", value: 2 } });
  assert.equal(count(), { type: "aggregate", name: "count" });
  assert.equal(countDistinct("u"), { type: "aggregate", name: "count", arg: { type: "identifier", name: "u" }, distinct: true });
  assert.equal(sum("s", { distinct: true }).as("x"), { expr: { type: "aggregate", name: "sum", arg: { type: "identifier", name: "s" }, distinct: true }, as: "x" });
  assert.equal(alias(cast("a", "text"), "t"), { expr: { type: "cast", expr: { type: "identifier", name: "a" }, as: "text" }, as: "t" });
  assert.equal(cast("a", "text").as, "text", "a CAST's own `as` is its type");
});

test("filter(): FILTER (WHERE …) on an aggregate, carried by over() into its window, refused on anything else", () => {
  const a = { type: "identifier", name: "a" } as const;
  const paid = { type: "identifier", name: "paid" } as const;
  assert.equal(filter(count(), "paid"), { type: "aggregate", name: "count", filter: paid });
  assert.equal(filter(sum("a", { distinct: true }), gt("a", 1)).mul(2), {
    type: "binary",
    op: "*",
    left: { type: "aggregate", name: "sum", arg: a, distinct: true, filter: gt("a", 1) },
    right: { type: "literal", value: 2 },
  });
  const window = { type: "window", name: "sum", args: [a], filter: paid, over: { orderBy: [{ column: "id" }] } };
  assert.equal(over(filter(sum("a"), "paid"), { orderBy: ["id"] }), window);
  assert.equal(filter(over(sum("a"), { orderBy: ["id"] }), "paid"), window);
  assert.is(parseCommand({ kind: "select", table: "t", columns: [filter(over(rowNumber()), "paid").as("n")] }).kind, "select", "the binder, not the builder, refuses a window function's filter");
  assert.throws(() => filter(lower("a"), "paid"), (e: unknown) => e instanceof StoreError && e.code === "invalid_request" && /filter\(\) takes an aggregate, not a function/.test(e.message));
  // One FILTER clause per call, as in SQL: a second is refused, never put in the first one's place.
  const twice = (e: unknown) => e instanceof StoreError && e.code === "invalid_request" && /without a filter/.test(e.message);
  assert.throws(() => filter(filter(sum("a"), "paid"), gt("a", 1)), twice);
  assert.throws(() => filter(over(filter(sum("a"), "paid")), gt("a", 1)), twice);
});

test("select: alias, groupBy, having, distinct and expression order in one command", () => {
  const plan = users()
    .as("u")
    .select("u.city", count().as("n"), avg("u.score").as("mean"))
    .groupBy("u.city", lower("u.name"))
    .having(gt(count(), 1))
    .having(gt(avg("u.score"), 2))
    .distinct()
    .orderBy(count(), "desc")
    .toPlan();
  assert.equal(JSON.parse(JSON.stringify(plan)), {
    kind: "select",
    table: "users",
    columns: [
      "u.city",
      { expr: { type: "aggregate", name: "count" }, as: "n" },
      { expr: { type: "aggregate", name: "avg", arg: { type: "identifier", name: "u.score" } }, as: "mean" },
    ],
    as: "u",
    groupBy: [{ type: "identifier", name: "u.city" }, { type: "function", name: "lower", args: [{ type: "identifier", name: "u.name" }] }],
    having: {
      type: "and",
      operands: [
        { type: "comparison", op: ">", left: { type: "aggregate", name: "count" }, right: { type: "literal", value: 1 } },
        { type: "comparison", op: ">", left: { type: "aggregate", name: "avg", arg: { type: "identifier", name: "u.score" } }, right: { type: "literal", value: 2 } },
      ],
    },
    distinct: true,
    orderBy: [{ expr: { type: "aggregate", name: "count" }, direction: "desc" }],
  });
  assert.not.throws(() => parseCommand(plan));
  assert.throws(() => users().delete().groupBy("a").toPlan(), (e: unknown) => e instanceof StoreError && e.code === "invalid_request");
});

test("select: columns, filters, joins, order, limits and output in one command", () => {
  const plan = users()
    .select("users.name", "o.amount")
    .join("orders", eq("o.user_id", col("users.id")), { as: "o" })
    .leftJoin("teams", eq("teams.id", col("users.team")))
    .where({ "users.city": "Paris", age: null })
    .where(gt("o.amount", 10))
    .orderBy("o.amount", "desc")
    .orderBy("users.name")
    .limit(10)
    .offset(20)
    .output("arrays")
    .toPlan();
  assert.equal(plan, {
    kind: "select",
    table: "users",
    columns: ["users.name", "o.amount"],
    joins: [
      { type: "inner", table: "orders", as: "o", on: eq("o.user_id", col("users.id")) },
      { type: "left", table: "teams", on: eq("teams.id", col("users.team")) },
    ],
    where: and(and(eq("users.city", "Paris"), isNull("age")), gt("o.amount", 10)),
    orderBy: [{ column: "o.amount", direction: "desc" }, { column: "users.name", direction: "asc" }],
    limit: 10,
    offset: 20,
    output: "arrays",
  });
  assert.is(parseCommand(plan), plan);
});

test("subqueries are fluent selects, taken by their toPlan(), in every position", () => {
  const orders = recorded("orders").query;
  const ofUser = orders.select("id").where(eq("orders.user_id", col("users.id")));
  const select = { kind: "select", table: "orders", columns: ["id"], where: eq("orders.user_id", col("users.id")) };
  const cmd = users()
    .select("id", subquery(orders.select(count().as("n")).where(eq("orders.user_id", col("users.id")))).as("n"))
    .where(and(exists(ofUser), notExists(ofUser.where(gt("amount", 100))), col("id").in(orders.select("user_id")), col("id").notIn(orders.select("user_id").limit(3))))
    .toPlan();
  assert.equal(cmd, {
    kind: "select",
    table: "users",
    columns: ["id", { expr: { type: "subquery", select: { kind: "select", table: "orders", columns: [{ expr: { type: "aggregate", name: "count" }, as: "n" }], where: eq("orders.user_id", col("users.id")) } }, as: "n" }],
    where: {
      type: "and",
      operands: [
        { type: "exists", select },
        { type: "exists", select: { ...select, where: and(eq("orders.user_id", col("users.id")), gt("amount", 100)) }, not: true },
        { type: "in", expr: { type: "identifier", name: "id" }, select: { kind: "select", table: "orders", columns: ["user_id"] } },
        { type: "in", expr: { type: "identifier", name: "id" }, select: { kind: "select", table: "orders", columns: ["user_id"], limit: 3 }, not: true },
      ],
    },
  });
  parseCommand(cmd); // the wire form is valid JSON
  assert.equal(inQuery("id", orders.select("user_id")), (col("id").in(orders.select("user_id"))));
  assert.equal(col("id").in(1, 2), { type: "in", expr: { type: "identifier", name: "id" }, values: [{ type: "literal", value: 1 }, { type: "literal", value: 2 }] }, "values stay a list");
  for (const bad of [() => exists(orders.delete().all()), () => subquery(orders.insert({ id: 1 })), () => col("id").in(orders.select().explain())]) {
    try {
      bad();
      assert.unreachable("a subquery that is not a select was taken");
    } catch (error) {
      assert.ok(error instanceof StoreError && error.code === "invalid_request" && /must be a select/.test(error.message), String(error));
    }
  }
});

test("compound selects: each joined select's own toPlan(), in call order; order and limits stay the whole's", () => {
  const orders = recorded("orders").query;
  const cmd = users()
    .select("id")
    .union(orders.select("user_id").where(gt("amount", 100)))
    .except(users().select("id").where({ city: "Paris" }))
    .unionAll(orders.select("user_id"))
    .intersect(users().select("id"))
    .orderBy("id", "desc")
    .limit(5)
    .toPlan();
  assert.equal(cmd, {
    kind: "select",
    table: "users",
    columns: ["id"],
    compound: [
      { op: "union", select: { kind: "select", table: "orders", columns: ["user_id"], where: gt("amount", 100) } },
      { op: "except", select: { kind: "select", table: "users", columns: ["id"], where: eq("city", "Paris") } },
      { op: "union-all", select: { kind: "select", table: "orders", columns: ["user_id"] } },
      { op: "intersect", select: { kind: "select", table: "users", columns: ["id"] } },
    ],
    orderBy: [{ column: "id", direction: "desc" }],
    limit: 5,
  });
  parseCommand(cmd); // the wire form is valid JSON
});

test("derived tables: a query as the table or a join, taken by its toPlan()", () => {
  const orders = recorded("orders").query;
  const totals = orders.select("user_id", sum("amount").as("total")).groupBy("user_id");
  const cmd = new TableQuery(totals, async () => RESULT).as("t").select("t.user_id").join(users().select("id"), eq("u.id", col("t.user_id")), { as: "u" }).toPlan();
  const totalsCommand = { kind: "select", table: "orders", columns: ["user_id", { expr: sum("amount"), as: "total" }], groupBy: [{ type: "identifier", name: "user_id" }] };
  assert.equal(cmd, {
    kind: "select",
    from: totalsCommand,
    columns: ["t.user_id"],
    as: "t",
    joins: [{ type: "inner", from: { kind: "select", table: "users", columns: ["id"] }, as: "u", on: eq("u.id", col("t.user_id")) }],
  });
  parseCommand(cmd);
  for (const bad of [new TableQuery(totals, async () => RESULT).insert({ a: 1 }), new TableQuery(totals, async () => RESULT).delete().all()]) {
    assert.throws(() => bad.toPlan(), /needs a table, not a derived table/);
  }
  assert.throws(() => users().join(orders.delete().all(), val(true)).toPlan(), /The query given to \.join\(\) must be a select, not a delete/);
});

test("select defaults: every column, no optional fields", () => {
  assert.equal(users().toPlan(), { kind: "select", table: "users", columns: "*" });
  assert.equal(users().select("a").select().toPlan(), { kind: "select", table: "users", columns: "*" });
  assert.equal(users().select("a").select("b").toPlan(), { kind: "select", table: "users", columns: ["b"] });
  assert.equal(users().where({ id: "u1" }).toPlan(), { kind: "select", table: "users", columns: "*", where: eq("id", "u1") });
  assert.equal(users().where(isNotNull("a")).toPlan(), { kind: "select", table: "users", columns: "*", where: isNotNull("a") });
  assert.equal(users().where({ n: 1, b: col("c") }).toPlan(), { kind: "select", table: "users", columns: "*", where: and(eq("n", 1), eq("b", col("c"))) });
});

test("a column literally named type is reachable through eq()", () => {
  assert.equal(users().where({ type: "admin" }).toPlan(), { kind: "select", table: "users", columns: "*", where: eq("type", "admin") });
  assert.equal(users().where(eq("type", "literal")).toPlan(), { kind: "select", table: "users", columns: "*", where: eq("type", "literal") });
});

test("the builder is immutable: every call returns a new query, the old one unchanged", () => {
  const base = users().select("id").where({ city: "Paris" });
  const before = JSON.stringify(base.toPlan());
  const a = base.where({ active: true }).orderBy("id").limit(1);
  const b = base.orderBy("name", "desc").join("orders", eq("orders.user_id", col("users.id")));
  base.update({ a: 1 });
  base.delete().all();
  base.explain();
  assert.is(JSON.stringify(base.toPlan()), before);
  assert.is.not(a, base);
  assert.equal((a.toPlan() as { orderBy: unknown }).orderBy, [{ column: "id", direction: "asc" }]);
  assert.equal((b.toPlan() as { orderBy: unknown }).orderBy, [{ column: "name", direction: "desc" }]);
  assert.is((b.toPlan() as { where: { type: string } }).where.type, "comparison");
  // Mutating a plan someone got back does not reach the query.
  const plan = base.toPlan() as unknown as { columns: string[] };
  plan.columns.push("x");
  assert.equal((base.toPlan() as unknown as { columns: string[] }).columns, ["id"]);
});

test("insert, update and delete", () => {
  assert.equal(users().insert({ id: "u1", name: "Ada" }).toPlan(), { kind: "insert", table: "users", rows: [{ id: "u1", name: "Ada" }] });
  assert.equal(users().insert([{ id: "u1" }, { id: "u2", n: 3 }]).toPlan(), {
    kind: "insert",
    table: "users",
    rows: [{ id: "u1" }, { id: "u2", n: 3 }],
  });
  assert.equal(users().update({ name: "Bo" }).where({ id: "u2" }).toPlan(), { kind: "update", table: "users", set: { name: "Bo" }, where: eq("id", "u2") });
  assert.equal(users().where({ id: "u2" }).update({ name: "Bo" }).toPlan(), { kind: "update", table: "users", set: { name: "Bo" }, where: eq("id", "u2") });
  assert.equal(users().update({ name: "Bo" }).all().toPlan(), { kind: "update", table: "users", set: { name: "Bo" }, where: val(true) });
  assert.equal(users().delete().where(lt("age", 3)).toPlan(), { kind: "delete", table: "users", where: lt("age", 3) });
  assert.equal(users().delete().all().toPlan(), { kind: "delete", table: "users", where: val(true) });
  assert.equal(users().delete().all().where({ id: "x" }).toPlan(), { kind: "delete", table: "users", where: eq("id", "x") });
  for (const query of [users().insert({ a: 1 }), users().update({ a: 1 }).all(), users().delete().where({ a: 1 })]) {
    const plan = query.toPlan();
    assert.is(parseCommand(plan), plan);
  }
});

test("explain wraps the command", () => {
  assert.equal(users().select("id").where({ id: "u1" }).explain().toPlan(), {
    kind: "explain",
    command: { kind: "select", table: "users", columns: ["id"], where: eq("id", "u1") },
  });
  assert.equal(users().delete().all().explain().toPlan(), { kind: "explain", command: { kind: "delete", table: "users", where: val(true) } });
});

const rejection = (run: () => Promise<unknown>): Promise<StoreError> => rejectionOf(run);

test("run() hands toPlan() to the runner once", async () => {
  const { query, seen } = recorded("orders");
  const q = query.select("id").where({ id: 1 });
  assert.is(await q.run(), RESULT);
  assert.equal(seen, [q.toPlan()]);
});

test("an update or delete with neither where nor all() rejects, and nothing runs", async () => {
  const { query, seen } = recorded();
  for (const q of [query.update({ a: 1 }), query.delete()]) {
    const error = await rejection(() => q.run());
    assert.is(error.code, "invalid_request");
    assert.match(error.message, /needs \.where\(\.\.\.\) or \.all\(\)/);
  }
  assert.equal(seen, []);
});

test("calls that do not fit the query's kind reject with invalid_request", async () => {
  const { query, seen } = recorded();
  const cases: [TableQuery, RegExp][] = [
    [query.delete().limit(1).all(), /\.limit\(\) does not apply to delete/],
    [query.update({ a: 1 }).orderBy("a").all(), /\.orderBy\(\) does not apply to update/],
    [query.insert({ a: 1 }).where({ a: 1 }), /\.where\(\) does not apply to insert/],
    [query.insert({ a: 1 }).all(), /\.all\(\) does not apply to insert/],
    [query.select("a").all(), /\.all\(\) does not apply to select/],
    [query.select("a").delete().all(), /\.delete\(\) on a query shaped as a select/],
    [query.limit(3).update({ a: 1 }).all(), /\.update\(\) on a query shaped as a select/],
    [query.where({ a: 1 }).insert({ a: 1 }), /\.insert\(\) takes no where/],
    [query.update({ a: 1 }).delete().all(), /\.delete\(\) on a query that is already an update/],
    [query.delete().update({ a: 1 }).all(), /\.update\(\) on a query that is already a delete/],
    [query.insert({ a: 1 }).join("t", val(true)), /\.join\(\) does not apply to insert/],
    [query.delete().output("arrays").all(), /\.output\(\) does not apply to delete/],
    [query.update({ a: 1 }).from("s").from("s", { as: "x" }).all(), /\.from\(\) is given once: join further sources with \.join\(\)/],
    [query.delete().union(users()).all(), /\.union\(\) does not apply to delete/],
    [query.select("a").except(users()).delete().all(), /\.delete\(\) on a query shaped as a select/],
    [query.select("a").unionAll(users().delete().all()), /The query given to \.unionAll\(\) must be a select, not a delete/],
    [query.select("a").intersect(users().explain()), /The query given to \.intersect\(\) must be a select, not an explain/],
  ];
  for (const [q, message] of cases) {
    assert.throws(() => q.toPlan(), message);
    const error = await rejection(() => q.run());
    assert.is(error.code, "invalid_request");
  }
  assert.equal(seen, []);
});

test("the builder checks no names or values: that is the bind step's job", () => {
  const plan = new TableQuery("bad name", async () => RESULT).select("x y").limit(-1).toPlan();
  assert.equal(plan, { kind: "select", table: "bad name", columns: ["x y"], limit: -1 });
});


test("typed rows: column names and values are checked at compile time", () => {
  type User = { id: string; age: number | null };
  const typed = new TableQuery<User>("users", async () => RESULT);
  const ok = typed.select("id", "age", "o.total").where({ id: "u1", age: null, "o.total": 3 }).orderBy("age");
  assert.equal(ok.toPlan(), {
    kind: "select",
    table: "users",
    columns: ["id", "age", "o.total"],
    where: and(eq("id", "u1"), isNull("age"), eq("o.total", 3)),
    orderBy: [{ column: "age", direction: "asc" }],
  });
  typed.insert({ id: "u1", age: 30 });
  // @ts-expect-error: age is a number
  typed.insert({ id: "u1", age: "old" });
  // @ts-expect-error: not a column of User
  typed.select("nickname");
  // @ts-expect-error: id is a string
  typed.where({ id: 5 });
  // @ts-expect-error: direction is asc or desc
  typed.orderBy("id", "up");
});

test.run();
