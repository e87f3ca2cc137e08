/**
 * Crash under load, long form: writers insert into several databases while
 * the server is killed with SIGKILL at a random moment, 20 times (or
 * `--cycles N`); after each restart every file must validate, every
 * acknowledged write must be present, nothing unsent may appear, and no
 * multi-row insert may be half applied. The cycle logic lives in
 * `test/hostile/support/crash.ts`, shared with the short run in `npm test`.
 *
 * Run: `npx tsx scripts/soak-crash-load.ts [--cycles N] [--writers N]`.
 */
import { rmSync } from "node:fs";
import { crashCycles } from "../test/hostile/support/crash.js";
import { tempDir } from "../test/hostile/support/server.js";

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`);
  return value;
}

const cycles = flag("cycles", 20);
const writers = flag("writers", 32);
const dataDir = tempDir("soak-crash");
const started = Date.now();
try {
  const f = await crashCycles({ cycles, writers, databases: 4, killAfterMs: [200, 3000], dataDir, log: (line) => console.log(`  ${line}`) });
  console.log(
    `crash-load: ${f.cycles} cycles survived in ${Math.round((Date.now() - started) / 1000)} s; ${f.acked}/${f.sent} inserts and ${f.deletesAcked} deletes acknowledged; ` +
      `acknowledged writes lost ${f.lost}; acknowledged deletes undone ${f.resurrected}; rows nobody sent ${f.unexpected}; torn multi-row inserts ${f.tornBatches}`,
  );
} catch (error) {
  console.error(`crash-load FAILED (data kept in ${dataDir}):`, error);
  process.exit(1);
}
rmSync(dataDir, { recursive: true, force: true });
