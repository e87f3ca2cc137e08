/**
 * The date and time functions against SQLite (better-sqlite3, in memory):
 * a generated table of time values — dates and times in every form SQLite
 * reads and many it refuses, Julian days and Unix seconds as numbers and
 * texts — each with up to two modifiers drawn from all of them, through
 * date, time, datetime, julianday, unixepoch and strftime with every
 * conversion. Both engines must give the same answer, NULL for NULL.
 *
 * 'localtime' and 'utc' are in the draw: the process runs in a zone with
 * daylight saving time (both engines read the process's TZ). 'now' is not
 * (two engines read two clocks); its one-instant-per-statement rule is
 * tested on its own below.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { RowsResult } from "../../src/commands/results.js";
import type { Value } from "../../src/commands/types.js";
import { rng } from "./support/sql-generator.js";
import { Sqlite, normal, sqliteValue } from "./support/sqlite.js";

process.env["TZ"] = "America/New_York";

const random = rng(Number(process.env["DIFF_SEED"] ?? 20261128));
const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const chance = (p: number): boolean => random() < p;
const pad = (n: number, width: number): string => String(n).padStart(width, "0");

function dateText(): string {
  const year = chance(0.8) ? int(1900, 2100) : int(-4713, 9999);
  const ymd = `${year < 0 ? "-" : ""}${pad(Math.abs(year), 4)}-${pad(chance(0.95) ? int(1, 12) : pick([0, 13]), 2)}-${pad(chance(0.95) ? int(1, 31) : pick([0, 32]), 2)}`;
  return pick([ymd, `${ymd}${pick([" ", "T", "  "])}${timeText()}`, `${ymd} ${timeText()}`]);
}

function timeText(): string {
  const hm = `${pad(chance(0.97) ? int(0, 23) : pick([24, 25]), 2)}:${pad(chance(0.97) ? int(0, 59) : 60, 2)}`;
  const seconds = pick(["", `:${pad(int(0, 59), 2)}`, `:${pad(int(0, 59), 2)}.${pad(int(0, 999), 3)}`, `:${pad(int(0, 59), 2)}.${int(0, 99999)}`]);
  const zone = chance(0.8) ? "" : pick(["Z", "z", " +05:30", "-14:00", "+00:00", "+15:00", "-3:00", " Z ", "x"]);
  return `${hm}${seconds}${zone}`;
}

const JUNK = ["2000-01-01\0x", "12:00\0", "", "x", "2000-1-01", "2000-01-01 x", "20000-01-01", "12", "12:3", "2451545.5", " 2460000 ", "1e6", "-1", "5373484.5", "5373484.49", "+.5", "1.", "0x10", "NOW1", "subsec1"];

function timeValue(): string {
  const r = random();
  if (r < 0.55) return dateText();
  if (r < 0.7) return timeText();
  if (r < 0.85) return String(Math.round(random() * 5373490 * 1000) / 1000);
  return pick(JUNK);
}

const UNITS = ["second", "minute", "hour", "day", "month", "year"];
const FIXED = [
  "start of month", "start of year", "start of day", "START OF Month", "start of week", "weekday 0", "weekday 3", "weekday 6", "weekday 7",
  "weekday 1.5", " weekday 1", "unixepoch", "auto", "julianday", "localtime", "utc", "subsec", "subsecond", "ceiling", "floor", "+1 month",
  "-1 month", "+13 months", "+1 year", "-3 years", "+0.5 days", "1 day", "+1 DAYS", "+1 dayss", "+1 days ", "+01:30", "-01:30:15.5", "+1:30",
  "+0001-02-03", "-0000-11-30", "+0001-02-03 04:05", "+00001-00-00", "-0001-12-00", "+1 fortnight", "", "x", "+176545 months", "+14712 years",
  "+5373484 days", "+ 1 day", "+1e2 seconds", "+1 day\0x",
];

function modifier(): string {
  if (chance(0.6)) return pick(FIXED);
  const n = chance(0.5) ? String(int(-400, 400)) : (random() * 800 - 400).toFixed(int(1, 3));
  return `${n.startsWith("-") ? "" : pick(["+", "", "+"])}${n} ${pick(UNITS)}${pick(["", "s"])}`;
}

const FORMATS = [
  "%Y-%m-%d %H:%M:%S",
  "%d|%e|%f|%F|%G|%g|%H|%I|%j|%J|%k|%l|%m|%M|%p|%P|%R|%s|%S|%T|%u|%U|%V|%w|%W|%Y|%%",
  "week %V of %G, day %j",
  "%x",
  "ends with %",
  "é %H",
];

interface CaseRow {
  readonly id: number;
  readonly t: string;
  readonly n: number;
  readonly i: number;
  readonly m1: string;
  readonly m2: string;
}

const ROWS: CaseRow[] = Array.from({ length: 500 }, (_, id) => ({
  id,
  t: timeValue(),
  n: chance(0.5) ? Math.round((random() * 5373500 - 10) * 1000) / 1000 : Math.round(random() * 4.7e11 - 2.2e11) / 1000,
  // A whole Julian day, or Unix seconds (a date only with 'unixepoch' or 'auto').
  i: chance(0.5) ? int(0, 5_373_484) : int(-220_000_000_000, 260_000_000_000),
  m1: modifier(),
  m2: modifier(),
}));

const ours = Engine.empty();
const theirs = new Sqlite(":memory:");
ours.execute({ kind: "sql", sql: "CREATE TABLE cases (id INTEGER PRIMARY KEY, t TEXT, n REAL, i INTEGER, m1 TEXT, m2 TEXT)" });
theirs.exec("CREATE TABLE cases (id INTEGER PRIMARY KEY, t TEXT, n REAL, i INTEGER, m1 TEXT, m2 TEXT)");
ours.execute({ kind: "insert", table: "cases", rows: ROWS.map((r) => ({ ...r })) });
const insert = theirs.prepare("INSERT INTO cases VALUES (?, ?, ?, ?, ?, ?)");
for (const r of ROWS) insert.run(...[r.id, r.t, r.n, r.i, r.m1, r.m2].map(sqliteValue));

function answers(sql: string): { ours: Value[][]; theirs: Value[][] } {
  const result = ours.execute({ kind: "sql", sql, params: [] }).result as RowsResult;
  const mine = (result.rows as Record<string, Value>[]).map((row) => result.columns.map((c) => normal(row[c])));
  return { ours: mine, theirs: theirs.prepare(sql).raw().all().map((row) => row.map(normal)) };
}

const CALLS = [
  ...["date", "time", "datetime", "julianday", "unixepoch"].map((f) => (args: string) => `${f}(${args})`),
  ...FORMATS.map((format) => (args: string) => `strftime('${format.replaceAll("'", "''")}', ${args})`),
];

for (const value of ["t", "n", "i"]) {
  test(`time values from a ${value === "t" ? "text" : value === "n" ? "real" : "integer"} column, with 0 to 2 modifiers, agree with SQLite`, () => {
    let nonNull = 0;
    for (const call of CALLS) {
      for (const args of [value, `${value}, m1`, `${value}, m1, m2`]) {
        const sql = `SELECT id, ${value}, m1, m2, ${call(args)} FROM cases ORDER BY id`;
        const got = answers(sql);
        got.ours.forEach((row, k) => {
          const other = got.theirs[k]!;
          const [a, b] = [row[4], other[4]];
          const same = a === b || (typeof a === "number" && typeof b === "number" && Math.abs(a - b) <= 1e-9 * Math.abs(b));
          assert.ok(same, `${sql}\nrow ${JSON.stringify(other.slice(0, 4))}\nstoredb ${JSON.stringify(a)}\nsqlite  ${JSON.stringify(b)}`);
          if (a !== null) nonNull++;
        });
      }
    }
    // The draw must mostly mean something: a good share of the answers are dates, not NULLs.
    assert.ok(nonNull > CALLS.length * 3 * ROWS.length * 0.2, `only ${nonNull} answers were not NULL`);
  });
}

test("'now' is one instant for a whole statement, and the clock for the next", async () => {
  const sql = "SELECT strftime('%Y-%m-%d %H:%M:%f', 'now') AS a, julianday('now') AS j, unixepoch() AS u FROM cases";
  const first = ours.execute({ kind: "sql", sql, params: [] }).result as RowsResult;
  const rows = first.rows as Record<string, Value>[];
  assert.is(new Set(rows.map((r) => JSON.stringify(r))).size, 1, "every row reads the same 'now'");
  const before = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 5));
  const second = (ours.execute({ kind: "sql", sql: "SELECT unixepoch('now', 'subsec') * 1000 AS ms", params: [] }).result as RowsResult).rows as Record<string, Value>[];
  assert.ok((second[0]!["ms"] as number) > before, "a later statement reads the clock again");
  const u = rows[0]!["u"] as number;
  assert.ok(Math.abs(u - before / 1000) < 60, `unixepoch() is about now: ${u}`);
});

test("'now' in the steps of a transaction", () => {
  const step = { kind: "sql" as const, sql: "SELECT datetime('now', 'subsec') AS t" };
  const result = ours.execute({ kind: "transaction", commands: [step, step] }).result as { readonly results: readonly RowsResult[] };
  assert.is(result.results.length, 2);
  for (const r of result.results) assert.match(String((r.rows as Record<string, Value>[])[0]!["t"]), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
});

test("DEFAULT CURRENT_TIMESTAMP, CURRENT_DATE and CURRENT_TIME write SQLite's forms of the same instant", () => {
  const table = "CREATE TABLE stamped (id INTEGER PRIMARY KEY, at TEXT DEFAULT CURRENT_TIMESTAMP, d TEXT DEFAULT CURRENT_DATE, t TEXT DEFAULT CURRENT_TIME)";
  const mine = Engine.empty();
  const other = new Sqlite(":memory:");
  for (const sql of [table, "INSERT INTO stamped (id) VALUES (1), (2)"]) {
    mine.execute({ kind: "sql", sql });
    other.exec(sql);
  }
  // Each side's own clock: the same shapes, and the same instant within a few seconds.
  const read = "SELECT at, d, t, length(at), length(d), length(t), d = date(at), t = time(at), unixepoch(at) FROM stamped ORDER BY id";
  const result = mine.execute({ kind: "sql", sql: read }).result as RowsResult;
  const a = (result.rows as Record<string, Value>[]).map((row) => result.columns.map((c) => normal(row[c])));
  const b = other.prepare(read).raw().all().map((row) => row.map(normal));
  assert.equal(a.map((row) => row.slice(3, 8)), b.map((row) => row.slice(3, 8)));
  assert.equal(a.map((row) => row.slice(3, 8)), [[19, 10, 8, 1, 1], [19, 10, 8, 1, 1]]);
  assert.ok(Math.abs((a[0]![8] as number) - (b[0]![8] as number)) <= 5, `${a[0]![0]} against ${b[0]![0]}`);
  assert.is(a[0]![0], a[1]![0], "one instant per statement");
});

test.run();
