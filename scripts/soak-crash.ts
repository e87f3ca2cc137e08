/**
 * Crash soak: the crash test's SIGKILL cycles, many more of them, in turns
 * among journal appends (through the thread pool, and the library's
 * blocking ones), while checkpoints run, and between a checkpoint's
 * rename and its journal reset; then the transaction crash test's cycles
 * (transaction commands and library callbacks in turns).
 * `npx tsx scripts/soak-crash.ts [cycles=500] [transaction cycles=200]`.
 * Exits 1 on the first lost or doubled acknowledged write, transaction
 * present in part, or unreadable database.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { bundleChild, crashCycle, type CrashMode } from "../test/storage/helpers/crash-cycles.js";
import { transactionCrashCycle } from "../test/storage/helpers/transaction-cycles.js";

const MODES: readonly CrashMode[] = ["appends", "checkpoints", "rename", "blocking"];
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
  `done: ${cycles} cycles in ${((Date.now() - started) / 1000).toFixed(0)} s (appends, checkpoints, rename → reset, blocking appends in turns), ${acked} acknowledged writes, 0 lost, 0 doubled, 0 unreadable databases; ${renamed} children killed between a checkpoint's rename and its journal reset`,
);
rmSync(dir, { recursive: true, force: true });
rmSync(path.dirname(bundle), { recursive: true, force: true });

const txCycles = Number(process.argv[3] ?? 200);
const txBundle = await bundleChild("transaction-child");
const txDir = mkdtempSync(path.join(os.tmpdir(), "storedb-soak-tx-"));
let txAcked = 0;
const txStarted = Date.now();
for (let cycle = 0; cycle < txCycles; cycle++) {
  const mode = cycle % 2 === 0 ? "command" : "library";
  const report = await transactionCrashCycle(txBundle, txDir, cycle * 1_000_000, Math.floor(Math.random() * 400), mode);
  txAcked += report.acked;
  if (report.problems.length > 0 || report.lost.length > 0 || report.partial.length > 0) {
    console.error(`transaction cycle ${cycle} (${mode}): ${JSON.stringify(report)} (data kept in ${txDir})`);
    process.exit(1);
  }
  if ((cycle + 1) % 25 === 0) console.log(`${cycle + 1}/${txCycles} transaction cycles, ${txAcked} acknowledged, 0 lost, 0 in part, ${report.present} on disk`);
}
console.log(
  `done: ${txCycles} transaction cycles in ${((Date.now() - txStarted) / 1000).toFixed(0)} s (commands and library callbacks in turns), ${txAcked} acknowledged transactions, 0 lost, 0 present in part, 0 unreadable databases`,
);
rmSync(txDir, { recursive: true, force: true });
rmSync(path.dirname(txBundle), { recursive: true, force: true });
