/**
 * Transactions are all or nothing in memory and on disk (CONTRACT §11):
 * - a transaction whose step k of n fails — the first, a middle, the last —
 *   leaves memory and the files exactly as they were, as a command through
 *   a data directory and as a library `db.transaction`;
 * - a transaction whose every step succeeds but whose durable write fails
 *   at any fs step, with any error a disk gives, answers that error and
 *   leaves memory and disk as they were, and the next transaction works —
 *   one of data steps, and one of schema changes (an index created, columns
 *   added and renamed, the table renamed) among writes that use them;
 * - SIGKILL of a real process writing transactions, at random moments,
 *   never leaves part of a transaction on disk, and loses no acknowledged
 *   one (30 cycles here; `npm run soak -- crash` runs more).
 * And a transaction is one durable write: one journal record.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { Command } from "../../src/commands/types.js";
import { Database } from "../../src/database.js";
import { DataDirectory } from "../../src/storage/data-directory.js";
import { scanJournal } from "../../src/storage/journal-format.js";
import { InstrumentedFs, type Op } from "./helpers/instrumented-fs.js";
import { fingerprint, outcome, removeDir, scratchDir, seed, threeUsers, usersTable } from "./helpers/scratch.js";
import { transactionCrashCycle } from "./helpers/transaction-cycles.js";
import { bundleChild } from "./helpers/crash-cycles.js";

const insert = (id: string, name = "x"): Command => ({ kind: "insert", table: "users", rows: [{ id, name }] });
const rename = (id: string, name: string): Command => ({
  kind: "update",
  table: "users",
  set: { name: { type: "binary", op: "||", left: { type: "identifier", name: "name" }, right: { type: "literal", value: name } } },
  where: { type: "comparison", op: "=", left: { type: "identifier", name: "id" }, right: { type: "literal", value: id } },
});
const duplicate = insert("1", "dup");
const select: Command = { kind: "select", table: "users", columns: "*" };
const describe: Command = { kind: "describe" };

/** Five steps that all succeed, with `duplicate` (409) put in at step `k`. */
function failingAt(k: number): Command[] {
  const steps = [insert("a"), rename("1", "!"), insert("b"), rename("a", "?"), insert("c")];
  steps[k] = duplicate;
  return steps;
}

/** The database's files, byte for byte, and what a reader finds in them. */
async function disk(dir: string): Promise<{ bytes: string; view: string }> {
  const file = path.join(dir, "shop.store");
  const journal = `${file}-journal`;
  const bytes = `${readFileSync(file).toString("hex")}|${existsSync(journal) ? readFileSync(journal).toString("hex") : ""}`;
  return { bytes, view: await fingerprint(file) };
}

const journalRecords = (dir: string): number =>
  scanJournal(readFileSync(path.join(dir, "shop.store-journal"))).entries.filter((entry) => entry.kind === "changes").length;

for (const [label, k] of [["first", 0], ["middle", 2], ["last", 4]] as const) {
  test(`a transaction whose ${label} step of five fails keeps nothing, in memory or on disk (command and library)`, async () => {
    const dir = scratchDir("tx-step");
    try {
      await seed(dir, "shop", [usersTable, threeUsers, insert("journaled")]);
      const before = await disk(dir);
      const data = await DataDirectory.open(dir);
      const memory = await data.execute("shop", select);
      const failed = await data.execute("shop", { kind: "transaction", commands: failingAt(k) }).then(
        () => ({ code: "ok", step: -1 }),
        (error: { code: string; step: number }) => error,
      );
      assert.is(failed.code, "constraint_violation");
      assert.is(failed.step, k);
      assert.equal(await data.execute("shop", select), memory, "memory");
      assert.equal(await disk(dir), before, "disk");
      await data.close();

      const db = await Database.open(path.join(dir, "shop.store"));
      const code = await outcome(
        db.transaction(async (tx) => {
          for (const step of failingAt(k)) await tx.execute(step);
          return { kind: "rows", columns: [], rows: [], rowCount: 0 } as const;
        }),
      );
      assert.is(code, "constraint_violation");
      assert.equal(await db.execute(select), memory, "memory (library)");
      await db.close();
      assert.equal((await disk(dir)).view, before.view, "disk (library)");
    } finally {
      removeDir(dir);
    }
  });
}

