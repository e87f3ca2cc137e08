/**
 * The checkpoint schedule's idle rule on its own: appends that keep coming
 * hold the idle checkpoint off, however long they go on, and it runs once
 * the appends stop for the idle time.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { CheckpointSchedule } from "../../src/storage/checkpoint-schedule.js";

test("appends hold the idle checkpoint off; it runs once they stop for the idle time", async () => {
  const idleMs = 400;
  const starts: number[] = [];
  const schedule = new CheckpointSchedule({ idleMs, journalBytes: 1 << 30 }, () => starts.push(performance.now()));
  try {
    // Appends every 20 ms for three idle times: the first timer fires mid-stream and must re-arm, not start.
    const streamEnd = performance.now() + 3 * idleMs;
    while (performance.now() < streamEnd) {
      schedule.appended(100, 1000);
      await sleep(20);
    }
    const lastAppend = performance.now();
    schedule.appended(100, 1000);
    assert.equal(starts, [], "no idle checkpoint while appends come every 20 ms");
    while (starts.length === 0 && performance.now() - lastAppend < 10 * idleMs) await sleep(10);
    assert.is(starts.length, 1, "one idle checkpoint after the appends stopped");
    assert.ok(starts[0]! - lastAppend >= idleMs - 1, `it waited the idle time (${(starts[0]! - lastAppend).toFixed(0)} ms)`);
    await sleep(idleMs + 50);
    assert.is(starts.length, 1, "and no second one without another append");
  } finally {
    schedule.stop();
  }
});

test("a journal past its share starts a checkpoint at once", () => {
  let starts = 0;
  const schedule = new CheckpointSchedule({ idleMs: 60_000, journalBytes: 0, journalShare: 0.5 }, () => starts++);
  schedule.appended(400, 1000);
  assert.is(starts, 0);
  schedule.appended(500, 1000);
  assert.is(starts, 1);
  schedule.stop();
});

test.run();
