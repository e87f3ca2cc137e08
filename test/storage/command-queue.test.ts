/** The queue's ordering and group-commit rules, with a counter standing in for the engine. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Change } from "../../src/catalog/types.js";
import type { Command } from "../../src/commands/types.js";
import type { Result } from "../../src/commands/results.js";
import { CommandQueue } from "../../src/storage/command-queue.js";
import type { Applied } from "../../src/storage/command-queue.js";
import { StoreError, StorageError } from "../../src/errors.js";

/** A counter: inserts add rows[0].n, a select reads it; a delete is rejected. Commits wait for `release()`. */
class Counter {
  value = 0;
  durable = 0;
  commits: number[] = [];
  log: string[] = [];
  failNext = false;
  private gate: (() => void)[] = [];
  readonly queue = new CommandQueue({
    prepare: async () => undefined,
    apply: (command) => this.apply(command),
    commit: (changes) => this.commit(changes),
    rollback: (changes) => {
      this.log.push(`rollback ${changes.length}`);
      for (const change of changes) if (change.kind === "insert") this.value -= change.row[0] as number;
    },
  });

  apply(command: Command): Applied {
    switch (command.kind) {
      case "insert": {
        const n = command.rows![0]!.n as number;
        this.value += n;
        const change: Change = { kind: "insert", table: "t", row: [n], position: 0 };
        return { result: { kind: "mutation", operation: "insert", table: "t", rowsAffected: n }, changes: [change] };
      }
      case "select":
        return { result: { kind: "rows", columns: ["v"], rows: [[this.value]], rowCount: 1 }, changes: [] };
      default:
        throw new StoreError("validation_failed", "rejected");
    }
  }

  async commit(changes: readonly Change[]): Promise<void> {
    this.commits.push(changes.length);
    this.log.push(`commit ${changes.length}`);
    await new Promise<void>((resolve) => this.gate.push(resolve));
    if (this.failNext) {
      this.failNext = false;
      for (const change of changes) if (change.kind === "insert") this.value -= change.row[0] as number;
      throw new StorageError("insufficient_storage", "full");
    }
    this.durable = this.value;
  }

  release(): void {
    for (const open of this.gate.splice(0)) open();
  }

