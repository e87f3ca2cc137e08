/**
 * Checkpoints off the request path: while one writes the document, writes
 * and reads go on and are acknowledged (from the journal); one that fails
 * changes nothing and is retried; they run by size, after an idle spell and
 * at close (also beside blocking writes); and the journal after one holds
 * exactly what the document does not.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "../../src/commands/types.js";
import { Database } from "../../src/database.js";
import { DataDirectory } from "../../src/storage/data-directory.js";
import { scanJournal } from "../../src/storage/journal-format.js";
import type { StorageEvent } from "../../src/storage/persistence.js";
import { InstrumentedFs } from "./helpers/instrumented-fs.js";
import { documentFingerprint, fingerprint, outcome, removeDir, scratchDir, seed, threeUsers, until, usersTable } from "./helpers/scratch.js";

let dir = "";
let file = "";
test.before.each(() => {
  dir = scratchDir("checkpoint");
  file = path.join(dir, "shop.store");
});
test.after.each(() => removeDir(dir));

const insert = (id: string): Command => ({ kind: "insert", table: "users", rows: [{ id, name: `user ${id}` }] });
const documentIds = async (): Promise<string[]> => (JSON.parse(await documentFingerprint(file)) as [string, { id: string }[]][])[0]![1].map((r) => r.id);
const QUIET = { idleMs: 60_000, journalBytes: 1 << 30 };

test("while a checkpoint writes the document, writes are acknowledged and reads answered; the journal keeps exactly what the document does not hold", async () => {
  await seed(dir, "shop", [usersTable, threeUsers]);
  const fs = await InstrumentedFs.over(dir);
  const data = await DataDirectory.open(dir, { fs, checkpoints: QUIET });
  for (const id of ["4", "5"]) await data.execute("shop", insert(id));
  // The checkpoint's new document is held before its fsync: a slow disk.
  const release = fs.hold("fsync", (name) => name.startsWith(".shop.store.tmp-"));
  const checkpoint = data.execute("shop", { kind: "checkpoint" });
  await until(async () => fs.log.some((entry) => entry.startsWith("write .shop.store.tmp-")));
  let checkpointDone = false;
  void checkpoint.then(() => (checkpointDone = true));
  for (const id of ["6", "7", "8"]) assert.is(await outcome(data.execute("shop", insert(id))), "ok", `insert ${id} during the checkpoint`);
  const read = await data.execute("shop", { kind: "select", table: "users", columns: ["id"], output: "arrays" });
  assert.is(read.kind === "rows" ? read.rowCount : -1, 8);
  assert.not.ok(checkpointDone, "the checkpoint was still writing");
  release();
  assert.equal(await checkpoint, { kind: "checkpoint", journalRecords: 2 }, "it folded what was durable when it was asked for");
  assert.equal(await documentIds(), ["1", "2", "3", "4", "5"]);
  // The new journal continues the new document with the three writes made meanwhile.
  const scan = scanJournal(readFileSync(`${file}-journal`));
  assert.equal(scan.entries.filter((e) => e.kind === "changes").length, 3);
  const validation = await data.execute("shop", { kind: "validate" });
  assert.equal(validation.kind === "validation" ? validation.journal?.records : -1, 3);
  await data.close();
  assert.equal(JSON.parse(await fingerprint(file))[0][1].length, 8);
  assert.equal(await documentIds(), ["1", "2", "3", "4", "5", "6", "7", "8"], "close folded the rest");
});

test("a checkpoint writes its document in small chunks while the database's appends come in, and in large ones when none came for a second", async () => {
  await seed(dir, "shop", [usersTable, { kind: "insert", table: "users", rows: Array.from({ length: 8000 }, (_, i) => ({ id: `u${i}`, name: "n".repeat(60) })) }]);
  const fs = await InstrumentedFs.over(dir);
  const data = await DataDirectory.open(dir, { fs, checkpoints: QUIET });
  const chunks = () => fs.writes.filter((w) => w.name.startsWith(".shop.store.tmp-") && w.position !== 0).map((w) => w.bytes);
  await data.execute("shop", insert("busy"));
  await data.execute("shop", { kind: "checkpoint" });
  const busy = chunks();
  assert.ok(busy.length > 20 && Math.max(...busy) <= 16 * 1024, `16 KB chunks at most right after an append: ${busy.length} of up to ${Math.max(...busy)}`);
  fs.writes.length = 0;
  await data.execute("shop", insert("quiet"));
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  await data.execute("shop", { kind: "checkpoint" });
  const quiet = chunks();
  assert.ok(Math.max(...quiet) > 64 * 1024 && quiet.length < 10, `large chunks after a quiet second: ${quiet.length} of up to ${Math.max(...quiet)}`);
  assert.equal((await documentIds()).length, 8002);
  await data.close();
});

test("a checkpoint that fails changes nothing, answers the storage error, reports an event and is retried later", async () => {
  await seed(dir, "shop", [usersTable, threeUsers]);
  const fs = await InstrumentedFs.over(dir);
  const events: StorageEvent[] = [];
  const data = await DataDirectory.open(dir, { fs, checkpoints: { idleMs: 30, journalBytes: 1 << 30, retryMs: 30 }, onEvent: (e) => events.push(e) });
  await data.execute("shop", insert("4"));
  const document = readFileSync(file);
  const journal = readFileSync(`${file}-journal`);
  for (const [step, code] of [["write", "ENOSPC"], ["fsync", "EIO"], ["rename", "EIO"]] as const) {
    fs.inject(step, code, (name) => name.startsWith(".shop.store.tmp-") || name === "shop.store");
    assert.is(await outcome(data.execute("shop", { kind: "checkpoint" })), code === "ENOSPC" ? "insufficient_storage" : "storage_error", step);
    assert.ok(readFileSync(file).equals(document), `${step}: the document is unchanged`);
    assert.equal(scanJournal(readFileSync(`${file}-journal`)).entries.filter((e) => e.kind === "changes").length, 1, `${step}: the journal holds the write`);
  }
  // In the background: the idle checkpoint fails, is reported, and its retry succeeds.
  fs.inject("write", "EIO", (name) => name.startsWith(".shop.store.tmp-"));
  await data.execute("shop", insert("5"));
  await until(async () => (await documentIds()).includes("5"));
  assert.ok(events.some((e) => e.kind === "checkpoint-failed" && e.database === "shop"), JSON.stringify(events));
  assert.ok(journal.length > 0);
  await data.close();
});

test("checkpoints run by themselves: once the journal outgrows its share of the document, and after an idle spell", async () => {
  const bySize = await Database.open(file, { checkpoints: { idleMs: 60_000, journalBytes: 0, journalShare: 2 } });
  await bySize.execute(usersTable);
  await bySize.execute(threeUsers);
  // The document is a few hundred bytes: the journal passes twice that after a handful of writes.
  for (let i = 0; i < 20; i++) await bySize.execute(insert(`s${i}`));
  await until(async () => (await documentIds()).length > 3);
  await bySize.close();

  const idle = await Database.open(file, { checkpoints: { idleMs: 20, journalBytes: 1 << 30 } });
  await idle.execute(insert("idle"));
  // The document first, then (once the journal is reset) no records left in the journal.
  await until(async () => (await documentIds()).includes("idle"));
  await until(async () => {
    const validation = await idle.execute({ kind: "validate" });
    return validation.kind === "validation" && validation.journal?.records === 0;
  });
  await idle.close();
});

test("with blockingWrites, a caller awaiting write after write does not hold checkpoints off", async () => {
  const db = await Database.open(file, { blockingWrites: true, checkpoints: { idleMs: 60_000, journalBytes: 16 * 1024, journalShare: 0 } });
  await db.execute(usersTable);
  // Each append resolves on this thread, with no I/O to wait for; a checkpoint needs turns of the event loop.
  for (let i = 0; i < 2000; i++) await db.execute(insert(`b${i}`));
  const validation = await db.execute({ kind: "validate" });
  const records = validation.kind === "validation" ? (validation.journal?.records ?? -1) : -1;
  assert.ok(records >= 0 && records < 500, `checkpoints folded most of the 2,000 writes as they went (${records} left in the journal)`);
  await db.close();
  assert.is((await documentIds()).length, 2000);
});

test("many checkpoints under a stream of concurrent writes: every acknowledged write is there once, in order", async () => {
  const data = await DataDirectory.open(dir, { checkpoints: { idleMs: 5, journalBytes: 0, journalShare: 0.5 } });
  await data.execute("shop", usersTable);
  const acked: string[] = [];
  const writers = Array.from({ length: 4 }, async (_, w) => {
    for (let i = 0; i < 60; i++) {
      const id = `${w}-${i}`;
      await data.execute("shop", insert(id));
      acked.push(id);
      if (i % 15 === 0) await data.execute("shop", { kind: "checkpoint" });
    }
  });
  await Promise.all(writers);
  await data.close();
  const rows = JSON.parse(await fingerprint(file))[0][1] as { id: string }[];
  assert.equal(rows.map((r) => r.id).sort(), [...acked].sort());
  for (let w = 0; w < 4; w++) {
    const mine = rows.map((r) => r.id).filter((id) => id.startsWith(`${w}-`));
    assert.equal(mine, Array.from({ length: 60 }, (_, i) => `${w}-${i}`), "each writer's rows in its order");
  }
});

test.run();
