/**
 * The JSON functions against SQLite (better-sqlite3, in memory): generated
 * documents — nested objects and arrays, repeated names, names with dots,
 * spaces and escapes, numbers in every RFC 8259 form, strings with escapes,
 * white space anywhere, and some malformed texts — each read through
 * generated paths (keys, quoted keys, indexes, `[#-n]`, some malformed)
 * with every function and operator. Each call must give SQLite's answer
 * (JSON true/false read back as SQLite's 1/0) or fail where SQLite fails,
 * with its message ("malformed JSON", "bad JSON path") as the 400's detail.
 * A JSON true or false read and written into another document is `true`
 * or `false` here and 1 or 0 in SQLite (docs/decisions.md): those rows
 * are left out of such calls.
 *
 * JSON5, which SQLite also reads and storedb refuses, is not in the draw
 * (docs/decisions.md).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { RowsResult } from "../../src/commands/results.js";
import type { Value } from "../../src/commands/types.js";
import { StoreError } from "../../src/errors.js";
import { rng } from "./support/sql-generator.js";
import { Sqlite, normal, sqliteValue } from "./support/sqlite.js";

const random = rng(Number(process.env["DIFF_SEED"] ?? 20261129));
const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const chance = (p: number): boolean => random() < p;

const KEYS = ['"a"', '"b"', '"c d"', '"x.y"', '"é"', '""', '"\\u0061"', '"q\\"t"', '"0"', '"a"'];
const STRINGS = ['"tea"', '""', '"line\\nbreak"', '"\\u00e9t\\u00E9"', '"\\ud83d\\ude00"', '"say \\"hi\\""', '"back\\\\slash"', '"\\/"', '"naïve"', '"[1]"', '"{}"'];
const NUMBERS = ["0", "-0", "1", "-17", "1.50", "0.1", "-2.5e3", "1E2", "1e-7", "123456789", "9007199254740991", "3.0", "-0.0"];

const space = (): string => (chance(0.8) ? "" : pick([" ", "\n", "\t ", "  "]));

function jsonValue(depth: number): string {
  const r = random();
  if (depth < 4 && r < 0.25) return `[${space()}${Array.from({ length: int(0, 4) }, () => jsonValue(depth + 1)).join(`${space()},${space()}`)}${space()}]`;
  if (depth < 4 && r < 0.55) {
    const members = Array.from({ length: int(0, 4) }, () => `${pick(KEYS)}${space()}:${space()}${jsonValue(depth + 1)}`);
    return `{${space()}${members.join(`${space()},${space()}`)}${space()}}`;
  }
  if (r < 0.7) return pick(STRINGS);
  if (r < 0.85) return chance(0.5) ? pick(NUMBERS) : String(int(-1000, 1000));
  return pick(["true", "false", "null"]);
}

/** Texts that are no JSON in SQLite either (none of them JSON5). */
function malformed(doc: string): string {
  // Cut short only after a closing character: `3.` from `3.0` is JSON5.
  return pick([/[\]}"]$/.test(doc) ? doc.slice(0, -1) : `${doc}}`, `${doc} x`, "", "  ", "[1,,2]", '{"a" 1}', "01", "[1 2]", '"open', "nul", "{]", `[${doc}`]);
}

const STEPS = [".a", ".b", '."c d"', '."x.y"', ".é", '.""', ".x.y", "[0]", "[1]", "[2]", "[#-1]", "[#-2]", "[#]", "[#-9]", ".0", ".q\"t", '."q\\"t"'];
const BAD = [".", "..a", "[x", "[-1]", "[ 1]", "]", "[#+1]", '."open', "x"];

function path(): string {
  let p = chance(0.03) ? pick(["", "a", " $"]) : "$";
  for (let i = int(0, 3); i > 0; i--) p += pick(STEPS);
  if (chance(0.08)) p += pick(BAD);
  return p;
}

/** `->`'s right operand: a path, a key, an index (negative from the end), or `[n]`. */
function arrow(): string | number {
  return pick<() => string | number>([path, () => pick(["a", "b", "c d", "x.y", "é", "0", "q\"t", "[0]", "[#-1]"]), () => int(-3, 3)])();
}

interface Row {
  readonly id: number;
  readonly d: string;
  readonly p: string;
  readonly q: string;
  readonly a: string | number;
  readonly e: string;
}

const ROWS: Row[] = Array.from({ length: 600 }, (_, id) => {
  const doc = jsonValue(0);
  return { id, d: chance(0.08) ? malformed(doc) : `${space()}${doc}${space()}`, p: path(), q: path(), a: arrow(), e: jsonValue(2) };
});

const ours = Engine.empty();
const theirs = new Sqlite(":memory:");

type Outcome = { readonly value: Value } | { readonly error: string };

function mine(sql: string, params: readonly Value[]): Outcome {
  try {
    const result = ours.execute({ kind: "sql", sql, params }).result as RowsResult;
    const row = (result.rows as Record<string, Value>[])[0]!;
    return { value: normal(row[result.columns[0]!]) };
  } catch (error) {
    if (error instanceof StoreError && error.code === "invalid_request") return { error: error.message };
    throw error;
  }
}

function sqlite(sql: string, params: readonly Value[]): Outcome {
  try {
    return { value: normal(theirs.prepare(sql).raw().all(...params.map(sqliteValue))[0]![0]) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function agree(sql: string, params: readonly Value[]): boolean {
  const [a, b] = [mine(sql, params), sqlite(sql, params)];
  const same = "error" in b ? "error" in a && a.error.includes(b.error.replace(/:.*/, "")) : "value" in a && a.value === b.value;
  assert.ok(same, `${sql}\nparams  ${JSON.stringify(params)}\nstoredb ${JSON.stringify(a)}\nsqlite  ${JSON.stringify(b)}`);
  return "value" in b && b.value !== null;
}

/** Whether the value a row's path reads is a JSON true or false (SQLite passes it on as 1 or 0). */
const readsBoolean = (doc: string, path: string | number): boolean => {
  const type = sqlite("SELECT json_type(? -> ?)", [doc, path]);
  return "value" in type && (type.value === "true" || type.value === "false");
};

/**
 * Each call over every row (but those `leftOut`), as a statement with the
 * row's values as parameters; a good share must answer a value.
 */
function check(name: string, sql: string, params: (r: Row) => Value[], share = 0.15, leftOut?: (r: Row) => boolean): void {
  test(`${name} agrees with SQLite`, () => {
    let answered = 0;
    for (const r of ROWS) if (!leftOut?.(r) && agree(sql, params(r))) answered++;
    assert.ok(answered >= ROWS.length * share, `only ${answered} of ${ROWS.length} answered a value`);
  });
}

check("json_extract(doc, path)", "SELECT json_extract(?, ?)", (r) => [r.d, r.p]);
// The second lookup in a document already validated stops at its answer: the same answers.
check("two lookups in one document", "SELECT json_array(json_type(?, ?), json_type(?, ?), ? -> ?)", (r) => [r.d, r.p, r.d, r.q, r.d, r.a], 0.4);
check("json_extract(doc, path, path)", "SELECT json_extract(?, ?, ?)", (r) => [r.d, r.p, r.q], 0.5);
check("doc -> path", "SELECT ? -> ?", (r) => [r.d, r.a], 0.1);
check("doc ->> path", "SELECT ? ->> ?", (r) => [r.d, r.a], 0.1);
check("json_type(doc, path)", "SELECT json_type(?, ?)", (r) => [r.d, r.p]);
check("json_type(doc)", "SELECT json_type(?)", (r) => [r.d], 0.5);
check("json_array_length(doc, path)", "SELECT json_array_length(?, ?)", (r) => [r.d, r.p]);
check("json(doc)", "SELECT json(?)", (r) => [r.d], 0.5);
check("json_valid(doc)", "SELECT json_valid(?)", (r) => [r.d], 0.5);
check("json_valid(doc, flags)", "SELECT json_valid(?, ?)", (r) => [r.d, (r.id % 17) - 0.5], 0.3);
check("json_quote of a value read from a document", "SELECT json_quote(json_extract(?, ?))", (r) => [r.d, r.p], 0.2, (r) => readsBoolean(r.d, r.p));
check("json_array of -> and ->>", "SELECT json_array(? -> ?, ? ->> ?)", (r) => [r.d, r.a, r.d, r.a], 0.4, (r) => readsBoolean(r.d, r.a));
check("json_array of json_extract and ->> with a path", "SELECT json_array(json_extract(?, ?), ? ->> ?)", (r) => [r.d, r.p, r.d, r.p], 0.4, (r) => readsBoolean(r.d, r.p));
check("json_object of a document's value", "SELECT json_object('k', json_extract(?, ?), 'j', json(?))", (r) => [r.d, r.p, r.e], 0.4, (r) => readsBoolean(r.d, r.p));
check("json_set(doc, path, json)", "SELECT json_set(?, ?, json(?))", (r) => [r.d, r.p, r.e], 0.5);
check("json_set(doc, path, text, path, integer)", "SELECT json_set(?, ?, 'v', ?, 7)", (r) => [r.d, r.p, r.q], 0.5);
check("json_insert(doc, path, json)", "SELECT json_insert(?, ?, json(?))", (r) => [r.d, r.p, r.e], 0.5);
check("json_replace(doc, path, text)", "SELECT json_replace(?, ?, 'v')", (r) => [r.d, r.p], 0.5);
check("json_remove(doc, path, path)", "SELECT json_remove(?, ?, ?)", (r) => [r.d, r.p, r.q], 0.4);
check("json_patch(doc, doc)", "SELECT json_patch(?, ?)", (r) => [r.d, r.e], 0.5);

test("an integer past 2^53 goes from one document into another with its digits, as SQLite copies it", () => {
  for (const n of ["9007199254740993", "-9007199254740993", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "99999999999999999999999", "1.5e300"]) {
    const doc = `{"a":${n}}`;
    for (const sql of ["SELECT json_array(json_extract(?, '$.a'))", "SELECT json_array(? ->> 'a')", "SELECT json_object('k', ? ->> '$.a')", "SELECT json_set('{}', '$.b', json_extract(?, '$.a'))", "SELECT json_quote(json_extract(?, '$.a'))"]) {
      const a = mine(sql, [doc]);
      const b = sqlite(sql, [doc]);
      // Past int64 both write a real: SQLite with 17 digits, storedb the shortest (docs/decisions.md), so the value is compared.
      const value = (o: Outcome): unknown => ("value" in o && typeof o.value === "string" ? JSON.stringify(JSON.parse(o.value)) : o);
      if ("value" in b && typeof b.value === "string" && /e\+/.test(b.value)) assert.equal(value(a), value(b), `${sql} ${doc}`);
      else assert.equal(a, b, `${sql} ${doc}`);
    }
  }
});

test("json_group_array and json_group_object over a table agree with SQLite", () => {
  const good = ROWS.filter((r) => "value" in sqlite("SELECT json_extract(?, ?)", [r.d, r.p]) && !readsBoolean(r.d, r.p));
  ours.execute({ kind: "sql", sql: "CREATE TABLE docs (id INTEGER PRIMARY KEY, d TEXT, p TEXT)" });
  theirs.exec("CREATE TABLE docs (id INTEGER PRIMARY KEY, d TEXT, p TEXT)");
  ours.execute({ kind: "insert", table: "docs", rows: good.map((r) => ({ id: r.id, d: r.d, p: r.p })) });
  const insert = theirs.prepare("INSERT INTO docs VALUES (?, ?, ?)");
  for (const r of good) insert.run(sqliteValue(r.id), r.d, r.p);
  for (const sql of [
    "SELECT json_group_array(json_extract(d, p)) FROM docs",
    "SELECT json_group_array(d -> p) FROM docs",
    "SELECT json_group_object(p, json_type(d, p)) FROM docs",
    "SELECT json_group_array(json_array_length(d)) FROM docs WHERE id % 3 = 0",
  ]) {
    const result = ours.execute({ kind: "sql", sql, params: [] }).result as RowsResult;
    const a = (result.rows as Record<string, Value>[])[0]![result.columns[0]!];
    const b = theirs.prepare(sql).raw().all()[0]![0];
    assert.is(a, b, sql);
  }
});

test.run();
