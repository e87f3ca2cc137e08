/**
 * The library's `db.transaction(async (tx) => …)`: what it keeps and
 * answers, how other callers wait for it, and what happens when its
 * callback throws, calls the database itself, or never finishes.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Result } from "../src/commands/results.js";
import type { Command } from "../src/commands/types.js";
import { Database } from "../src/database.js";
import { StoreError } from "../src/errors.js";
import { outcome, removeDir, scratchDir } from "./storage/helpers/scratch.js";

const table: Command = { kind: "create-table", schema: { name: "t", columns: { id: "integer", n: "integer" }, primary_key: { columns: ["id"] } } };
const insert = (id: number, n = 0): Command => ({ kind: "insert", table: "t", rows: [{ id, n }] });
const ids = async (db: Database): Promise<unknown> => {
  const result = await db.execute({ kind: "select", table: "t", columns: ["id"], output: "arrays" });
  return result.kind === "rows" ? result.rows.flat() : result;
};

async function fresh(): Promise<Database> {
  const db = Database.memory();
  await db.execute(table);
  await db.execute(insert(1));
  return db;
}

const codeOf = (error: unknown): string => (error instanceof StoreError ? error.code : String(error));

test("the callback's value is transaction()'s; its commands see each other and are all kept", async () => {
  const db = await fresh();
  const value = await db.transaction(async (tx) => {
    await tx.execute(insert(2));
    await tx.sql("UPDATE t SET n = n + 10 WHERE id = ?", [2]);
    await tx.table("t").insert({ id: 3, n: 1 }).run();
    const read = await tx.sql("SELECT n FROM t WHERE id = 2");
    return read.kind === "rows" ? read.rows[0] : undefined;
  });
  assert.equal(value, { n: 10 });
  assert.equal(await ids(db), [1, 2, 3]);
});

test("a callback that throws keeps nothing and rejects with what it threw", async () => {
  const db = await fresh();
  const thrown = new Error("changed my mind");
  const error = await db.transaction(async (tx) => {
    await tx.execute(insert(2));
    await tx.execute({ kind: "drop-table", table: "t" });
    throw thrown;
  }).catch((e: unknown) => e);
  assert.is(error, thrown);
  assert.equal(await ids(db), [1]);
});

test("a command the callback catches changed nothing and does not end the transaction", async () => {
  const db = await fresh();
  await db.transaction(async (tx) => {
    await tx.execute(insert(2));
    assert.is(await outcome(tx.execute(insert(1))), "constraint_violation");
    await tx.execute(insert(3));
  });
  assert.equal(await ids(db), [1, 2, 3]);
});

test("other callers wait for the transaction and then see all of it", async () => {
  const db = await fresh();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const order: string[] = [];
  const running = db.transaction(async (tx) => {
    await tx.execute(insert(2));
    await gate;
    await tx.execute(insert(3));
    order.push("transaction");
  });
  await new Promise((resolve) => setTimeout(resolve, 10));
  const reader = ids(db).then((rows) => (order.push("reader"), rows));
  const writer = db.execute(insert(4)).then(() => order.push("writer"));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(order, [], "nothing ran while the transaction holds the database");
  release();
  await running;
  assert.equal(await reader, [1, 2, 3]);
  await writer;
  assert.equal(order, ["transaction", "reader", "writer"]);
});

test("calling the database itself from inside the callback is refused at once, not a deadlock", async () => {
  const db = await fresh();
  const codes = await db.transaction(async (tx) => {
    await tx.execute(insert(2));
    const own = await outcome(db.execute(insert(3)));
    const nested = await db.transaction(async () => undefined).then(() => "ok", codeOf);
    return [own, nested];
  });
  assert.equal(codes, ["invalid_request", "invalid_request"]);
  assert.equal(await ids(db), [1, 2]);
  // Outside the callback the database is the caller's again.
  assert.is(await outcome(db.execute(insert(5))), "ok");
});

test("a callback past its timeout is undone, the database let go, and tx takes no more commands", async () => {
  const db = await fresh();
  let late: Promise<string> | undefined;
  let txOut!: { execute(c: unknown): Promise<Result> };
  const started = Date.now();
  const error = await db
    .transaction(
      async (tx) => {
        txOut = tx;
        await tx.execute(insert(2));
        await new Promise((resolve) => setTimeout(resolve, 300));
        late = outcome(tx.execute(insert(9)));
      },
      { timeoutMs: 50 },
    )
    .catch((e: unknown) => e);
  assert.is(codeOf(error), "invalid_request");
  assert.match((error as Error).message, /50 ms/);
  assert.ok(Date.now() - started < 250, "the timeout does not wait for the callback");
  assert.equal(await ids(db), [1], "nothing kept, and the database answers again");
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.is(await late, "invalid_request", "the timed-out callback's later command is refused");
  assert.is(await outcome(txOut.execute(insert(8))), "invalid_request");
  assert.equal(await ids(db), [1]);
});

test("a callback that never settles holds the database only until its timeout", async () => {
  const db = await fresh();
  const held = db.transaction(() => new Promise<never>(() => undefined), { timeoutMs: 30 }).catch(codeOf);
  assert.is(await outcome(db.execute(insert(2))), "ok", "a caller waiting behind it runs once it timed out");
  assert.is(await held, "invalid_request");
});

test("tx refuses what a transaction cannot hold, and every command once the callback is done", async () => {
  const db = await fresh();
  let kept!: { execute(c: unknown): Promise<Result> };
  await db.transaction(async (tx) => {
    kept = tx;
    assert.is(await outcome(tx.execute({ kind: "transaction", commands: [insert(2)] })), "invalid_request");
    assert.is(await outcome(tx.execute({ kind: "checkpoint" })), "invalid_request");
    assert.is(await outcome(tx.execute({ kind: "update", table: "t", set: { n: 1 } })), "invalid_request", "validated like execute");
  });
  assert.is(await outcome(kept.execute(insert(2))), "invalid_request");
  assert.equal(await ids(db), [1]);
});

test("timeoutMs must be a positive number; a closed database takes no transaction", async () => {
  const db = await fresh();
  for (const timeoutMs of [0, -1, Number.NaN, "5" as unknown as number]) {
    assert.is(await db.transaction(async () => 1, { timeoutMs }).then(() => "ok", codeOf), "invalid_request", String(timeoutMs));
  }
  assert.is(await db.transaction(async () => 1, { timeoutMs: Infinity }), 1);
  await db.close();
  assert.is(await db.transaction(async () => 1).then(() => "ok", codeOf), "shutting_down");
});

test("close waits for a running transaction to end", async () => {
  const db = await fresh();
  let release!: () => void;
  const running = db.transaction(async (tx) => {
    await tx.execute(insert(2));
    await new Promise<void>((resolve) => (release = resolve));
  });
  await new Promise((resolve) => setTimeout(resolve, 10));
  let closed = false;
  const closing = db.close().then(() => (closed = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.not.ok(closed);
  release();
  await running;
  await closing;
});

test("on a file: a transaction that creates the database keeps it only if it resolves; a read-only database refuses its writes", async () => {
  const dir = scratchDir("library-tx");
  const file = path.join(dir, "new.store");
  try {
    const db = await Database.open(file);
    assert.is(await db.transaction(async (tx) => {
      await tx.execute(table);
      throw new Error("no");
    }).then(() => "ok", () => "failed"), "failed");
    assert.not.ok(existsSync(file), "no database was created");
    assert.is(await outcome(db.execute({ kind: "select", table: "t", columns: "*" })), "database_not_found");
    await db.transaction(async (tx) => {
      await tx.execute(table);
      await tx.execute(insert(1, 5));
    });
    assert.ok(existsSync(file));
    await db.close();

    const reader = await Database.open(file, { readOnly: true });
    const code = await reader.transaction(async (tx) => {
      assert.equal((await tx.execute({ kind: "select", table: "t", columns: ["n"], output: "arrays" })).kind, "rows");
      return outcome(tx.execute(insert(2)));
    });
    assert.is(code, "database_locked");
    await reader.close();
  } finally {
    removeDir(dir);
  }
});

test.run();
