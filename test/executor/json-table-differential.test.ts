/**
 * json_each and json_tree against SQLite (better-sqlite3, in memory):
 * generated documents — nested objects and arrays, repeated names, names
 * with unicode, dots, spaces, underscores and escapes, numbers in every
 * RFC 8259 form (integers past 2^53 and past int64, reals, exponents),
 * strings with escapes and astral characters, booleans, null, white space
 * anywhere, some malformed texts — each read whole and through generated
 * paths. Every row must be SQLite's, column by column (`id` too: where
 * SQLite's parsed form holds the value), in SQLite's order, or the call
 * must fail where SQLite's fails, with its message. JSON true and false
 * are TRUE and FALSE here and 1 and 0 in SQLite (docs/decisions.md), so
 * booleans compare as 1 and 0; numbers compare as doubles (storedb's
 * numbers are). The lateral forms (a table's documents joined with their
 * rows, LEFT JOIN, a correlated EXISTS) are compared the same way.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { RowsResult } from "../../src/commands/results.js";
import type { Value } from "../../src/commands/types.js";
import { StoreError } from "../../src/errors.js";
import { rng } from "./support/sql-generator.js";
import { Sqlite, normal, sqliteValue } from "./support/sqlite.js";

const random = rng(Number(process.env["DIFF_SEED"] ?? 20261130));
const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const chance = (p: number): boolean => random() < p;

const KEYS = ['"a"', '"b"', '"a1"', '"c d"', '"x.y"', '"snake_case"', '"é"', '"日本"', '"😀"', '""', '"\\u0061"', '"q\\"t"', '"0"', '"1a"', '"a"', '"long key with many words in it"'];
const STRINGS = ['"tea"', '""', '"line\\nbreak"', '"\\u00e9t\\u00E9"', '"\\ud83d\\ude00"', '"😀 raw"', '"say \\"hi\\""', '"back\\\\slash"', '"\\/"', '"naïve"', '"[1]"', '"{}"', `"${"x".repeat(300)}"`];
const NUMBERS = ["0", "-0", "1", "-17", "1.50", "0.1", "-2.5e3", "1E2", "1e-7", "123456789", "9007199254740991", "9007199254740993", "9223372036854775807", "-9223372036854775808", "99999999999999999999", "3.0", "-0.0", "1.7976931348623157e308"];

const space = (): string => (chance(0.8) ? "" : pick([" ", "\n", "\t ", "  "]));

function jsonValue(depth: number): string {
  const r = random();
  // Now and then a long container near the top: a header past one byte.
  const length = depth < 2 && chance(0.1) ? int(20, 60) : int(0, 4);
  if (depth < 5 && r < 0.3) return `[${space()}${Array.from({ length }, () => jsonValue(depth + 1)).join(`${space()},${space()}`)}${space()}]`;
  if (depth < 5 && r < 0.6) {
    const members = Array.from({ length }, () => `${pick(KEYS)}${space()}:${space()}${jsonValue(depth + 1)}`);
    return `{${space()}${members.join(`${space()},${space()}`)}${space()}}`;
  }
  if (r < 0.72) return pick(STRINGS);
  if (r < 0.87) return chance(0.5) ? pick(NUMBERS) : String(int(-1000, 1000));
  return pick(["true", "false", "null"]);
}

function malformed(doc: string): string {
  return pick([/[\]}"]$/.test(doc) ? doc.slice(0, -1) : `${doc}}`, `${doc} x`, "", "[1,,2]", '{"a" 1}', "01", "[1 2]", '"open', "{]"]);
}

const STEPS = [".a", ".b", '."c d"', '."x.y"', ".é", '."日本"', '.""', ".snake_case", "[0]", "[1]", "[2]", "[#-1]", "[#-2]", ".0", '."q\\"t"'];

function path(): string {
  let p = "$";
  for (let i = int(0, 3); i > 0; i--) p += pick(STEPS);
  if (chance(0.04)) p += pick([".", "[x", "]"]);
  return chance(0.02) ? "a" : p;
}

/** A string of 66,000 UTF-8 bytes: its header is 5 bytes, its container's too. */
const HUGE = `"${"é".repeat(33000)}"`;

