/**
 * Crash soak: the crash test's SIGKILL cycles, many more of them, in turns
 * among journal appends, while checkpoints run, and between a checkpoint's
 * rename and its journal reset. `npx tsx scripts/soak-crash.ts [cycles=500]`.
 * Exits 1 on the first lost or doubled acknowledged write or unreadable
 * database.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { bundleChild, crashCycle, type CrashMode } from "../test/storage/helpers/crash-cycles.js";

const MODES: readonly CrashMode[] = ["appends", "checkpoints", "rename"];
const cycles = Number(process.argv[2] ?? 500);
const bundle = await bundleChild();
const dir = mkdtempSync(path.join(os.tmpdir(), "storedb-soak-"));
let acked = 0;
let renamed = 0;
const started = Date.now();
for (let cycle = 0; cycle < cycles; cycle++) {
  const mode = MODES[cycle % MODES.length]!;
  const report = await crashCycle(bundle, dir, cycle * 1_000_000, Math.floor(Math.random() * 400), mode);
  acked += report.acked;
  if (report.renamed) renamed += 1;
  if (report.problems.length > 0 || report.lost.length > 0 || report.doubled.length > 0) {
    console.error(`cycle ${cycle} (${mode}): ${JSON.stringify(report)} (data kept in ${dir})`);
    process.exit(1);
  }
  if ((cycle + 1) % 25 === 0) console.log(`${cycle + 1}/${cycles} cycles, ${acked} acknowledged writes, 0 lost, 0 doubled, ${renamed} killed between rename and reset, ${report.stored} rows stored`);
}
console.log(
  `done: ${cycles} cycles in ${((Date.now() - started) / 1000).toFixed(0)} s (appends, checkpoints, rename → reset in turns), ${acked} acknowledged writes, 0 lost, 0 doubled, 0 unreadable databases; ${renamed} children killed between a checkpoint's rename and its journal reset`,
);
rmSync(dir, { recursive: true, force: true });
rmSync(path.dirname(bundle), { recursive: true, force: true });
