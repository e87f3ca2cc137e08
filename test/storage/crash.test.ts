/**
 * SIGKILL of a real process at random moments — among journal appends
 * (through the thread pool, and the library's blocking ones), while
 * checkpoints run, and (the process killing itself) between a checkpoint's
 * rename and its journal reset — never loses an acknowledged
 * write, never applies one twice, never leaves an unreadable database.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DataDirectory } from "../../src/storage/data-directory.js";
import { bundleChild, crashCycle, startChild, type CrashMode } from "./helpers/crash-cycles.js";

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

const MODES: readonly [CrashMode, string][] = [
  ["appends", "during journal appends"],
  ["checkpoints", "while checkpoints run"],
  ["rename", "between a checkpoint's rename and its journal reset"],
  ["blocking", "during the library's blocking journal appends"],
];

for (const [mode, when] of MODES) {
  test(`${CYCLES} SIGKILL cycles ${when}: zero acknowledged writes lost, zero applied twice, zero unreadable databases`, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), `storedb-crash-${mode}-`));
    let acked = 0;
    let renamed = 0;
    try {
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const report = await crashCycle(bundle, dir, cycle * 1_000_000, 20 + Math.floor(Math.random() * 120), mode);
        assert.equal(report.problems, [], `cycle ${cycle}`);
        assert.equal(report.lost, [], `cycle ${cycle}: acknowledged but lost`);
        assert.equal(report.doubled, [], `cycle ${cycle}: applied twice`);
        acked += report.acked;
        if (report.renamed) renamed += 1;
      }
      assert.ok(acked > CYCLES, `the children acknowledged writes (${acked})`);
      if (mode === "rename") assert.ok(renamed >= CYCLES / 2, `most children died between rename and reset (${renamed})`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test.run();
