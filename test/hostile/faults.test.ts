/**
 * I/O faults on a running server: the data directory and a database's
 * journal (or one database's files, document and journal) are made
 * immutable with `chattr +i`, so every write fails with EPERM even for root. CONTRACT §2: a mutation that fails for any reason changes
 * nothing, in memory or on disk, and answers 500 `storage_error`; reads keep
 * working; once the fault clears, writes work again and the file is valid.
 *
 * Needs `chattr` on a file system that honours it (ext4 here) and the
 * capability to set the flag; elsewhere the suite is skipped, not passed.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { problemViolations } from "./support/problem.js";
import { loudHook, ServerProcess, type Reply } from "./support/server.js";

function chattr(flag: "+i" | "-i", target: string): void {
  execFileSync("chattr", [flag, target], { stdio: "ignore" });
}

function chattrWorks(): boolean {
  const probe = mkdtempSync(path.join(os.tmpdir(), "storedb-hostile-chattr-"));
  try {
    chattr("+i", probe);
    chattr("-i", probe);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const AVAILABLE = chattrWorks();
const SCHEMA = { name: "t", columns: { id: "integer", s: "text" }, primary_key: { columns: ["id"] } };
const ROWS = [{ id: 1, s: "a" }, { id: 2, s: "b" }];

const test = suite<{ server: ServerProcess }>("hostile/faults", {} as { server: ServerProcess });

test.before(
  loudHook(async (context) => {
    if (!AVAILABLE) return;
    context.server = await ServerProcess.start();
    for (const database of ["f1", "f2"]) {
      assert.is((await context.server.command({ database, command: { kind: "create-table", schema: SCHEMA } })).status, 200);
      assert.is((await context.server.command({ database, command: { kind: "insert", table: "t", rows: ROWS } })).status, 200);
    }
  }),
);

test.after(async (context) => {
  if (!context.server) return;
  const files = ["f1.store-journal", "f2.store", "f2.store-journal"].map((name) => path.join(context.server.dataDir, name));
  for (const target of [context.server.dataDir, ...files]) {
    try {
      chattr("-i", target);
    } catch {
      // already clear
    }
  }
  await context.server.stop();
});

/** Writes to the database under test (`self`), and one creating a new database (only fails when the directory is immutable). */
const WRITES: readonly [string, "self" | "new", Record<string, unknown>][] = [
  ["insert", "self", { kind: "insert", table: "t", rows: [{ id: 3, s: "c" }] }],
  ["update", "self", { kind: "update", table: "t", set: { s: "z" }, where: { type: "literal", value: true } }],
  ["delete", "self", { kind: "delete", table: "t", where: { type: "literal", value: true } }],
  ["sql insert", "self", { kind: "sql", sql: "INSERT INTO t (id, s) VALUES (4, 'd')" }],
  ["create-table", "self", { kind: "create-table", schema: { name: "u", columns: { id: "integer" } } }],
  ["drop-table", "self", { kind: "drop-table", table: "t" }],
  ["create a new database", "new", { kind: "create-table", schema: SCHEMA }],
];

async function expectFailedWrites(server: ServerProcess, database: string, includeNew: boolean): Promise<void> {
  const file = path.join(server.dataDir, `${database}.store`);
  const before = readFileSync(file);
  const journalBefore = readFileSync(`${file}-journal`);
  for (const [what, where, command] of WRITES.filter(([, w]) => w === "self" || includeNew)) {
    const target = where === "self" ? database : "f3";
    const reply: Reply = await server.command({ database: target, command }, { timeoutMs: 10_000 });
    const v = problemViolations(reply, { status: 500, codes: ["storage_error"], dataDir: server.dataDir });
    assert.equal(v, [], `${what} on ${target} while writes fail: ${reply.status} ${reply.text}`);
    const rows = await server.command({ database, command: { kind: "select", table: "t", columns: "*" } });
    assert.is(rows.status, 200, `reads keep working after a failed ${what}`);
    assert.equal((rows.json as { rows: unknown[] }).rows, ROWS, `a failed ${what} left memory unchanged`);
  }
  assert.ok(readFileSync(file).equals(before), "the file is unchanged");
  assert.ok(readFileSync(`${file}-journal`).equals(journalBefore), "the journal is unchanged");
  if (includeNew) {
    const missing = await server.command({ database: "f3", command: { kind: "validate" } });
    assert.is(missing.status, 404, `a failed create left no database behind: ${missing.text}`);
  }
}

async function expectWritesWork(server: ServerProcess, database: string): Promise<void> {
  const insert = await server.command({ database, command: { kind: "insert", table: "t", rows: [{ id: 9, s: "after" }] } });
  assert.is(insert.status, 200, `writes work again: ${insert.text}`);
  const valid = await server.command({ database, command: { kind: "validate" } });
  assert.ok((valid.json as { valid: boolean }).valid, valid.text);
  const del = await server.command({ database, command: { kind: "delete", table: "t", where: { type: "comparison", op: "=", left: { type: "identifier", name: "id" }, right: { type: "literal", value: 9 } } } });
  assert.is(del.status, 200);
}

(AVAILABLE ? test : test.skip)("an immutable data directory and journal: every write is a 500 storage_error that changes nothing; reads go on", async ({ server }) => {
  const journal = path.join(server.dataDir, "f1.store-journal");
  chattr("+i", server.dataDir);
  chattr("+i", journal);
  try {
    await expectFailedWrites(server, "f1", true);
  } finally {
    chattr("-i", journal);
    chattr("-i", server.dataDir);
  }
  await expectWritesWork(server, "f1");
  assert.ok(server.alive);
});

(AVAILABLE ? test : test.skip)("an immutable database (document and journal): writes to it fail cleanly, other databases are unaffected", async ({ server }) => {
  const files = ["f2.store", "f2.store-journal"].map((name) => path.join(server.dataDir, name));
  for (const file of files) chattr("+i", file);
  try {
    await expectFailedWrites(server, "f2", false);
    const other = await server.command({ database: "f1", command: { kind: "insert", table: "t", rows: [{ id: 5, s: "e" }] } });
    assert.is(other.status, 200, `another database still takes writes: ${other.text}`);
  } finally {
    for (const file of files) chattr("-i", file);
  }
  await expectWritesWork(server, "f2");
});

test.run();
