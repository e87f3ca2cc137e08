/**
 * Conformance cases for SQLite's JSON functions: a document built from each
 * user's columns (json_object, json_array: a real column's whole value
 * written `3.0`, booleans `true`/`false`, NULLs `null`), read back with
 * `->`, `->>` and json_extract (values typed when read: checked where an
 * operator needs a family), the scalar functions over literals, the
 * editing functions, the aggregates, and the errors: malformed JSON and
 * bad paths are `invalid_request` on every surface.
 */

import { add, col, fn, gt, jsonArray, jsonExtract, jsonGet, jsonGroupArray, jsonGroupObject, jsonObject, jsonValue, type Expr } from "../../src/api/expressions.js";
import type { Expression, Value } from "../../src/commands/types.js";
import { AS, B, C, I, L, NEG, c, err, misuse, rows, sel, type Case, type Expect } from "./dsl.js";

const users = "users";
const IDS = ["u1", "u2", "u3", "u4", "u5"];

const F = (name: string, ...args: Expression[]): Expression => ({ type: "function", name, args });

/** Each user as a document: `json_object('name', name, 'age', age, 'score', score, 'active', active, 'tags', json_array(city, note))`. */
const DOC_SQL = "json_object('name', name, 'age', age, 'score', score, 'active', active, 'tags', json_array(city, note))";
const DOC_JSON = F("json_object", L("name"), I("name"), L("age"), I("age"), L("score"), I("score"), L("active"), I("active"), L("tags"), F("json_array", I("city"), I("note")));
const docFluent = (): Expr => jsonObject("name", col("name"), "age", col("age"), "score", col("score"), "active", col("active"), "tags", jsonArray(col("city"), col("note")));

/** `SELECT id, <expr> AS v FROM users ORDER BY id`, one value per user. */
function per(name: string, fluent: Expr | null, json: Expression, sql: string, values: readonly Value[]): Case {
  return c(
    name,
    fluent === null ? null : (t) => t(users).select("id", fluent.as("v")).orderBy("id"),
    sel(users, ["id", AS(json, "v")], { orderBy: [{ column: "id" }] }),
    `SELECT id, ${sql} AS v FROM users ORDER BY id`,
    rows(["id", "v"], ...IDS.map((id, i) => [id, values[i] ?? null])),
  );
}

/** `SELECT <expr> AS v` without a table: one value, or an error. */
function one(name: string, json: Expression, sql: string, expect: Value | Expect): Case {
  const outcome = typeof expect === "object" && expect !== null ? expect : rows(["v"], [expect]);
  return c(name, null, { kind: "select", columns: [AS(json, "v")] }, `SELECT ${sql} AS v`, outcome);
}

const ids = (...list: string[]) => rows(["id"], ...list.map((id) => [id]));

