/**
 * Differential test of deletes that cascade within their own table, against
 * SQLite with `foreign_keys = ON`: random forests (a parent may come after
 * its child, and parents may form a loop) in a table whose rows reference
 * rows of itself `ON DELETE CASCADE`, a second table cascading from it, and
 * deletes whose WHERE matches ancestors, descendants or both. SQLite deletes
 * the matched rows one by one in rowid order and skips a row an earlier
 * row's cascade took, so such a row is neither in `changes()` nor in
 * RETURNING; storedb's `rowsAffected` and RETURNING must say the same (rows
 * are inserted in id order, so storedb's table order is SQLite's rowid
 * order), and both must hold the same rows after each delete.
 *
 * `DIFF_SEED` picks the run, `DIFF_SEQUENCES` how many sequences (default 200).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { Value } from "../../src/commands/types.js";
import { answer, generator, ours } from "./support/sql-generator.js";
import { Sqlite, normal, sqliteValue } from "./support/sqlite.js";

const RUN_SEED = Number(process.env["DIFF_SEED"] ?? 20261130);
const SEQUENCES = Number(process.env["DIFF_SEQUENCES"] ?? 200);

const SCHEMA = [
  "CREATE TABLE n (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES n (id) ON DELETE CASCADE, v INTEGER)",
  "CREATE TABLE leaf (id INTEGER PRIMARY KEY, nid INTEGER REFERENCES n (id) ON DELETE CASCADE)",
];
const TABLES = ["SELECT id, parent, v FROM n ORDER BY id", "SELECT id, nid FROM leaf ORDER BY id"];
const SIZE = 14;

const RETURNING = ["", " RETURNING id", " RETURNING id, parent, v"] as const;
/** A delete's FROM (with an alias or not), WHERE and parameters. */
interface Deletion {
  readonly from: string;
  readonly where: string;
  readonly params: Value[];
}

function deletion(rnd: (n: number) => number): Deletion {
  switch (rnd(6)) {
    case 0:
      return { from: "n", where: " WHERE v > ?", params: [rnd(5)] };
    case 1:
      return { from: "n", where: " WHERE v % 3 = ?", params: [rnd(3)] };
    case 2:
      return { from: "n AS x", where: " WHERE x.parent IS NOT NULL AND x.v < ?", params: [rnd(5)] };
    case 3:
      // Parents of some rows: ancestors met after their descendants as often as before.
      return { from: "n", where: " WHERE id IN (SELECT parent FROM n WHERE v = ?)", params: [rnd(5)] };
    case 4:
      return { from: "n", where: " WHERE id > ?", params: [rnd(SIZE)] };
    default:
      return { from: "n", where: "", params: [] };
  }
}

test(`${SEQUENCES} random deletes cascading within their table agree with SQLite on rowsAffected and RETURNING (DIFF_SEED=${RUN_SEED})`, () => {
  let taken = 0;
  for (let sequence = 0; sequence < SEQUENCES; sequence++) {
    const rnd = generator(RUN_SEED * 1000 + sequence);
    const engine = Engine.empty();
    const db = new Sqlite(":memory:");
    db.exec("PRAGMA foreign_keys = ON");
    const run = (sql: string, params: readonly Value[]) => {
      db.prepare(sql).run(...params.map(sqliteValue));
      engine.execute({ kind: "sql", sql, params });
    };
    for (const sql of SCHEMA) run(sql, []);
    // One statement each: a parent may be a later row, checked at the statement's end in both.
    const nodes: Value[] = [];
    for (let id = 1; id <= SIZE; id++) nodes.push(id, rnd(3) === 0 ? null : 1 + rnd(SIZE), rnd(5));
    run(`INSERT INTO n (id, parent, v) VALUES ${Array.from({ length: SIZE }, () => "(?, ?, ?)").join(", ")}`, nodes);
    const leaves: Value[] = [];
    for (let id = 1; id <= 6; id++) leaves.push(100 + id, 1 + rnd(SIZE));
    run(`INSERT INTO leaf (id, nid) VALUES ${Array.from({ length: 6 }, () => "(?, ?)").join(", ")}`, leaves);

    for (let step = 0; step < 3; step++) {
      const d = deletion(rnd);
      const sql = `DELETE FROM ${d.from}${d.where}${RETURNING[rnd(RETURNING.length)]!}`;
      const where = `DIFF_SEED=${RUN_SEED} sequence ${sequence} step ${step}: ${sql} ${JSON.stringify(d.params)}`;
      const params = d.params.map(sqliteValue);
      const matched = Number(db.prepare(`SELECT count(*) FROM ${d.from}${d.where}`).raw().all(...params)[0]![0]);
      const prepared = db.prepare(sql);
      const theirs = prepared.reader ? answer(prepared.raw().all(...params)) : (prepared.run(...params), undefined);
      const changes = Number(db.prepare("SELECT changes()").raw().all()[0]![0]);
      const result = engine.execute({ kind: "sql", sql, params: d.params }).result;
      assert.is(result.kind === "mutation" ? result.rowsAffected : undefined, changes, `${where}: rowsAffected`);
      assert.is(ours(result), theirs, `${where}: RETURNING`);
      for (const table of TABLES) {
        const mine = engine.execute({ kind: "sql", sql: table, params: [] }).result;
        const rows = mine.kind === "rows" ? (mine.rows as Record<string, Value>[]).map((row) => Object.values(row).map(normal)) : [];
        assert.is(JSON.stringify(rows), JSON.stringify(db.prepare(table).raw().all().map((row) => row.map(normal))), `${where}: ${table}`);
      }
      if (changes < matched) taken++;
    }
  }
  // The generator must exercise what it is for: matched rows a cascade took first.
  assert.ok(taken > SEQUENCES * 0.5, `${taken} deletes met a row a cascade had taken`);
});

test.run();
