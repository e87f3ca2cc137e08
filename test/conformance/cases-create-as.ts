/**
 * Conformance cases for CREATE TABLE … AS SELECT (JSON `create-table` with
 * `table` and `select`; the builder has no create-table): the table's
 * columns are the select's result columns, named and typed as a derived
 * table's, with no keys; its rows the select's, in one mutation that
 * reports `rowsAffected: 0` as every create-table does. IF NOT EXISTS, parameters, WITH, a
 * transaction undoing it, and the refusals: a column of no type, two of
 * one name, a result with no column name, a value its column cannot hold,
 * a schema beside the select.
 *
 * Fixture rows (see `fixture.ts`): orders 1..6 of users u1, u1, u2, u3, u5,
 * u5, amounts 250, 20, 99.5, 100, 5, NULL.
 */

import type { Result } from "../../src/commands/results.js";
import { AS, B, C, I, L, c, err, misuse, mut, rows, sel, tx, txr, type Case } from "./dsl.js";

const createAs = (table: string, select: unknown, extra: Record<string, unknown> = {}) => ({ kind: "create-table", table, select, ...extra });
const describe = (table: string) => ({ kind: "describe", table }) as const;
const schemaOf = (name: string, columns: Record<string, string>): Result => ({ kind: "schema", tables: [{ name, columns }] }) as Result;
const RICH = sel("orders", ["id", "user_id", AS(B("*", "amount", 2), "twice"), "paid", "big"], { where: C(">", "amount", 90) });
const RICH_SQL = "CREATE TABLE rich AS SELECT id, user_id, amount * 2 AS twice, paid, big FROM orders WHERE amount > 90";
const RICH_ROWS = rows(["id", "user_id", "twice", "paid", "big"], [1, "u1", 500, true, true], [3, "u2", 199, true, false], [4, "u3", 200, false, true]);