const DOCS: string[] = [
  `[${HUGE}, 1, {"a": ${HUGE}}]`,
  `{"k": ${HUGE}, "n": [1, 2]}`,
  ...Array.from({ length: 400 }, () => {
    const doc = jsonValue(0);
    return chance(0.06) ? malformed(doc) : `${space()}${doc}${space()}`;
  }),
];

const ours = Engine.empty();
const theirs = new Sqlite(":memory:");
const COLUMNS = "key, value, type, atom, id, parent, fullkey, path";

type Outcome = { readonly rows: Value[][] } | { readonly error: string };

function mine(sql: string, params: readonly Value[]): Outcome {
  try {
    const result = ours.execute({ kind: "sql", sql, params }).result as RowsResult;
    return { rows: (result.rows as Record<string, Value>[]).map((row) => result.columns.map((c) => normal(row[c]))) };
  } catch (error) {
    if (error instanceof StoreError && error.code === "invalid_request") return { error: error.message };
    throw error;
  }
}

function sqlite(sql: string, params: readonly Value[]): Outcome {
  try {
    return { rows: theirs.prepare(sql).raw().all(...params.map(sqliteValue)).map((row) => row.map(normal)) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** Both answers alike (rows in order); the number of rows SQLite gave, -1 for an error. */
function agree(sql: string, params: readonly Value[]): number {
  const [a, b] = [mine(sql, params), sqlite(sql, params)];
  const same = "error" in b ? "error" in a && a.error.includes(b.error.replace(/:.*/, "")) : "rows" in a && a.rows.length === b.rows.length && a.rows.every((row, i) => JSON.stringify(row) === JSON.stringify(b.rows[i]));
  if (!same) {
    // The first row that differs, not the whole answer (json_tree repeats each container's text).
    const rows = (o: Outcome): Value[][] => ("rows" in o ? o.rows : []);
    const at = rows(a).findIndex((row, i) => JSON.stringify(row) !== JSON.stringify(rows(b)[i]));
    const show = (o: Outcome): string => ("error" in o ? o.error : `${o.rows.length} rows; row ${at}: ${JSON.stringify(o.rows[at])}`).slice(0, 2000);
    assert.unreachable(`${sql}\nparams  ${JSON.stringify(params).slice(0, 2000)}\nstoredb ${show(a)}\nsqlite  ${show(b)}`);
  }
  return "rows" in b ? b.rows.length : -1;
}

for (const fn of ["json_each", "json_tree"]) {
  test(`${fn}(doc) agrees with SQLite, row by row`, () => {
    let rows = 0;
    let errors = 0;
    for (const doc of DOCS) {
      const n = agree(`SELECT ${COLUMNS} FROM ${fn}(?)`, [doc]);
      if (n < 0) errors++;
      else rows += n;
    }
    assert.ok(rows > DOCS.length * 3 && errors > 5, `${rows} rows, ${errors} errors`);
  });

  test(`${fn}(doc, path) and its hidden columns agree with SQLite`, () => {
    let answered = 0;
    for (const doc of DOCS) {
      for (let k = 0; k < 3; k++) if (agree(`SELECT ${COLUMNS}, json, root FROM ${fn}(?, ?)`, [doc, path()]) > 0) answered++;
    }
    assert.ok(answered > DOCS.length * 0.3, `only ${answered} calls answered rows`);
  });
}

/** What a statement reads of a call, each made alone (a call makes only the columns read): none, one, a few, through WHERE and a subquery. */
const READS = [
  "SELECT count(*) FROM $call",
  "SELECT key FROM $call",
  "SELECT value FROM $call",
  "SELECT type FROM $call",
  "SELECT atom FROM $call",
  "SELECT id FROM $call",
  "SELECT parent FROM $call",
  "SELECT fullkey FROM $call",
  "SELECT path FROM $call",
  "SELECT json, root FROM $call",
  "SELECT key, id FROM $call",
  "SELECT value, fullkey FROM $call",
  "SELECT id, parent, path FROM $call",
  "SELECT count(*) FROM $call WHERE type IN ('object', 'array')",
  "SELECT key FROM $call WHERE atom IS NULL",
  "SELECT (SELECT j.fullkey), (SELECT j.value) FROM $call j",
  "SELECT max(id) FROM $call",
];

for (const fn of ["json_each", "json_tree"]) {
  test(`${fn}: each set of columns read alone agrees with SQLite (the others not made), with and without a path`, () => {
    let answered = 0;
    for (const doc of DOCS) {
      for (const read of [pick(READS), pick(READS)]) {
        if (agree(read.replace("$call", `${fn}(?)`), [doc]) > 0) answered++;
        agree(read.replace("$call", `${fn}(?, ?)`), [doc, path()]);
      }
    }
    assert.ok(answered > DOCS.length, `only ${answered} calls answered rows`);
  });
}

test("documents read by columns alone: numbers past int64, escapes, unicode, nested empty containers, white space inside containers, malformed ends", () => {
  const docs = [
    '[99999999999999999999, -9223372036854775808, 1.5e300, -0, 0.0, 1E-7]',
    '{"\u00e9":"\ud83d\ude00", "q\"t": "a\\b", "😀": "日本", "x.y": [], "": {}}',
    '[[], {}, [[]], {"a": {}}, [{}, []], {"b": [[], {}]}]',
    ' { "a" : [ 1 , 2 ] , "b" : { "c" : [ ] } } ',
    '[1, 2',
    '{"a": 1 "b": 2}',
    '[1] x',
    '{"a" 1}',
  ];
  let answered = 0;
  for (const doc of docs) {
    for (const fn of ["json_each", "json_tree"]) {
      for (const read of READS) {
        if (agree(read.replace("$call", `${fn}(?)`), [doc]) > 0) answered++;
        for (const p of ["$.b", "$[5]", '$."x.y"', "$.a"]) agree(read.replace("$call", `${fn}(?, ?)`), [doc, p]);
      }
    }
  }
  assert.ok(answered > 100, `only ${answered} calls answered rows`);
});

test("a table's documents joined with their rows (comma, LEFT JOIN, EXISTS, an aggregate of them) agree with SQLite", () => {
  const good = DOCS.filter((d) => "rows" in sqlite("SELECT json_valid(?)", [d]) && (sqlite("SELECT json_valid(?)", [d]) as { rows: Value[][] }).rows[0]![0] === 1);
  ours.execute({ kind: "sql", sql: "CREATE TABLE docs (id INTEGER PRIMARY KEY, d TEXT)" });
  theirs.exec("CREATE TABLE docs (id INTEGER PRIMARY KEY, d TEXT)");
  const rows = [...good.map((d, id) => ({ id, d })), { id: good.length, d: null }];
  ours.execute({ kind: "insert", table: "docs", rows });
  const insert = theirs.prepare("INSERT INTO docs VALUES (?, ?)");
  for (const r of rows) insert.run(sqliteValue(r.id), r.d);
  for (const sql of [
    `SELECT docs.id, j.key, j.value, j.type, j.atom, j.id, j.parent, j.fullkey, j.path FROM docs, json_tree(docs.d) AS j ORDER BY docs.id, j.id`,
    `SELECT docs.id, j.key, j.type, j.fullkey FROM docs LEFT JOIN json_each(docs.d) j ON j.type = 'object' ORDER BY docs.id, j.id`,
    `SELECT docs.id, count(*) FROM docs JOIN json_tree(docs.d) j ON TRUE WHERE j.type = 'integer' GROUP BY docs.id ORDER BY docs.id`,
    `SELECT count(*), count(DISTINCT j.fullkey) FROM docs, json_tree(docs.d) j`,
    `SELECT docs.id, count(*) FROM docs, json_each(docs.d) j GROUP BY docs.id ORDER BY docs.id`,
    `SELECT j.type, count(*) FROM docs, json_each(docs.d, '$.a') j GROUP BY j.type ORDER BY j.type`,
    `SELECT id FROM docs WHERE EXISTS (SELECT 1 FROM json_tree(docs.d) WHERE type = 'text' AND atom LIKE '%é%') ORDER BY id`,
    // Into a document: an array or object as JSON, a text quoted. (An integer past 2^53 or -0.0 is no number here: docs/decisions.md.)
    `SELECT docs.id, json_group_array(j.value) FROM docs, json_each(docs.d) j WHERE j.type IN ('text', 'null', 'array', 'object') GROUP BY docs.id ORDER BY docs.id`,
    `SELECT docs.id, json_group_array(j.atom) FROM docs, json_tree(docs.d) j WHERE j.type = 'integer' AND j.atom BETWEEN -9007199254740991 AND 9007199254740991 GROUP BY docs.id ORDER BY docs.id`,
    // Aggregated as the join makes them, over calls of more rows than a call's heap first holds (its id and parent columns then replaced).
    `SELECT docs.id, count(*), max(j.id), sum(j.parent), json_group_array(j.id), json_group_array(j.parent) FROM docs, json_tree('[' || docs.d || ',' || docs.d || ',' || docs.d || ',' || docs.d || ',' || docs.d || ',' || docs.d || ']') j GROUP BY docs.id ORDER BY docs.id`,
    `SELECT max(j.id), count(DISTINCT j.id), json_group_array(j.parent) FROM docs, json_tree('[' || docs.d || ',' || docs.d || ',' || docs.d || ',' || docs.d || ']') j WHERE docs.id % 2 = 0`,
    // In a recursive select: a call reading the rows it runs over, and one joined with them and a table.
    `WITH RECURSIVE r(n, d) AS (SELECT 0, '[1,[2,3]]' UNION ALL SELECT r.n + 1, j.value FROM r, json_each(r.d) j WHERE j.type = 'array') SELECT n, d FROM r`,
    `WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT r.n + 1 FROM docs, json_each(docs.d) j, r WHERE docs.id = r.n AND j.fullkey = '$[0]') SELECT n FROM r`,
  ]) {
    assert.ok(agree(sql, []) > 0, sql);
  }
});

test("every column of a row goes into each JSON builder as SQLite passes it (atom NULL on a container row as JSON null)", () => {
  // No true/false: they are TRUE/FALSE here, 1/0 in SQLite (docs/decisions.md).
  const doc = '[[1],2,{},2.0,"s",null,{"a":[3]}]';
  for (const sql of [
    `SELECT json_array(key, value, atom), json_object('v', value, 'a', atom), json_insert('[]', '$[#]', atom), json_set('{}', '$.v', value), json_quote(atom) FROM json_each(?)`,
    `SELECT json_group_array(atom), json_group_array(value), json_group_object(fullkey, atom) FROM json_tree(?)`,
    // Read by a subquery from the enclosing row (one level and two down): still by the row's type.
    `SELECT (SELECT json_array(j.value, j.atom, j.key)) FROM json_each(?) j`,
    `SELECT (SELECT (SELECT json_object('v', j.value)) FROM json_each('[0]')) FROM json_tree(?) j`,
    // Through iif or an aggregate it is a string, as any JSON text (docs/decisions.md): json() says it is JSON.
    `SELECT json_array(json(iif(type IN ('array', 'object'), value, NULL))), json_array(json(max(iif(type = 'array', value, NULL)) OVER ())) FROM json_each(?)`,
  ]) {
    assert.ok(agree(sql, [doc]) > 0, sql);
  }
});

test("a value read by a table function is a JSON document to the JSON readers and to json_each itself, as SQLite reads its text", () => {
  // Reals written with a fraction (2.0, 2.50): SQLite's value is the real, whose text json_each reads back as a real.
  const doc = '{"a":[1,2],"b":5,"c":{"x":[2.0]},"d":2.50,"e":null,"f":"12","g":"[3]","h":-7}';
  for (const sql of [
    `SELECT j.key, k.key, k.value, k.type FROM json_each(?) j, json_each(j.value) k`,
    `SELECT j.fullkey, k.fullkey, k.type, k.atom FROM json_tree(?) j, json_tree(j.value, '$') k WHERE j.type <> 'text' OR j.key = 'f'`,
    `SELECT j.key, k.key FROM json_each(?) j LEFT JOIN json_each(j.atom) k`,
    `SELECT key, json_extract(value, '$.x'), value -> '$', value ->> '$', json_type(value), json_valid(value), json(value), json_array_length(value), json_type(atom) FROM json_each(?) WHERE key <> 'g'`,
    `SELECT key, json_set(value, '$.y', 1), json_insert(value, '$[#]', 0), json_remove(value, '$[0]'), json_patch(value, value), json_extract(key, '$') FROM json_each(?, '$.a')`,
    `SELECT (SELECT json_type(j.value)), (SELECT count(*) FROM json_each(j.value)) FROM json_each(?) j`,
  ]) {
    assert.ok(agree(sql, [doc]) > 0, sql);
  }
  // A text that is no JSON is malformed, as in SQLite.
  assert.is(agree(`SELECT json_extract(value, '$') FROM json_each('["bob"]')`, []), -1);
});

test.run();
