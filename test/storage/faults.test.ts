/**
 * Fault injection at the fs layer: a commit that fails at any step, with
 * any of the errors a disk gives, answers the right code and leaves memory
 * and disk exactly as they were, with no temp file behind — whether it
 * appends to a journal, starts one, or creates the database. An append that
 * failed halfway is cut back before anything follows it.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { DataDirectory } from "../../src/storage/data-directory.js";
import { scanJournal } from "../../src/storage/journal-format.js";
import { LOCK_NAME } from "../../src/storage/lock.js";
import { InstrumentedFs } from "./helpers/instrumented-fs.js";
import type { Op } from "./helpers/instrumented-fs.js";
import { fingerprint, outcome, removeDir, scratchDir, seed, threeUsers, usersTable } from "./helpers/scratch.js";

const ERRORS: readonly [errno: string, code: string][] = [
  ["ENOSPC", "insufficient_storage"],
  ["EDQUOT", "insufficient_storage"],
  ["EIO", "storage_error"],
  ["EACCES", "storage_error"],
  ["EROFS", "storage_error"],
];
/** The steps of starting a journal (its first append); an append to one in place is the `append` alone. */
const JOURNAL_STEPS: readonly Op[] = ["openJournal", "append", "rename", "fsyncDir"];
const CREATE_STEPS: readonly Op[] = ["create", "write", "fsync", "close", "rename", "fsyncDir"];

const select = { kind: "select", table: "users", columns: "*" } as const;
const insert = (id: string) => ({ kind: "insert", table: "users", rows: [{ id, name: "x" }] }) as const;
const journalOf = (dir: string) => path.join(dir, "shop.store-journal");

test("every error at every step of starting a journal: right code, memory and disk unchanged, no temp left, the next write works", async () => {
  for (const [errno, code] of ERRORS) {
    for (const step of JOURNAL_STEPS) {
      const dir = scratchDir("faults");
      const file = path.join(dir, "shop.store");
      const label = `${errno} at ${step}`;
      try {
        // The seed's close folded its journal into the document; without the journal, the first append starts one.
        await seed(dir, "shop", [usersTable, threeUsers]);
        rmSync(journalOf(dir));
        const fs = await InstrumentedFs.over(dir);
        const data = await DataDirectory.open(dir, { fs });
        const rowsBefore = await data.execute("shop", select);
        const onDisk = await fingerprint(file);
        fs.inject(step, errno, (name) => name.startsWith(".shop.store-journal.tmp-") || name === "shop.store-journal" || name === path.basename(dir));
        assert.is(await outcome(data.execute("shop", insert("failed"))), code, label);
        assert.equal(await data.execute("shop", select), rowsBefore, `${label}: memory`);
        assert.is(await fingerprint(file), onDisk, `${label}: disk`);
        // A journal renamed into place whose directory fsync failed may stay: with its header only.
        assert.equal(readdirSync(dir).filter((name) => name !== "shop.store-journal").sort(), [LOCK_NAME, "shop.store", "shop.store-lock"], `${label}: temp files`);
        assert.is(await outcome(data.execute("shop", insert("next"))), "ok", `${label}: the next write`);
        await data.close();
        const rows = JSON.parse(await fingerprint(file)) as [string, { id: string }[]][];
        assert.equal(rows[0]![1].map((row) => row.id), ["1", "2", "3", "next"], label);
      } finally {
        removeDir(dir);
      }
    }
  }
});

test("every error in an append to a journal in place, also one that wrote half its line: right code, nothing changed, the next append works", async () => {
  const dir = scratchDir("faults-append");
  const file = path.join(dir, "shop.store");
  try {
    await seed(dir, "shop", [usersTable, threeUsers]);
    const fs = await InstrumentedFs.over(dir);
    const data = await DataDirectory.open(dir, { fs });
    assert.is(await outcome(data.execute("shop", insert("start"))), "ok", "a journal in place");
    let id = 100;
    for (const [errno, code] of ERRORS) {
      for (const partial of [false, true]) {
        const rowsBefore = await data.execute("shop", select);
        const onDisk = await fingerprint(file);
        fs.inject("append", errno, (name) => name === "shop.store-journal", partial);
        assert.is(await outcome(data.execute("shop", insert(String(id++)))), code, `${errno}${partial ? " halfway" : ""}`);
        assert.equal(await data.execute("shop", select), rowsBefore, `${errno}: memory`);
        assert.is(await fingerprint(file), onDisk, `${errno}: disk`);
        // The next append first cuts what the failed one left: the journal stays a clean run of records.
        assert.is(await outcome(data.execute("shop", insert(String(id++)))), "ok");
        const scan = scanJournal(readFileSync(journalOf(dir)));
        assert.is(scan.damage, undefined);
        assert.is(scan.end, readFileSync(journalOf(dir)).length, "no bytes beyond the good records");
      }
    }
    await data.close();
  } finally {
    removeDir(dir);
  }
});

