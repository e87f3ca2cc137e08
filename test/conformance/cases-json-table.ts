/**
 * Conformance cases for the table functions json_each and json_tree (SQL
 * `FROM json_each(doc [, path])`, JSON `from: {"kind": "function", …}`, the
 * builder's `jsonEach`/`jsonTree`): every column of SQLite's rows (ids as
 * SQLite numbers them), a path, a NULL document, the hidden columns, a walk
 * filtered by type, `IN (SELECT value FROM json_each(…))`, and the lateral
 * forms — a comma join, JOIN … ON and LEFT JOIN whose document is built
 * from each user's row, a correlated EXISTS — with the answers SQLite 3.53
 * gives (JSON true/false as TRUE/FALSE: docs/decisions.md); then the
 * errors: malformed JSON and a bad path (`invalid_request` on every
 * surface, as the JSON functions'), a call reading a later source or on
 * the right of a RIGHT JOIN, an unknown function, a wrong count of
 * arguments, and a value read from JSON of the wrong type.
 *
 * Fixture rows: users u1..u5 have cities Paris, Berlin, Paris, NULL, Rome
 * and notes "first", NULL, "x", NULL, "hi".
 */

import { col, eq, exists, gt, jsonArray, jsonEach, jsonTree, ne, val } from "../../src/api/expressions.js";
import type { Expression } from "../../src/commands/types.js";
import { AS, B, C, FN, I, L, c, err, ids, misuse, rows, sel, type Case } from "./dsl.js";

const users = "users";
const DOC = '[1,2.5,"a",null,true,{"x":1}]';
const TREE = '{"a":{"b":[1,2]},"c":3}';
const ALL = ["key", "value", "type", "atom", "id", "parent", "fullkey", "path"];

/** `{"kind":"function"}`: a table function's call as JSON's `from`. */
const CALL = (name: string, ...args: Expression[]) => ({ kind: "function", name, args });
/** A select from a table function, in JSON. */
const FROM = (call: unknown, columns: unknown, extra: Record<string, unknown> = {}) => ({ kind: "select", from: call, columns, ...extra });
const NOTES = FN("json_array", I("u.city"), I("u.note"));
const notes = () => jsonArray(col("u.city"), col("u.note"));