  insert(n: number, tag = `insert ${n}`): Promise<Result> {
    return this.queue.run({ kind: "insert", table: "t", rows: [{ n }] }).then((r) => (this.log.push(`answer ${tag}`), r));
  }
  read(tag = "read"): Promise<number> {
    return this.queue.run({ kind: "select", table: "t", columns: "*" }).then((r) => {
      this.log.push(`answer ${tag}`);
      return (r as unknown as { rows: number[][] }).rows[0]![0]!;
    });
  }
  reject(): Promise<string> {
    return this.queue.run({ kind: "delete", table: "t", where: { type: "literal", value: true } }).then(
      () => "resolved",
      (e: StoreError) => (this.log.push("answer rejected"), e.code),
    );
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test("mutations queued during a commit are committed together, each answered after it", async () => {
  const c = new Counter();
  const first = c.insert(1);
  await tick();
  const rest = [c.insert(2), c.insert(3), c.insert(4)];
  await tick();
  assert.equal(c.commits, [1]);
  c.release();
  await first;
  await tick();
  assert.equal(c.commits, [1, 3]);
  assert.not.ok(c.log.includes("answer insert 2"), "not answered before its commit");
  c.release();
  await Promise.all(rest);
  assert.is(c.durable, 10);
  assert.equal(c.log, ["commit 1", "answer insert 1", "commit 3", "answer insert 2", "answer insert 3", "answer insert 4"]);
});

test("a read queued after a mutation sees it only once it is durable", async () => {
  const c = new Counter();
  const idle = await c.read("early");
  assert.is(idle, 0);
  const w = c.insert(5);
  const r = c.read("late");
  await tick();
  assert.not.ok(c.log.includes("answer late"));
  c.release();
  assert.is(await r, 5);
  await w;
  assert.ok(c.log.indexOf("answer late") > c.log.indexOf("commit 1"));
});

test("a rejected mutation leaves its group alone", async () => {
  const c = new Counter();
  const first = c.insert(1);
  await tick();
  const group = [c.insert(2), c.reject(), c.insert(3)];
  c.release();
  await first;
  await tick();
  c.release();
  const [a, rejected, b] = await Promise.all(group);
  assert.is(rejected, "validation_failed");
  assert.is((a as { rowsAffected: number }).rowsAffected, 2);
  assert.is((b as { rowsAffected: number }).rowsAffected, 3);
  assert.is(c.durable, 6);
});

test("a failed commit fails its mutations and reruns what depended on them", async () => {
  const c = new Counter();
  const first = c.insert(1);
  await tick();
  c.release();
  await first;
  c.failNext = true;
  const failed = c.insert(10).catch((e: StoreError) => e.code);
  const read = c.read();
  await tick();
  c.release();
  assert.is(await failed, "insufficient_storage");
  assert.is(await read, 1, "the read reran on the restored state");
  assert.is(c.value, 1);
  assert.is(c.durable, 1);
});

test("drained() waits for everything queued", async () => {
  const c = new Counter();
  const all = [c.insert(1), c.insert(2)];
  const drained = c.queue.drained().then(() => c.log.push("drained"));
  await tick();
  c.release();
  await tick();
  c.release();
  await Promise.all([...all, drained]);
  assert.is(c.log[c.log.length - 1], "drained");
});

test("a hold waits for the group before it, and everything after it waits for the hold to end", async () => {
  const c = new Counter();
  const first = c.insert(1);
  const held = c.queue.hold().then((lease) => (c.log.push("held"), lease));
  const after = c.insert(10, "after");
  await tick();
  assert.equal(c.log, ["commit 1"], "the hold waits for the commit before it");
  c.release();
  const lease = await held;
  await first;
  assert.equal(c.log, ["commit 1", "answer insert 1", "held"]);
  const a = lease.apply({ kind: "insert", table: "t", rows: [{ n: 2 }] });
  const b = lease.apply({ kind: "insert", table: "t", rows: [{ n: 3 }] });
  assert.is(lease.apply({ kind: "select", table: "t", columns: "*" }).result.kind, "rows");
  await tick();
  assert.equal(c.log.length, 3, "nothing queued after the hold ran while it is held");
  const ending = lease.end([...a.changes, ...b.changes], true);
  await tick();
  assert.equal(c.log.slice(3), ["commit 2"], "the lease's changes are one group");
  c.release();
  await ending;
  await tick();
  c.release();
  await after;
  assert.equal(c.log.slice(3), ["commit 2", "commit 1", "answer after"]);
  assert.is(c.durable, 16);
});

test("a lease ended without keeping undoes its changes and lets the queue go on; it takes no more commands", async () => {
  const c = new Counter();
  const lease = await c.queue.hold();
  const after = c.read("after");
  const applied = lease.apply({ kind: "insert", table: "t", rows: [{ n: 5 }] });
  assert.is(c.value, 5);
  await lease.end(applied.changes, false);
  assert.is(await after, 0, "the command queued behind the hold sees the rollback");
  assert.equal(c.log, ["rollback 1", "answer after"]);
  assert.throws(() => lease.apply({ kind: "select", table: "t", columns: "*" }), /over/);
});

test("a lease whose commit fails rejects its end, memory back at the durable state", async () => {
  const c = new Counter();
  const lease = await c.queue.hold();
  const applied = lease.apply({ kind: "insert", table: "t", rows: [{ n: 7 }] });
  c.failNext = true;
  const ending = lease.end(applied.changes, true);
  await tick();
  c.release();
  await ending.then(
    () => assert.unreachable("the commit failed"),
    (error: StoreError) => assert.is(error.code, "insufficient_storage"),
  );
  assert.is(c.value, 0);
  assert.is(await c.read(), 0);
});

test.run();
