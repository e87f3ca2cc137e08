/**
 * printf and the functions added beside it, against SQLite: generated
 * conversions (every type, flags, widths, precisions, `*`) of generated
 * values — integers, reals small and large, ASCII texts, NULL — must give
 * SQLite's text. Two things are left out: exact decimal ties (storedb
 * rounds them up, SQLite's conversion either way) and digits past the
 * fifteenth, where SQLite's approximate conversion and the exact one
 * storedb starts from can differ in the last place; so precisions stay
 * below 12. and the math, concat, quote and min/max functions its
 * values. Texts stay ASCII: storedb counts widths in characters where
 * SQLite counts bytes (docs/decisions.md); those of substring and
 * octet_length do not. `PRINTF_SEED` and
 * `PRINTF_QUERIES` pick the run.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { RowsResult } from "../../src/commands/results.js";
import { rng } from "./support/sql-generator.js";
import { Sqlite, normal } from "./support/sqlite.js";

const SEED = Number(process.env["PRINTF_SEED"] ?? 20261129);
const COUNT = Number(process.env["PRINTF_QUERIES"] ?? 3000);

const next = rng(SEED);
const int = (n: number): number => Math.floor(next() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;

const ours = Engine.empty();
const theirs = new Sqlite(":memory:");

function answer(sql: string): { ours: unknown; theirs: unknown } {
  const result = ours.execute({ kind: "sql", sql }).result as RowsResult;
  const row = (result.rows as Record<string, unknown>[])[0]!;
  const mine = result.columns.map((c) => normal(row[c] as never));
  const other = (theirs.prepare(sql).raw().all()[0] as unknown[]).map(normal);
  return { ours: mine, theirs: other };
}

/** A last digit that is neither 0 nor 5: no cut of such a number falls on an exact tie (storedb rounds those up, SQLite's conversion either way). */
const digit = (): string => pick(["1", "2", "3", "4", "6", "7", "8", "9"]);

/** A value as an SQL literal both engines read alike: reals written with a point or an exponent. */
function literal(): string {
  switch (int(9)) {
    case 0:
      return "NULL";
    case 1:
      return String(int(200) - 100) + digit();
    case 2:
      return (int(2) === 0 ? "-" : "") + String(int(2 ** 31)) + digit();
    case 3:
      return (next() * 2000 - 1000).toFixed(int(6)) + digit();
    case 4:
      return pick(["0.0", "-1.3", "2.7", "0.123", "1e20", "1.7e-7", "123456789.3", "9.99999e5", "0.0001", "1e16", "3.14159265358979", "2.675"]);
    case 5:
      return pick(["'abc'", "'it''s'", "''", "'12abc'", "'  -7x'", "'3.7e2z'", "'hello world'", "'x\"y'"]);
    case 6:
      return `${int(100)}.${int(100)}${digit()}e${int(24) - 12}`;
    default:
      return String(int(10000)) + digit();
  }
}

function textLiteral(): string {
  for (;;) {
    const value = literal();
    if (!/e/i.test(value) || value.startsWith("'")) return value;
  }
}

function conversion(): string {
  // `y` is no conversion: the text ends there.
  const type = pick(["d", "i", "u", "x", "X", "o", "p", "r", "f", "e", "E", "g", "G", "s", "z", "q", "Q", "w", "c", "%", "d", "f", "s", "y"]);
  let spec = "%";
  for (const flag of ["-", "+", " ", "0", "#", ",", "!"]) if (int(5) === 0) spec += flag;
  const width = int(3);
  if (width === 1) spec += String(1 + int(14));
  if (width === 2) spec += "*";
  // With `!` a real takes up to 26 digits, past the 17 both conversions agree on: keep its precision short.
  const short = spec.includes("!") && /[feEgG]/.test(type);
  const precision = int(3);
  if (precision === 1 || (precision === 2 && short)) spec += "." + String(int(short ? 4 : 12));
  if (precision === 2 && !short) spec += ".*";
  if (int(8) === 0) spec += pick(["l", "ll"]);
  return spec + type;
}

