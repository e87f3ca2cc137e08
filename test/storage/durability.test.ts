/**
 * The write path's order, seen through the instrumented fs: every mutation
 * path is answered only after its journal append (one O_DSYNC write) has
 * resolved — or, creating a database, after its document's write → fsync →
 * rename → fsync(dir) (its lock taken first), or, starting a journal, after the new journal's
 * append → rename → fsync(dir). And a power loss before, after or in the
 * middle of any step recovers the old or the new state, never a mix, never
 * losing an answered write — also for an append written over a journal's
 * preallocated zeros.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { writeFileSync } from "node:fs";
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
  /** The database file is written by hand first (no journal yet): the first commit starts one. */
  readonly handWritten?: boolean;
  /** Commands run on the opened database before the steps are watched. */
  readonly before?: readonly Command[];
  readonly run: (data: DataDirectory) => Promise<Result>[];
  /** The durable steps before the answers, as "op name" with temp names as "tmp". */
  readonly steps: readonly string[];
}

const insertOne = (id: string): Command => ({ kind: "insert", table: "users", rows: [{ id, name: `user ${id}` }] });
const ordersTable: Command = {
  kind: "create-table",
  schema: { name: "orders", columns: { id: "integer", user_id: "text" }, foreign_keys: [{ columns: ["user_id"], references: { table: "users", columns: ["id"] }, on_delete: "cascade" }] },
};
const APPEND = ["append shop.store-journal"];
/** A database that never had a journal (only created so far, or written by hand) starts one. */
const FRESH = ["append tmp", "rename tmp shop.store-journal", "fsyncDir"];

const scenarios: readonly Scenario[] = [
  { label: "insert", setup: [usersTable, threeUsers], run: (d) => [d.execute("shop", insertOne("4"))], steps: APPEND },
  { label: "update", setup: [usersTable, threeUsers], run: (d) => [d.execute("shop", { kind: "update", table: "users", set: { name: "Bea" }, where: eq("id", "2") })], steps: APPEND },
  { label: "delete", setup: [usersTable, threeUsers], run: (d) => [d.execute("shop", { kind: "delete", table: "users", where: eq("id", "1") })], steps: APPEND },
  {
    label: "cascading delete",
    setup: [usersTable, threeUsers, ordersTable, { kind: "insert", table: "orders", rows: [{ id: 1, user_id: "1" }, { id: 2, user_id: "1" }, { id: 3, user_id: "2" }] }],
    run: (d) => [d.execute("shop", { kind: "delete", table: "users", where: eq("id", "1") })],
    steps: APPEND,
  },
  { label: "create-table", setup: [usersTable], run: (d) => [d.execute("shop", { kind: "create-table", schema: { name: "orders", columns: { id: "integer" } } })], steps: FRESH },
  {
    label: "create-table creating the database",
    setup: [],
    run: (d) => [d.execute("shop", usersTable)],
    // The database's lock first (written, fsynced, linked into place), then the document.
    steps: ["write lock-tmp", "fsync lock-tmp", "fsyncDir", "write tmp", "fsync tmp", "rename tmp shop.store", "fsyncDir"],
  },
  { label: "drop-table", setup: [usersTable, threeUsers], run: (d) => [d.execute("shop", { kind: "drop-table", table: "users" })], steps: APPEND },
  { label: "sql insert", setup: [usersTable, threeUsers], run: (d) => [d.execute("shop", { kind: "sql", sql: "INSERT INTO users (id, name) VALUES (?, ?)", params: ["9", "Ivy"] })], steps: APPEND },
  { label: "sql update", setup: [usersTable, threeUsers], run: (d) => [d.execute("shop", { kind: "sql", sql: "UPDATE users SET name = ? WHERE id <> ?", params: ["x", "1"] })], steps: APPEND },
  { label: "sql delete", setup: [usersTable, threeUsers], run: (d) => [d.execute("shop", { kind: "sql", sql: "DELETE FROM users" })], steps: APPEND },
  { label: "grouped inserts", setup: [usersTable, threeUsers], run: (d) => ["4", "5", "6", "7", "8"].map((id) => d.execute("shop", insertOne(id))), steps: APPEND },
  {
    // A journal that grew past 16 KiB keeps preallocated zeros ahead of its entries: the append writes over them.
    label: "an insert into a journal's preallocated space",
    setup: [usersTable, threeUsers],
    before: [{ kind: "insert", table: "users", rows: Array.from({ length: 200 }, (_, i) => ({ id: `b${i}`, name: "x".repeat(100) })) }],
    run: (d) => [d.execute("shop", insertOne("4"))],
    steps: APPEND,
  },
  {
    label: "the first write to a hand-written file",
    setup: [],
    handWritten: true,
    run: (d) => [d.execute("shop", insertOne("4"))],
    steps: FRESH,
  },
];

