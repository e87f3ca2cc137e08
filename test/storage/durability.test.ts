/**
 * The write path's order, seen through the instrumented fs: write → fsync
 * (file) → rename → fsync (directory) → answer, for every kind of mutation;
 * and power loss at every step recovers the old or the new state, never a mix.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import path from "node:path";
import type { Command } from "../../src/commands/types.js";
import type { Result } from "../../src/commands/results.js";
import { DataDirectory } from "../../src/storage/data-directory.js";
import { InstrumentedFs } from "./helpers/instrumented-fs.js";
import type { Op } from "./helpers/instrumented-fs.js";
import { eq, fingerprint, outcome, removeDir, scratchDir, seed, threeUsers, usersTable } from "./helpers/scratch.js";

interface Scenario {
  readonly label: string;
  readonly setup: readonly Command[];
  readonly run: (data: DataDirectory) => Promise<Result>[];
}

const insertOne = (id: string): Command => ({ kind: "insert", table: "users", rows: [{ id, name: `user ${id}` }] });

const scenarios: readonly Scenario[] = [
  { label: "insert", setup: [usersTable, threeUsers], run: (d) => [d.execute("shop", insertOne("4"))] },
  { label: "update", setup: [usersTable, threeUsers], run: (d) => [d.execute("shop", { kind: "update", table: "users", set: { name: "Bea" }, where: eq("id", "2") })] },
  { label: "delete", setup: [usersTable, threeUsers], run: (d) => [d.execute("shop", { kind: "delete", table: "users", where: eq("id", "1") })] },
  {
    label: "create-table",
    setup: [usersTable],
    run: (d) => [d.execute("shop", { kind: "create-table", schema: { name: "orders", columns: { id: "integer" } } })],
  },
  { label: "create-table creating the database", setup: [], run: (d) => [d.execute("shop", usersTable)] },
  { label: "drop-table", setup: [usersTable, threeUsers], run: (d) => [d.execute("shop", { kind: "drop-table", table: "users" })] },
  { label: "sql insert", setup: [usersTable], run: (d) => [d.execute("shop", { kind: "sql", sql: "INSERT INTO users (id, name) VALUES (?, ?)", params: ["9", "Ivy"] })] },
  { label: "grouped inserts", setup: [usersTable, threeUsers], run: (d) => ["4", "5", "6", "7", "8"].map((id) => d.execute("shop", insertOne(id))) },
];

const DURABLE_STEPS = /^(write|fsync|rename|fsyncDir|answer)\b/;

for (const scenario of scenarios) {
  test(`${scenario.label}: write → fsync → rename → fsync(dir) → answer`, async () => {
    const dir = scratchDir("order");
    try {
      await seed(dir, "shop", scenario.setup);
      const fs = await InstrumentedFs.over(dir);
      const data = await DataDirectory.open(dir, { fs });
      await data.execute("shop", { kind: "describe" }).catch(() => undefined); // load first
      fs.log.length = 0;
      const answers = scenario.run(data).map((p) => p.then(() => void fs.log.push("answer")));
      await Promise.all(answers);
      await data.close();
      const steps = fs.log.filter((entry) => DURABLE_STEPS.test(entry));
      const n = answers.length;
      assert.equal(steps.map((s) => s.split(" ")[0]), ["write", "fsync", "rename", "fsyncDir", ...Array<string>(n).fill("answer")], fs.log.join("\n"));
      assert.match(steps[0]!, /^write \.shop\.store\.tmp-\d+-\d+$/);
      assert.match(steps[2]!, /^rename \.shop\.store\.tmp-\d+-\d+ shop\.store$/);
      assert.is(steps[3], `fsyncDir ${path.basename(dir)}`);
    } finally {
      removeDir(dir);
    }
  });
}

/** The steps of one commit, in order; power is cut right after each. */
const CUT_POINTS: readonly Op[] = ["create", "chmod", "write", "fsync", "fstat", "close", "rename", "fsyncDir"];

for (const scenario of scenarios) {
  test(`${scenario.label}: power loss after any step leaves the old or the new state`, async () => {
    const reference = scratchDir("loss-ref");
    const file = (dir: string) => path.join(dir, "shop.store");
    try {
      await seed(reference, "shop", scenario.setup);
      const before = await fingerprint(file(reference));
      const data = await DataDirectory.open(reference);
      await Promise.all(scenario.run(data));
      await data.close();
      const after = await fingerprint(file(reference));
      assert.is.not(before, after);

      const seen = new Set<string>();
      for (const cut of CUT_POINTS) {
        if (cut === "chmod" && scenario.setup.length === 0) continue; // a new file keeps its default mode
        const dir = scratchDir("loss");
        try {
          await seed(dir, "shop", scenario.setup);
          const fs = await InstrumentedFs.over(dir);
          const data = await DataDirectory.open(dir, { fs });
          await data.execute("shop", { kind: "describe" }).catch(() => undefined);
          fs.cutPowerAfter(cut);
          const results = await Promise.all(scenario.run(data).map(outcome));
          await fs.crash();
          const state = await fingerprint(file(dir));
          assert.ok(state === before || state === after, `${cut}: a state that is neither old nor new: ${state}`);
          if (cut === "fsyncDir") assert.is(state, after, "after the directory fsync the new state is durable");
          // Nothing was acknowledged unless it survived.
          if (results.includes("ok")) assert.is(state, after, `${cut}: acknowledged but lost`);
          seen.add(state === before ? "old" : "new");
        } finally {
          removeDir(dir);
        }
      }
      assert.equal([...seen].sort(), ["new", "old"], "both outcomes occur across the cut points");
    } finally {
      removeDir(reference);
    }
  });
}

test.run();
