/**
 * Property-based fuzzing over the real HTTP server (short form; `npm run soak`
 * runs the long one): generated selects against an independent reference,
 * and valid / near-valid / garbage requests that must be answered in time,
 * never with a 5xx, with §7 problems, and without changing anything when
 * rejected. Kept failing cases in `fixtures/` are replayed first.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { loadFixtures, saveFixture } from "./support/fixtures.js";
import { shouldRun } from "./support/known-failures.js";
import { MUTATE_DB, READ_DB, replayFixture, runProperty, seedDatabase } from "./support/fuzz.js";
import { loudHook, ServerProcess } from "./support/server.js";

const RUNS = Number(process.env.HOSTILE_FUZZ_RUNS ?? 150);
// A fixed seed keeps `npm test` reproducible; the soak script draws fresh ones.
const SEED = Number(process.env.HOSTILE_SEED ?? 20261122);

const test = suite<{ server: ServerProcess }>("hostile/fuzz", {} as { server: ServerProcess });

test.before(loudHook(async (context) => {
  context.server = await ServerProcess.start();
  await seedDatabase(context.server, READ_DB);
  await seedDatabase(context.server, MUTATE_DB);
}));

test.after(async (context) => {
  await context.server?.stop();
});

for (const { file, fixture } of loadFixtures()) {
  (shouldRun(file) ? test : test.skip)(`fixture ${file} replays clean`, async ({ server }) => {
    const violations = await replayFixture(server, fixture);
    assert.equal(violations, [], violations.join("\n"));
  });
}

for (const property of ["select", "request", "sql", "file", "model"] as const) {
  test(`property ${property}: ${RUNS} generated cases`, async ({ server }) => {
    const result = await runProperty(server, property, RUNS, SEED);
    if (result.failure) {
      const file = saveFixture(result.failure.fixture, result.failure.seed);
      assert.unreachable(`property ${property} failed (seed ${result.failure.seed}, kept as fixtures/${file}):\n${result.failure.message}`);
    }
    assert.equal(result.runs, RUNS);
    assert.ok(server.alive, "server still running");
  });
}

test.run();
