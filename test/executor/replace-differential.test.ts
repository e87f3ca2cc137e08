/**
 * Differential test of INSERT OR REPLACE under foreign keys, against SQLite
 * with `foreign_keys = ON`: a parent with a primary and a unique key, one
 * child table that cascades and one that restricts, and random sequences
 * of replaces into the parent (rows that conflict on one key, the other,
 * both or neither), inserts into the children and deletes. Every statement
 * succeeds on both or fails on both, and after each one the three tables
 * hold the same rows (compared by key: SQLite orders a table by rowid).
 *
 * `DIFF_SEED` picks the run, `DIFF_SEQUENCES` how many sequences (default 100).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { Value } from "../../src/commands/types.js";
import { StoreError } from "../../src/errors.js";
import { Sqlite, normal, sqliteValue, type SqliteDatabase } from "./support/sqlite.js";

const RUN_SEED = Number(process.env["DIFF_SEED"] ?? 20261129);
const SEQUENCES = Number(process.env["DIFF_SEQUENCES"] ?? 100);

const SCHEMA = [
  "CREATE TABLE parent (id INTEGER PRIMARY KEY, code TEXT UNIQUE, note TEXT)",
  "CREATE TABLE kid (id INTEGER PRIMARY KEY, pid INTEGER REFERENCES parent (id) ON DELETE CASCADE)",
  "CREATE TABLE ward (id INTEGER PRIMARY KEY, pid INTEGER REFERENCES parent (id) ON DELETE RESTRICT)",
];
const TABLES = ["SELECT id, code, note FROM parent ORDER BY id", "SELECT id, pid FROM kid ORDER BY id", "SELECT id, pid FROM ward ORDER BY id"];

function generator(seed: number): (n: number) => number {
  let state = seed;
  return (n) => ((state = (state * 1103515245 + 12345) % 2147483648), Math.floor(state / 65536) % n);
}

const CODES = ["a", "b", "c", "d", null] as const;

function statement(rnd: (n: number) => number): { sql: string; params: Value[] } {
  switch (rnd(6)) {
    case 0:
    case 1:
    case 2: {
      const count = 1 + rnd(2);
      const params: Value[] = [];
      for (let i = 0; i < count; i++) params.push(rnd(6), CODES[rnd(CODES.length)]!, `n${rnd(9)}`);
      const verb = rnd(2) === 0 ? "REPLACE" : "INSERT OR REPLACE";
      return { sql: `${verb} INTO parent (id, code, note) VALUES ${Array.from({ length: count }, () => "(?, ?, ?)").join(", ")}`, params };
    }
    case 3:
      return { sql: `INSERT INTO ${rnd(3) === 0 ? "ward" : "kid"} (id, pid) VALUES (?, ?)`, params: [rnd(20), rnd(7)] };
    case 4:
      return { sql: `DELETE FROM ${["parent", "kid", "ward"][rnd(3)]} WHERE id = ?`, params: [rnd(20)] };
    default:
      return { sql: "DELETE FROM ward WHERE pid = ?", params: [rnd(6)] };
  }
}

function rowsOf(engine: Engine, db: SqliteDatabase, sql: string): { ours: string; theirs: string } {
  const result = engine.execute({ kind: "sql", sql, params: [] }).result;
  const mine = result.kind === "rows" ? (result.rows as Record<string, Value>[]).map((row) => Object.values(row).map(normal)) : [];
  return { ours: JSON.stringify(mine), theirs: JSON.stringify(db.prepare(sql).raw().all().map((row) => row.map(normal))) };
}

test(`${SEQUENCES} random sequences of replaces under foreign keys agree with SQLite (DIFF_SEED=${RUN_SEED})`, () => {
  let refused = 0;
  let cascaded = 0;
  for (let sequence = 0; sequence < SEQUENCES; sequence++) {
    const rnd = generator(RUN_SEED * 1000 + sequence);
    const engine = Engine.empty();
    const db = new Sqlite(":memory:");
    db.exec("PRAGMA foreign_keys = ON");
    for (const sql of SCHEMA) {
      engine.execute({ kind: "sql", sql, params: [] });
      db.exec(sql);
    }
    for (let step = 0; step < 25; step++) {
      const s = statement(rnd);
      const where = `DIFF_SEED=${RUN_SEED} sequence ${sequence} step ${step}: ${s.sql} ${JSON.stringify(s.params)}`;
      const kidsBefore = rowsOf(engine, db, TABLES[1]!).ours;
      let theirs: string | undefined;
      try {
        db.prepare(s.sql).run(...s.params.map(sqliteValue));
      } catch (error) {
        theirs = (error as Error).message;
      }
      try {
        engine.execute({ kind: "sql", sql: s.sql, params: s.params });
        assert.is(theirs, undefined, `${where}: SQLite refused what storedb ran`);
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        refused++;
        assert.ok(theirs !== undefined, `${where}: storedb refused what SQLite ran (${error.message})`);
      }
      for (const sql of TABLES) {
        const rows = rowsOf(engine, db, sql);
        assert.is(rows.ours, rows.theirs, `${where}: ${sql}`);
      }
      if (s.sql.includes("REPLACE") && rowsOf(engine, db, TABLES[1]!).ours !== kidsBefore) cascaded++;
    }
  }
  // The generator must exercise what it is for: restricts that refuse, cascades that delete.
  assert.ok(refused > SEQUENCES, `${refused} statements refused`);
  assert.ok(cascaded > SEQUENCES * 0.5, `${cascaded} replaces that cascaded`);
});

test.run();
