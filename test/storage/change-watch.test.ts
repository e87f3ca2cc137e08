/**
 * ChangeWatch on a real directory, and what it buys: a loaded database whose
 * file nobody touches is served without a stat per command, while an edit
 * made before a command arrives is still seen by it (the HTTP test in
 * test/server/http.test.ts shows it for requests sent right after an edit).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "../../src/commands/types.js";
import { ChangeWatch } from "../../src/storage/change-watch.js";
import { DataDirectory } from "../../src/storage/data-directory.js";
import { nodeFs, type FileSystem } from "../../src/storage/fs.js";
import { InstrumentedFs } from "./helpers/instrumented-fs.js";
import { removeDir, scratchDir, seed, threeUsers, usersTable } from "./helpers/scratch.js";

let dir = "";
test.before.each(() => {
  dir = scratchDir("watch");
});
test.after.each(() => removeDir(dir));

/** One turn of the event loop: the poll phase delivers pending watch events. */
const turn = () => new Promise((resolve) => setTimeout(resolve, 20));

test("a .store file's version moves when it is written or replaced; other names move nothing", async () => {
  const watch = ChangeWatch.start(nodeFs, dir, 60_000);
  try {
    const start = watch.version("shop.store");
    assert.type(start, "number");
    writeFileSync(path.join(dir, "notes.txt"), "x");
    writeFileSync(path.join(dir, ".shop.store.tmp-1-1"), "x");
    await turn();
    assert.is(watch.version("shop.store"), start, "temp and other files are no database");
    writeFileSync(path.join(dir, "shop.store"), "{}");
    await turn();
    const written = watch.version("shop.store");
    assert.ok(written! > start!, "written");
    assert.is(watch.version("other.store"), start, "another database is not concerned");
    writeFileSync(path.join(dir, "incoming"), "{}");
    renameSync(path.join(dir, "incoming"), path.join(dir, "shop.store"));
    await turn();
    assert.ok(watch.version("shop.store")! > written!, "replaced");
  } finally {
    watch.close();
  }
  assert.is(watch.version("shop.store"), undefined, "a closed watch vouches for nothing");
});

test("the periodic re-check moves every version, so a missed event costs at most one interval", async () => {
  const watch = ChangeWatch.start(nodeFs, dir, 25);
  try {
    const start = watch.version("shop.store")!;
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.ok(watch.version("shop.store")! > start);
    assert.ok(watch.version("never-written.store")! > start);
  } finally {
    watch.close();
  }
});

test("without a watch (the file system refuses one) versions are unknown, so callers look at the file", () => {
  const refusing: FileSystem = {
    ...nodeFs,
    watch() {
      throw Object.assign(new Error("ENOSPC: inotify watch limit reached"), { code: "ENOSPC" });
    },
  };
  const watch = ChangeWatch.start(refusing, dir);
  assert.is(watch.version("shop.store"), undefined);
  watch.close();
});

test("DataDirectory: an untouched file is not stat'ed per command; an edit before a command arrives is seen by it", async () => {
  await seed(dir, "shop", [usersTable, threeUsers]);
  const fs = await InstrumentedFs.over(dir);
  const data = await DataDirectory.open(dir, { fs });
  const select: Command = { kind: "select", table: "users", columns: ["id"], output: "arrays" };
  const rows = async () => {
    const result = await data.execute("shop", select);
    if (result.kind !== "rows") throw new Error(`not rows: ${result.kind}`);
    return result.rows;
  };
  try {
    assert.is((await rows()).length, 3);
    await turn();
    await data.execute("shop", select); // confirms the file once after loading
    const stats = () => fs.log.filter((entry) => /^l?stat /.test(entry)).length;
    const before = stats();
    for (let i = 0; i < 200; i++) await data.execute("shop", select);
    assert.is(stats(), before, "200 reads of an untouched file: no stat");

    writeFileSync(path.join(dir, "incoming"), '{"format":"storedb/1","tables":{"users":{"schema":{"columns":{"id":"text","name":"text"},"name":"users","primary_key":{"columns":["id"]}},"rows":[{"id":"x"}]}}}');
    renameSync(path.join(dir, "incoming"), path.join(dir, "shop.store"));
    await turn(); // as a request from a client arrives: in a poll that starts after the edit
    assert.equal(await rows(), [["x"]], "replaced");
    writeFileSync(path.join(dir, "shop.store"), '{"format":"storedb/1","tables":{"users":{"schema":{"columns":{"id":"text","name":"text"},"name":"users","primary_key":{"columns":["id"]}},"rows":[{"id":"y"},{"id":"z"}]}}}');
    await turn();
    assert.equal(await rows(), [["y"], ["z"]], "edited in place");
  } finally {
    await data.close();
  }
});

test.run();