test("a transaction is one durable write: one journal record for all its steps", async () => {
  const dir = scratchDir("tx-record");
  try {
    await seed(dir, "shop", [usersTable, threeUsers]);
    const data = await DataDirectory.open(dir, { checkpoints: { journalBytes: 1 << 30, idleMs: 60_000 } });
    await data.execute("shop", insert("start"));
    const records = journalRecords(dir);
    await data.execute("shop", { kind: "transaction", commands: [insert("a"), rename("a", "!"), insert("b"), { kind: "delete", table: "users", where: { type: "literal", value: false } }] });
    assert.is(journalRecords(dir), records + 1, "command");
    const db = await Database.open(path.join(dir, "other.store"), { checkpoints: { journalBytes: 1 << 30, idleMs: 60_000 } });
    await db.execute(usersTable);
    await db.execute(insert("start"));
    const otherRecords = scanJournal(readFileSync(path.join(dir, "other.store-journal"))).entries.length;
    await db.transaction(async (tx) => {
      await tx.execute(insert("a"));
      await tx.execute(rename("a", "!"));
      await tx.execute(insert("b"));
    });
    assert.is(scanJournal(readFileSync(path.join(dir, "other.store-journal"))).entries.length, otherRecords + 1, "library");
    await db.close();
    await data.close();
  } finally {
    removeDir(dir);
  }
});

const ERRORS: readonly [errno: string, code: string][] = [
  ["ENOSPC", "insufficient_storage"],
  ["EIO", "storage_error"],
  ["EACCES", "storage_error"],
];
/** Appending to a journal in place is the `append`; starting one is all of these. */
const JOURNAL_STEPS: readonly Op[] = ["openJournal", "append", "rename", "fsyncDir"];
const ALL_GOOD: readonly Command[] = [insert("a"), rename("1", "!"), insert("b"), rename("a", "?"), insert("c")];
const SCHEMA_CHANGES: readonly Command[] = [
  { kind: "create-index", table: "users", index: { name: "by_name", columns: ["name"], unique: true } },
  { kind: "alter-table", table: "users", action: { type: "add-column", column: "tier", columnType: "integer", default: 1 } },
  { kind: "sql", sql: "UPDATE users SET tier = tier + 1 WHERE id = ?", params: ["1"] },
  { kind: "alter-table", table: "users", action: { type: "rename-column", from: "name", to: "label" } },
  { kind: "alter-table", table: "users", action: { type: "rename-table", to: "people" } },
  { kind: "alter-table", table: "people", action: { type: "rename-table", to: "users" } },
  { kind: "sql", sql: "INSERT INTO users (id, label, tier) VALUES ('s', 'schema', 7)" },
];

test("a transaction whose durable write fails at any fs step, with any error: the error, memory and disk as before, the next one works", async () => {
  for (const [kind, steps] of [["data", ALL_GOOD], ["schema", SCHEMA_CHANGES]] as const) {
    for (const [errno, code] of ERRORS) {
      for (const start of [true, false]) {
        for (const step of start ? JOURNAL_STEPS : (["append"] as const)) {
          for (const library of [false, true]) {
            const label = `${kind} steps, ${errno} at ${step}${start ? " (starting a journal)" : ""}${library ? " (library)" : ""}`;
            const dir = scratchDir("tx-faults");
            try {
              await seed(dir, "shop", start ? [usersTable, threeUsers] : [usersTable, threeUsers, insert("journaled")]);
              // The seed's close folded its journal into the document: keep it only to append in place.
              if (start) rmSync(path.join(dir, "shop.store-journal"), { force: true });
              const fs = await InstrumentedFs.over(dir);
              const run = library ? await libraryRunner(dir, fs) : await directoryRunner(dir, fs);
              const memory = await run.read();
              const before = await fingerprint(path.join(dir, "shop.store"));
              fs.inject(step, errno, (name) => name.startsWith(".shop.store-journal.tmp-") || name === "shop.store-journal" || name === path.basename(dir));
              assert.is(await outcome(run.transaction(steps)), code, label);
              assert.equal(await run.read(), memory, `${label}: memory`);
              assert.is(await fingerprint(path.join(dir, "shop.store")), before, `${label}: disk`);
              const journal = path.join(dir, "shop.store-journal");
              if (existsSync(journal)) assert.is(scanJournal(readFileSync(journal)).damage, undefined, `${label}: journal`);
              assert.is(await outcome(run.transaction([insert("next")])), "ok", `${label}: the next transaction`);
              await run.close();
              const after = JSON.parse(await fingerprint(path.join(dir, "shop.store"))) as [string, { id: string }[]][];
              assert.equal(after[0]![1].map((row) => row.id), start ? ["1", "2", "3", "next"] : ["1", "2", "3", "journaled", "next"], label);
            } finally {
              removeDir(dir);
            }
          }
        }
      }
    }
  }
});

