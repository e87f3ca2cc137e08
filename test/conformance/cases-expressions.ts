/**
 * Conformance cases for CONTRACT §11's expressions: arithmetic (integer vs
 * real, division and `%` by zero, overflow into real), `||`, unary minus,
 * IN, BETWEEN, LIKE with ESCAPE, CASE, CAST and every scalar function —
 * each over the fixture's NULLs — then each misuse's error, result names,
 * a FROM alias and self-joins, LIMIT/OFFSET parameters and SELECT without
 * FROM.
 *
 * Most cases select `id` and one expression named `v` over all users in id
 * order (`per`), so the expected column reads as the fixture's rows do:
 *   u1 Ada  36   Paris  9.5   true  "first"
 *   u2 Bob  17   Berlin 7.25  false null
 *   u3 Cy   null Paris  null  true  "x"
 *   u4 Dee  52   null   3     null  null
 *   u5 Eve  28   Rome   9.5   false "hi"
 */

import {
  abs, add, alias, and, between, caseOf, caseWhen, cast, ceil, char, coalesce, col, concat, date, datetime, div, eq, floor, fn, ge, gt, hex, ifnull, iif, inList, instr, is, isNot, isNull,
  length, like, likelihood, likely, log, lower, lt, ltrim, maxOf, minOf, mod, mul, neg, nullif, octetLength, pi, pow, printf, quote, random, replace, round, rtrim, sign, sqrt, sub, substr, trim, trunc, typeOf, unicode, unlikely, upper, val, type Aliased,
  type Cast, type Expr,
} from "../../src/api/expressions.js";
import type { Expression, SelectCommand, Value } from "../../src/commands/types.js";
import {
  AND, AS, B, BETWEEN, C, CASE, CAST, FN, I, IN, L, LIKE, NEG, arrays, c, err, ids, misuse, rows, sel, type Case, type Expect, type Fluent,
} from "./dsl.js";

const users = "users";
const IDS = ["u1", "u2", "u3", "u4", "u5"];

/** `SELECT id, <expr> AS v FROM users ORDER BY id`, expecting one value per user. */
function per(name: string, fluent: Expr | Cast | null, json: Expression, sql: string, values: readonly Value[]): Case {
  const item: Aliased | null = fluent === null ? null : fluent.type === "cast" ? alias(fluent, "v") : (fluent as Expr).as("v");
  return c(
    name,
    item === null ? null : (t) => t(users).select("id", item).orderBy("id"),
    sel(users, ["id", AS(json, "v")], { orderBy: [{ column: "id" }] }),
    `SELECT id, ${sql} AS v FROM users ORDER BY id`,
    rows(["id", "v"], ...IDS.map((id, i) => [id, values[i] ?? null])),
  );
}

/** `SELECT <expr> AS v` (no FROM): one row. */
function one(name: string, json: Expression, sql: string | readonly [string, readonly Value[]], value: Value): Case {
  const text = typeof sql === "string" ? `SELECT ${sql} AS v` : ([`SELECT ${sql[0]} AS v`, sql[1]] as const);
  return c(name, null, { kind: "select", columns: [AS(json, "v")] }, text, rows(["v"], [value]));
}

/** The users (by id) for whom `where` holds. */
function where(name: string, fluent: Expression | null, json: Expression, sql: string | readonly [string, readonly Value[]], expect: Expect): Case {
  const text = typeof sql === "string" ? `SELECT id FROM users WHERE ${sql}` : ([`SELECT id FROM users WHERE ${sql[0]}`, sql[1]] as const);
  return c(name, fluent === null ? null : (t) => t(users).select("id").where(fluent), sel(users, ["id"], { where: json }), text, expect);
}

/** A select of one expression that must fail with `expect`. */
function fails(name: string, fluent: Expr | null, json: Expression, sql: string, expect: Expect): Case {
  const f: Fluent | null = fluent === null ? null : (t) => t(users).select(fluent.as("v"));
  return c(name, f, sel(users, [AS(json, "v")]), `SELECT ${sql} AS v FROM users`, expect);
}

