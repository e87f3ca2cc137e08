/**
 * Crash soak: the crash test's SIGKILL cycles, many more of them.
 * `npx tsx scripts/soak-crash.ts [cycles=500]`. Exits 1 on the first lost
 * acknowledged write or unreadable file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { bundleChild, crashCycle } from "../test/storage/helpers/crash-cycles.js";

const cycles = Number(process.argv[2] ?? 500);
const bundle = await bundleChild();
const dir = mkdtempSync(path.join(os.tmpdir(), "storedb-soak-"));
let acked = 0;
const started = Date.now();
for (let cycle = 0; cycle < cycles; cycle++) {
  const report = await crashCycle(bundle, dir, cycle * 1_000_000, Math.floor(Math.random() * 400));
  acked += report.acked;
  if (report.problems.length > 0 || report.lost.length > 0) {
    console.error(`cycle ${cycle}: ${JSON.stringify(report)} (data kept in ${dir})`);
    process.exit(1);
  }
  if ((cycle + 1) % 25 === 0) console.log(`${cycle + 1}/${cycles} cycles, ${acked} acknowledged writes, 0 lost, ${report.stored} rows stored`);
}
console.log(`done: ${cycles} cycles in ${((Date.now() - started) / 1000).toFixed(0)} s, ${acked} acknowledged writes, 0 lost, 0 unreadable files`);
rmSync(dir, { recursive: true, force: true });
rmSync(path.dirname(bundle), { recursive: true, force: true });
