/**
 * Schema changes are journaled, replayed and undone exactly: for a seeded
 * random sequence of schema changes (indexes created and dropped, unique
 * ones refused by the data) among inserts, updates and deletes, after every
 * command
 * - undoing its changes gives back the document the engine wrote before it,
 *   byte for byte;
 * - redoing them, as the journal records them (written as a line and read
 *   back), gives back the document it wrote after it;
 * and on a file, the checkpointed document — after the live run, and after
 * a fresh open that replays the journal — is the document an engine that
 * ran the same commands in memory writes from scratch.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { copyFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { Engine } from "../../src/catalog/engine.js";
import type { Command, Value } from "../../src/commands/types.js";
import { Database } from "../../src/database.js";
import { StoreError } from "../../src/errors.js";
import { StoreWriter } from "../../src/storage/format.js";
import { decodeRecord, recordLine, scanJournal, headerLine, type JournalEntry } from "../../src/storage/journal-format.js";
import { removeDir, scratchDir } from "../storage/helpers/scratch.js";
import { schemaCommand } from "./support/schema-commands.js";

const document = (engine: Engine): string => new StoreWriter().write(engine.snapshot()).toString("utf8");

/** A seeded generator (the same sequence every run; the seed is in every message). */
function random(seed: number): (n: number) => number {
  let state = seed;
  // The high bits: an LCG's low bits cycle with short periods.
  return (n) => ((state = (state * 1103515245 + 12345) % 2147483648), Math.floor(state / 65536) % n);
}

const SETUP: readonly Command[] = [
  {
    kind: "create-table",
    schema: {
      name: "people",
      columns: { id: "integer", name: "text", city: "text", age: "integer" },
      primary_key: { columns: ["id"] },
      checks: [{ name: "adult", expr: { type: "comparison", op: ">=", left: { type: "identifier", name: "age" }, right: { type: "literal", value: 0 } } }],
      computed: { label: { type: "binary", op: "||", left: { type: "identifier", name: "name" }, right: { type: "identifier", name: "city" } } },
    },
  },
  {
    kind: "create-table",
    schema: {
      name: "pets",
      columns: { id: "integer", owner: "integer", kind: "text" },
      primary_key: { columns: ["id"] },
      foreign_keys: [{ columns: ["owner"], references: { table: "people", columns: ["id"] }, on_delete: "cascade" }],
    },
  },
];

/** A data command of the sequence. */
function dataCommand(rnd: (n: number) => number): Command {
  const id = rnd(30);
  const v = (list: readonly Value[]): Value => list[rnd(list.length)]!;
  switch (rnd(5)) {
    case 0:
      return { kind: "insert", table: "people", rows: [{ id, name: v(["a", "b", "c", null]), city: v(["P", "R", null]), age: rnd(90) }] };
    case 1:
      return { kind: "insert", table: "pets", rows: [{ id: 100 + rnd(40), owner: id, kind: v(["cat", "dog"]) }] };
    case 2:
      return { kind: "sql", sql: "UPDATE people SET age = age + 1, city = coalesce(city, 'Q') WHERE id % 3 = ?", params: [rnd(3)] };
    case 3:
      return { kind: "sql", sql: "DELETE FROM people WHERE id = ?", params: [id] };
    default:
      return { kind: "sql", sql: "UPDATE pets SET kind = kind || '!' WHERE owner = ?", params: [id] };
  }
}

/** The sequence of `seed`: the setup, then data commands with a schema change every few. */
function sequence(seed: number, length: number): Command[] {
  const rnd = random(seed);
  const out: Command[] = [...SETUP];
  for (let i = 0; i < length; i++) out.push(rnd(3) === 0 ? schemaCommand(rnd) : dataCommand(rnd));
  return out;
}

test("after every command of random sequences: undo gives back the document before it, the journal's redo the document after it", () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const engine = Engine.empty();
    let ran = 0;
    let schemaChanges = 0;
    for (const [i, command] of sequence(seed, 120).entries()) {
      const before = document(engine);
      let changes;
      try {
        changes = engine.execute(command).changes;
      } catch (error) {
        assert.instance(error, StoreError, `seed ${seed} #${i}`);
        assert.is(document(engine), before, `seed ${seed} #${i}: a refused command changes nothing`);
        continue;
      }
      ran += 1;
      if (changes.some((c) => c.kind === "alter-table")) schemaChanges += 1;
      const after = document(engine);
      engine.undo(changes);
      assert.is(document(engine), before, `seed ${seed} #${i} (${command.kind}): undo`);
      const line = Buffer.concat([headerLine("sha256:" + "0".repeat(64), 0), recordLine(1, changes)]);
      const [entry] = scanJournal(line).entries;
      assert.is(entry?.kind, "changes");
      engine.redo(decodeRecord(entry as JournalEntry & { kind: "changes" }));
      assert.is(document(engine), after, `seed ${seed} #${i} (${command.kind}): redo`);
    }
    assert.ok(ran > 60, `seed ${seed}: ${ran} commands ran`);
    assert.ok(schemaChanges > 5, `seed ${seed}: ${schemaChanges} schema changes ran`);
    assert.equal(engine.execute({ kind: "validate" }).result, { kind: "validation", valid: true, errors: [] });
  }
});

test("on a file: the checkpointed document, live and after a replay of the journal, is what an engine writes from scratch", async () => {
  for (const seed of [11, 12]) {
    const dir = scratchDir("alter-replay");
    try {
      const file = path.join(dir, "db.store");
      const quiet = { checkpoints: { journalBytes: 1 << 30, idleMs: 600_000 } };
      const db = await Database.open(file, quiet);
      const memory = Engine.empty();
      for (const command of sequence(seed, 80)) {
        const live = await db.execute(command).then(() => "ok", (error: StoreError) => error.code);
        let inMemory = "ok";
        try {
          memory.execute(command);
        } catch (error) {
          inMemory = (error as StoreError).code;
        }
        assert.is(live, inMemory, `seed ${seed}: ${JSON.stringify(command)}`);
      }
      // The journal as it stands, copied beside: a database opened from it replays every record.
      copyFileSync(file, path.join(dir, "copy.store"));
      copyFileSync(`${file}-journal`, path.join(dir, "copy.store-journal"));
      assert.ok(scanJournal(readFileSync(`${file}-journal`)).entries.length > 10, "the changes are in the journal");
      await db.execute({ kind: "checkpoint" });
      const scratch = new StoreWriter().write(memory.snapshot());
      assert.ok(readFileSync(file).equals(scratch), `seed ${seed}: the live checkpoint`);
      await db.close();
      const copy = await Database.open(path.join(dir, "copy.store"), quiet);
      assert.equal(await copy.execute({ kind: "validate" }).then((r) => r.kind === "validation" && r.valid), true);
      await copy.execute({ kind: "checkpoint" });
      await copy.close();
      assert.ok(readFileSync(path.join(dir, "copy.store")).equals(scratch), `seed ${seed}: the checkpoint after a replay`);
    } finally {
      removeDir(dir);
    }
  }
});

test.run();
