/**
 * Group commit with failing disks is still serializable: random mutations
 * and reads fired concurrently at one database while random journal appends
 * fail (some halfway, leaving part of a line to cut) and checkpoints run.
 * Replaying, one by one on a memory database, every command except those
 * answered with a storage error must give the same answers and the same
 * final state as the disk holds: a failed append changed nothing, and
 * nothing else saw its changes.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import path from "node:path";
import type { Command } from "../../src/commands/types.js";
import { Database } from "../../src/database.js";
import { DataDirectory } from "../../src/storage/data-directory.js";
import { InstrumentedFs } from "./helpers/instrumented-fs.js";
import type { Op } from "./helpers/instrumented-fs.js";
import { eq, fingerprint, removeDir, scratchDir, usersTable } from "./helpers/scratch.js";

const STORAGE = new Set(["storage_error", "insufficient_storage"]);
const STEPS: readonly Op[] = ["append", "append", "truncate", "openJournal", "rename", "fsyncDir", "write", "fsync"];

function seeded(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) & 0x7fffffff), s / 0x7fffffff);
}

function randomCommand(random: () => number): Command {
  const id = String(Math.floor(random() * 40));
  const r = random();
  if (r < 0.45) return { kind: "insert", table: "users", rows: [{ id, name: `n${Math.floor(random() * 9)}` }] };
  if (r < 0.6) return { kind: "update", table: "users", set: { name: `u${Math.floor(random() * 9)}` }, where: eq("id", id) };
  if (r < 0.75) return { kind: "delete", table: "users", where: eq("id", id) };
  return { kind: "select", table: "users", columns: ["id", "name"], output: "arrays" };
}

const answer = (p: Promise<unknown>) => p.then((r) => JSON.stringify(r), (e: { code?: string }) => e.code ?? String(e));

for (const seed of [1, 2, 3]) {
  test(`seed ${seed}: 300 concurrent commands with failing persists replay serially to the same answers and file`, async () => {
    const random = seeded(seed);
    const dir = scratchDir("serial");
    try {
      const fs = await InstrumentedFs.over(dir);
      const data = await DataDirectory.open(dir, { fs });
      await data.execute("shop", usersTable);
      const commands: Command[] = [];
      const answers: Promise<string>[] = [];
      for (let wave = 0; wave < 10; wave++) {
        if (random() < 0.6) fs.inject(STEPS[Math.floor(random() * STEPS.length)]!, random() < 0.5 ? "ENOSPC" : "EIO", () => true, random() < 0.5);
        for (let i = 0; i < 30; i++) {
          const command = randomCommand(random);
          commands.push(command);
          answers.push(answer(data.execute("shop", command)));
        }
        // A checkpoint now and then, between the commands: it changes no answer, only where the state is kept.
        if (random() < 0.4) void data.execute("shop", { kind: "checkpoint" }).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, random() * 5));
      }
      // A last write on a sound disk: the file must then hold exactly the serial state.
      await Promise.all(answers);
      fs.clearFaults();
      const last: Command = { kind: "insert", table: "users", rows: [{ id: "last", name: "z" }] };
      commands.push(last);
      answers.push(answer(data.execute("shop", last)));
      const got = await Promise.all(answers);
      await data.close();
      assert.ok(got.some((a) => STORAGE.has(a)), "some persists failed");

      const serial = Database.memory();
      await serial.execute(usersTable);
      for (const [i, command] of commands.entries()) {
        if (STORAGE.has(got[i]!)) continue;
        assert.is(await answer(serial.execute(command)), got[i], `command ${i}: ${JSON.stringify(command)}`);
      }
      const final = await serial.execute({ kind: "select", table: "users", columns: ["id", "name"] });
      const stored = JSON.parse(await fingerprint(path.join(dir, "shop.store"))) as [string, unknown[]][];
      assert.equal(stored[0]![1], final.kind === "rows" ? final.rows : null);
    } finally {
      removeDir(dir);
    }
  });
}

test.run();
