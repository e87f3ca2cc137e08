/**
 * Power loss at every step of a checkpoint — its temp document written,
 * fsynced, the marker appended, the rename, the directory fsync, the
 * journal's reset — while writes go on around it: whatever the disk keeps,
 * the database opens valid, with every acknowledged write exactly once and
 * nothing that was never sent. The table has no key, so a record applied
 * twice would show as a second row.
 *
 * The steps are those a run without a power cut makes (recorded first); the
 * power is then cut before, after and (an append) in the middle of each.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { rmSync } from "node:fs";
import path from "node:path";
import type { Command } from "../../src/commands/types.js";
import { DataDirectory } from "../../src/storage/data-directory.js";
import { LOCK_NAME } from "../../src/storage/lock.js";
import { InstrumentedFs } from "./helpers/instrumented-fs.js";
import type { Op } from "./helpers/instrumented-fs.js";
import { eq, fingerprint, outcome, removeDir, scratchDir, seed } from "./helpers/scratch.js";

const events: Command = { kind: "create-table", schema: { name: "events", columns: { id: "text", n: "text" } } };
const insert = (id: string): Command => ({ kind: "insert", table: "events", rows: [{ id, n: "x" }] });
const QUIET = { idleMs: 60_000, journalBytes: 1 << 30 };

interface Outcome {
  readonly acked: Set<string>;
  readonly sent: Set<string>;
  readonly deleted: boolean;
  readonly updated: boolean;
}

/**
 * Three rows in the document, two in the journal; then a checkpoint, with
 * writes acknowledged while its document is written (held before its fsync)
 * and while its new journal is written (held before that append, so they
 * reach the old journal and the reset must carry them over).
 */
async function workload(fs: InstrumentedFs, dir: string, arm: () => void = () => undefined): Promise<Outcome> {
  const data = await DataDirectory.open(dir, { fs, checkpoints: QUIET });
  const acked = new Set<string>(["1", "2", "3"]);
  const sent = new Set<string>(["1", "2", "3"]);
  const send = async (id: string) => {
    sent.add(id);
    if ((await outcome(data.execute("shop", insert(id)))) === "ok") acked.add(id);
  };
  for (const id of ["4", "5"]) await send(id);
  fs.log.push("CHECKPOINT");
  arm();
  const documentWritten = fs.pause("fsync", (name) => name.startsWith(".shop.store.tmp-"));
  const journalWritten = fs.pause("append", (name) => name.startsWith(".shop.store-journal.tmp-"));
  const checkpoint = outcome(data.execute("shop", { kind: "checkpoint" }));
  await Promise.race([documentWritten.reached, checkpoint]);
  const [, , deleted] = await Promise.all([send("6"), send("7"), outcome(data.execute("shop", { kind: "delete", table: "events", where: eq("id", "1") }))]);
  documentWritten.release();
  await Promise.race([journalWritten.reached, checkpoint]);
  const [, , updated] = await Promise.all([send("8"), send("9"), outcome(data.execute("shop", { kind: "update", table: "events", set: { n: "u" }, where: eq("id", "2") }))]);
  journalWritten.release();
  await checkpoint;
  await send("10");
  await data.close();
  return { acked, sent, deleted: deleted === "ok", updated: updated === "ok" };
}

/** The name of a file as a step names it: temp files alike whatever their number, the directory as "dir". */
const kind = (name: string) => (name.startsWith("storedb-") ? "dir" : name.replace(/\.tmp-\d+-\d+$/, ".tmp"));

interface Step {
  readonly op: Op;
  readonly name: string;
  readonly nth: number;
}

/** The steps of the checkpoint in a run with no power cut: each op on each file, numbered. */
async function checkpointSteps(): Promise<Step[]> {
  const dir = scratchDir("ckpt-ref");
  try {
    await seed(dir, "shop", [events, { kind: "insert", table: "events", rows: [{ id: "1" }, { id: "2" }, { id: "3" }] }]);
    const fs = await InstrumentedFs.over(dir);
    await workload(fs, dir);
    const from = fs.log.indexOf("CHECKPOINT");
    const seen = new Map<string, number>();
    const steps: Step[] = [];
    for (const entry of fs.log.slice(from + 1)) {
      const [op, name] = entry.split(" ") as [Op, string];
      if (!["create", "write", "fsync", "close", "openJournal", "append", "rename", "fsyncDir", "truncate", "unlink"].includes(op)) continue;
      const key = `${op} ${kind(name)}`;
      const nth = (seen.get(key) ?? 0) + 1;
      seen.set(key, nth);
      steps.push({ op, name: kind(name), nth });
    }
    return steps;
  } finally {
    removeDir(dir);
  }
}

test("power loss before, during or after every step of a checkpoint with writes around it: every acknowledged write, once", async () => {
  const steps = await checkpointSteps();
  const described = steps.map((s) => `${s.op} ${s.name}`);
  // The steps the contract names are all there: the new document written and fsynced, renamed, the directory fsynced, the journal reset.
  for (const expected of ["write .shop.store.tmp", "fsync .shop.store.tmp", "append shop.store-journal", "rename .shop.store.tmp", "fsyncDir dir", "append .shop.store-journal.tmp", "rename .shop.store-journal.tmp"]) {
    assert.ok(described.includes(expected), `${expected} in ${described.join(", ")}`);
  }
  let cuts = 0;
  for (const step of steps) {
    for (const when of step.op === "append" ? (["before", "torn", "after"] as const) : (["before", "after"] as const)) {
      const dir = scratchDir("ckpt-crash");
      const label = `power cut ${when} ${step.op} ${step.name} #${step.nth}`;
      try {
        await seed(dir, "shop", [events, { kind: "insert", table: "events", rows: [{ id: "1" }, { id: "2" }, { id: "3" }] }]);
        const fs = await InstrumentedFs.over(dir);
        const outcome = await workload(fs, dir, () => fs.cutPower(step.op, when, (name) => kind(name) === step.name, step.nth));
        if (fs.powerCut) cuts += 1;
        await fs.crash();
        // Their process is gone with the power: its locks are stale (here the same process goes on, so remove them).
        for (const lock of [LOCK_NAME, "shop.store-lock"]) rmSync(path.join(dir, lock), { force: true });
        const rows = JSON.parse(await fingerprint(path.join(dir, "shop.store")))[0][1] as { id: string; n: string | null }[];
        const present = rows.map((row) => row.id);
        assert.is(new Set(present).size, present.length, `${label}: a row twice: ${present.join(",")}`);
        for (const id of outcome.acked) if (!(id === "1" && outcome.deleted)) assert.ok(present.includes(id), `${label}: acknowledged ${id} lost`);
        for (const id of present) assert.ok(outcome.sent.has(id), `${label}: ${id} was never sent`);
        if (outcome.deleted) assert.not.ok(present.includes("1"), `${label}: an acknowledged delete undone`);
        if (outcome.updated) assert.is(rows.find((row) => row.id === "2")?.n, "u", `${label}: an acknowledged update undone`);
        // And the database goes on from there.
        const data = await DataDirectory.open(dir);
        assert.is(await outcome_(data.execute("shop", insert("after"))), "ok", label);
        await data.close();
      } finally {
        removeDir(dir);
      }
    }
  }
  assert.ok(cuts >= steps.length, `the power went out in most runs (${cuts})`);
});

const outcome_ = outcome;

test.run();