export const jsonTableCases: readonly Case[] = [
  c(
    "json_each: SQLite's columns for each element of an array (ids where SQLite's parsed form holds them)",
    (t) => t(jsonEach(val(DOC))).select(...ALL),
    FROM(CALL("json_each", L(DOC)), ALL),
    `SELECT ${ALL.join(", ")} FROM json_each('${DOC}')`,
    rows(
      ALL,
      [0, 1, "integer", 1, 2, null, "$[0]", "$"],
      [1, 2.5, "real", 2.5, 4, null, "$[1]", "$"],
      [2, "a", "text", "a", 8, null, "$[2]", "$"],
      [3, null, "null", null, 10, null, "$[3]", "$"],
      [4, true, "true", true, 11, null, "$[4]", "$"],
      [5, '{"x":1}', "object", null, 12, null, "$[5]", "$"],
    ),
  ),
  c(
    "json_each: * shows the eight columns, not the hidden json and root",
    (t) => t(jsonEach(val('{"a":1}'))),
    FROM(CALL("json_each", L('{"a":1}')), "*"),
    `SELECT * FROM json_each('{"a":1}')`,
    rows(ALL, ["a", 1, "integer", 1, 1, null, "$.a", "$"]),
  ),
  c(
    "json_each with a path: the members of the value there; json and root read by name",
    (t) => t(jsonEach(val(TREE), "$.a.b")).select("key", "value", "fullkey", "path", "json", "root"),
    FROM(CALL("json_each", L(TREE), L("$.a.b")), ["key", "value", "fullkey", "path", "json", "root"]),
    `SELECT key, value, fullkey, path, json, root FROM json_each('${TREE}', '$.a.b')`,
    rows(["key", "value", "fullkey", "path", "json", "root"], [0, 1, "$.a.b[0]", "$.a.b", TREE, "$.a.b"], [1, 2, "$.a.b[1]", "$.a.b", TREE, "$.a.b"]),
  ),
  c(
    "json_tree walks the whole document: its integers, with their parents",
    (t) => t(jsonTree(val(TREE))).select("fullkey", "value", "parent").where(eq("type", "integer")),
    FROM(CALL("json_tree", L(TREE)), ["fullkey", "value", "parent"], { where: C("=", "type", "integer") }),
    `SELECT fullkey, value, parent FROM json_tree('${TREE}') WHERE type = 'integer'`,
    rows(["fullkey", "value", "parent"], ["$.a.b[0]", 1, 5], ["$.a.b[1]", 2, 5], ["$.c", 3, 0]),
  ),
  c(
    "json_tree with a path: its first row is the value there, keyed by the path's last step",
    null,
    FROM(CALL("json_tree", L(TREE), L("$.a")), ["key", "type", "fullkey", "path"]),
    `SELECT key, type, fullkey, path FROM json_tree('${TREE}', '$.a')`,
    rows(["key", "type", "fullkey", "path"], ["a", "object", "$.a", "$"], ["b", "array", "$.a.b", "$.a"], [0, "integer", "$.a.b[0]", "$.a.b"], [1, "integer", "$.a.b[1]", "$.a.b"]),
  ),
  c(
    "json_each of a NULL document, or at a path that finds nothing, has no rows",
    (t) => t(jsonEach(val(null))).select("value"),
    FROM(CALL("json_each", L(null)), ["value"]),
    `SELECT value FROM json_each(NULL) UNION ALL SELECT value FROM json_each('[1]', '$.missing')`,
    rows(["value"]),
  ),
  c(
    "WHERE id IN (SELECT value FROM json_each(…))",
    null,
    sel(users, ["id"], { where: { type: "in", expr: I("id"), select: FROM(CALL("json_each", L('["u4","u2","zz"]')), ["value"]) }, orderBy: [{ column: "id" }] }),
    `SELECT id FROM users WHERE id IN (SELECT value FROM json_each('["u4","u2","zz"]')) ORDER BY id`,
    ids("u2", "u4"),
  ),
  c(
    "A comma join: each user's document read by json_each, made again for each row",
    (t) =>
      t(users)
        .as("u")
        .select("u.id", "j.value")
        .crossJoin(jsonEach(notes()), { as: "j" })
        .where({ type: "is-null", expr: col("j.value"), not: true })
        .orderBy("u.id")
        .orderBy("j.key"),
    sel(users, ["u.id", "j.value"], { as: "u", joins: [{ type: "cross", from: CALL("json_each", NOTES), as: "j" }], where: { type: "is-null", expr: I("j.value"), not: true }, orderBy: [{ column: "u.id" }, { column: "j.key" }] }),
    "SELECT u.id, j.value FROM users u, json_each(json_array(u.city, u.note)) j WHERE j.value IS NOT NULL ORDER BY u.id, j.key",
    rows(["u.id", "j.value"], ["u1", "Paris"], ["u1", "first"], ["u2", "Berlin"], ["u3", "Paris"], ["u3", "x"], ["u5", "Rome"], ["u5", "hi"]),
  ),
  c(
    "JOIN json_each(…) ON: the condition reads the call's row",
    (t) => t(users).as("u").select("u.id", "j.value").join(jsonEach(notes()), eq("j.key", 1), { as: "j" }).orderBy("u.id"),
    sel(users, ["u.id", "j.value"], { as: "u", joins: [{ type: "inner", from: CALL("json_each", NOTES), as: "j", on: C("=", "j.key", 1) }], orderBy: [{ column: "u.id" }] }),
    "SELECT u.id, j.value FROM users u JOIN json_each(json_array(u.city, u.note)) j ON j.key = 1 ORDER BY u.id",
    rows(["u.id", "j.value"], ["u1", "first"], ["u2", null], ["u3", "x"], ["u4", null], ["u5", "hi"]),
  ),
  c(
    "LEFT JOIN json_each(…): a row with no match keeps NULLs",
    (t) => t(users).as("u").select("u.id", "j.value").leftJoin(jsonEach(jsonArray(col("u.note"))), eq("j.type", "text"), { as: "j" }).orderBy("u.id"),
    sel(users, ["u.id", "j.value"], { as: "u", joins: [{ type: "left", from: CALL("json_each", FN("json_array", I("u.note"))), as: "j", on: C("=", "j.type", "text") }], orderBy: [{ column: "u.id" }] }),
    "SELECT u.id, j.value FROM users u LEFT JOIN json_each(json_array(u.note)) j ON j.type = 'text' ORDER BY u.id",
    rows(["u.id", "j.value"], ["u1", "first"], ["u2", null], ["u3", "x"], ["u4", null], ["u5", "hi"]),
  ),
  c(
    "LEFT JOIN json_each(…) with no condition, as SQLite takes it: a row whose document has no rows keeps one of NULLs",
    (t) => t(users).as("u").select("u.id", "j.value").leftJoin(jsonEach(jsonArray(col("u.note"))), undefined, { as: "j" }).where(ne("u.id", "u1")).orderBy("u.id"),
    sel(users, ["u.id", "j.value"], { as: "u", joins: [{ type: "left", from: CALL("json_each", FN("json_array", I("u.note"))), as: "j" }], where: C("<>", "u.id", "u1"), orderBy: [{ column: "u.id" }] }),
    "SELECT u.id, j.value FROM users u LEFT JOIN json_each(CASE WHEN u.note IS NULL THEN NULL ELSE json_array(u.note) END) j WHERE u.id <> 'u1' ORDER BY u.id",
    rows(["u.id", "j.value"], ["u2", null], ["u3", "x"], ["u4", null], ["u5", "hi"]),
  ),
  c(
    "A correlated EXISTS over json_each of the enclosing row",
    (t) => t(users).as("u").select("id").where(exists(t(jsonEach(notes())).select(val(1).as("one")).where(eq("value", "Paris")))).orderBy("id"),
    sel(users, ["id"], { as: "u", where: { type: "exists", select: FROM(CALL("json_each", NOTES), [AS(L(1), "one")], { where: C("=", "value", "Paris") }) }, orderBy: [{ column: "id" }] }),
    "SELECT id FROM users u WHERE EXISTS (SELECT 1 FROM json_each(json_array(u.city, u.note)) WHERE value = 'Paris') ORDER BY id",
    ids("u1", "u3"),
  ),
  c(
    "An aggregate over json_tree's rows; a value read from JSON checked where arithmetic needs a number",
    null,
    FROM(CALL("json_tree", L('{"a":[1,{"b":2}],"c":"x"}')), [AS({ type: "aggregate", name: "sum", arg: B("*", "value", 10) } as Expression, "s")], { where: C("=", "type", "integer") }),
    `SELECT sum(value * 10) AS s FROM json_tree('{"a":[1,{"b":2}],"c":"x"}') WHERE type = 'integer'`,
    rows(["s"], [30]),
  ),

  // ---------------------------------------------------------------- errors
  c("Malformed JSON is invalid_request, named by the function", (t) => t(jsonEach(val("[1"))).select("value"), FROM(CALL("json_each", L("[1")), ["value"]), "SELECT value FROM json_each('[1')", err("invalid_request")),
  c("A bad path is invalid_request", null, FROM(CALL("json_tree", L("[1]"), L("x")), ["value"]), "SELECT value FROM json_tree('[1]', 'x')", err("invalid_request")),
  c(
    "A call reading a source after it is refused",
    null,
    { kind: "select", from: CALL("json_each", I("u.note")), as: "j", columns: ["j.value"], joins: [{ type: "cross", table: users, as: "u" }] },
    "SELECT j.value FROM json_each(u.note) j, users u",
    misuse,
  ),
  c(
    "A call reading the sources before it cannot be the right side of a RIGHT JOIN",
    null,
    sel(users, ["u.id"], { as: "u", joins: [{ type: "right", from: CALL("json_each", NOTES), as: "j", on: L(true) }] }),
    "SELECT u.id FROM users u RIGHT JOIN json_each(json_array(u.city, u.note)) j ON TRUE",
    misuse,
  ),
  c("No other table function is known", null, FROM(CALL("generate_series", L(1)), ["value"]), "SELECT value FROM generate_series(1)", misuse),
  c("json_each takes one or two arguments", null, FROM(CALL("json_each"), ["value"]), "SELECT value FROM json_each()", misuse),
  c(
    "A text value read from JSON where arithmetic needs a number is type_mismatch",
    (t) => t(jsonEach(val('["a"]'))).select(col("value").add(1).as("v")),
    FROM(CALL("json_each", L('["a"]')), [AS(B("+", "value", 1), "v")]),
    `SELECT value + 1 AS v FROM json_each('["a"]')`,
    err("type_mismatch"),
  ),
  c(
    "A comparison of a number read from JSON with a typed column passes when the families agree",
    (t) => t(jsonEach(val("[3, 40, 5]"))).select("value").where(gt("value", 4)),
    FROM(CALL("json_each", L("[3, 40, 5]")), ["value"], { where: C(">", "value", 4) }),
    "SELECT value FROM json_each('[3, 40, 5]') WHERE value > 4",
    rows(["value"], [40], [5]),
  ),
];
