/**
 * A join hands its tuples to what consumes them as it makes them
 * (`select.ts`, `join.ts`): an aggregate, with or without GROUP BY,
 * DISTINCT, a projection under LIMIT and OFFSET; a lateral call whose
 * tuples are consumed so makes each tuple's rows over the last's
 * (`json-table.ts`). None of it may change an answer: each query here is
 * SQLite's (better-sqlite3, same rows) — in order where the query orders
 * its rows (a table's scan in key order, a call's rows in document order,
 * as both engines read them), else as multisets — and where the order is
 * storedb's own (a LIMIT without ORDER BY over a hash join) the rows are
 * the first of its whole answer. Cases: aggregates over empty joins, a
 * LEFT (RIGHT, FULL) join's padded rows counted, a WHERE term after an
 * outer join, lateral json_each grouped, kept after a later join, sorted
 * or windowed (its rows read after the next call's are made), its id and
 * parent aggregated over calls of more rows than its heap first holds (the
 * columns replaced while the aggregate is fed), LIMIT and
 * OFFSET over joins, correlated subqueries over joins, an aggregate whose
 * argument runs one.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Value } from "../../src/commands/types.js";
import type { RowsResult } from "../../src/commands/results.js";
import { engines, run, sameRows } from "./support/both-engines.js";
import { rng, type TableDef } from "./support/sql-generator.js";

const random = rng(20261201);
const int = (n: number): number => Math.floor(random() * n);
const maybe = <T>(p: number, v: T): T | null => (random() < p ? null : v);
const WORDS = ["tea", "milk", "", "Rome", "rome", "é", "x y", "tea", "zz"];

const tables: TableDef[] = [
  {
    name: "a",
    columns: [
      { name: "id", type: "integer" },
      { name: "k", type: "integer" },
      { name: "s", type: "text" },
    ],
    rows: Array.from({ length: 40 }, (_, i) => [i, maybe(0.15, i % 7), maybe(0.1, WORDS[i % WORDS.length]!)]),
    indexes: [["a_k", "k"]],
  },
  {
    name: "b",
    columns: [
      { name: "id", type: "integer" },
      { name: "a_id", type: "integer" },
      { name: "k", type: "integer" },
      { name: "s", type: "text" },
    ],
    // Some rows of a have no b (a LEFT join pads them), some b no a (a_id past a's ids, or NULL).
    rows: Array.from({ length: 120 }, (_, i) => [i, maybe(0.1, int(50)), maybe(0.1, int(9)), maybe(0.1, WORDS[int(WORDS.length)]!)]),
    indexes: [["b_a", "a_id"]],
  },
  {
    name: "c",
    columns: [
      { name: "id", type: "integer" },
      { name: "b_id", type: "integer" },
      { name: "v", type: "real" },
    ],
    rows: Array.from({ length: 200 }, (_, i) => [i, maybe(0.1, int(130)), int(400) / 4]),
    indexes: [],
  },
  {
    name: "docs",
    columns: [
      { name: "id", type: "integer" },
      { name: "tags", type: "text" },
      { name: "nums", type: "text" },
    ],
    // Tags: arrays of words (some empty, some NULL, one not an array); nums: arrays of integers.
    rows: Array.from({ length: 60 }, (_, i) => [
      i,
      i % 13 === 5 ? null : i % 11 === 3 ? "[]" : i === 7 ? '"solo"' : JSON.stringify(Array.from({ length: 1 + int(5) }, () => WORDS[int(WORDS.length)])),
      JSON.stringify(Array.from({ length: int(4) }, () => int(20))),
    ]),
    indexes: [],
  },
  {
    name: "big",
    columns: [
      { name: "id", type: "integer" },
      { name: "doc", type: "text" },
    ],
    // Calls of more rows than a lateral call's heap first holds (16), and than each of its doublings: its id and parent columns replaced mid-join.
    rows: [3, 20, 0, 17, 70, 5, 300, 40, 1, 140].map((n, i) => [
      i,
      i % 3 === 1 ? JSON.stringify({ a: Array.from({ length: n }, (_, k) => (k % 4 === 0 ? { k, v: [k, "x"] } : k)), b: "t" }) : JSON.stringify(Array.from({ length: n }, (_, k) => k)),
    ]),
    indexes: [],
  },
  {
    name: "u",
    columns: [
      { name: "id", type: "integer" },
      { name: "big_id", type: "integer" },
    ],
    rows: Array.from({ length: 25 }, (_, i) => [i, i % 12]),
    indexes: [],
  },
];

const { ours, theirs } = engines(tables);

function agree(sql: string, ordered: boolean): void {
  const answers = run(ours, theirs, { sql, params: [], ordered });
  const show = (rows: Value[][]): string => JSON.stringify(rows.slice(0, 8)) + (rows.length > 8 ? ` … (${rows.length} rows)` : "");
  assert.ok(sameRows(answers.ours, answers.theirs, ordered), `${sql}\nstoredb ${show(answers.ours)}\nsqlite  ${show(answers.theirs)}`);
}

const rows = (sql: string): Value[][] => {
  const result = ours.execute({ kind: "sql", sql, params: [] }).result as RowsResult;
  return (result.rows as Record<string, Value>[]).map((row) => result.columns.map((c) => row[c] ?? null));
};

test("aggregates over a join that makes no tuples: one row of count 0 and NULLs, no groups", () => {
  for (const sql of [
    "SELECT count(*), count(b.id), sum(b.k), total(b.k), avg(b.k), min(b.s), max(b.k), group_concat(b.s) FROM a JOIN b ON b.a_id = a.id WHERE a.id < 0",
    "SELECT count(*), sum(b.k), json_group_array(b.s) FROM a JOIN b ON b.a_id = a.id AND b.k > 1000",
    "SELECT count(*), max(c.v) FROM a JOIN b ON b.a_id = a.id JOIN c ON c.b_id = b.id WHERE c.v < 0",
    "SELECT count(*) FROM a JOIN b ON b.a_id = a.id WHERE a.id < 0 HAVING count(*) = 0",
    "SELECT count(*), count(j.value), group_concat(j.value) FROM docs, json_each(docs.tags) j WHERE docs.id < 0",
    "SELECT count(*) FROM docs, json_each(docs.tags) j WHERE docs.tags = '[]'",
  ]) {
    agree(sql, true);
  }
  for (const sql of [
    "SELECT a.k, count(*) FROM a JOIN b ON b.a_id = a.id WHERE a.id < 0 GROUP BY a.k",
    "SELECT j.value, count(*) FROM docs, json_each(docs.tags) j WHERE docs.id < 0 GROUP BY j.value",
    "SELECT DISTINCT b.s FROM a JOIN b ON b.a_id = a.id WHERE a.id < 0",
  ]) {
    agree(sql, false);
    assert.equal(rows(sql), [], sql);
  }
});

test("an outer join's padded rows are counted, and a WHERE term after it drops them as they are made", () => {
  for (const sql of [
    "SELECT count(*), count(b.id), count(DISTINCT a.id), sum(b.k) FROM a LEFT JOIN b ON b.a_id = a.id",
    "SELECT count(*) FROM a LEFT JOIN b ON b.a_id = a.id WHERE b.id IS NULL",
    "SELECT count(*), sum(a.k) FROM a LEFT JOIN b ON b.a_id = a.id AND b.k > 4 WHERE b.id IS NULL OR b.k = 8",
    "SELECT count(*), count(a.id), count(b.id) FROM a RIGHT JOIN b ON b.a_id = a.id",
    "SELECT count(*), count(a.id), count(b.id), sum(coalesce(a.id, -1)) FROM a FULL JOIN b ON b.a_id = a.id AND a.k = 3",
    "SELECT count(*), count(b.id) FROM a FULL JOIN b ON b.a_id = a.id WHERE a.k IS NULL",
    "SELECT count(*), count(b.id), count(c.id), sum(c.v) FROM a LEFT JOIN b ON b.a_id = a.id LEFT JOIN c ON c.b_id = b.id",
    "SELECT count(*), count(j.value) FROM docs LEFT JOIN json_each(docs.tags) j",
    "SELECT count(*) FROM docs LEFT JOIN json_each(docs.tags) j WHERE j.value IS NULL",
  ]) {
    agree(sql, true);
  }
  for (const sql of [
    "SELECT a.k, count(*), count(b.id), group_concat(b.id) FROM a LEFT JOIN b ON b.a_id = a.id GROUP BY a.k",
    "SELECT b.k, count(*), count(a.id) FROM a RIGHT JOIN b ON b.a_id = a.id GROUP BY b.k HAVING count(a.id) > 1",
    "SELECT DISTINCT a.k, b.k FROM a FULL JOIN b ON b.a_id = a.id",
    "SELECT DISTINCT a.s FROM a LEFT JOIN b ON b.a_id = a.id WHERE b.id IS NULL",
  ]) {
    agree(sql, false);
  }
});

test("lateral json_each: grouped, counted, distinct, and its rows still read after a later join, a sort or a window", () => {
  for (const sql of [
    "SELECT count(*), count(DISTINCT j.value), min(j.value), max(j.value) FROM docs, json_each(docs.tags) j",
    "SELECT sum(n.value), total(n.value), avg(n.value), max(n.value) FROM docs, json_each(docs.nums) n WHERE n.value > 3",
    // Rows in document order, each call's after the last's: the same concatenation in both.
    "SELECT group_concat(j.value, '|'), json_group_array(j.value), json_group_array(j.key) FROM docs, json_each(docs.tags) j",
    "SELECT docs.id, j.key, j.value FROM docs, json_each(docs.tags) j ORDER BY j.value DESC, docs.id, j.key",
    "SELECT docs.id, j.value FROM docs, json_each(docs.tags) j LIMIT 9 OFFSET 4",
    "SELECT docs.id, j.value, n.value FROM docs, json_each(docs.tags) j, json_each(docs.nums) n LIMIT 30",
    "SELECT DISTINCT j.value FROM docs, json_each(docs.tags) j ORDER BY j.value LIMIT 4 OFFSET 1",
    "SELECT j.value, count(*) FROM docs, json_each(docs.tags) j GROUP BY j.value ORDER BY count(*) DESC, j.value LIMIT 3",
  ]) {
    agree(sql, true);
  }
  for (const sql of [
    "SELECT j.value, count(*), count(DISTINCT docs.id) FROM docs, json_each(docs.tags) j GROUP BY j.value",
    "SELECT docs.id, group_concat(j.value, '|'), json_group_array(j.value), count(*) FROM docs, json_each(docs.tags) j GROUP BY docs.id",
    "SELECT j.type, count(*) FROM docs, json_each(docs.tags) j GROUP BY j.type",
    "SELECT DISTINCT j.value FROM docs, json_each(docs.tags) j",
    "SELECT j.value, n.value, count(*) FROM docs, json_each(docs.tags) j, json_each(docs.nums) n GROUP BY j.value, n.value",
    "SELECT docs.id, j.value, a.id FROM docs, json_each(docs.tags) j JOIN a ON a.s = j.value",
    "SELECT j.value, count(*) FROM docs, json_each(docs.tags) j JOIN a ON a.s = j.value GROUP BY j.value",
    "SELECT j.value, count(*) OVER (PARTITION BY j.value) FROM docs, json_each(docs.tags) j",
    "SELECT docs.id, j.value FROM docs LEFT JOIN json_each(docs.tags) j",
  ]) {
    agree(sql, false);
  }
});

test("a lateral call's id and parent aggregated, grouped and made distinct over calls of more rows than its heap first holds", () => {
  for (const sql of [
    "SELECT max(j.id), min(j.id), count(*), sum(j.id) FROM big, json_each(big.doc) j",
    "SELECT json_group_array(j.id) FROM big, json_each(big.doc) j",
    "SELECT json_group_array(j.parent), json_group_array(j.id) FROM big, json_tree(big.doc) j",
    "SELECT count(DISTINCT j.id), count(DISTINCT j.parent), max(j.parent) FROM big, json_tree(big.doc) j",
    "SELECT big.id, sum(j.id), max(j.parent) FROM big, json_tree(big.doc) j GROUP BY big.id ORDER BY big.id",
    "SELECT big.id, max(j.id) FROM big, json_each(big.doc) j GROUP BY big.id HAVING max(j.id) > 100 ORDER BY big.id",
    "SELECT j.parent, count(*), max(j.id) FROM big, json_tree(big.doc) j GROUP BY j.parent ORDER BY j.parent",
    "SELECT j.id % 5, count(*), sum(j.id) FROM big, json_each(big.doc) j GROUP BY j.id % 5 ORDER BY 1",
    // The call before another join: its rows kept, the aggregate fed by the last join.
    "SELECT max(j.id), sum(j.id), count(*), count(DISTINCT j.id) FROM big, json_each(big.doc) j, u WHERE u.big_id = big.id",
    "SELECT u.id, max(j.parent), count(*) FROM big, json_tree(big.doc) j, u WHERE u.big_id = big.id GROUP BY u.id ORDER BY u.id",
    "SELECT big.id, (SELECT json_group_array(k.id) FROM big b3, json_each(b3.doc) k WHERE b3.id = big.id) FROM big ORDER BY big.id",
    "SELECT big.id, (SELECT max(k.parent) FROM big b3, json_tree(b3.doc) k WHERE b3.id = big.id) FROM big ORDER BY big.id",
  ]) {
    agree(sql, true);
  }
  for (const sql of [
    "SELECT DISTINCT j.id FROM big, json_each(big.doc) j",
    "SELECT DISTINCT j.parent FROM big, json_tree(big.doc) j",
    "SELECT big.id, j.id, j.parent FROM big, json_tree(big.doc) j",
    "SELECT big.id, j.id, u.id FROM big, json_each(big.doc) j, u WHERE u.big_id = big.id",
  ]) {
    agree(sql, false);
  }
});

test("LIMIT and OFFSET over joins: the first rows of the whole answer, the limit met", () => {
  for (const sql of [
    "SELECT a.id, b.id FROM a JOIN b ON b.a_id = a.id",
    "SELECT a.id, b.id FROM a LEFT JOIN b ON b.a_id = a.id WHERE b.k IS NULL OR b.k > 5",
    "SELECT a.id, b.id, c.id FROM a JOIN b ON b.a_id = a.id LEFT JOIN c ON c.b_id = b.id",
    "SELECT a.id, b.id FROM a RIGHT JOIN b ON b.a_id = a.id",
    "SELECT DISTINCT a.k, b.k FROM a JOIN b ON b.s = a.s",
    "SELECT DISTINCT j.value FROM docs, json_each(docs.tags) j",
  ]) {
    const all = rows(sql);
    assert.ok(all.length > 7, sql);
    for (const [limit, offset] of [[1, 0], [5, 0], [5, 7], [all.length, 1], [all.length + 3, 0]] as const) {
      assert.equal(rows(`${sql} LIMIT ${limit} OFFSET ${offset}`), all.slice(offset, offset + limit), `${sql} LIMIT ${limit} OFFSET ${offset}`);
    }
  }
  for (const sql of [
    "SELECT count(*) FROM a JOIN b ON b.a_id = a.id LIMIT 1 OFFSET 1",
    "SELECT count(*), sum(b.k) FROM a JOIN b ON b.a_id = a.id LIMIT 5",
    "SELECT a.k, count(*) FROM a JOIN b ON b.a_id = a.id GROUP BY a.k ORDER BY a.k LIMIT 2 OFFSET 1",
  ]) {
    agree(sql, true);
  }
});

test("correlated subqueries over joins, run once per row, each from fresh groups", () => {
  for (const sql of [
    "SELECT a.id, (SELECT count(*) FROM b JOIN c ON c.b_id = b.id WHERE b.a_id = a.id), (SELECT sum(c.v) FROM b JOIN c ON c.b_id = b.id WHERE b.a_id = a.id) FROM a ORDER BY a.id",
    "SELECT a.id, (SELECT count(*) FROM b LEFT JOIN c ON c.b_id = b.id WHERE b.a_id = a.id AND c.id IS NULL) FROM a ORDER BY a.id",
    "SELECT docs.id, (SELECT count(*) FROM json_each(docs.tags) j JOIN a ON a.s = j.value), (SELECT max(a.id) FROM json_each(docs.tags) j JOIN a ON a.s = j.value) FROM docs ORDER BY docs.id",
    "SELECT a.id, (SELECT group_concat(j.value) FROM docs, json_each(docs.tags) j WHERE docs.id = a.id) FROM a ORDER BY a.id",
    "SELECT sum((SELECT count(*) FROM b JOIN c ON c.b_id = b.id WHERE b.a_id = a.id)), count(*) FROM a JOIN b x ON x.a_id = a.id",
    "SELECT a.k, sum((SELECT count(*) FROM docs, json_each(docs.tags) j WHERE j.value = a.s)) FROM a JOIN b ON b.a_id = a.id GROUP BY a.k ORDER BY a.k",
  ]) {
    agree(sql, true);
  }
  agree("SELECT a.id FROM a WHERE EXISTS (SELECT 1 FROM b JOIN c ON c.b_id = b.id WHERE b.a_id = a.id AND c.v > 50)", false);
  agree("SELECT DISTINCT a.s FROM a JOIN b ON b.a_id = a.id WHERE b.k IN (SELECT count(*) FROM c JOIN b y ON y.id = c.b_id WHERE y.a_id = a.id)", false);
});

test.run();
