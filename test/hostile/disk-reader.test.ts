/**
 * The audits' own reader of a database on disk (`support/disk.ts`) agrees
 * with storedb about every kind of journal entry — row changes, schema
 * changes that reshape rows, renames — and stops at a busy journal's zeros.
 * An audit whose reader lagged the format would report writes as lost (or
 * miss real losses), so its reader is checked against a real database.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Database } from "../../src/database.js";
import { databaseOnDisk } from "./support/disk.js";

async function rowsInMemory(db: Database): Promise<Map<string, Record<string, unknown>[]>> {
  const described = await db.execute({ kind: "describe" });
  const names = (described as unknown as { tables: { name: string }[] }).tables.map((t) => t.name);
  const out = new Map<string, Record<string, unknown>[]>();
  for (const name of names) {
    const answer = await db.sql(`SELECT * FROM ${name} ORDER BY id`);
    out.set(name, (answer as unknown as { rows: Record<string, unknown>[] }).rows);
  }
  return out;
}

test("every journal entry kind, read by the audit's reader, gives the rows storedb answers", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "disk-reader-"));
  const db = await Database.open(path.join(dir, "a.store"));
  try {
    await db.sql("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)");
    await db.sql("CREATE TABLE gone (id INTEGER PRIMARY KEY)");
    // Enough rows for the journal to pass 16 KiB and keep zeros ahead of its entries.
    for (let i = 0; i < 40; i++) {
      const values = Array.from({ length: 10 }, (_, k) => `(${i * 10 + k}, '${"x".repeat(40)}${i}')`).join(", ");
      await db.sql(`INSERT INTO t (id, name) VALUES ${values}`);
    }
    await db.sql("UPDATE t SET name = 'changed' WHERE id % 7 = 0");
    await db.sql("INSERT INTO t (id, name) VALUES (3, 'up'), (5000, 'new'), (4, 'up'), (5000, 'again') ON CONFLICT (id) DO UPDATE SET name = excluded.name");
    await db.sql("DELETE FROM t WHERE id % 5 = 1");
    await db.sql("ALTER TABLE t ADD COLUMN n INTEGER NOT NULL DEFAULT 7");
    await db.sql("CREATE INDEX by_name ON t (name)");
    await db.sql("DROP INDEX by_name");
    await db.sql("ALTER TABLE t DROP COLUMN name");
    await db.sql("ALTER TABLE t RENAME COLUMN n TO m");
    await db.sql("ALTER TABLE t RENAME TO u");
    await db.sql("DROP TABLE gone");
    await db.sql("INSERT INTO u (id, m) VALUES (100000, 1)");
    const journal = readFileSync(path.join(dir, "a.store-journal"));
    assert.ok(journal.length > 16 * 1024 && journal[journal.length - 1] === 0, "a journal with zeros ahead of its entries");
    assert.ok(journal.includes('{"kind":"write","table":"t","positions":') && journal.includes('"from":'), "write runs, with inserts and without");
    assert.equal([...databaseOnDisk(dir, "a")], [...(await rowsInMemory(db))]);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
