/**
 * Differential test of UPDATE … FROM (and WITH before it) against SQLite
 * (better-sqlite3, in memory): random sequences of updates joining the
 * table with another table — several of whose rows may match one row —, a
 * grouped derived table, a WITH table, a join of two sources, a LEFT JOIN,
 * and the table itself under an alias, with RETURNING or not, interleaved
 * with inserts and deletes that change which rows match. A CHECK makes
 * some updates fail partway through their rows. Every statement succeeds
 * on both or fails on both, RETURNING answers agree (as multisets), and
 * after each statement both hold the same rows — so a failing update
 * changed nothing on either.
 *
 * Which of several matches a row takes its values from is SQLite's
 * arbitrary pick (the last in its plan's order, which an automatic covering
 * index sorts by the columns it covers) and storedb's last in table order:
 * so the statements that match a row several times set values that do not
 * depend on the pick (`n = items.n + 1`: once, not once per match), and the
 * others match each row once at most (a key, or a grouped derived table).
 *
 * `DIFF_SEED` picks the run (default fixed) and `DIFF_SEQUENCES` how many
 * sequences (default 120).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { Value } from "../../src/commands/types.js";
import { generator, theirs, writeBoth, type Statement } from "./support/sql-generator.js";
import { Sqlite, normal, type SqliteDatabase } from "./support/sqlite.js";

const RUN_SEED = Number(process.env["DIFF_SEED"] ?? 20261204);
const SEQUENCES = Number(process.env["DIFF_SEQUENCES"] ?? 120);

const SCHEMA = [
  "CREATE TABLE items (id INTEGER PRIMARY KEY, k INTEGER, n INTEGER NOT NULL, note TEXT, CHECK (n < 60))",
  "CREATE TABLE src (id INTEGER PRIMARY KEY, k INTEGER, x INTEGER, tag TEXT)",
];
const ALL = ["SELECT id, k, n, note FROM items ORDER BY id", "SELECT id, k, x, tag FROM src ORDER BY id"];

const RETURNING = ["", " RETURNING *", " RETURNING id, n", " RETURNING id, n + 1 AS next, note"] as const;

function statement(rnd: (n: number) => number, nextSrc: () => number): Statement {
  const returning = RETURNING[rnd(RETURNING.length)]!;
  switch (rnd(9)) {
    case 0:
      return { sql: `UPDATE items SET n = items.n + 7 FROM src WHERE src.k = items.k AND src.x > ?${returning}`, params: [rnd(40)] };
    case 1:
      return { sql: `UPDATE items SET n = items.n + src.x, note = src.tag FROM src WHERE src.id = items.k + ? AND src.x > ?${returning}`, params: [rnd(8), rnd(30)] };
    case 2:
      return { sql: `UPDATE items SET n = g.m FROM (SELECT k, max(x) AS m, count(*) AS c FROM src GROUP BY k) AS g WHERE g.k = items.k AND g.c > ?${returning}`, params: [rnd(2)] };
    case 3:
      return { sql: `WITH w AS (SELECT k, min(x) * 2 AS y FROM src WHERE x < ? GROUP BY k) UPDATE items SET n = w.y FROM w WHERE w.k = items.k${returning}`, params: [10 + rnd(30)] };
    case 4:
      return { sql: `UPDATE items SET note = a.tag || b.tag FROM src AS a JOIN src AS b ON b.id = a.id + 1 WHERE a.id = items.id${returning}`, params: [] };
    case 5:
      // One tuple per row at most: which of several a LEFT JOIN makes SQLite takes last depends on its plan.
      return { sql: `UPDATE items SET n = coalesce(b.x, ?) FROM src AS a LEFT JOIN src AS b ON b.id = a.x WHERE a.id = items.k${returning}`, params: [rnd(70)] };
    case 6:
      return { sql: `UPDATE items AS i SET n = o.n + 1, note = o.note FROM items AS o WHERE o.id = i.k${returning}`, params: [] };
    case 7:
      return { sql: "INSERT INTO src (id, k, x, tag) VALUES (?, ?, ?, ?)", params: [nextSrc(), rnd(6), rnd(40), ["p", "q", "r", null][rnd(4)]!] };
    default:
      return rnd(2) === 0
        ? { sql: "DELETE FROM src WHERE k = ?", params: [rnd(6)] }
        : { sql: "INSERT OR REPLACE INTO items (id, k, n, note) VALUES (?, ?, ?, NULL)", params: [rnd(10), rnd(6), rnd(20)] };
  }
}

function tables(engine: Engine, db: SqliteDatabase): { ours: string; theirs: string } {
  const mine = ALL.map((sql) => {
    const result = engine.execute({ kind: "sql", sql, params: [] }).result;
    return result.kind === "rows" ? (result.rows as Record<string, Value>[]).map((row) => Object.values(row).map(normal)) : [];
  });
  return { ours: JSON.stringify(mine), theirs: JSON.stringify(ALL.map((sql) => db.prepare(sql).raw().all().map((row) => row.map(normal)))) };
}

test(`${SEQUENCES} random UPDATE … FROM sequences agree with SQLite, RETURNING answers and rows (DIFF_SEED=${RUN_SEED})`, () => {
  let updated = 0;
  let failed = 0;
  for (let sequence = 0; sequence < SEQUENCES; sequence++) {
    const rnd = generator(RUN_SEED * 1000 + sequence);
    let srcId = 0;
    const nextSrc = (): number => ++srcId;
    const engine = Engine.empty();
    const db = new Sqlite(":memory:");
    for (const sql of SCHEMA) {
      engine.execute({ kind: "sql", sql, params: [] });
      db.exec(sql);
    }
    for (let id = 0; id < 10; id++) {
      const s: Statement = { sql: "INSERT INTO items (id, k, n, note) VALUES (?, ?, ?, ?)", params: [id, rnd(6), rnd(20), null] };
      engine.execute({ kind: "sql", sql: s.sql, params: s.params });
      theirs(db, s);
      const t: Statement = { sql: "INSERT INTO src (id, k, x, tag) VALUES (?, ?, ?, ?)", params: [nextSrc(), rnd(6), rnd(40), ["p", "q", null][rnd(3)]!] };
      engine.execute({ kind: "sql", sql: t.sql, params: t.params });
      theirs(db, t);
    }
    for (let step = 0; step < 14; step++) {
      const where = `DIFF_SEED=${RUN_SEED} sequence ${sequence} step ${step}`;
      const s = statement(rnd, nextSrc);
      const { mine, got, refused } = writeBoth(engine, db, s, where);
      if (refused !== undefined) {
        failed++;
        const rows = tables(engine, db);
        assert.is(rows.ours, rows.theirs, `${where}: the rows after a refusal`);
        continue;
      }
      assert.is(got.error, undefined, `${where}: SQLite refused what storedb ran\n  ${s.sql} ${JSON.stringify(s.params)}`);
      assert.is(mine, got.answer, `${where}: RETURNING\n  ${s.sql} ${JSON.stringify(s.params)}`);
      if (s.sql.startsWith("UPDATE") || s.sql.startsWith("WITH")) updated++;
      const rows = tables(engine, db);
      assert.is(rows.ours, rows.theirs, `${where}: the rows\n  ${s.sql} ${JSON.stringify(s.params)}`);
    }
  }
  // It must exercise what it is for: updates run, and updates refused partway.
  assert.ok(updated > SEQUENCES * 4, `${updated} updates ran`);
  assert.ok(failed > SEQUENCES * 0.3, `${failed} statements refused`);
});

test.run();
