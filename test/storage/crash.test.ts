/** SIGKILL at random moments never loses an acknowledged write nor leaves an unreadable file. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DataDirectory } from "../../src/storage/data-directory.js";
import { bundleChild, crashCycle, startChild } from "./helpers/crash-cycles.js";

const CYCLES = 30;
let bundle = "";

test.before(async () => {
  bundle = await bundleChild();
});
test.after(() => rmSync(path.dirname(bundle), { recursive: true, force: true }));

test("a second process on a data directory fails at once; once the first is SIGKILLed it starts", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "storedb-second-"));
  try {
    const child = await startChild(bundle, dir, 0);
    const started = Date.now();
    try {
      await DataDirectory.open(dir);
      assert.unreachable("the directory is held by the child");
    } catch (error) {
      assert.match((error as Error).message, new RegExp(`in use by process ${child.pid} on `));
    }
    assert.ok(Date.now() - started < 1000, "at once");
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("close", resolve));
    const data = await DataDirectory.open(dir);
    assert.is((await data.execute("crash", { kind: "validate" })).kind, "validation");
    await data.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`${CYCLES} SIGKILL cycles: zero acknowledged writes lost, zero unreadable files`, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "storedb-crash-"));
  let acked = 0;
  try {
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const report = await crashCycle(bundle, dir, cycle * 1_000_000, 20 + Math.floor(Math.random() * 200));
      assert.equal(report.problems, [], `cycle ${cycle}`);
      assert.equal(report.lost, [], `cycle ${cycle}: acknowledged but lost`);
      acked += report.acked;
    }
    assert.ok(acked > CYCLES, `the children acknowledged writes (${acked})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
