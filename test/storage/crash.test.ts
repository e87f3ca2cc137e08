/** SIGKILL at random moments never loses an acknowledged write nor leaves an unreadable file. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { bundleChild, crashCycle } from "./helpers/crash-cycles.js";

const CYCLES = 30;

test(`${CYCLES} SIGKILL cycles: zero acknowledged writes lost, zero unreadable files`, async () => {
  const bundle = await bundleChild();
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
    rmSync(path.dirname(bundle), { recursive: true, force: true });
  }
});

test.run();