export const createAsCases: readonly Case[] = [
  c("CREATE TABLE … AS SELECT makes a table of the select's columns, types and rows", null, createAs("rich", RICH), RICH_SQL, mut("create-table", "rich", 0),
    [[describe("rich"), schemaOf("rich", { id: "integer", user_id: "text", twice: "real", paid: "boolean", big: "boolean" })], [sel("rich", "*"), RICH_ROWS]]),
  c("aggregates type their columns as the select does", null,
    createAs("per_user", sel("orders", ["user_id", AS({ type: "aggregate", name: "count" }, "n"), AS({ type: "aggregate", name: "sum", arg: I("amount") }, "total")], { groupBy: [I("user_id")] })),
    "CREATE TABLE per_user AS SELECT user_id, count(*) AS n, sum(amount) AS total FROM orders GROUP BY user_id", mut("create-table", "per_user", 0),
    [[describe("per_user"), schemaOf("per_user", { user_id: "text", n: "integer", total: "real" })],
      [sel("per_user", "*"), rows(["user_id", "n", "total"], ["u1", 2, 270], ["u2", 1, 99.5], ["u3", 1, 100], ["u5", 2, 5])]]),
  c("the table has no keys: the same row goes in twice", null, createAs("ids", sel("orders", ["id"], { where: C("=", "id", 1) })),
    "CREATE TABLE ids AS SELECT id FROM orders WHERE id = 1", mut("create-table", "ids", 0),
    [[{ kind: "insert", table: "ids", rows: [{ id: 1 }] }, mut("insert", "ids", 1)], [sel("ids", "*"), rows(["id"], [1], [1])]]),
  c("an empty select makes an empty table", null, createAs("none", sel("orders", ["id", "status"], { where: C(">", "id", 99) })),
    "CREATE TABLE none AS SELECT id, status FROM orders WHERE id > 99", mut("create-table", "none", 0),
    [describe("none"), schemaOf("none", { id: "integer", status: "text" })]),
  c("the select takes parameters", null, createAs("top", sel("orders", ["id"], { where: C(">", "amount", 100) })),
    ["CREATE TABLE top AS SELECT id FROM orders WHERE amount > ?", [100]], mut("create-table", "top", 0), [sel("top", "*"), rows(["id"], [1])]),
  c("WITH may open the select", null, null,
    "CREATE TABLE who AS WITH u AS (SELECT id, name FROM users WHERE age > 30) SELECT u.name, o.id FROM u JOIN orders o ON o.user_id = u.id",
    mut("create-table", "who", 0), [sel("who", "*"), rows(["name", "id"], ["Ada", 1], ["Ada", 2])]),
  c("IF NOT EXISTS on an existing table does nothing", null, createAs("users", sel("orders", ["id"]), { ifNotExists: true }),
    "CREATE TABLE IF NOT EXISTS users AS SELECT id FROM orders", mut("create-table", "users", 0),
    [describe("users"), { kind: "schema", tables: [{ name: "users", columns: { id: "text", name: "text", age: "integer", city: "text", score: "real", active: "boolean", note: "text" }, required: ["id", "name"], primary_key: { columns: ["id"] }, indexes: [{ name: "by_city", columns: ["city"] }], computed: { adult: C(">=", "age", 18) } }] } as Result]),
  c("IF NOT EXISTS on an existing table does not even bind the select", null, createAs("users", sel("nosuch", ["id"]), { ifNotExists: true }),
    "CREATE TABLE IF NOT EXISTS users AS SELECT id, id FROM nosuch", mut("create-table", "users", 0)),
  c("a create-table with a select names the field it lacks", null, { kind: "create-table", table: "x" }, null, err("invalid_request")),
  c("a create-table may not hold both a schema and a select", null, { kind: "create-table", table: "x", select: sel("orders", ["id"]), schema: { name: "x", columns: { id: "integer" } } }, null,
    err("invalid_request")),
  c("an existing table is 409", null, createAs("users", sel("orders", ["id"])), "CREATE TABLE users AS SELECT id FROM orders", err("table_exists")),
  tx("a transaction that fails after CREATE TABLE … AS SELECT leaves no table",
    [[null, createAs("copy", sel("orders", ["id"])), "CREATE TABLE copy AS SELECT id FROM orders"], [null, { kind: "insert", table: "users", rows: [{ id: "u1", name: "Dup" }] }, "INSERT INTO users (id, name) VALUES ('u1', 'Dup')"]],
    { error: "constraint_violation", step: 1 }, [describe("copy"), err("table_not_found")]),
  tx("a later step reads the table", [[null, createAs("copy", sel("orders", ["id"])), "CREATE TABLE copy AS SELECT id FROM orders"], [null, sel("copy", ["id"], { where: C("<", "id", 3) }), "SELECT id FROM copy WHERE id < 3"]],
    txr(mut("create-table", "copy", 0), rows(["id"], [1], [2]))),

  // ---- refusals, with no table left behind
  c("a column that is always NULL has no type", null, createAs("bad", sel("orders", ["id", AS(L(null), "nothing")])),
    "CREATE TABLE bad AS SELECT id, NULL AS nothing FROM orders", misuse, [describe("bad"), err("table_not_found")]),
  c("two columns of one name are refused", null, createAs("bad", sel("orders", ["id", AS(I("user_id"), "id")])),
    "CREATE TABLE bad AS SELECT id, user_id AS id FROM orders", misuse, [describe("bad"), err("table_not_found")]),
  c("a result named by its text is no column name", null, null, "CREATE TABLE bad AS SELECT count(*) FROM orders", err("invalid_name")),
  c("a value its column's type cannot hold refuses the whole command", null, createAs("bad", sel("orders", [AS(B("+", L(9007199254740991), I("id")), "n")])),
    "CREATE TABLE bad AS SELECT 9007199254740991 + id AS n FROM orders", err("validation_failed"), [describe("bad"), err("table_not_found")]),
  c("a schema beside the select is refused", null, { kind: "create-table", schema: { name: "bad", columns: { id: "integer" } }, table: "bad", select: sel("orders", ["id"]) }, null,
    err("invalid_request"), [describe("bad"), err("table_not_found")]),
  c("a table name beside a schema is refused", null, { kind: "create-table", schema: { name: "bad", columns: { id: "integer" } }, table: "bad" }, null, err("invalid_request")),
];
