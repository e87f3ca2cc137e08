/**
 * DataDirectory's open-database budget on real files: idle databases are
 * closed least recently used first — journal folded, lock released — and
 * open again on their next command with every acknowledged write; a
 * database with a command under way, a checkpoint in flight or a held
 * answer is never closed under it; the memory estimate closes by size.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "../../src/commands/types.js";
import type { Result } from "../../src/commands/results.js";
import { DataDirectory, type DataDirectoryOptions } from "../../src/storage/data-directory.js";
import { scanJournal } from "../../src/storage/journal-format.js";
import type { StorageObserver } from "../../src/storage/observer.js";
import { HEAP_PER_STORED_BYTE } from "../../src/storage/open-budget.js";
import { InstrumentedFs } from "./helpers/instrumented-fs.js";
import { documentFingerprint, removeDir, scratchDir, seed, threeUsers, until, usersTable } from "./helpers/scratch.js";

let dir = "";
test.before.each(() => {
  dir = scratchDir("evict");
});
test.after.each(() => removeDir(dir));

const file = (name: string) => path.join(dir, `${name}.store`);
const locked = (name: string) => existsSync(`${file(name)}-lock`);
const insert = (id: string): Command => ({ kind: "insert", table: "users", rows: [{ id, name: `user ${id}` }] });
const selectIds: Command = { kind: "select", table: "users", columns: ["id"], output: "arrays" };
const ids = (result: Result) => (result.kind === "rows" ? result.rows.map((row) => (row as string[])[0]) : []);
/** Checkpoints only when asked (or at close), so an eviction's close is what folds the journal. */
const QUIET = { idleMs: 60_000, journalBytes: 1 << 30 };

function counting(): StorageObserver & { evictions: number } {
  return {
    evictions: 0,
    loaded() {},
    persisted() {},
    checkpointed() {},
    checkpointFailed() {},
    evicted() {
      this.evictions += 1;
    },
  };
}

async function open(options: DataDirectoryOptions): Promise<DataDirectory> {
  return DataDirectory.open(dir, { checkpoints: QUIET, ...options });
}

test("past the count, idle databases close least recently used first: journal folded, lock released; the next command opens them again", async () => {
  const observer = counting();
  const data = await open({ budget: { databases: 2 }, observer });
  for (const name of ["a", "b"]) {
    await data.execute(name, usersTable);
    await data.execute(name, insert(`${name}1`));
  }
  assert.ok(locked("a") && locked("b"));
  await data.execute("a", selectIds); // a is now more recent than b
  await data.execute("c", usersTable);
  await until(() => !locked("b"));
  assert.ok(locked("a") && locked("c"), "a was used after b");
  assert.is(observer.evictions, 1);
  assert.is(data.gauges().openDatabases, 2);
  // The eviction folded b's journal into its document before letting go.
  assert.equal(JSON.parse(await documentFingerprint(file("b")))[0][1], [{ id: "b1", name: "user b1" }]);
  assert.is(scanJournal(readFileSync(`${file("b")}-journal`)).entries.filter((entry) => entry.kind === "changes").length, 0);

  // b opens again with everything it acknowledged, and takes writes; a (now least recent) makes room.
  assert.equal(ids(await data.execute("b", selectIds)), ["b1"]);
  await data.execute("b", insert("b2"));
  await until(() => !locked("a"));
  assert.equal(ids(await data.execute("b", selectIds)), ["b1", "b2"]);
  assert.equal(ids(await data.execute("a", selectIds)), ["a1"]);
  await until(() => data.gauges().openDatabases === 2);
  assert.is(observer.evictions, 3);
  await data.close();
  for (const name of ["a", "b", "c"]) assert.not.ok(locked(name), `${name} released at close`);
});

