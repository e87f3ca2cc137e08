/**
 * `npm run soak`: the long forms of the hostile suites (`npm test` runs the
 * short ones), against real server processes:
 *
 *   fuzz     5 properties × 4,000 generated cases (selects and joins checked
 *            against the reference evaluator; valid / near-valid / garbage
 *            envelopes; mutated SQL; hostile .store files; insert/update/
 *            delete sequences against a model), fresh random seeds; a
 *            failing case is kept in test/hostile/fixtures/ and replayed by
 *            `npm test` from then on
 *   paths    the path-safety suite (every hostile name)
 *   faults   I/O faults (immutable data dir / file): writes fail cleanly
 *   abuse    the abuse limits with a 1,000,000-row select, and slow bodies
 *   load     64 connections of mixed reads and writes for 60 s, then the
 *            on-disk audit of every acknowledged write
 *   crash    scripts/soak-crash-load.ts: 20 kill -9 cycles under load
 *   eviction 5,000 databases of 100 rows opened in turn over HTTP under a
 *            budget of 200 open ones: the server's RSS growth, then every
 *            database read again (test/hostile/eviction.test.ts; npm test
 *            runs 1,000)
 *   storage  scripts/soak-crash.ts: 500 SIGKILL cycles of the storage layer
 *            alone (single and grouped acknowledged writes; among journal
 *            appends, while checkpoints run, and between a checkpoint's
 *            rename and its journal reset, in turns), then 200 of processes
 *            writing transactions (commands and library callbacks)
 *
 * `npm run soak -- fuzz load` runs only those parts. Options by environment:
 * SOAK_FUZZ_RUNS (per property, default 4000), SOAK_SEED, SOAK_LOAD_SECONDS.
 * Prints one figure line per part and exits 1 if any part failed.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { slowloris } from "../test/hostile/support/abuse.js";
import { saveFixture } from "../test/hostile/support/fixtures.js";
import { MUTATE_DB, READ_DB, runProperty, seedDatabase } from "../test/hostile/support/fuzz.js";
import { runLoad } from "../test/hostile/support/load.js";
import { ROOT, ServerProcess } from "../test/hostile/support/server.js";

const PARTS = ["fuzz", "paths", "faults", "abuse", "load", "crash", "eviction", "storage"] as const;
type Part = (typeof PARTS)[number];

const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : [...PARTS];
for (const part of chosen) if (!(PARTS as readonly string[]).includes(part)) throw new Error(`unknown part ${part}; parts: ${PARTS.join(", ")}`);

const figures: string[] = [];
let failed = 0;

function child(script: string, env: Record<string, string> = {}): boolean {
  const run = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, script)], { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...env } });
  return run.status === 0;
}

async function fuzz(): Promise<void> {
  const runs = Number(process.env.SOAK_FUZZ_RUNS ?? 4000);
  const seed = Number(process.env.SOAK_SEED ?? Date.now() % 2 ** 31);
  const server = await ServerProcess.start();
  try {
    await seedDatabase(server, READ_DB);
    await seedDatabase(server, MUTATE_DB);
    let total = 0;
    for (const property of ["select", "request", "sql", "file", "model"] as const) {
      const started = Date.now();
      const result = await runProperty(server, property, runs, seed);
      total += result.runs;
      if (result.failure) {
        failed += 1;
        const file = saveFixture(result.failure.fixture, result.failure.seed);
        console.error(`fuzz ${property} FAILED (seed ${result.failure.seed}), kept as test/hostile/fixtures/${file}:\n${result.failure.message}`);
      }
      console.log(`  fuzz ${property}: ${result.runs} cases in ${Math.round((Date.now() - started) / 1000)} s (seed ${seed})`);
    }
    if (!server.alive) failed += 1;
    figures.push(`fuzz: ${total} generated cases in ${server.requests} HTTP requests (checks included), seed ${seed}, server alive: ${server.alive}`);
  } finally {
    await server.stop();
  }
}

async function load(): Promise<void> {
  const seconds = Number(process.env.SOAK_LOAD_SECONDS ?? 60);
  const server = await ServerProcess.start();
  try {
    const f = await runLoad(server, { connections: 64, seconds, databases: 4 });
    const ok = f.errors === 0 && f.non2xx === 0 && f.lost === 0 && f.unexpected === 0;
    if (!ok) failed += 1;
    figures.push(
      `load: ${seconds} s × 64 connections, ${f.requests} requests (${Math.round(f.perSecond)}/s), errors ${f.errors}, non-2xx ${f.non2xx}, ` +
        `p50 ${f.p50} ms, p99 ${f.p99} ms, max ${f.max} ms; writes acknowledged ${f.writesAcked}/${f.writesSent}, lost ${f.lost}, unexpected ${f.unexpected}; ` +
        `server RSS ${Math.round(f.rssBeforeMiB)} → ${Math.round(f.rssAfterMiB)} MiB`,
    );
  } finally {
    await server.stop();
  }
}

const RUNNERS: Record<Part, () => Promise<void>> = {
  fuzz,
  paths: async () => {
    const ok = child("test/hostile/path-safety.test.ts");
    if (!ok) failed += 1;
    figures.push(`paths: path-safety suite ${ok ? "passed" : "FAILED"}`);
  },
  faults: async () => {
    const ok = child("test/hostile/faults.test.ts");
    if (!ok) failed += 1;
    figures.push(`faults: I/O fault suite ${ok ? "passed" : "FAILED"}`);
  },
  abuse: async () => {
    const ok = child("test/hostile/abuse.test.ts", { HOSTILE_BIG_ROWS: "1000000" });
    if (!ok) failed += 1;
    figures.push(`abuse: limits with a 1,000,000-row select (RSS figures printed above) ${ok ? "passed" : "FAILED"}`);
    // Slow bodies take the 30 s request timeout to drop, too slow for npm test.
    const server = await ServerProcess.start();
    try {
      const f = await slowloris(server, 200, 45, "body");
      const held = f.closedByServer === f.sockets && f.worstMs < 2_000 && server.alive;
      if (!held) failed += 1;
      figures.push(`abuse: ${f.closedByServer}/${f.sockets} slow-body sockets dropped after ${f.secondsToDrop.toFixed(1)} s, ${f.servedMeanwhile} requests served meanwhile (worst ${Math.round(f.worstMs)} ms)${held ? "" : " FAILED"}`);
    } finally {
      await server.stop();
    }
  },
  load,
  crash: async () => {
    const ok = child("scripts/soak-crash-load.ts");
    if (!ok) failed += 1;
    figures.push(`crash: 20 kill -9 cycles under load ${ok ? "passed" : "FAILED"}`);
  },
  eviction: async () => {
    const ok = child("test/hostile/eviction.test.ts", { EVICTION_DATABASES: "5000" });
    if (!ok) failed += 1;
    figures.push(`eviction: 5,000 databases under a budget of 200 ${ok ? "passed" : "FAILED"} (RSS figures printed above)`);
  },
  storage: async () => {
    const ok = child("scripts/soak-crash.ts");
    if (!ok) failed += 1;
    figures.push(`storage: 500 SIGKILL cycles of acknowledged writes (appends, checkpoints, rename → reset) and 200 of transactions ${ok ? "passed" : "FAILED"}`);
  },
};

for (const part of chosen as Part[]) {
  console.log(`\n== soak ${part}`);
  try {
    await RUNNERS[part]();
  } catch (error) {
    failed += 1;
    figures.push(`${part}: FAILED: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    console.error(error);
  }
}
console.log(`\n== soak figures\n${figures.join("\n")}`);
process.exit(failed === 0 ? 0 : 1);
