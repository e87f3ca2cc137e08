/**
 * The fixture database every conformance case runs on: built fresh, through
 * plain JSON commands, for each case and each surface, so a mutating case
 * never leaks into the next one.
 *
 * users ← orders (restrict) covers filters, NULL logic, joins, computed
 * fields, defaults and checks; teams ← members ← badges (cascade) covers
 * cascade chains, and awards (restrict, on members) a cascade that must stop
 * whole; pairs covers a composite primary key and a unique key with several
 * NULLs. The row data is exported so expectations can be derived.
 */

import { Engine } from "../../src/catalog/engine.js";
import type { Command, Value } from "../../src/commands/types.js";

export const USER_COLUMNS = ["id", "name", "age", "city", "score", "active", "note"] as const;
export const USERS: Readonly<Record<string, readonly Value[]>> = {
  u1: ["u1", "Ada", 36, "Paris", 9.5, true, "first"],
  u2: ["u2", "Bob", 17, "Berlin", 7.25, false, null],
  u3: ["u3", "Cy", null, "Paris", null, true, "x"],
  u4: ["u4", "Dee", 52, null, 3, null, null],
  u5: ["u5", "Eve", 28, "Rome", 9.5, false, "hi"],
};
/** `adult` is computed: age >= 18. */
export const USER_ADULT: Readonly<Record<string, Value>> = { u1: true, u2: false, u3: null, u4: true, u5: true };

export const ORDER_COLUMNS = ["id", "user_id", "amount", "status", "paid"] as const;
export const ORDERS: Readonly<Record<number, readonly Value[]>> = {
  1: [1, "u1", 250, "shipped", true],
  2: [2, "u1", 20, "new", false],
  3: [3, "u2", 99.5, "shipped", true],
  4: [4, "u3", 100, "cancelled", false],
  5: [5, "u5", 5, "new", false],
  6: [6, "u5", null, "new", false],
};
/** `big` is computed: amount >= 100. */
export const ORDER_BIG: Readonly<Record<number, Value>> = { 1: true, 2: false, 3: false, 4: true, 5: false, 6: null };

const id = (name: string) => ({ type: "identifier", name }) as const;
const lit = (value: Value) => ({ type: "literal", value }) as const;

function objects(columns: readonly string[], data: readonly (readonly Value[])[]): Record<string, Value>[] {
  return data.map((values) => Object.fromEntries(columns.map((column, i) => [column, values[i] ?? null])));
}

export const FIXTURE: readonly Command[] = [
  {
    kind: "create-table",
    schema: {
      name: "users",
      columns: { id: "text", name: "text", age: "integer", city: "text", score: "real", active: "boolean", note: "text" },
      required: ["name"],
      primary_key: { columns: ["id"] },
      indexes: [{ name: "by_city", columns: ["city"] }],
      computed: { adult: { type: "comparison", op: ">=", left: id("age"), right: lit(18) } },
    },
  },
  {
    kind: "create-table",
    schema: {
      name: "orders",
      columns: { id: "integer", user_id: "text", amount: "real", status: "text", paid: "boolean" },
      required: ["user_id"],
      primary_key: { columns: ["id"] },
      foreign_keys: [{ columns: ["user_id"], references: { table: "users", columns: ["id"] } }],
      checks: [{ name: "amount_positive", expr: { type: "comparison", op: ">", left: id("amount"), right: lit(0) } }],
      indexes: [{ name: "by_user", columns: ["user_id"] }],
      defaults: { status: "new", paid: false },
      computed: { big: { type: "comparison", op: ">=", left: id("amount"), right: lit(100) } },
    },
  },
  { kind: "create-table", schema: { name: "teams", columns: { id: "integer", name: "text" }, primary_key: { columns: ["id"] } } },
  {
    kind: "create-table",
    schema: {
      name: "members",
      columns: { id: "integer", team_id: "integer", name: "text" },
      primary_key: { columns: ["id"] },
      foreign_keys: [{ columns: ["team_id"], references: { table: "teams", columns: ["id"] }, on_delete: "cascade" }],
    },
  },
  {
    kind: "create-table",
    schema: {
      name: "badges",
      columns: { id: "integer", member_id: "integer", label: "text" },
      primary_key: { columns: ["id"] },
      foreign_keys: [{ columns: ["member_id"], references: { table: "members", columns: ["id"] }, on_delete: "cascade" }],
    },
  },
  {
    kind: "create-table",
    schema: {
      name: "awards",
      columns: { id: "integer", member_id: "integer" },
      primary_key: { columns: ["id"] },
      foreign_keys: [{ columns: ["member_id"], references: { table: "members", columns: ["id"] }, on_delete: "restrict" }],
    },
  },
  {
    kind: "create-table",
    schema: {
      name: "pairs",
      columns: { a: "integer", b: "text", code: "text", label: "text" },
      primary_key: { columns: ["a", "b"] },
      unique: [{ columns: ["code"] }],
    },
  },
  { kind: "insert", table: "users", rows: objects(USER_COLUMNS, Object.values(USERS)) },
  { kind: "insert", table: "orders", rows: objects(ORDER_COLUMNS, Object.values(ORDERS)) },
  { kind: "insert", table: "teams", rows: objects(["id", "name"], [[1, "red"], [2, "blue"]]) },
  { kind: "insert", table: "members", rows: objects(["id", "team_id", "name"], [[10, 1, "m1"], [11, 1, "m2"], [12, 2, "m3"]]) },
  {
    kind: "insert",
    table: "badges",
    rows: objects(["id", "member_id", "label"], [[100, 10, "gold"], [101, 11, "silver"], [102, 12, "bronze"], [103, 10, "x"]]),
  },
  { kind: "insert", table: "awards", rows: objects(["id", "member_id"], [[1, 12]]) },
  {
    kind: "insert",
    table: "pairs",
    rows: objects(["a", "b", "code", "label"], [[1, "x", "A", "one"], [1, "y", null, "two"], [2, "x", null, "three"]]),
  },
];

/** A fresh engine holding the fixture. */
export function fixtureEngine(): Engine {
  const engine = Engine.empty();
  for (const command of FIXTURE) engine.execute(command);
  return engine;
}