test("a command arriving while its database is being evicted waits for the close, then runs on the reopened database", async () => {
  await seed(dir, "a", [usersTable, threeUsers]);
  const fs = await InstrumentedFs.over(dir);
  const data = await open({ fs, budget: { databases: 1 } });
  await data.execute("a", insert("4"));
  // a's eviction folds its journal; hold the fold's document write so the close is under way.
  const fold = fs.pause("write", (name) => name.startsWith(".a.store.tmp-"));
  await data.execute("b", usersTable);
  await fold.reached;
  const during = data.execute("a", insert("5"));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(locked("a"), "a is still closing");
  fold.release();
  await during;
  assert.equal(ids(await data.execute("a", selectIds)), ["1", "2", "3", "4", "5"]);
  await data.close();
});

test("a database with a command under way is never evicted; it is once idle", async () => {
  await seed(dir, "a", [usersTable, threeUsers]);
  const fs = await InstrumentedFs.over(dir);
  const observer = counting();
  const data = await open({ fs, budget: { databases: 1 }, observer });
  await data.execute("a", selectIds);
  const append = fs.pause("append", (name) => name === "a.store-journal");
  const slow = data.execute("a", insert("4"));
  await append.reached;
  // A read queued behind the slow write keeps a busy too.
  const queued = data.execute("a", selectIds);
  for (const name of ["b", "c", "d"]) await data.execute(name, usersTable);
  await until(() => observer.evictions === 2);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.is(observer.evictions, 2, "b and c, not a");
  assert.is(data.gauges().openDatabases, 2, "a (busy) and d (the most recent)");
  append.release();
  assert.is((await slow).kind, "mutation");
  assert.equal(ids(await queued), ["1", "2", "3", "4"]);
  await until(() => !locked("a"), 3_000);
  assert.equal(ids(await data.execute("a", selectIds)), ["1", "2", "3", "4"]);
  await data.close();
});

test("a checkpoint in flight is never closed under; a held database stays open until released", async () => {
  await seed(dir, "a", [usersTable, threeUsers]);
  const fs = await InstrumentedFs.over(dir);
  const observer = counting();
  const data = await open({ fs, budget: { databases: 1 }, observer });
  await data.execute("a", insert("4"));
  const write = fs.pause("write", (name) => name.startsWith(".a.store.tmp-"));
  const checkpoint = data.execute("a", { kind: "checkpoint" });
  await write.reached;
  await data.execute("b", usersTable);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.is(observer.evictions, 0, "a is not closed under its checkpoint");
  write.release();
  assert.equal(await checkpoint, { kind: "checkpoint", journalRecords: 1 });
  await until(() => !locked("a"), 3_000);
  assert.is(observer.evictions, 1);

  await data.execute("a", selectIds);
  await until(() => !locked("b"));
  assert.is(observer.evictions, 2, "b made room for a");
  const release = data.hold("a");
  await data.execute("c", usersTable);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.is(observer.evictions, 2, "not the held a");
  assert.ok(locked("a"), "a held");
  release();
  await until(() => !locked("a"));
  assert.is(observer.evictions, 3);
  await data.close();
});

test("the memory budget closes by estimated size: stored bytes times the heap factor", async () => {
  const rows = Array.from({ length: 200 }, (_, i) => ({ id: `${i}`, name: "x".repeat(50) }));
  for (const name of ["a", "b", "c"]) await seed(dir, name, [usersTable, { kind: "insert", table: "users", rows }]);
  // Room for two of the three (each is the same size: document and the journal its close reset).
  const stored = (name: string) => readFileSync(file(name)).length + (existsSync(`${file(name)}-journal`) ? readFileSync(`${file(name)}-journal`).length : 0);
  const size = stored("a");
  assert.ok(stored("b") === size && stored("c") === size);
  const observer = counting();
  const budgeted = await open({ budget: { memoryBytes: Math.floor(2.5 * size * HEAP_PER_STORED_BYTE) }, observer });
  for (const name of ["a", "b"]) assert.is(ids(await budgeted.execute(name, selectIds)).length, 200);
  assert.is(budgeted.gauges().openDatabases, 2);
  assert.is(budgeted.gauges().storedBytes, 2 * size);
  await budgeted.execute("c", selectIds);
  await until(() => !locked("a"));
  assert.ok(locked("b") && locked("c"));
  assert.is(observer.evictions, 1);
  await budgeted.close();
});

test.run();