test("a transaction that creates its database and whose first write fails leaves no database", async () => {
  for (const step of ["create", "write", "fsync", "rename"] as const) {
    const dir = scratchDir("tx-create");
    try {
      const fs = await InstrumentedFs.over(dir);
      const data = await DataDirectory.open(dir, { fs });
      fs.inject(step, "ENOSPC", (name) => name.includes(".fresh.store.tmp-"));
      assert.is(await outcome(data.execute("fresh", { kind: "transaction", commands: [usersTable, threeUsers] })), "insufficient_storage", step);
      assert.is(await outcome(data.execute("fresh", select)), "database_not_found", step);
      assert.not.ok(existsSync(path.join(dir, "fresh.store")), step);
      assert.is(await outcome(data.execute("fresh", { kind: "transaction", commands: [usersTable, threeUsers] })), "ok", `${step}: the next one`);
      await data.close();
    } finally {
      removeDir(dir);
    }
  }
});

interface Runner {
  read(): Promise<unknown>;
  transaction(steps: readonly Command[]): Promise<never>;
  close(): Promise<void>;
}

async function directoryRunner(dir: string, fs: InstrumentedFs): Promise<Runner> {
  const data = await DataDirectory.open(dir, { fs, checkpoints: { journalBytes: 1 << 30, idleMs: 60_000 } });
  return {
    read: () => Promise.all([data.execute("shop", select), data.execute("shop", describe)]),
    transaction: (steps) => data.execute("shop", { kind: "transaction", commands: steps }) as Promise<never>,
    close: () => data.close(),
  };
}

async function libraryRunner(dir: string, fs: InstrumentedFs): Promise<Runner> {
  const db = await Database.open(path.join(dir, "shop.store"), { fs, checkpoints: { journalBytes: 1 << 30, idleMs: 60_000 } });
  return {
    read: () => Promise.all([db.execute(select), db.execute(describe)]),
    transaction: (steps) =>
      db.transaction(async (tx) => {
        for (const step of steps) await tx.execute(step);
      }) as Promise<never>,
    close: () => db.close(),
  };
}

const CYCLES = 30;

test(`${CYCLES} SIGKILL cycles of processes writing transactions (commands and library callbacks): never part of a transaction on disk, no acknowledged one lost`, async () => {
  const bundle = await bundleChild("transaction-child");
  const dir = scratchDir("tx-crash");
  let acked = 0;
  let present = 0;
  try {
    let first = 0;
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const mode = cycle % 2 === 0 ? "command" : "library";
      const report = await transactionCrashCycle(bundle, dir, first, 20 + Math.floor(Math.random() * 120), mode);
      assert.equal(report.problems, [], `cycle ${cycle} (${mode})`);
      assert.equal(report.partial, [], `cycle ${cycle} (${mode}): transactions present in part`);
      assert.equal(report.lost, [], `cycle ${cycle} (${mode}): acknowledged but lost`);
      acked += report.acked;
      present = report.present;
      first += 1_000_000;
    }
    assert.ok(acked > CYCLES, `the children acknowledged transactions (${acked})`);
    assert.ok(present > 0);
  } finally {
    rmSync(path.dirname(bundle), { recursive: true, force: true });
    removeDir(dir);
  }
});

test.run();
