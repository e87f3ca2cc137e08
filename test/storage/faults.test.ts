/**
 * Fault injection at the fs layer: a persist that fails at any step, with
 * any of the errors a disk gives, answers the right code and leaves memory
 * and file exactly as they were, with no temp file behind.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DataDirectory } from "../../src/storage/data-directory.js";
import { LOCK_NAME } from "../../src/storage/lock.js";
import { InstrumentedFs } from "./helpers/instrumented-fs.js";
import type { Op } from "./helpers/instrumented-fs.js";
import { outcome, removeDir, scratchDir, seed, threeUsers, usersTable } from "./helpers/scratch.js";

const ERRORS: readonly [errno: string, code: string][] = [
  ["ENOSPC", "insufficient_storage"],
  ["EDQUOT", "insufficient_storage"],
  ["EIO", "storage_error"],
  ["EACCES", "storage_error"],
  ["EROFS", "storage_error"],
];
const STEPS: readonly Op[] = ["create", "chmod", "write", "fsync", "close", "rename", "fsyncDir"];

const select = { kind: "select", table: "users", columns: "*" } as const;

test("every error at every step of a persist: right code, memory and file unchanged, no temp left", async () => {
  const dir = scratchDir("faults");
  const file = path.join(dir, "shop.store");
  try {
    await seed(dir, "shop", [usersTable, threeUsers]);
    const original = readFileSync(file);
    const fs = await InstrumentedFs.over(dir);
    const data = await DataDirectory.open(dir, { fs });
    const rowsBefore = await data.execute("shop", select);
    let id = 100;
    for (const [errno, code] of ERRORS) {
      for (const step of STEPS) {
        fs.inject(step, errno, (name) => name.includes(".shop.store.tmp-") || name === "shop.store" || name === path.basename(dir));
        const result = await outcome(data.execute("shop", { kind: "insert", table: "users", rows: [{ id: String(id++), name: "x" }] }));
        assert.is(result, code, `${errno} at ${step}`);
        assert.equal(await data.execute("shop", select), rowsBefore, `${errno} at ${step}: memory`);
        assert.ok(readFileSync(file).equals(original), `${errno} at ${step}: file`);
        assert.equal(readdirSync(dir).sort(), [LOCK_NAME, "shop.store"], `${errno} at ${step}: temp files`);
      }
    }
    // The disk recovered: writes work again.
    assert.is(await outcome(data.execute("shop", { kind: "insert", table: "users", rows: [{ id: "ok", name: "fine" }] })), "ok");
    await data.close();
  } finally {
    removeDir(dir);
  }
});

test("when writing the old state back fails too, memory stays authoritative until the next commit rewrites the file", async () => {
  const dir = scratchDir("faults-restore");
  const file = path.join(dir, "shop.store");
  try {
    await seed(dir, "shop", [usersTable, threeUsers]);
    const fs = await InstrumentedFs.over(dir);
    const data = await DataDirectory.open(dir, { fs });
    const rowsBefore = await data.execute("shop", select);
    fs.inject("fsyncDir", "EIO"); // the commit's rename is in place, its durability unknown
    let writes = 0; // ...and the old state cannot be written back: the second write fails
    fs.inject("write", "ENOSPC", (name) => name.includes(".shop.store.tmp-") && ++writes === 2);
    assert.is(await outcome(data.execute("shop", { kind: "insert", table: "users", rows: [{ id: "lost", name: "x" }] })), "storage_error");
    assert.ok(readFileSync(file, "utf8").includes('"lost"'), "the failed change is still in the file");
    assert.equal(await data.execute("shop", select), rowsBefore, "but never served");
    assert.is(await outcome(data.execute("shop", { kind: "insert", table: "users", rows: [{ id: "kept", name: "y" }] })), "ok");
    const text = readFileSync(file, "utf8");
    assert.ok(text.includes('"kept"') && !text.includes('"lost"'), "the next commit rewrote the file whole");
    await data.close();
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
    for (const step of STEPS.filter((s) => s !== "chmod")) {
      const fs = await InstrumentedFs.over(dir);
      const data = await DataDirectory.open(dir, { fs });
      fs.inject(step, "ENOSPC", (name) => name.includes(".fresh.store.tmp-") || name === path.basename(dir));
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

test("a group whose persist fails: every mutation of it fails, what ran after it reruns on the restored state", async () => {
  const dir = scratchDir("faults-group");
  try {
    await seed(dir, "shop", [usersTable, threeUsers]);
    const fs = await InstrumentedFs.over(dir);
    const data = await DataDirectory.open(dir, { fs });
    await data.execute("shop", select);
    const release = fs.hold("fsync");
    const first = outcome(data.execute("shop", { kind: "insert", table: "users", rows: [{ id: "a", name: "first" }] }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    fs.inject("write", "EIO");
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
