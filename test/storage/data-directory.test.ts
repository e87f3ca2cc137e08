/**
 * DataDirectory and Database on real files: missing and invalid databases,
 * names and symlinks, files changed by someone else, file modes, leftover
 * temp files, independence of databases, serializable concurrency, close.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "../../src/commands/types.js";
import type { Result } from "../../src/commands/results.js";
import { Database } from "../../src/database.js";
import { DataDirectory } from "../../src/storage/data-directory.js";
import { LOCK_NAME } from "../../src/storage/lock.js";
import { InstrumentedFs } from "./helpers/instrumented-fs.js";
import { eq, fingerprint, outcome, removeDir, scratchDir, seed, threeUsers, usersTable } from "./helpers/scratch.js";

let dir = "";
test.before.each(() => {
  dir = scratchDir("datadir");
});
test.after.each(() => removeDir(dir));

const select: Command = { kind: "select", table: "users", columns: ["id", "name"], output: "arrays" };
function rowsOf(result: Result): readonly unknown[] {
  if (result.kind !== "rows") throw new Error(`not rows: ${result.kind}`);
  return result.rows;
}
const file = (name: string) => path.join(dir, `${name}.store`);

test("a missing database: 404 except create-table (creates it) and drop-table ifExists (no file)", async () => {
  const data = await DataDirectory.open(dir);
  for (const command of [select, { kind: "validate" }, { kind: "describe" }, { kind: "insert", table: "users", rows: [{ id: "1" }] }, { kind: "drop-table", table: "users" }] as Command[]) {
    assert.is(await outcome(data.execute("shop", command)), "database_not_found", command.kind);
  }
  assert.is(await outcome(data.execute("shop", { kind: "sql", sql: "SELECT * FROM users" })), "database_not_found");
  assert.equal(await data.execute("shop", { kind: "drop-table", table: "users", ifExists: true }), { kind: "mutation", operation: "drop-table", table: "users", rowsAffected: 0 });
  assert.not.ok(existsSync(file("shop")));
  assert.is((await data.execute("shop", usersTable)).kind, "mutation");
  assert.ok(existsSync(file("shop")));
  assert.is((await data.execute("other", { kind: "sql", sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)" })).kind, "mutation");
  assert.ok(existsSync(file("other")));
  await data.close();
});

test("names reach the filesystem only through the §1 pattern", async () => {
  const data = await DataDirectory.open(dir);
  for (const name of ["../x", "a/b", "A", "con", "lpt1", "", ".hidden", "a.store", "x".repeat(65), "a\u0000b"]) {
    assert.is(await outcome(data.execute(name, usersTable)), "invalid_name", JSON.stringify(name));
  }
  await data.close();
  assert.equal(readdirSync(dir), []);
});

test("execute checks the command: a malformed one is invalid_request and the file is untouched", async () => {
  await seed(dir, "shop", [usersTable, threeUsers]);
  const data = await DataDirectory.open(dir);
  const before = readFileSync(file("shop"));
  const malformed = [
    { kind: "nope" },
    { kind: "select", table: "users", where: { type: "bogus" } },
    { kind: "delete", table: "users", where: { type: "comparison", op: "=", left: { type: "identifier", name: "id" } } },
    { kind: "insert", table: "users" },
    null,
  ];
  for (const command of malformed) assert.is(await outcome(data.execute("shop", command)), "invalid_request", JSON.stringify(command));
  assert.equal(readFileSync(file("shop")), before);
  assert.is(rowsOf(await data.execute("shop", select)).length, 3);
  await data.close();
});

test("a symlink leading out of the data directory is no database; one inside works", async () => {
  const outside = scratchDir("outside");
  try {
    await seed(outside, "secret", [usersTable, threeUsers]);
    const secret = readFileSync(path.join(outside, "secret.store"));
    symlinkSync(path.join(outside, "secret.store"), file("evil"));
    await seed(dir, "real", [usersTable, threeUsers]);
    symlinkSync(file("real"), file("alias"));
    const data = await DataDirectory.open(dir);
    assert.is(await outcome(data.execute("evil", select)), "database_not_found");
    assert.is(await outcome(data.execute("evil", { kind: "validate" })), "database_not_found");
    assert.is(rowsOf(await data.execute("alias", select)).length, 3);
    // Writes go through the link to its target (and its journal beside the target), and the database behind "real" sees them.
    await data.execute("alias", { kind: "insert", table: "users", rows: [{ id: "4", name: "Di" }] });
    assert.ok(existsSync(`${file("real")}-journal`) && !existsSync(`${file("alias")}-journal`));
    assert.ok((await fingerprint(file("real"))).includes('"Di"'));
    assert.is(rowsOf(await data.execute("real", select)).length, 4);
    // Creating "evil" replaces the link itself; the file outside is never written.
    await data.execute("evil", usersTable);
    await data.close();
    assert.ok(readFileSync(path.join(outside, "secret.store")).equals(secret));
    assert.not.ok(lstatSync(file("evil")).isSymbolicLink());
    assert.ok(lstatSync(file("alias")).isSymbolicLink());
  } finally {
    removeDir(outside);
  }
});

test("a directory or FIFO named like a database is a storage error, never read", async () => {
  mkdirSync(file("dir"));
  execFileSync("mkfifo", [file("fifo")]);
  const data = await DataDirectory.open(dir);
  for (const name of ["dir", "fifo"]) {
    for (const command of [select, { kind: "validate" }, usersTable] as Command[]) {
      assert.is(await outcome(data.execute(name, command)), "storage_error", `${name}: ${command.kind}`);
    }
  }
  await data.close();
  assert.ok(lstatSync(file("fifo")).isFIFO());
});

test("an invalid file: validate reports it, everything else is database_corrupt, the file is untouched", async () => {
  await seed(dir, "shop", [usersTable, threeUsers]);
  const good = readFileSync(file("shop"));
  const flipped = Buffer.from(good);
  flipped[good.indexOf("Ada")]! ^= 0x01;
  const cases: [string, Buffer, string][] = [
    ["bit flip", flipped, "checksum"],
    ["not JSON", Buffer.from('{"format":"storedb/1",\n"tables":{'), "json"],
    ["wrong format", Buffer.from('{"format":"storedb/9","tables":{}}'), "format"],
    ["duplicate key", Buffer.from('{"format":"storedb/1","tables":{"users":{"schema":{"name":"users","columns":{"id":"text"},"primary_key":{"columns":["id"]}},"rows":[{"id":"1"},{"id":"1"}]}}}'), "duplicate_key"],
  ];
  for (const [label, bytes, code] of cases) {
    writeFileSync(file("shop"), bytes);
    const data = await DataDirectory.open(dir);
    const validation = await data.execute("shop", { kind: "validate" });
    assert.is(validation.kind, "validation", label);
    assert.is(validation.kind === "validation" && validation.valid, false, label);
    const codes = validation.kind === "validation" ? validation.errors.map((e) => e.code) : [];
    assert.ok(codes.includes(code as never), `${label}: ${JSON.stringify(validation)}`);
    if (code === "json") assert.match(JSON.stringify(validation), /line 2, column 11/);
    for (const command of [select, { kind: "insert", table: "users", rows: [{ id: "9" }] }, { kind: "drop-table", table: "users" }, usersTable] as Command[]) {
      assert.is(await outcome(data.execute("shop", command)), "database_corrupt", `${label}: ${command.kind}`);
    }
    await data.close();
    assert.ok(readFileSync(file("shop")).equals(bytes), `${label}: file untouched`);
  }
});

test("a hand-written file without a checksum is valid", async () => {
  writeFileSync(file("hand"), '{"format":"storedb/1","tables":{"users":{"schema":{"name":"users","columns":{"id":"text","name":"text"}},"rows":[{"id":"1"}]}}}');
  const data = await DataDirectory.open(dir);
  assert.equal(await data.execute("hand", { kind: "validate" }), { kind: "validation", valid: true, errors: [], journal: { records: 0, bytes: 0 } });
  assert.equal(rowsOf(await data.execute("hand", select)), [["1", null]]);
  await data.close();
});

test("a file changed by someone else is reloaded before the next command; a deleted one is gone", async () => {
  await seed(dir, "shop", [usersTable, threeUsers]);
  const data = await DataDirectory.open(dir);
  assert.is(rowsOf(await data.execute("shop", select)).length, 3);

  // Replaced (restore from backup): a new inode.
  writeFileSync(path.join(dir, "incoming"), '{"format":"storedb/1","tables":{"users":{"schema":{"name":"users","columns":{"id":"text","name":"text"}},"rows":[{"id":"x","name":"restored"}]}}}');
  renameSync(path.join(dir, "incoming"), file("shop"));
  assert.equal(rowsOf(await data.execute("shop", select)), [["x", "restored"]]);

  // Edited in place: same inode, new size.
  writeFileSync(file("shop"), '{"format":"storedb/1","tables":{"users":{"schema":{"name":"users","columns":{"id":"text","name":"text"}},"rows":[{"id":"y","name":"edited"},{"id":"z"}]}}}');
  assert.equal(rowsOf(await data.execute("shop", select)), [["y", "edited"], ["z", null]]);

  // Writes go on from the reloaded state.
  await data.execute("shop", { kind: "insert", table: "users", rows: [{ id: "w", name: "new" }] });
  assert.equal(JSON.parse(await fingerprint(file("shop")))[0][1].length, 3);

  // Replaced again: the journal of the old document is not replayed onto the new one.
  writeFileSync(path.join(dir, "incoming"), '{"format":"storedb/1","tables":{"users":{"schema":{"name":"users","columns":{"id":"text","name":"text"}},"rows":[{"id":"r"}]}}}');
  renameSync(path.join(dir, "incoming"), file("shop"));
  // A caller in this process that edits the file synchronously waits for one poll of the event loop (see change-watch.ts).
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(rowsOf(await data.execute("shop", select)), [["r", null]]);

  unlinkSync(file("shop"));
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.is(await outcome(data.execute("shop", select)), "database_not_found");
  await data.execute("shop", usersTable);
  assert.equal(rowsOf(await data.execute("shop", select)), []);
  await data.close();
});

test("an existing database keeps its file mode", async () => {
  await seed(dir, "shop", [usersTable]);
  chmodSync(file("shop"), 0o600);
  const data = await DataDirectory.open(dir);
  await data.execute("shop", threeUsers);
  await data.close();
  assert.is(statSync(file("shop")).mode & 0o777, 0o600);
});

test("leftover temp files are removed at startup, other files are not", async () => {
  await seed(dir, "shop", [usersTable]);
  writeFileSync(path.join(dir, ".shop.store.tmp-999999-3"), "half a file");
  writeFileSync(path.join(dir, ".other.store.tmp-1-1"), "");
  writeFileSync(path.join(dir, "notes.txt"), "mine");
  const data = await DataDirectory.open(dir);
  assert.equal(readdirSync(dir).sort(), [LOCK_NAME, "notes.txt", "shop.store"]);
  await data.close();
});

test("500 concurrent mutations on one database: nothing lost, the same result as running them serially", async () => {
  const commands: Command[] = [usersTable];
  for (let i = 0; i < 500; i++) {
    if (i % 10 === 3) commands.push({ kind: "update", table: "users", set: { name: `renamed ${i}` }, where: eq("id", String(i - 3)) });
    else if (i % 10 === 7) commands.push({ kind: "insert", table: "users", rows: [{ id: String(i - 7), name: "duplicate" }] });
    else if (i % 25 === 9) commands.push({ kind: "delete", table: "users", where: eq("id", String(i - 9)) });
    else commands.push({ kind: "insert", table: "users", rows: [{ id: String(i), name: `user ${i}` }] });
  }
  const data = await DataDirectory.open(dir);
  const concurrent = await Promise.all(commands.map((c) => data.execute("shop", c).then((r) => JSON.stringify(r), (e: { code: string }) => e.code)));
  const finalRows = rowsOf(await data.execute("shop", select));
  await data.close();

  const serial = Database.memory();
  const expected: string[] = [];
  for (const c of commands) expected.push(await serial.execute(c).then((r) => JSON.stringify(r), (e: { code: string }) => e.code));
  assert.equal(concurrent, expected);
  assert.ok(expected.includes("constraint_violation"), "the mix includes rejected mutations");
  assert.equal(finalRows, rowsOf(await serial.execute(select)));
  // And on disk, after a fresh open.
  const reopened = await DataDirectory.open(dir);
  assert.equal(rowsOf(await reopened.execute("shop", select)), finalRows);
  await reopened.close();
});

test("databases are independent: a slow write to one does not block another", async () => {
  const fs = await InstrumentedFs.over(dir);
  const data = await DataDirectory.open(dir, { fs });
  await data.execute("slow", usersTable);
  await data.execute("fast", usersTable);
  const release = fs.hold("append", (name) => name.startsWith(".slow.store-journal.tmp-"));
  let slowDone = false;
  const slow = data.execute("slow", threeUsers).then(() => (slowDone = true));
  await data.execute("fast", threeUsers);
  assert.is(rowsOf(await data.execute("fast", select)).length, 3);
  assert.not.ok(slowDone);
  release();
  await slow;
  await data.close();
});

test("close waits for in-flight writes, refuses new commands, releases the lock", async () => {
  const fs = await InstrumentedFs.over(dir);
  const data = await DataDirectory.open(dir, { fs });
  await data.execute("shop", usersTable);
  const release = fs.hold("append");
  const write = data.execute("shop", threeUsers);
  await new Promise((resolve) => setTimeout(resolve, 10));
  const closed = data.close();
  assert.is(await outcome(data.execute("shop", select)), "shutting_down");
  release();
  assert.is(await outcome(write), "ok");
  await closed;
  assert.not.ok(existsSync(path.join(dir, LOCK_NAME)));
  const again = await DataDirectory.open(dir);
  assert.is(rowsOf(await again.execute("shop", select)).length, 3);
  await again.close();
});

test("a second DataDirectory on the same directory fails at once", async () => {
  const data = await DataDirectory.open(dir);
  assert.is(await outcome(DataDirectory.open(dir) as unknown as Promise<Result>), "storage_error");
  await data.close();
});

test.run();