export const jsonCases: readonly Case[] = [
  // ---- building documents from columns
  per("json_object and json_array write each column's value as JSON", docFluent(), DOC_JSON, DOC_SQL, [
    '{"name":"Ada","age":36,"score":9.5,"active":true,"tags":["Paris","first"]}',
    '{"name":"Bob","age":17,"score":7.25,"active":false,"tags":["Berlin",null]}',
    '{"name":"Cy","age":null,"score":null,"active":true,"tags":["Paris","x"]}',
    '{"name":"Dee","age":52,"score":3.0,"active":null,"tags":[null,null]}',
    '{"name":"Eve","age":28,"score":9.5,"active":false,"tags":["Rome","hi"]}',
  ]),
  // ---- reading them back
  per("->> reads a key as its SQL value", jsonValue(docFluent(), "age"), B("->>", DOC_JSON, "age"), `${DOC_SQL} ->> 'age'`, [36, 17, null, 52, 28]),
  per("->> reads JSON true and false as booleans", jsonValue(docFluent(), "$.active"), B("->>", DOC_JSON, "$.active"), `${DOC_SQL} ->> '$.active'`, [true, false, true, null, false]),
  per("-> reads the value as JSON text", jsonGet(docFluent(), "name"), B("->", DOC_JSON, "name"), `${DOC_SQL} -> 'name'`, ['"Ada"', '"Bob"', '"Cy"', '"Dee"', '"Eve"']),
  per("an integer after -> or ->> is an array index, chained left to right", jsonValue(jsonGet(docFluent(), "tags"), 0), B("->>", B("->", DOC_JSON, "tags"), 0),
    `${DOC_SQL} -> 'tags' ->> 0`, ["Paris", "Berlin", "Paris", null, "Rome"]),
  per("json_extract with a path: [#-1] counts from the end", jsonExtract(docFluent(), "$.tags[#-1]"), F("json_extract", DOC_JSON, L("$.tags[#-1]")),
    `json_extract(${DOC_SQL}, '$.tags[#-1]')`, ["first", null, "x", null, "hi"]),
  c("->> compared with a number reads numbers",
    (t) => t(users).select("id").where(gt(jsonValue(docFluent(), "age"), 30)).orderBy("id"),
    sel(users, ["id"], { where: C(">", B("->>", DOC_JSON, "age"), 30), orderBy: [{ column: "id" }] }),
    `SELECT id FROM users WHERE ${DOC_SQL} ->> 'age' > 30 ORDER BY id`,
    ids("u1", "u4")),
  per("a value read from JSON computes as a number", add(jsonValue(docFluent(), "age"), 1), B("+", B("->>", DOC_JSON, "age"), 1), `(${DOC_SQL} ->> 'age') + 1`, [37, 18, null, 53, 29]),
  c("a text read from JSON in arithmetic is type_mismatch when the row is read",
    (t) => t(users).select(add(jsonValue(docFluent(), "name"), 1).as("v")),
    sel(users, [AS(B("+", B("->>", DOC_JSON, "name"), 1), "v")]),
    `SELECT (${DOC_SQL} ->> 'name') + 1 AS v FROM users`,
    err("type_mismatch")),
  // A value read from JSON meets a typed value wherever types are unified or compared: checked as read, never converted on its way to a column.
  c("a compound's column read from JSON in one select and typed in another is checked as read", null, null,
    `INSERT INTO orders (id, user_id, amount) SELECT id, 'u1', x FROM (SELECT 7 AS id, '{"a":"oops"}' ->> 'a' AS x UNION ALL SELECT 8, 1.5)`,
    err("type_mismatch")),
  c("a compound's checked column passes its family", null, null,
    `SELECT x FROM (SELECT '{"a":2.5}' ->> 'a' AS x UNION ALL SELECT 1.5) ORDER BY x`,
    rows(["x"], [1.5], [2.5])),
  c("lead() of a value read from JSON with a typed default is checked as read", null, null,
    `SELECT x FROM (SELECT lead('{"a":"oops"}' ->> 'a', 1, 0) OVER (ORDER BY id) AS x FROM users)`,
    err("type_mismatch")),
  c("lead()'s default read from JSON beside a typed value is checked as read", null, null,
    `SELECT lead(age, 1, '{"a":"oops"}' ->> 'a') OVER (ORDER BY id) AS x FROM users`,
    err("type_mismatch")),
  c("a window max() over values read from JSON of two families is type_mismatch, as the grouped one", null, null,
    `SELECT max(json_object('n', name, 'a', age) ->> iif(id = 'u1', 'n', 'a')) OVER () AS x FROM users`,
    err("type_mismatch")),
  c("IN (SELECT a value read from JSON) against a typed value is checked as read", null, null,
    `SELECT id FROM users WHERE age IN (SELECT json_object('n', name) ->> 'n' FROM users)`,
    err("type_mismatch")),
  c("CASE's operand read from JSON against typed WHENs is checked as read", null, null,
    `SELECT CASE json_object('n', name) ->> 'n' WHEN 1 THEN 'one' ELSE 'other' END AS v FROM users`,
    err("type_mismatch")),
  c("IN (SELECT …) and CASE's operand read from JSON pass their family", null, null,
    `SELECT id FROM users WHERE (CASE json_object('a', age) ->> 'a' WHEN 36 THEN 1 ELSE 0 END) = 1 AND age IN (SELECT json_object('a', age) ->> 'a' FROM users)`,
    ids("u1")),

  // ---- the scalar functions
  one("json() minifies and keeps numbers and escapes as written", F("json", L(' { "a" : [1, 2.50, "\\u0041"] } ')), `json(' { "a" : [1, 2.50, "\\u0041"] } ')`, '{"a":[1,2.50,"\\u0041"]}'),
  one("json_valid of JSON", F("json_valid", L('{"a":[1,true,null]}')), `json_valid('{"a":[1,true,null]}')`, true),
  one("json_valid of JSON5 is false", F("json_valid", L("{a:1}")), "json_valid('{a:1}')", false),
  one("json_valid's flags 4 and 8 (JSONB) take no text", F("json_valid", L("[1]"), L(12)), "json_valid('[1]', 12)", false),
  one("json_valid's flags are 1 to 15", F("json_valid", L("[1]"), L(16)), "json_valid('[1]', 16)", err("invalid_request")),
  one("json_extract of several paths is a JSON array", F("json_extract", L('{"a":1,"b":[2]}'), L("$.a"), L("$.b"), L("$.c")), `json_extract('{"a":1,"b":[2]}', '$.a', '$.b', '$.c')`, "[1,[2],null]"),
  one("the first of repeated names is found", F("json_extract", L('{"a":1,"a":2}'), L("$.a")), `json_extract('{"a":1,"a":2}', '$.a')`, 1),
  one("a quoted key holds dots", F("json_extract", L('{"a.b":{"c d":5}}'), L('$."a.b".c d')), `json_extract('{"a.b":{"c d":5}}', '$."a.b".c d')`, 5),
  one("json_type names the value's type", F("json_type", L('{"a":[1.5]}'), L("$.a[0]")), `json_type('{"a":[1.5]}', '$.a[0]')`, "real"),
  one("json_array_length", F("json_array_length", L('{"a":[1,[2,3]]}'), L("$.a")), `json_array_length('{"a":[1,[2,3]]}', '$.a')`, 2),
  one("json_quote writes a text as a JSON string", F("json_quote", L('say "hi"')), `json_quote('say "hi"')`, '"say \\"hi\\""'),
  // An overflow (1e308 * 10) is SQLite's 9.0e+999 in JSON, and 'Inf' as text.
  one("json_quote of an overflow is 9.0e+999, as SQLite", F("json_quote", B("*", L(1e308), L(10))), "json_quote(1e308 * 10)", "9.0e+999"),
  one("json_array of a negative overflow is -9.0e+999", F("json_array", NEG(B("*", L(1e308), L(10)))), "json_array(-(1e308 * 10))", "[-9.0e+999]"),
  c("an overflow as text is Inf, as SQLite; quote() writes a literal that reads back", null, null,
    "SELECT CAST(1e308 * 10 AS TEXT) AS a, CAST(-1e308 * 10 AS TEXT) AS b, quote(1e308 * 10) AS c, printf('%s|%f|%e|%+g', 1e308 * 10, 1e308 * 10, -1e308 * 10, 1e308 * 10) AS d",
    rows(["a", "b", "c", "d"], ["Inf", "-Inf", "9.0e+999", "Inf|Inf|-Inf|+Inf"])),
  one("a JSON function's text goes into another as JSON", F("json_array", F("json", L("[1]")), L("[1]")), "json_array(json('[1]'), '[1]')", '[[1],"[1]"]'),
  one("-> and || share a precedence, left to right", B("||", B("->", L('{"a":"x"}'), "a"), "!"), `'{"a":"x"}' -> 'a' || '!'`, '"x"!'),
  one("a key that is not there is NULL", B("->>", L('{"a":1}'), "b"), `'{"a":1}' ->> 'b'`, null),
  // ---- editing
  one("json_set replaces and creates", F("json_set", L('{"a":1}'), L("$.a"), L(2), L("$.b.c"), L("x")), `json_set('{"a":1}', '$.a', 2, '$.b.c', 'x')`, '{"a":2,"b":{"c":"x"}}'),
  one("a member json_set creates keeps its quoted key as written, as SQLite", F("json_set", L("{}"), L('$."\\u0061"'), L(1)), `json_set('{}', '$."\\u0061"', 1)`, '{"\\u0061":1}'),
  one("json_insert only creates", F("json_insert", L('{"a":1}'), L("$.a"), L(2), L("$.b"), L(3)), `json_insert('{"a":1}', '$.a', 2, '$.b', 3)`, '{"a":1,"b":3}'),
  one("json_replace only replaces", F("json_replace", L('[1,2]'), L("$[#-1]"), L(9), L("$[5]"), L(0)), `json_replace('[1,2]', '$[#-1]', 9, '$[5]', 0)`, "[1,9]"),
  one("json_insert at [#] appends", F("json_insert", L("[1]"), L("$[#]"), L(true)), "json_insert('[1]', '$[#]', TRUE)", "[1,true]"),
  one("json_remove", F("json_remove", L('[1,2,3]'), L("$[0]"), L("$[0]")), "json_remove('[1,2,3]', '$[0]', '$[0]')", "[3]"),
  one("json_patch merges (RFC 7396)", F("json_patch", L('{"a":1,"b":{"c":2}}'), L('{"b":{"c":null,"d":3},"e":[1]}')),
    `json_patch('{"a":1,"b":{"c":2}}', '{"b":{"c":null,"d":3},"e":[1]}')`, '{"a":1,"b":{"d":3},"e":[1]}'),
  // Depth: SQLite's limit of 1000, so an edit never writes a document that no JSON function here reads.
  one("json_set with a path of more than 1000 steps is invalid_request (SQLite's JSON path too deep)", F("json_set", L("[]"), L(`$${"[0]".repeat(1001)}`), L(1)),
    `json_set('[]', '$${"[0]".repeat(1001)}', 1)`, err("invalid_request")),
  one("a path of 10000 steps is refused the same way", F("json_insert", L("[]"), L(`$${"[0]".repeat(10000)}`), L(1)),
    `json_insert('[]', '$${"[0]".repeat(10000)}', 1)`, err("invalid_request")),
  one("json_set of 1000 steps nests 1000 arrays", F("length", F("json_set", L("[]"), L(`$${"[0]".repeat(1000)}`), L(1))),
    `length(json_set('[]', '$${"[0]".repeat(1000)}', 1))`, 2001),
  one("a value that lands deeper than 1000 is invalid_request (JSON nested too deep)", F("json_set", L("[]"), L("$[0][0]"), F("json", L("[".repeat(999) + "]".repeat(999)))),
    `json_set('[]', '$[0][0]', json('${"[".repeat(999) + "]".repeat(999)}'))`, err("invalid_request")),

  // ---- aggregates
  c("json_group_array: every value, NULLs too, in row order",
    (t) => t(users).select(jsonGroupArray("age").as("v")),
    sel(users, [AS({ type: "aggregate", name: "json_group_array", arg: I("age") } as Expression, "v")]),
    "SELECT json_group_array(age) AS v FROM users",
    rows(["v"], ["[36,17,null,52,28]"])),
  c("json_group_object: names and values",
    (t) => t(users).select(jsonGroupObject("name", "score").as("v")),
    sel(users, [AS({ type: "aggregate", name: "json_group_object", arg: I("name"), value: I("score") } as Expression, "v")]),
    "SELECT json_group_object(name, score) AS v FROM users",
    rows(["v"], ['{"Ada":9.5,"Bob":7.25,"Cy":null,"Dee":3.0,"Eve":9.5}'])),
  c("json_group_array over no rows is []",
    (t) => t(users).select(jsonGroupArray("name").as("v")).where({ id: "nobody" }),
    sel(users, [AS({ type: "aggregate", name: "json_group_array", arg: I("name") } as Expression, "v")], { where: C("=", "id", "nobody") }),
    "SELECT json_group_array(name) AS v FROM users WHERE id = 'nobody'",
    rows(["v"], ["[]"])),
  c("json_group_array is no window function", null, null, "SELECT json_group_array(name) OVER () AS v FROM users", err("sql_error")),

  // ---- errors
  one("malformed JSON is invalid_request", F("json_extract", L("{"), L("$")), "json_extract('{', '$')", err("invalid_request")),
  one("a bad path is invalid_request", F("json_extract", L('{"a":1}'), L("$.a.")), `json_extract('{"a":1}', '$.a.')`, err("invalid_request")),
  one("a bad path the walk never reaches is no error, as in SQLite", F("json_extract", L('{"a":1}'), L("$.b.")), `json_extract('{"a":1}', '$.b.')`, null),
  one("json_object takes names and values in pairs", F("json_object", L("a")), "json_object('a')", misuse),
  one("json_object's names are texts", F("json_object", L(1), L(2)), "json_object(1, 2)", err("type_mismatch")),
  one("a path is a text", F("json_extract", L("[1]"), L(0)), "json_extract('[1]', 0)", err("type_mismatch")),
  c("an unknown JSON operator is refused", null, sel(users, [AS({ type: "binary", op: "#>", left: I("name"), right: L("a") } as unknown as Expression, "v")]), null, err("invalid_request")),
  c("fn() reaches the JSON functions too", (t) => t(users).select(fn("json_quote", col("age")).as("v")).where({ id: "u1" }), null, null, rows(["v"], ["36"])),
];