const HAND_WRITTEN = '{"format":"storedb/1","tables":{"users":{"schema":{"name":"users","columns":{"id":"text","name":"text"},"primary_key":{"columns":["id"]}},"rows":[{"id":"1","name":"Ada"}]}}}';

async function prepare(dir: string, scenario: Scenario): Promise<void> {
  if (scenario.handWritten) writeFileSync(path.join(dir, "shop.store"), HAND_WRITTEN);
  else await seed(dir, "shop", scenario.setup);
}

/** A log entry as a step: temp names read "tmp", a directory fsync loses its name. */
function step(entry: string): string {
  const [op, ...names] = entry.split(" ");
  if (op === "fsyncDir") return "fsyncDir";
  return [op, ...names.map((name) => (name.includes("-lock.tmp-") ? "lock-tmp" : name.includes(".tmp-") ? "tmp" : name))].join(" ");
}

const DURABLE = /^(write|fsync|append|truncate|rename|fsyncDir|answer)\b/;

/** The data directory over `dir` (through `fs` when given), its database loaded and the scenario's `before` commands run. */
async function openScenario(dir: string, scenario: Scenario, fs?: InstrumentedFs): Promise<DataDirectory> {
  const data = await DataDirectory.open(dir, fs === undefined ? {} : { fs });
  await data.execute("shop", { kind: "describe" }).catch(() => undefined); // load first
  for (const command of scenario.before ?? []) await data.execute("shop", command);
  return data;
}

for (const scenario of scenarios) {
  test(`${scenario.label}: ${scenario.steps.join(" → ")} → answer`, async () => {
    const dir = scratchDir("order");
    try {
      await prepare(dir, scenario);
      const fs = await InstrumentedFs.over(dir);
      const data = await openScenario(dir, scenario, fs);
      const warming = fs.log.splice(0);
      const answers = scenario.run(data).map((p) => p.then(() => void fs.log.push("answer")));
      await Promise.all(answers);
      const steps = fs.log.filter((entry) => DURABLE.test(entry)).map(step);
      assert.equal(steps, [...scenario.steps, ...Array<string>(answers.length).fill("answer")], fs.log.join("\n"));
      if (scenario.before !== undefined) {
        const whole = [...warming, ...fs.log];
        const zeros = whole.findIndex((entry) => entry.startsWith("preallocate shop.store-journal"));
        assert.ok(zeros !== -1 && zeros < whole.lastIndexOf("append shop.store-journal"), `space preallocated before the append:\n${whole.join("\n")}`);
      }
      await data.close();
    } finally {
      removeDir(dir);
    }
  });
}

/** Where the power may go out during a commit: before, after, or (an append) in the middle of each step. */
const CUTS: readonly [Op, "before" | "after" | "torn"][] = [
  ["create", "before"],
  ["write", "before"],
  ["write", "after"],
  ["fsync", "before"],
  ["fsync", "after"],
  ["close", "after"],
  ["openJournal", "before"],
  ["openJournal", "after"],
  ["append", "before"],
  ["append", "torn"],
  ["append", "after"],
  ["rename", "before"],
  ["rename", "after"],
  ["fsyncDir", "before"],
  ["fsyncDir", "after"],
];

for (const scenario of scenarios) {
  test(`${scenario.label}: power loss before, during or after any step leaves the old or the new state`, async () => {
    const reference = scratchDir("loss-ref");
    const file = (dir: string) => path.join(dir, "shop.store");
    try {
      await prepare(reference, scenario);
      const data = await openScenario(reference, scenario);
      const before = await fingerprint(file(reference));
      await Promise.all(scenario.run(data));
      await data.close();
      const after = await fingerprint(file(reference));
      assert.is.not(before, after);

      const seen = new Set<string>();
      for (const [op, when] of CUTS) {
        const dir = scratchDir("loss");
        try {
          await prepare(dir, scenario);
          const fs = await InstrumentedFs.over(dir);
          const data = await openScenario(dir, scenario, fs);
          fs.cutPower(op, when);
          const results = await Promise.all(scenario.run(data).map(outcome));
          const cut = fs.powerCut;
          await fs.crash();
          const state = await fingerprint(file(dir));
          const label = `power cut ${when} ${op}${cut ? "" : " (never reached)"}`;
          assert.ok(state === before || state === after, `${label}: a state that is neither old nor new: ${state}`);
          // Nothing was answered unless it survived.
          if (results.includes("ok")) assert.is(state, after, `${label}: acknowledged but lost`);
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