export const expressionCases: readonly Case[] = [
  // ---- IS: null-safe equality, never NULL
  per("IS: equal or both NULL", is("note", col("city")), C("is", "note", I("city")), "note IS city", [false, false, false, true, false]),
  per("IS NOT is its negation", isNot("note", col("city")), C("is not", "note", I("city")), "note IS NOT city", [true, true, true, false, true]),
  per("IS DISTINCT FROM is IS NOT", isNot("score", 9.5), C("is not", "score", 9.5), "score IS DISTINCT FROM 9.5", [false, true, true, true, false]),
  per("IS NOT DISTINCT FROM NULL is IS NULL", is("note", null), C("is", "note", null), "note IS NOT DISTINCT FROM NULL", [false, true, false, true, false]),
  // SQLite's postfix NULL tests.
  per("x ISNULL is x IS NULL", is("note", null), C("is", "note", null), "note ISNULL", [false, true, false, true, false]),
  per("x NOTNULL is x IS NOT NULL", isNot("note", null), C("is not", "note", null), "note NOTNULL", [true, false, true, false, true]),
  per("x NOT NULL is x IS NOT NULL", isNot("note", null), C("is not", "note", null), "note NOT NULL", [true, false, true, false, true]),
  where("IS with a parameter that is NULL", is("age", null), C("is", "age", null), ["age IS ?", [null]], ids("u3")),
  where("IS NOT with a parameter that is a value", isNot("age", 17), C("is not", "age", 17), ["age IS NOT ?", [17]], ids("u1", "u3", "u4", "u5")),
  fails("IS compares one kind of value", is("age", "x"), C("is", "age", "x"), "age IS 'x'", err("type_mismatch")),
  // ---- arithmetic: integer with integer is integer, any real makes real, NULL in NULL out
  per("integer + integer", add("age", 1), B("+", "age", 1), "age + 1", [37, 18, null, 53, 29]),
  per("integer - real is real", sub("age", col("score")), B("-", "age", I("score")), "age - score", [26.5, 9.75, null, 49, 18.5]),
  per("integer * integer", mul("age", 2), B("*", "age", 2), "age * 2", [72, 34, null, 104, 56]),
  per("integer / integer truncates toward zero", div("age", 5), B("/", "age", 5), "age / 5", [7, 3, null, 10, 5]),
  per("real / integer is real", div("score", 2), B("/", "score", 2), "score / 2", [4.75, 3.625, null, 1.5, 4.75]),
  per("a real column's whole value still divides as a real", div("score", 6), B("/", "score", 6), "score / 6", [9.5 / 6, 7.25 / 6, null, 0.5, 9.5 / 6]),
  per("integer % integer", mod("age", 5), B("%", "age", 5), "age % 5", [1, 2, null, 2, 3]),
  per("division by zero is NULL", div("age", 0), B("/", "age", 0), "age / 0", [null, null, null, null, null]),
  per("% by zero is NULL", mod("age", 0), B("%", "age", 0), "age % 0", [null, null, null, null, null]),
  per("unary minus", neg("age"), NEG("age"), "-age", [-36, -17, null, -52, -28]),
  per("unary minus on an expression", neg(sub("score", 10)), NEG(B("-", "score", 10)), "-(score - 10)", [0.5, 2.75, null, 7, 0.5]),
  per("precedence: * before +, left to right", add("age", mul(2, 3)), B("+", "age", B("*", 2, 3)), "age + 2 * 3", [42, 23, null, 58, 34]),
  per("parentheses override arithmetic precedence", mul(add("age", 2), 3), B("*", B("+", "age", 2), 3), "(age + 2) * 3", [114, 57, null, 162, 90]),
  per("|| concatenates texts", concat("name", "!"), B("||", "name", "!"), "name || '!'", ["Ada!", "Bob!", "Cy!", "Dee!", "Eve!"]),
  per("|| with NULL is NULL", concat("name", col("note")), B("||", "name", I("note")), "name || note", ["Adafirst", null, "Cyx", null, "Evehi"]),
  one("7 / 2 is 3", B("/", 7, 2), "7 / 2", 3),
  one("7.0 / 2 is 3.5 (a point makes a real)", B("/", CAST(7, "real"), 2), "7.0 / 2", 3.5),
  one("-7 / 2 truncates toward zero", B("/", -7, 2), "-7 / 2", -3),
  one("-7 % 3 takes the dividend's sign", B("%", -7, 3), "-7 % 3", -1),
  one("7.5 % 2 truncates both operands first", B("%", 7.5, 2), "7.5 % 2", 1),
  one("1e3 is a real", B("/", CAST(1000, "real"), 16), "1e3 / 16", 62.5),
  one("an integer beyond 2^53 - 1 becomes real", B("/", B("*", 9007199254740991, 4), 8), "9007199254740991 * 4 / 8", 4503599627370495.5),
  one("NULL + 1 is NULL", B("+", null, 1), "NULL + 1", null),
  one("'a' || 'b' || 'c'", B("||", B("||", L("a"), "b"), "c"), "'a' || 'b' || 'c'", "abc"),
  one("/ before +", B("+", 1, B("/", 6, 3)), "1 + 6 / 3", 3),
  one("an integral JSON or SQL parameter is an integer", B("/", { type: "literal", value: 7 }, 2), ["? / 2", [7]], 3),
  one("a fractional parameter is a real", B("/", 7.5, 2), ["? / 2", [7.5]], 3.75),

  // ---- arithmetic misuse
  fails("text + number is type_mismatch", add("name", 1), B("+", "name", 1), "name + 1", err("type_mismatch")),
  fails("number || text is type_mismatch", concat("age", "x"), B("||", "age", "x"), "age || 'x'", err("type_mismatch")),
  fails("boolean arithmetic is type_mismatch", add("active", 1), B("+", "active", 1), "active + 1", err("type_mismatch")),
  fails("minus on a text is type_mismatch", neg("name"), NEG("name"), "-name", err("type_mismatch")),
  c("a text parameter in arithmetic is type_mismatch", null, null, ["SELECT age + ? AS v FROM users", ["1"]], err("type_mismatch")),

  // ---- comparisons over expressions
  where("expressions on both sides of a comparison", gt(add("age", 1), mul("score", 4)), C(">", B("+", "age", 1), B("*", "score", 4)), "age + 1 > score * 4", ids("u4")),
  where("an integer expression against a real", eq(div("age", 2), 8.5), C("=", B("/", "age", 2), 8.5), "age / 2 = 8.5", ids()),

  // ---- IN
  where("IN a list", inList("age", [17, 28]), IN("age", [17, 28]), "age IN (17, 28)", ids("u2", "u5")),
  where("NOT IN skips NULL", inList("age", [17, 28], true), IN("age", [17, 28], true), "age NOT IN (17, 28)", ids("u1", "u4")),
  where("IN with a NULL value matches what it can", inList("city", ["Paris", null]), IN("city", ["Paris", null]), "city IN ('Paris', NULL)", ids("u1", "u3")),
  where("NOT IN with a NULL value is never true", inList("city", ["Rome", null], true), IN("city", ["Rome", null], true), "city NOT IN ('Rome', NULL)", ids()),
  per("IN as a value: TRUE, NULL or FALSE", inList("age", [17, null]), IN("age", [17, null]), "age IN (17, NULL)", [null, true, null, null, null]),
  per("NOT IN as a value", inList("age", [17, 36], true), IN("age", [17, 36], true), "age NOT IN (17, 36)", [false, false, null, true, true]),
  where("IN over parameters", null, IN("age", [36, 52]), ["age IN (?, ?)", [36, 52]], ids("u1", "u4")),
  where("IN over expressions", inList("age", [add(col("age"), 0)]), IN("age", [B("+", "age", 0)]), "age IN (age + 0)", ids("u1", "u2", "u4", "u5")),
  fails("IN mixing text and numbers is type_mismatch", inList("age", ["17"]), IN("age", ["17"]), "age IN ('17')", err("type_mismatch")),

  // ---- BETWEEN
  where("BETWEEN is inclusive", between("age", 17, 36), BETWEEN("age", 17, 36), "age BETWEEN 17 AND 36", ids("u1", "u2", "u5")),
  where("NOT BETWEEN", between("age", 17, 36, true), BETWEEN("age", 17, 36, true), "age NOT BETWEEN 17 AND 36", ids("u4")),
  where("BETWEEN on text", between("name", "B", "D"), BETWEEN("name", "B", "D"), "name BETWEEN 'B' AND 'D'", ids("u2", "u3")),
  where("BETWEEN on reals and integers", between("score", 3, 7.25), BETWEEN("score", 3, 7.25), "score BETWEEN 3 AND 7.25", ids("u2", "u4")),
  per("BETWEEN with a NULL bound is NULL unless the other bound decides", between("age", null, 40), BETWEEN("age", null, 40), "age BETWEEN NULL AND 40",
    [null, null, null, false, null]),
  fails("BETWEEN mixing families is type_mismatch", between("age", "a", "b"), BETWEEN("age", "a", "b"), "age BETWEEN 'a' AND 'b'", err("type_mismatch")),

  // ---- LIKE
  where("LIKE prefix, ASCII letters in either case", like("name", "a%"), LIKE("name", "a%"), "name LIKE 'a%'", ids("u1")),
  where("LIKE _ is one character", like("name", "_ve"), LIKE("name", "_ve"), "name LIKE '_ve'", ids("u5")),
  where("NOT LIKE", like("name", "%e%", undefined, true), LIKE("name", "%e%", { not: true }), "name NOT LIKE '%e%'", ids("u1", "u2", "u3")),
  where("LIKE '%' matches every text, never NULL", like("note", "%"), LIKE("note", "%"), "note LIKE '%'", ids("u1", "u3", "u5")),
  where("LIKE with a pattern parameter", null, LIKE("city", "p%"), ["city LIKE ?", ["p%"]], ids("u1", "u3")),
  one("ESCAPE makes % literal", LIKE(L("10%"), "10!%", { escape: "!" }), "'10%' LIKE '10!%' ESCAPE '!'", true),
  one("an escaped % does not match other text", LIKE(L("100"), "10!%", { escape: "!" }), "'100' LIKE '10!%' ESCAPE '!'", false),
  one("a pattern ending in its escape matches nothing", LIKE(L("ab"), "ab!", { escape: "!" }), "'ab' LIKE 'ab!' ESCAPE '!'", false),
  one("only ASCII letters match across case", LIKE(L("É"), "é"), "'É' LIKE 'é'", false),
  one("_ matches one emoji", LIKE(L("a😀b"), "a_b"), "'a😀b' LIKE 'a_b'", true),
  one("LIKE with NULL is NULL", LIKE(L(null), "a"), "NULL LIKE 'a'", null),
  fails("LIKE on a number is type_mismatch", like("age", "1%"), LIKE("age", "1%"), "age LIKE '1%'", err("type_mismatch")),
  fails("an ESCAPE of two characters", like("name", "a%", "!!"), LIKE("name", "a%", { escape: "!!" }), "name LIKE 'a%' ESCAPE '!!'", misuse),
  c("an ESCAPE parameter of two characters", null, null, ["SELECT id FROM users WHERE name LIKE 'a%' ESCAPE ?", ["!!"]], err("invalid_request")),

  // ---- CASE
  per("searched CASE without ELSE is NULL when nothing matches",
    caseWhen([[ge("age", 18), "adult"], [lt("age", 18), "minor"]]), CASE([[C(">=", "age", 18), "adult"], [C("<", "age", 18), "minor"]]),
    "CASE WHEN age >= 18 THEN 'adult' WHEN age < 18 THEN 'minor' END", ["adult", "minor", null, "adult", "adult"]),
  per("searched CASE with ELSE", caseWhen([[gt("age", 30), "old"]], "young"), CASE([[C(">", "age", 30), "old"]], "young"),
    "CASE WHEN age > 30 THEN 'old' ELSE 'young' END", ["old", "young", "young", "old", "young"]),
  per("simple CASE compares with =, never matching NULL", caseOf("city", [["Paris", 1], ["Rome", 2]], 0), CASE([["Paris", 1], ["Rome", 2]], 0, "city"),
    "CASE city WHEN 'Paris' THEN 1 WHEN 'Rome' THEN 2 ELSE 0 END", [1, 0, 1, 0, 2]),
  per("CASE of integer and real results is real", div(caseWhen([[col("active"), 10]], 4.5), 4), B("/", CASE([["active", 10]], 4.5), 4),
    "CASE WHEN active THEN 10 ELSE 4.5 END / 4", [2.5, 1.125, 2.5, 1.125, 1.125]),
  fails("CASE mixing text and numbers is type_mismatch", caseWhen([[col("active"), 1]], "x"), CASE([["active", 1]], "x"),
    "CASE WHEN active THEN 1 ELSE 'x' END", err("type_mismatch")),
  fails("a CASE condition must be boolean", caseWhen([[col("age"), 1]]), CASE([["age", 1]]), "CASE WHEN age THEN 1 END", err("type_mismatch")),

  // ---- CAST
  per("CAST real to integer truncates", cast("score", "integer"), CAST("score", "integer"), "CAST(score AS INTEGER)", [9, 7, null, 3, 9]),
  per("CAST integer to text", cast("age", "text"), CAST("age", "text"), "CAST(age AS TEXT)", ["36", "17", null, "52", "28"]),
  per("CAST real to text keeps it a real", cast("score", "text"), CAST("score", "text"), "CAST(score AS VARCHAR(10))", ["9.5", "7.25", null, "3.0", "9.5"]),
  per("CAST boolean to integer", cast("active", "integer"), CAST("active", "integer"), "CAST(active AS INT)", [1, 0, 1, null, 0]),
  per("CAST boolean to text", cast("active", "text"), CAST("active", "text"), "CAST(active AS TEXT)", ["true", "false", "true", null, "false"]),
  per("CAST integer to real divides as a real", div(cast("age", "real"), 8), B("/", CAST("age", "real"), 8), "CAST(age AS REAL) / 8", [4.5, 2.125, null, 6.5, 3.5]),
  one("CAST text to integer takes the leading number", CAST(L("  12abc"), "integer"), "CAST('  12abc' AS INTEGER)", 12),
  one("CAST text without a number to real is 0", CAST(L("abc"), "real"), "CAST('abc' AS REAL)", 0),
  one("CAST text to boolean", CAST(L(" TRUE "), "boolean"), "CAST(' TRUE ' AS BOOLEAN)", true),
  one("CAST NULL is NULL", CAST(null, "integer"), "CAST(NULL AS INTEGER)", null),
  c("a CAST is named with alias()", (t) => t(users).select(alias(cast("age", "text"), "a")).where({ id: "u2" }),
    sel(users, [AS(CAST("age", "text"), "a")], { where: C("=", "id", "u2") }), "SELECT CAST(age AS TEXT) AS a FROM users WHERE id = 'u2'", rows(["a"], ["17"])),

  // ---- functions, each with its NULL
  per("lower changes ASCII letters", lower("name"), FN("lower", "name"), "lower(name)", ["ada", "bob", "cy", "dee", "eve"]),
  per("upper", upper("city"), FN("upper", "city"), "UPPER(city)", ["PARIS", "BERLIN", "PARIS", null, "ROME"]),
  per("length counts characters", length("note"), FN("length", "note"), "length(note)", [5, null, 1, null, 2]),
  per("trim, ltrim, rtrim", concat(concat(trim(val(" a ")), ltrim(val(" b "))), rtrim(val(" c "))),
    B("||", B("||", FN("trim", L(" a ")), FN("ltrim", L(" b "))), FN("rtrim", L(" c "))), "trim(' a ') || ltrim(' b ') || rtrim(' c ')",
    ["ab  c", "ab  c", "ab  c", "ab  c", "ab  c"]),
  per("trim with characters", trim("note", "ft"), FN("trim", "note", "ft"), "trim(note, 'ft')", ["irs", null, "x", null, "hi"]),
  per("substr from a position", substr("name", 2), FN("substr", "name", 2), "substr(name, 2)", ["da", "ob", "y", "ee", "ve"]),
  per("substr from the end", substr("name", -2, 1), FN("substr", "name", -2, 1), "substr(name, -2, 1)", ["d", "o", "C", "e", "v"]),
  per("replace", replace("name", "e", "E"), FN("replace", "name", "e", "E"), "replace(name, 'e', 'E')", ["Ada", "Bob", "Cy", "DEE", "EvE"]),
  per("instr is 1-based, 0 when absent", instr("name", "e"), FN("instr", "name", "e"), "instr(name, 'e')", [0, 0, 0, 2, 3]),
  per("abs keeps an integer an integer", abs(sub("age", 30)), FN("abs", B("-", "age", 30)), "abs(age - 30)", [6, 13, null, 22, 2]),
  per("round to a whole real", round("score"), FN("round", "score"), "round(score)", [10, 7, null, 3, 10]),
  per("round to decimals", round(div("score", 3), 2), FN("round", B("/", "score", 3), 2), "round(score / 3, 2)", [3.17, 2.42, null, 1, 3.17]),
  per("coalesce takes the first non-NULL", coalesce("note", col("city"), "none"), FN("coalesce", "note", I("city"), "none"), "coalesce(note, city, 'none')",
    ["first", "Berlin", "x", "none", "hi"]),
  per("ifnull", ifnull("age", 0), FN("ifnull", "age", 0), "ifnull(age, 0)", [36, 17, 0, 52, 28]),
  per("nullif", nullif("city", "Paris"), FN("nullif", "city", "Paris"), "nullif(city, 'Paris')", [null, "Berlin", null, null, "Rome"]),
  per("iif takes the branch its condition picks (NULL: the last)", iif(gt("age", 30), "old", "young"), FN("iif", C(">", "age", 30), "old", "young"),
    "iif(age > 30, 'old', 'young')", ["old", "young", "young", "old", "young"]),
  per("iif with pairs of conditions and results", iif(gt("age", 40), 2), FN("iif", C(">", "age", 40), 2), "iif(age > 40, 2)", [null, null, null, 2, null]),
  one("iif evaluates only the branch it takes", FN("iif", L(true), 1, { type: "subquery", select: sel(users, ["age"]) as SelectCommand }), "iif(TRUE, 1, (SELECT age FROM users))", 1),
  one("iif of conditions in turn", FN("iif", L(false), 1, L(true), 2, 3), "iif(FALSE, 1, TRUE, 2, 3)", 2),
  fails("iif's condition must be a boolean", fn("iif", "age", 1, 2), FN("iif", "age", 1, 2), "iif(age, 1, 2)", err("type_mismatch")),
  fails("iif with one argument", fn("iif", "active"), FN("iif", "active"), "iif(active)", misuse),
  per("typeof a real column is real, whole or not", typeOf("score"), FN("typeof", "score"), "typeof(score)", ["real", "real", "null", "real", "real"]),
  per("typeof an integer column", typeOf("age"), FN("typeof", "age"), "typeof(age)", ["integer", "integer", "null", "integer", "integer"]),
  per("typeof a boolean is boolean", typeOf("active"), FN("typeof", "active"), "TYPEOF(active)", ["boolean", "boolean", "boolean", "null", "boolean"]),
  one("typeof a text, NULL, a computed real", FN("typeof", L("x")), "typeof('x')", "text"),
  one("typeof an integer past 2^53 - 1 is real", FN("typeof", B("+", 9007199254740991, 1)), "typeof(9007199254740991 + 1)", "real"),
  one("typeof over a parameter", FN("typeof", L(7)), ["typeof(?)", [7]], "integer"),
  per("sign is an integer", sign(sub("age", 30)), FN("sign", B("-", "age", 30)), "sign(age - 30)", [1, -1, null, 1, -1]),
  per("ceil of a real", ceil("score"), FN("ceil", "score"), "ceil(score)", [10, 8, null, 3, 10]),
  per("floor of a real", floor("score"), FN("floor", "score"), "floor(score)", [9, 7, null, 3, 9]),
  per("trunc goes toward zero", trunc(neg("score")), FN("trunc", NEG("score")), "trunc(-score)", [-9, -7, null, -3, -9]),
  per("ceil keeps an integer an integer", typeOf(ceil("age")), FN("typeof", FN("ceil", "age")), "typeof(ceiling(age))", ["integer", "integer", "null", "integer", "integer"]),
  one("ceiling(-0.5) is 0", FN("ceiling", -0.5), "ceiling(-0.5)", 0),
  one("char makes a text of code points", FN("char", 72, 105, 128512), "char(72, 105, 128512)", "Hi😀"),
  one("unicode is the first code point", FN("unicode", L("😀a")), "unicode('😀a')", 128512),
  one("unicode of an empty text is NULL", FN("unicode", L("")), "unicode('')", null),
  one("hex of a text's UTF-8 bytes", FN("hex", L("é!")), "hex('é!')", "C3A921"),
  per("hex over NULL is NULL", hex("note"), FN("hex", "note"), "hex(note)", ["6669727374", null, "78", null, "6869"]),
  per("unicode and char round-trip", char(unicode("name")), FN("char", FN("unicode", "name")), "char(unicode(name))", ["A", "B", "C", "D", "E"]),
  fails("sign of a text is type_mismatch", sign("name"), FN("sign", "name"), "sign(name)", err("type_mismatch")),
  fails("char of a text is type_mismatch", char("name"), FN("char", "name"), "char(name)", err("type_mismatch")),
  // ---- substring, octet_length, likely, unlikely, likelihood (SQLite's answers)
  per("substring is substr", fn("substring", "name", 2), FN("substring", "name", 2), "substring(name, 2)", ["da", "ob", "y", "ee", "ve"]),
  per("SUBSTRING, any case, with a length from the end", fn("SUBSTRING", "note", -2, 1), FN("SUBSTRING", "note", -2, 1), "SUBSTRING(note, -2, 1)", ["s", null, "", null, "h"]),
  fails("substring of one argument names substring", fn("substring", "name"), FN("substring", "name"), "substring(name)", misuse),
  one("octet_length counts UTF-8 bytes, length characters", FN("octet_length", L("naïve 😀")), "octet_length('naïve 😀')", 11),
  per("octet_length over NULL is NULL", octetLength("note"), FN("octet_length", "note"), "octet_length(note)", [5, null, 1, null, 2]),
  one("octet_length of an empty text", FN("octet_length", L("")), "octet_length('')", 0),
  fails("octet_length of a number is type_mismatch, as length's", octetLength("age"), FN("octet_length", "age"), "octet_length(age)", err("type_mismatch")),
  fails("octet_length of two arguments", fn("octet_length", "name", "name"), FN("octet_length", "name", "name"), "octet_length(name, name)", misuse),
  per("likely(x) is x", likely("age"), FN("likely", "age"), "likely(age)", [36, 17, null, 52, 28]),
  per("unlikely(x) is x, of x's type", typeOf(unlikely("score")), FN("typeof", FN("unlikely", "score")), "typeof(unlikely(score))", ["real", "real", "null", "real", "real"]),
  where("likely and unlikely in WHERE filter as their argument", and(likely(gt("age", 18)), unlikely(eq("city", "Paris"))), AND(FN("likely", C(">", "age", 18)), FN("unlikely", C("=", "city", "Paris"))), "likely(age > 18) AND unlikely(city = 'Paris')", ids("u1")),
  per("likelihood(x, p) is x", likelihood("name", 0.25), FN("likelihood", "name", 0.25), "likelihood(name, 0.25)", ["Ada", "Bob", "Cy", "Dee", "Eve"]),
  where("likelihood with p 1.0 (a cast of 1 in JSON, as SQL's 1.0 lowers)", likelihood(gt("age", 30), 1), FN("likelihood", C(">", "age", 30), CAST(1, "real")), "likelihood(age > 30, 1.0)", ids("u1", "u4")),
  where("likelihood with p 0.0", likelihood(isNull("age"), 0), FN("likelihood", { type: "is-null", expr: I("age") }, CAST(0, "real")), "likelihood(age IS NULL, 0.0)", ids("u3")),
  one("likelihood of NULL is NULL", FN("likelihood", L(null), 0.5), "likelihood(NULL, .5)", null),
  // The hints are their argument: a 'subsec' inside one still makes unixepoch real (the JSON plan cache keeps it, as bare).
  one("unixepoch with likely('subsec') is real", FN("typeof", FN("unixepoch", L("2000-01-01"), FN("likely", L("subsec")))), "typeof(unixepoch('2000-01-01', likely('subsec')))", "real"),
  one("unixepoch with unlikely(likelihood('subsec', 0.5)) divides as a real", B("/", FN("unixepoch", L("2000-01-01"), FN("unlikely", FN("likelihood", L("subsec"), 0.5))), 7),
    "unixepoch('2000-01-01', unlikely(likelihood('subsec', 0.5))) / 7", 946684800 / 7),
  fails("likelihood's p an integer: SQLite refuses 1, wants 1.0", fn("likelihood", "age", 1), FN("likelihood", "age", 1), "likelihood(age, 1)", misuse),
  fails("likelihood's p above 1.0", likelihood("age", 1.5), FN("likelihood", "age", 1.5), "likelihood(age, 1.5)", misuse),
  fails("likelihood's p below 0.0", likelihood("age", -0.5), FN("likelihood", "age", -0.5), "likelihood(age, -0.5)", misuse),
  fails("likelihood's p a column", fn("likelihood", "age", col("score")), FN("likelihood", "age", I("score")), "likelihood(age, score)", misuse),
  fails("likelihood's p a text", fn("likelihood", "age", "0.5"), FN("likelihood", "age", L("0.5")), "likelihood(age, '0.5')", misuse),
  fails("likelihood's p an expression", fn("likelihood", "age", add(val(0.5), 0.1)), FN("likelihood", "age", B("+", L(0.5), 0.1)), "likelihood(age, 0.5 + 0.1)", misuse),
  c("likelihood's p a parameter: SQLite refuses it too", null, null, ["SELECT likelihood(age, ?) AS v FROM users", [0.5]], misuse),
  fails("likely of two arguments", fn("likely", "age", "age"), FN("likely", "age", "age"), "likely(age, age)", misuse),
  fails("likelihood of one argument", fn("likelihood", "age"), FN("likelihood", "age"), "likelihood(age)", misuse),
  fails("unlikely of none", fn("unlikely"), FN("unlikely"), "unlikely()", misuse),
  // ---- printf, min/max of several arguments, text and math functions (against SQLite in test/executor/printf-differential.test.ts)
  per("printf of columns, NULL as an empty text or 0", printf("%-4s|%3d|%6.2f", "name", "age", "score"), FN("printf", L("%-4s|%3d|%6.2f"), I("name"), I("age"), I("score")), "printf('%-4s|%3d|%6.2f', name, age, score)",
    ["Ada | 36|  9.50", "Bob | 17|  7.25", "Cy  |  0|  0.00", "Dee | 52|  3.00", "Eve | 28|  9.50"]),
  one("printf's conversions", FN("printf", L("%05d %x %o %e %g %,d %+.1f %q %Q %c %%"), 42, 255, 8, 12345.678, 0.0001, 1234567, 2.25, L("it's"), L("x"), L("hello")),
    "printf('%05d %x %o %e %g %,d %+.1f %q %Q %c %%', 42, 255, 8, 12345.678, 0.0001, 1234567, 2.25, 'it''s', 'x', 'hello')",
    "00042 ff 10 1.234568e+04 0.0001 1,234,567 +2.3 it''s 'x' h %"),
  one("format is printf, * takes a width", FN("format", L("[%*s]"), 5, L("ab")), "format('[%*s]', 5, 'ab')", "[   ab]"),
  one("printf stops at an unknown conversion", FN("printf", L("ab%y"), 1), "printf('ab%y', 1)", "ab"),
  one("printf of nothing is NULL", FN("printf", L("%y"), 1), "printf('%y', 1)", null),
  one("printf's ordinals and ! reals", FN("printf", L("%r %r %r|%!.3f|%!g"), 1, 22, 13, 2, 100), "printf('%r %r %r|%!.3f|%!g', 1, 22, 13, 2, 100)", "1st 22nd 13th|2.0|100.0"),
  fails("printf's whole text is bounded", null, FN("printf", L("%0100000d".repeat(11)), 1), `printf('${"%0100000d".repeat(11)}', 1)`, err("invalid_request")),
  one("printf of a NULL format is NULL", FN("printf", L(null), 1), "printf(NULL, 1)", null),
  fails("printf's width is bounded", null, FN("printf", L("%1000000d"), 1), "printf('%1000000d', 1)", err("invalid_request")),
  per("max of several arguments is NULL if one is", maxOf("age", 30, 20), FN("max", "age", 30, 20), "max(age, 30, 20)", [36, 30, null, 52, 30]),
  per("min of texts", minOf("name", "Bz"), FN("min", "name", L("Bz")), "min(name, 'Bz')", ["Ada", "Bob", "Bz", "Bz", "Bz"]),
  fails("max of a number and a text is type_mismatch", maxOf("age", "x"), FN("max", "age", L("x")), "max(age, 'x')", err("type_mismatch")),
  fails("max of one argument is the aggregate, not a function", null, FN("max", "age"), "max()", misuse),
  per("concat leaves NULLs out", fn("concat", "name", val(":"), col("note")), FN("concat", "name", L(":"), I("note")), "concat(name, ':', note)", ["Ada:first", "Bob:", "Cy:x", "Dee:", "Eve:hi"]),
  per("concat_ws joins what is not NULL", fn("concat_ws", val("/"), col("city"), col("note")), FN("concat_ws", L("/"), I("city"), I("note")), "concat_ws('/', city, note)", ["Paris/first", "Berlin", "Paris/x", "", "Rome/hi"]),
  per("quote writes SQL literals", quote("score"), FN("quote", "score"), "quote(score)", ["9.5", "7.25", "NULL", "3.0", "9.5"]),
  one("quote of a text and a boolean", FN("concat", FN("quote", L("it's")), FN("quote", L(true))), "concat(quote('it''s'), quote(TRUE))", "'it''s'TRUE"),
  per("sqrt is a real", sqrt("age"), FN("sqrt", "age"), "sqrt(age)", [6, Math.sqrt(17), null, Math.sqrt(52), Math.sqrt(28)]),
  one("pow, power, mod, log and pi", FN("concat_ws", L(" "), FN("pow", 2, 10), FN("power", 2, 0.5), FN("mod", 7.5, 2), FN("log", 1000), FN("log", 2, 8), FN("typeof", FN("pi"))),
    "concat_ws(' ', pow(2, 10), power(2, 0.5), mod(7.5, 2), log(1000), log(2, 8), typeof(pi()))", "1024.0 1.4142135623730951 1.5 3.0 3.0 real"),
  per("math outside its domain is NULL", log(sqrt(sub("age", 30))), FN("log", FN("sqrt", B("-", "age", 30))), "log(sqrt(age - 30))", [Math.log10(Math.sqrt(6)), null, null, Math.log10(Math.sqrt(22)), null]),
  one("pow past the double range is NULL", FN("pow", 10, 400), "pow(10, 400)", null),
  per("pi and pow from the builder", pow(pi(), 0), FN("pow", FN("pi"), 0), "pow(pi(), 0)", [1, 1, 1, 1, 1]),
  per("random is an integer", typeOf(random()), FN("typeof", FN("random")), "typeof(random())", ["integer", "integer", "integer", "integer", "integer"]),
  // ---- date and time (SQLite's, compared value by value in test/executor/datetime-differential.test.ts)
  one("date of a date and time", FN("date", L("2024-05-17 13:45:00")), "date('2024-05-17 13:45:00')", "2024-05-17"),
  one("time of a time with fractions and a zone", FN("time", L("2024-05-17T13:45:07.5+02:00")), "time('2024-05-17T13:45:07.5+02:00')", "11:45:07"),
  one("datetime with modifiers", FN("datetime", L("2024-01-31 08:00"), "+1 month", "start of day", "-1 minute"),
    "datetime('2024-01-31 08:00', '+1 month', 'start of day', '-1 minute')", "2024-03-01 23:59:00"),
  one("julianday is a real", FN("julianday", L("2000-01-01 12:00")), "julianday('2000-01-01 12:00')", 2451545),
  one("typeof julianday", FN("typeof", FN("julianday", L("2000-01-01"))), "typeof(julianday('2000-01-01'))", "real"),
  one("unixepoch is an integer", FN("typeof", FN("unixepoch", L("2000-01-01"))), "typeof(unixepoch('2000-01-01'))", "integer"),
  one("unixepoch with subsec", FN("unixepoch", L("2000-01-01 00:00:01.25"), "subsec"), "unixepoch('2000-01-01 00:00:01.25', 'subsec')", 946684801.25),
  // Real on every surface: the JSON plan cache keeps unixepoch's texts, so a whole value still divides as a real.
  one("unixepoch with subsec divides as a real", B("/", FN("unixepoch", L("2000-01-01"), "subsec"), 7), "unixepoch('2000-01-01', 'subsec') / 7", 946684800 / 7),
  one("a Julian day number", FN("date", 2451545), "date(2451545)", "2000-01-01"),
  one("Unix seconds with 'unixepoch'", FN("datetime", 1700000000, "unixepoch"), "datetime(1700000000, 'unixepoch')", "2023-11-14 22:13:20"),
  one("strftime", FN("strftime", L("%Y week %W, day %j, %H:%M"), "2024-12-30 13:05"), "strftime('%Y week %W, day %j, %H:%M', '2024-12-30 13:05')",
    "2024 week 53, day 365, 13:05"),
  one("weekday and start of month", FN("date", L("2024-05-17"), "start of month", "weekday 1"), "date('2024-05-17', 'start of month', 'weekday 1')", "2024-05-06"),
  one("an unreadable date is NULL", FN("date", L("2024-13-01")), "date('2024-13-01')", null),
  one("an unknown modifier is NULL", FN("date", L("2024-05-17"), "+1 fortnight"), "date('2024-05-17', '+1 fortnight')", null),
  one("an unknown strftime conversion is NULL", FN("strftime", L("%Q"), "2024-05-17"), "strftime('%Q', '2024-05-17')", null),
  one("'now' is one instant in a statement", C("=", FN("strftime", L("%f"), "now"), FN("strftime", L("%f"), "now")), "strftime('%f', 'now') = strftime('%f', 'now')", true),
  per("a date function over a text column", date("name"), FN("date", "name"), "date(name)", [null, null, null, null, null]),
  fails("a time value cannot be a boolean", date("active"), FN("date", "active"), "date(active)", err("type_mismatch")),
  fails("a modifier must be a text", datetime("name", 5), FN("datetime", "name", 5), "datetime(name, 5)", err("type_mismatch")),
  fails("strftime needs a format", fn("strftime"), FN("strftime"), "strftime()", misuse),
  one("length counts an emoji once", FN("length", L("😀ab")), "length('😀ab')", 3),
  one("lower leaves non-ASCII letters", FN("lower", L("ÉA")), "lower('ÉA')", "Éa"),
  one("round half away from zero", FN("round", -2.5), "round(-2.5)", -3),
  one("function names are case-insensitive", FN("LOWER", L("AB")), "Lower('AB')", "ab"),
  one("a function over a parameter", FN("lower", L("X")), ["lower(?)", ["X"]], "x"),
  fails("an unknown function", fn("nope", "age"), FN("nope", "age"), "nope(age)", misuse),
  fails("a wrong argument count", fn("lower", "name", "x"), FN("lower", "name", "x"), "lower(name, 'x')", misuse),
  fails("too few arguments", fn("coalesce", "name"), FN("coalesce", "name"), "coalesce(name)", misuse),
  fails("a text function over a number is type_mismatch", lower("age"), FN("lower", "age"), "lower(age)", err("type_mismatch")),
  fails("coalesce mixing families is type_mismatch", coalesce("age", "x"), FN("coalesce", "age", "x"), "coalesce(age, 'x')", err("type_mismatch")),

  // ---- result names
  c("an expression without AS is named by its text", null, null, "SELECT age  +  1 FROM users WHERE id = 'u1'", rows(["age  +  1"], [37])),
  c("AS names a column", (t) => t(users).select(add("age", 1).as("next")).where({ id: "u1" }), sel(users, [AS(B("+", "age", 1), "next")], { where: C("=", "id", "u1") }),
    "SELECT age + 1 AS next FROM users WHERE id = 'u1'", rows(["next"], [37])),
  c("AS without the keyword", null, null, "SELECT name n FROM users WHERE id = 'u2'", rows(["n"], ["Bob"])),
  c("two result columns of one name", (t) => t(users).select("name", add("age", 1).as("name")), sel(users, ["name", AS(B("+", "age", 1), "name")]),
    "SELECT name, age + 1 AS name FROM users", err("invalid_request")),
  c("one name twice is fine as arrays", (t) => t(users).select("name", "name").where({ id: "u1" }).output("arrays"),
    sel(users, ["name", "name"], { where: C("=", "id", "u1"), output: "arrays" }), null, arrays(["name", "name"], ["Ada", "Ada"])),
  c("a result cannot be named __proto__", (t) => t(users).select(add("age", 1).as("__proto__")), sel(users, [AS(B("+", "age", 1), "__proto__")]),
    'SELECT age + 1 AS "__proto__" FROM users', err("invalid_name")),

  // ---- ORDER BY an expression, a result name, a column number
  c("ORDER BY an expression", (t) => t(users).select("id").where(gt("age", 0)).orderBy(mod("age", 10), "desc"),
    sel(users, ["id"], { where: C(">", "age", 0), orderBy: [{ expr: B("%", "age", 10), direction: "desc" }] }),
    "SELECT id FROM users WHERE age > 0 ORDER BY age % 10 DESC", ids("u5", "u2", "u1", "u4")),
  c("ORDER BY a result name", (t) => t(users).select("id", mul("score", -1).as("neg")).where(gt("score", 5)).orderBy("neg"),
    sel(users, ["id", AS(B("*", "score", -1), "neg")], { where: C(">", "score", 5), orderBy: [{ column: "neg" }] }),
    "SELECT id, score * -1 AS neg FROM users WHERE score > 5 ORDER BY neg", rows(["id", "neg"], ["u1", -9.5], ["u5", -9.5], ["u2", -7.25])),
  c("ORDER BY a column number", null, sel(users, ["id", "name"], { where: C("<", "age", 30), orderBy: [{ expr: L(2), direction: "desc" }] }),
    "SELECT id, name FROM users WHERE age < 30 ORDER BY 2 DESC", rows(["id", "name"], ["u5", "Eve"], ["u2", "Bob"])),
  c("ORDER BY a column number out of range", null, sel(users, ["id"], { orderBy: [{ expr: L(3) }] }), "SELECT id FROM users ORDER BY 3", misuse),
  c("a result name wins over the column it hides", null, sel(users, ["id", AS(I("age"), "name")], { where: C(">", "age", 20), orderBy: [{ column: "name" }] }),
    "SELECT id, age AS name FROM users WHERE age > 20 ORDER BY name", rows(["id", "name"], ["u5", 28], ["u1", 36], ["u4", 52])),

  // ---- FROM aliases and self-joins
  c("a FROM alias qualifies columns", (t) => t(users).as("u").select("u.name").where(gt("u.age", 30)),
    sel(users, ["u.name"], { as: "u", where: C(">", "u.age", 30) }), "SELECT u.name FROM users u WHERE u.age > 30", rows(["u.name"], ["Ada"], ["Dee"])),
  c("a table joins itself under two aliases", (t) => t(users).as("a").select("a.id", "b.id").join(users, and(eq("a.city", col("b.city")), lt("a.id", col("b.id"))), { as: "b" }),
    sel(users, ["a.id", "b.id"], { as: "a", joins: [{ type: "inner", table: users, as: "b", on: AND(C("=", "a.city", I("b.city")), C("<", "a.id", I("b.id"))) }] }),
    "SELECT a.id, b.id FROM users AS a JOIN users AS b ON a.city = b.city AND a.id < b.id", rows(["a.id", "b.id"], ["u1", "u3"])),
  c("a left self-join keeps rows without a partner", null,
    sel("members", ["m.name", "p.name"], { as: "m", joins: [{ type: "left", table: "members", as: "p", on: AND(C("=", "p.team_id", I("m.team_id")), C("<>", "p.id", I("m.id"))) }] }),
    "SELECT m.name, p.name FROM members m LEFT JOIN members p ON p.team_id = m.team_id AND p.id <> m.id",
    rows(["m.name", "p.name"], ["m1", "m2"], ["m2", "m1"], ["m3", null])),
  c("* over a self-join qualifies by alias", null, sel("teams", "*", { as: "x", joins: [{ type: "inner", table: "teams", as: "y", on: C("=", "y.id", I("x.id")) }], where: C("=", "x.id", 2) }),
    "SELECT * FROM teams x JOIN teams y ON y.id = x.id WHERE x.id = 2", rows(["x.id", "x.name", "y.id", "y.name"], [2, "blue", 2, "blue"])),
  c("an unqualified name both aliases have is ambiguous", null, sel("teams", ["name"], { as: "x", joins: [{ type: "inner", table: "teams", as: "y", on: C("=", "y.id", I("x.id")) }] }),
    "SELECT name FROM teams x JOIN teams y ON y.id = x.id", err("ambiguous_column")),

  // ---- LIMIT ? and OFFSET ?
  c("LIMIT ? OFFSET ?", null, null, ["SELECT id FROM users ORDER BY id LIMIT ? OFFSET ?", [2, 1]], ids("u2", "u3")),
  c("OFFSET ? after a literal LIMIT", null, null, ["SELECT id FROM users ORDER BY id LIMIT 1 OFFSET ?", [4]], ids("u5")),
  c("LIMIT ? of 0", null, null, ["SELECT id FROM users LIMIT ?", [0]], ids()),
  c("a negative LIMIT parameter (CONTRACT §11; only a literal LIMIT -1 is no limit)", null, null, ["SELECT id FROM users LIMIT ?", [-1]], err("invalid_request")),
  c("a negative OFFSET parameter", null, null, ["SELECT id FROM users LIMIT 1 OFFSET ?", [-2]], err("invalid_request")),
  c("a fractional OFFSET parameter", null, null, ["SELECT id FROM users LIMIT 1 OFFSET ?", [0.5]], err("invalid_request")),
  c("a text LIMIT parameter", null, null, ["SELECT id FROM users LIMIT ?", ["2"]], err("invalid_request")),

  // ---- SELECT without FROM
  c("SELECT without FROM evaluates once", null, { kind: "select", columns: [AS(B("+", 1, 1), "two"), AS(L("x"), "x")] }, "SELECT 1 + 1 AS two, 'x' AS x",
    rows(["two", "x"], [2, "x"])),
  c("SELECT without FROM, with WHERE", null, { kind: "select", columns: [AS(L(1), "one")], where: L(false) }, "SELECT 1 AS one WHERE FALSE", rows(["one"])),
  c("SELECT * needs a table", null, { kind: "select", columns: "*" }, null, misuse),
  c("a column without FROM is unknown", null, { kind: "select", columns: ["id"] }, "SELECT id", err("unknown_column")),

  // ---- plans: the same plan from each surface
  c("a real literal plans as a real constant from SQL and JSON alike", null,
    { kind: "explain", command: sel(users, ["id"], { where: C(">", "score", CAST(7, "real")) }) }, "EXPLAIN SELECT id FROM users WHERE score > 7.0", { access: "scan" }),
];
