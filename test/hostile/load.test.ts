/**
 * Load (short form; `npm run soak` runs 60 s): 64 connections of mixed
 * reads and writes across several databases with autocannon, then an audit
 * of the files on disk against what was acknowledged; racing conflicting
 * writers; and crash under load: SIGKILL during writes, restart, every
 * acknowledged write present.
 */
import { rmSync } from "node:fs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { crashCycles } from "./support/crash.js";
import { runLoad } from "./support/load.js";
import { raceWriters, tornReads } from "./support/race.js";
import { loudHook, ServerProcess, tempDir } from "./support/server.js";

const SECONDS = Number(process.env.HOSTILE_LOAD_SECONDS ?? 10);
const CYCLES = Number(process.env.HOSTILE_CRASH_CYCLES ?? 3);

const test = suite<{ server: ServerProcess }>("hostile/load", {} as { server: ServerProcess });

test.before(
  loudHook(async (context) => {
    context.server = await ServerProcess.start();
  }),
);

test.after(async (context) => {
  await context.server?.stop();
});

test(`64 connections for ${SECONDS} s: no errors, every acknowledged write on disk, nothing else`, async ({ server }) => {
  const f = await runLoad(server, { connections: 64, seconds: SECONDS, databases: 4 });
  console.log(
    `  load: ${f.requests} requests (${Math.round(f.perSecond)}/s), ${f.writesAcked}/${f.writesSent} writes acknowledged, ${f.readsChecked} reads checked, errors ${f.errors}, non-2xx ${f.non2xx}, p50 ${f.p50} ms, p99 ${f.p99} ms, max ${f.max} ms; lost ${f.lost}, unexpected ${f.unexpected}; RSS ${Math.round(f.rssBeforeMiB)} → ${Math.round(f.rssAfterMiB)} MiB`,
  );
  assert.is(f.errors, 0, "connection errors and timeouts");
  assert.is(f.non2xx, 0, "non-2xx answers");
  assert.is(f.lost, 0, "acknowledged writes missing from disk");
  assert.is(f.unexpected, 0, "rows on disk nobody sent");
  assert.ok(f.writesAcked > 0 && f.readsChecked > 0, "both writes and reads ran");
  assert.ok(server.alive);
});

test("racing writers: one winner per conflict, the winner's row stored once", async ({ server }) => {
  await raceWriters(server, 32, 5);
  assert.ok(server.alive);
});

test("readers racing a batch writer never see half a batch", async ({ server }) => {
  const reads = await tornReads(server, 40, 250, 6);
  assert.ok(reads > 0);
});

test(`kill -9 under load, ${CYCLES} cycles: every acknowledged write survives, every file valid`, async () => {
  const dataDir = tempDir("crash");
  try {
    const f = await crashCycles({ cycles: CYCLES, writers: 16, databases: 3, killAfterMs: [300, 1200], dataDir });
    console.log(`  crash: ${f.cycles} cycles, ${f.acked}/${f.sent} inserts and ${f.deletesAcked} deletes acknowledged, lost ${f.lost}, resurrected ${f.resurrected}, unexpected ${f.unexpected}, torn batches ${f.tornBatches}`);
    assert.is(f.lost, 0);
    assert.is(f.resurrected, 0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test.run();
