import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { nodeFs } from "../../src/storage/fs.js";
import type { StoreError } from "../../src/errors.js";
import { currentOwner, DatabaseLock, DirectoryLock, LOCK_NAME, processStart } from "../../src/storage/lock.js";
import type { LockOwner } from "../../src/storage/lock.js";

let dir = "";
test.before.each(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "storedb-lock-"));
});
test.after.each(() => {
  rmSync(dir, { recursive: true, force: true });
});

function plant(owner: LockOwner): void {
  writeFileSync(path.join(dir, LOCK_NAME), JSON.stringify(owner));
}

async function rejects(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  try {
    await promise;
  } catch (error) {
    assert.match((error as Error).message, pattern);
    return;
  }
  assert.unreachable("expected the lock to be refused");
}

test("one holder at a time; released locks can be taken again", async () => {
  const lock = await DirectoryLock.acquire(nodeFs, dir);
  const owner = JSON.parse(readFileSync(path.join(dir, LOCK_NAME), "utf8")) as LockOwner;
  assert.is(owner.pid, process.pid);
  await rejects(DirectoryLock.acquire(nodeFs, dir), /in use by this process/);
  await lock.release();
  const again = await DirectoryLock.acquire(nodeFs, dir);
  await again.release();
  assert.equal(readdirSync(dir), []);
});

test("a live process's lock is refused at once; after SIGKILL it is stale", async () => {
  const child = spawn("sleep", ["30"], { stdio: "ignore" });
  await new Promise((resolve) => child.once("spawn", resolve));
  const me = await currentOwner();
  const pid = child.pid!;
  plant({ ...me, pid, start: await processStart(pid) });
  const started = Date.now();
  await rejects(DirectoryLock.acquire(nodeFs, dir), new RegExp(`in use by process ${pid}`));
  assert.ok(Date.now() - started < 1000, "refused at once");
  child.kill("SIGKILL");
  await new Promise((resolve) => child.once("exit", resolve));
  const lock = await DirectoryLock.acquire(nodeFs, dir);
  assert.is((JSON.parse(readFileSync(path.join(dir, LOCK_NAME), "utf8")) as LockOwner).pid, process.pid);
  await lock.release();
});

test("same pid, another process instance (container pid 1 after a restart): stale", async () => {
  const me = await currentOwner();
  assert.ok(me.start !== null, "this platform has /proc");
  plant({ ...me, start: String(Number(me.start) - 1) });
  const lock = await DirectoryLock.acquire(nodeFs, dir);
  await lock.release();
});

test("a lock from another boot is stale", async () => {
  const me = await currentOwner();
  plant({ ...me, pid: 1, boot: "00000000-0000-0000-0000-000000000000" });
  const lock = await DirectoryLock.acquire(nodeFs, dir);
  await lock.release();
});

test("another host's lock: live while its heartbeat is fresh, stale once it stops", async () => {
  const me = await currentOwner();
  plant({ ...me, host: "other-container" });
  await rejects(DirectoryLock.acquire(nodeFs, dir), /in use by process \d+ on other-container/);
  const old = new Date(Date.now() - 60_000);
  utimesSync(path.join(dir, LOCK_NAME), old, old);
  const lock = await DirectoryLock.acquire(nodeFs, dir);
  await lock.release();
});

test("a damaged lock file is taken over, unless it may still be being written", async () => {
  writeFileSync(path.join(dir, LOCK_NAME), "{not json");
  await rejects(DirectoryLock.acquire(nodeFs, dir), /in use by another process taking it now/);
  const old = new Date(Date.now() - 60_000);
  utimesSync(path.join(dir, LOCK_NAME), old, old);
  const lock = await DirectoryLock.acquire(nodeFs, dir);
  await lock.release();
});

test("a file system without hard links: the lock is created exclusively", async () => {
  const noLinks = { ...nodeFs, link: () => Promise.reject(Object.assign(new Error("EPERM"), { code: "EPERM" })) };
  const lock = await DirectoryLock.acquire(noLinks, dir);
  assert.is((JSON.parse(readFileSync(path.join(dir, LOCK_NAME), "utf8")) as LockOwner).pid, process.pid);
  await rejects(DirectoryLock.acquire(noLinks, dir), /in use by this process/);
  await lock.release();
  assert.equal(readdirSync(dir), []);
});

test("a database's lock: database_locked at once while held (also by this process), its name never ends in .store", async () => {
  const document = path.join(dir, "shop.store");
  const lock = await DatabaseLock.acquire(nodeFs, document);
  assert.equal(readdirSync(dir), ["shop.store-lock"]);
  try {
    await DatabaseLock.acquire(nodeFs, document);
    assert.unreachable("held");
  } catch (error) {
    assert.is((error as StoreError).code, "database_locked");
    assert.match((error as Error).message, /being written by this process/);
  }
  await lock.release();
  const again = await DatabaseLock.acquire(nodeFs, document);
  await again.release();
  assert.equal(readdirSync(dir), []);
});

test.run();
