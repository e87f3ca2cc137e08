/**
 * CAST's value rules against SQLite's own (better-sqlite3): text to numbers
 * by the longest numeric prefix, and a real's text for every number SQLite
 * writes with 15 digits or fewer (beyond, SQLite's 17 approximate digits
 * and storedb's shortest exact ones part ways by design).
 */
import { createRequire } from "node:module";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { castValue, formatReal } from "../../src/planner/casts.js";

interface SqliteDatabase {
  prepare(sql: string): { pluck(): { get(...params: unknown[]): unknown } };
}
const Sqlite = createRequire(import.meta.url)("better-sqlite3") as new (file: string) => SqliteDatabase;
const db = new Sqlite(":memory:");
const asText = db.prepare("SELECT CAST(? AS TEXT)").pluck();
const asInteger = db.prepare("SELECT CAST(? AS INTEGER)").pluck();
const asReal = db.prepare("SELECT CAST(? AS REAL)").pluck();

test("a real's text is SQLite's for numbers of up to 15 digits", () => {
  const values = [0, -0, 1, -1, 0.5, 3, 100, 1e15, 1e16, 9.9e16, 1e17, 1e20, 1.5e-7, 1e-4, 1e-5, 123.456, -2.5e-5, 0.1, 1.7976931348623157e308, 5e-324 * 1e300];
  for (let k = -400; k <= 400; k++) values.push(k / 4, k * 1234.5, k / 1000);
  for (const v of values) {
    if (v === 0 && Object.is(v, -0)) continue;
    const theirs = asText.get(v) as string;
    if (theirs.replace(/[^0-9]/g, "").replace(/^0+/, "").length > 17) continue;
    assert.is(formatReal(v), theirs, String(v));
  }
  assert.is(formatReal(-0), "0.0");
});

test("text to integer and real takes the longest numeric prefix", () => {
  for (const text of ["12abc", "  12", "\t-7x", "+5", "1e3", "1.9", "abc", "", "-", ".5", "5.", "1.e2", "e5", " 1e3x", "-12.5e1", "0x10", "007"]) {
    assert.is(castValue(text, "text", "integer"), asInteger.get(text), `integer ${JSON.stringify(text)}`);
    assert.is(castValue(text, "text", "real"), asReal.get(text), `real ${JSON.stringify(text)}`);
  }
});

test("storedb's own boolean rules", () => {
  assert.is(castValue(true, "boolean", "text"), "true");
  assert.is(castValue(false, "boolean", "integer"), 0);
  assert.is(castValue(" TRUE ", "text", "boolean"), true);
  assert.is(castValue("no", "text", "boolean"), null);
  assert.is(castValue(0.5, "real", "boolean"), true);
  assert.is(castValue(0, "integer", "boolean"), false);
  assert.is(castValue("1e400", "text", "real"), null, "beyond the double range is NULL");
  assert.is(castValue(7, "integer", "text"), "7");
  assert.is(castValue(7, "real", "text"), "7.0");
});

test.run();