test("printf against SQLite", () => {
  for (let q = 0; q < COUNT; q++) {
    const parts: string[] = [];
    const values: string[] = [];
    for (let n = 1 + int(3); n > 0; n--) {
      const spec = conversion();
      parts.push(spec + pick(["", "|", " x "]));
      // A `*` reads a small integer (SQLite would build a text as wide as a large one), the conversion a value.
      for (let k = spec.match(/\*/g)?.length ?? 0; k > 0; k--) values.push(String(int(22) - 10));
      // A real in a text conversion keeps to a few digits and no exponent: SQLite writes one with an exponent from its approximate 15 digits, which may not read back (then 17).
      if (!/[%y]$/.test(spec)) values.push(/[szqQwc]$/.test(spec) ? textLiteral() : literal());
    }
    if (int(10) === 0 && values.length > 0) values.pop(); // a missing argument reads as NULL
    const format = parts.join("").replaceAll("'", "''");
    const sql = `SELECT printf('${format}'${values.map((v) => `, ${v}`).join("")})`;
    const got = answer(sql);
    assert.equal(got.ours, got.theirs, sql);
  }
});

test("math, concat, quote, min and max against SQLite", () => {
  const numbers = () => pick(["NULL", "0", "1", "-1", "2", "0.5", "-2.5", "10", "100.0", "1e3", "3", "0.0", "7", "-7"]);
  const unary = ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "degrees", "exp", "ln", "log", "log10", "log2", "radians", "sin", "sinh", "sqrt", "tan", "tanh", "ceiling", "floor", "trunc"];
  const binary = ["atan2", "log", "mod", "pow", "power"];
  for (let q = 0; q < COUNT / 3; q++) {
    const items = [
      `${pick(unary)}(${numbers()})`,
      `${pick(binary)}(${numbers()}, ${numbers()})`,
      `${pick(["max", "min"])}(${numbers()}, ${numbers()}${int(2) === 0 ? `, ${numbers()}` : ""})`,
      `${pick(["max", "min"])}(${pick(["'a'", "'b'", "'B'", "''", "NULL"])}, ${pick(["'a'", "'ab'", "'Z'", "NULL"])})`,
      `concat(${[textLiteral(), textLiteral()].join(", ")})`,
      `concat_ws(${pick(["'-'", "''", "NULL", "', '"])}, ${[textLiteral(), textLiteral(), textLiteral()].join(", ")})`,
      `quote(${textLiteral()})`,
      "pi()",
    ];
    const sql = `SELECT ${items.map((item, i) => `${item} AS c${i}`).join(", ")}`;
    const got = answer(sql);
    const close = (a: unknown, b: unknown): boolean =>
      typeof a === "number" && typeof b === "number" ? Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a)) : a === b || (a === null && (b === Infinity || b === -Infinity));
    const same = (got.ours as unknown[]).every((v, i) => close(v, (got.theirs as unknown[])[i]));
    assert.ok(same, `${sql}\nours:   ${JSON.stringify(got.ours)}\ntheirs: ${JSON.stringify(got.theirs)}`);
  }
});

test("substring, octet_length, likely, unlikely and likelihood against SQLite", () => {
  // Texts beyond ASCII: octet_length counts UTF-8 bytes, substring characters.
  const texts = () => pick(["NULL", "''", "'a'", "'héllo'", "'😀x😀'", "'naïve café'", "'it''s'", "'€'"]);
  const positions = () => pick(["0", "1", "2", "-1", "-3", "5", "-10", "NULL"]);
  const values = () => pick(["NULL", "0", "-7", "2.5", "'x'", "'😀'"]);
  for (let q = 0; q < COUNT / 6; q++) {
    const items = [
      `substring(${texts()}, ${positions()})`,
      `substring(${texts()}, ${positions()}, ${positions()})`,
      `octet_length(${texts()})`,
      `${pick(["likely", "unlikely", "LIKELY"])}(${values()})`,
      `likelihood(${values()}, ${pick(["0.0", "1.0", "0.5", ".25", "1e-3"])})`,
    ];
    const sql = `SELECT ${items.map((item, i) => `${item} AS c${i}`).join(", ")}`;
    const got = answer(sql);
    assert.equal(got.ours, got.theirs, sql);
  }
});

test("random() draws odd and even integers, negative and positive, of every size", () => {
  const engine = Engine.empty();
  engine.execute({ kind: "create-table", schema: { name: "n", columns: { id: "integer" }, primary_key: { columns: ["id"] } } });
  engine.execute({ kind: "insert", table: "n", rows: Array.from({ length: 256 }, (_, id) => ({ id })) });
  const result = engine.execute({ kind: "sql", sql: "SELECT count(DISTINCT abs(random() % 2)) AS parities, count(DISTINCT random() > 0) AS signs, max(abs(random())) > 4503599627370496 AS big FROM n" }).result as RowsResult;
  // Each fails with probability 2^-255 at most (big: about 2^-256).
  assert.equal(result.rows[0], { parities: 2, signs: 2, big: true });
});

test.run();