test("an append that failed halfway and whose cut fails too: every later write fails until the cut works", async () => {
  const dir = scratchDir("faults-cut");
  try {
    await seed(dir, "shop", [usersTable, threeUsers]);
    const fs = await InstrumentedFs.over(dir);
    const data = await DataDirectory.open(dir, { fs });
    assert.is(await outcome(data.execute("shop", insert("start"))), "ok");
    fs.inject("append", "EIO", (name) => name === "shop.store-journal", true);
    fs.inject("truncate", "EIO"); // the cut right after the failure
    fs.inject("truncate", "EIO"); // and the one before the next write
    assert.is(await outcome(data.execute("shop", insert("a"))), "storage_error");
    assert.is(await outcome(data.execute("shop", insert("b"))), "storage_error", "the cut failed: nothing may follow the broken line");
    assert.is(await outcome(data.execute("shop", insert("c"))), "ok", "the cut worked");
    await data.close();
    const rows = JSON.parse(await fingerprint(path.join(dir, "shop.store"))) as [string, { id: string }[]][];
    assert.equal(rows[0]![1].map((row) => row.id), ["1", "2", "3", "start", "c"]);
  } finally {
    removeDir(dir);
  }
});

test("a file that cannot be read answers storage_error and is read again on the next command", async () => {
  const dir = scratchDir("faults-read");
  try {
    await seed(dir, "shop", [usersTable, threeUsers]);
    const fs = await InstrumentedFs.over(dir);
    const data = await DataDirectory.open(dir, { fs });
    fs.inject("readFile", "EACCES", (name) => name === "shop.store");
    assert.is(await outcome(data.execute("shop", select)), "storage_error");
    assert.is(await outcome(data.execute("shop", select)), "ok");
    await data.close();
  } finally {
    removeDir(dir);
  }
});

test("a failed first write leaves no database behind", async () => {
  const dir = scratchDir("faults-new");
  try {
    for (const step of CREATE_STEPS) {
      const fs = await InstrumentedFs.over(dir);
      const data = await DataDirectory.open(dir, { fs });
      // The document's steps, not those of taking the database's lock before it (its own directory fsync comes first).
      let dirSyncs = 0;
      fs.inject(step, "ENOSPC", (name) => name.includes(".fresh.store.tmp-") || (name === path.basename(dir) && ++dirSyncs > 1));
      assert.is(await outcome(data.execute("fresh", usersTable)), "insufficient_storage", step);
      assert.is(await outcome(data.execute("fresh", select)), "database_not_found", step);
      assert.not.ok(existsSync(path.join(dir, "fresh.store")), step);
      await data.close();
      assert.equal(readdirSync(dir), [], step);
    }
  } finally {
    removeDir(dir);
  }
});

test("a group whose append fails: every mutation of it fails, what ran after it reruns on the restored state", async () => {
  const dir = scratchDir("faults-group");
  try {
    await seed(dir, "shop", [usersTable, threeUsers]);
    const fs = await InstrumentedFs.over(dir);
    const data = await DataDirectory.open(dir, { fs });
    await data.execute("shop", select);
    const release = fs.hold("append");
    const first = outcome(data.execute("shop", { kind: "insert", table: "users", rows: [{ id: "a", name: "first" }] }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    let appends = 0;
    fs.inject("append", "EIO", () => appends++ === 1); // not the held one: the next
    
    const group = [
      outcome(data.execute("shop", { kind: "insert", table: "users", rows: [{ id: "b", name: "x" }] })),
      outcome(data.execute("shop", { kind: "insert", table: "users", rows: [{ id: "b", name: "dup" }] })),
      data.execute("shop", { kind: "select", table: "users", columns: ["id"], output: "arrays" }),
      outcome(data.execute("shop", { kind: "insert", table: "users", rows: [{ id: "c", name: "y" }] })),
    ] as const;
    release();
    assert.is(await first, "ok");
    assert.is(await group[0], "storage_error");
    // The duplicate was judged against a row that never became durable: it reran, and now succeeds.
    assert.is(await group[1], "ok");
    const read = await group[2];
    assert.equal(read.kind === "rows" ? read.rows : null, [["1"], ["2"], ["3"], ["a"], ["b"]]);
    assert.is(await group[3], "storage_error", "a mutation of the failed group");
    await data.close();
  } finally {
    removeDir(dir);
  }
});

test.run();
