/**
 * One writer per database file, and readers beside it (CONTRACT §10), in
 * one process: a second writer is refused with `database_locked` at once;
 * a database opened read-only takes no lock, writes nothing, refuses every
 * mutation with `database_locked`, and follows the writer — applying only
 * what the journal grew by, reloading after a checkpoint.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { appendFileSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "../../src/commands/types.js";
import { Database } from "../../src/database.js";
import { DataDirectory } from "../../src/storage/data-directory.js";
import { InstrumentedFs } from "./helpers/instrumented-fs.js";
import { eq, outcome, removeDir, scratchDir, threeUsers, usersTable } from "./helpers/scratch.js";

let dir = "";
let file = "";
test.before.each(() => {
  dir = scratchDir("readers");
  file = path.join(dir, "shop.store");
});
test.after.each(() => removeDir(dir));

const insert = (id: string): Command => ({ kind: "insert", table: "users", rows: [{ id, name: `user ${id}` }] });
const ids = async (db: Database): Promise<string[]> => {
  const rows = await db.execute({ kind: "select", table: "users", columns: ["id"], output: "arrays" });
  return rows.kind === "rows" ? rows.rows.map((r) => (r as string[])[0]!) : [];
};
const QUIET = { idleMs: 60_000, journalBytes: 1 << 30 };

test("a second writer of a database is refused at once, in this process too; after the first closes it opens", async () => {
  const first = await Database.open(file);
  await first.execute(usersTable);
  const started = Date.now();
  assert.is(await outcome(Database.open(file) as never), "database_locked");
  assert.ok(Date.now() - started < 1000, "at once");
  // A server's data directory in this process is the same: a command on that database is refused.
  const data = await DataDirectory.open(dir);
  assert.is(await outcome(data.execute("shop", { kind: "select", table: "users", columns: "*" })), "database_locked");
  await first.close();
  assert.equal((await data.execute("shop", { kind: "select", table: "users", columns: "*" })).kind, "rows", "the server takes it once the library let go");
  assert.is(await outcome(Database.open(file) as never), "database_locked", "and now holds it");
  await data.close();
  const again = await Database.open(file);
  await again.close();
});

test("a reader follows the writer: appends are applied from where it stopped, a checkpoint's new document is reloaded", async () => {
  const writer = await Database.open(file, { checkpoints: QUIET });
  await writer.execute(usersTable);
  await writer.execute(threeUsers);
  const fs = await InstrumentedFs.over(dir);
  const reader = await Database.open(file, { readOnly: true, fs });
  assert.equal(await ids(reader), ["1", "2", "3"]);
  fs.log.length = 0;
  await writer.execute(insert("4"));
  await writer.execute({ kind: "update", table: "users", set: { name: "Bea" }, where: eq("id", "2") });
  await writer.execute({ kind: "delete", table: "users", where: eq("id", "1") });
  assert.equal(await ids(reader), ["2", "3", "4"]);
  const bea = await reader.execute({ kind: "select", table: "users", columns: ["name"], where: eq("id", "2"), output: "arrays" });
  assert.equal(bea.kind === "rows" ? bea.rows : [], [["Bea"]]);
  assert.ok(fs.log.some((entry) => entry.startsWith("readFrom shop.store-journal")), "read the journal's new bytes");
  assert.not.ok(fs.log.some((entry) => entry.startsWith("readFile")), `no reload: ${fs.log.join(", ")}`);
  // A checkpoint replaces the document and the journal: the reader loads both again.
  assert.equal(await writer.execute({ kind: "checkpoint" }), { kind: "checkpoint", journalRecords: 4 });
  await writer.execute(insert("5"));
  assert.equal(await ids(reader), ["2", "3", "4", "5"]);
  const validation = await reader.execute({ kind: "validate" });
  assert.equal(validation.kind === "validation" ? [validation.valid, validation.journal?.records] : [], [true, 1]);
  await reader.close();
  await writer.close();
});

test("an append still under way (a torn end) is left for the next look; the reader never cuts it", async () => {
  const writer = await Database.open(file, { checkpoints: QUIET });
  await writer.execute(usersTable);
  await writer.execute(insert("1"));
  const reader = await Database.open(file, { readOnly: true });
  assert.equal(await ids(reader), ["1"]);
  await writer.close(); // folds the journal: the reader reloads
  const journal = `${file}-journal`;
  const held = await Database.open(file, { checkpoints: QUIET });
  await held.execute(insert("2"));
  const bytes = readFileSync(journal);
  const line = bytes.subarray(bytes.lastIndexOf(0x0a, bytes.length - 2) + 1);
  // Take the last line back off and write it in two halves, looking between.
  writeFileSync(journal, bytes.subarray(0, bytes.length - line.length));
  assert.equal(await ids(reader), ["1"]);
  appendFileSync(journal, line.subarray(0, 20));
  assert.equal(await ids(reader), ["1"], "half a line: not yet");
  assert.is(statSync(journal).size, bytes.length - line.length + 20, "and left as it is");
  appendFileSync(journal, line.subarray(20));
  assert.equal(await ids(reader), ["1", "2"]);
  await reader.close();
  await held.close();
});

test("a reader follows a journal with preallocated space: only the entries before the zeros, however many came since it last looked", async () => {
  const writer = await Database.open(file, { checkpoints: QUIET });
  await writer.execute(usersTable);
  const wide = (id: string): Command => ({ kind: "insert", table: "users", rows: [{ id, name: "x".repeat(100) }] });
  for (let i = 0; i < 200; i++) await writer.execute(wide(`a${i}`));
  const journal = `${file}-journal`;
  const size = statSync(journal).size;
  const reader = await Database.open(file, { readOnly: true });
  assert.is((await ids(reader)).length, 200);
  // More than one read window's worth (and more than the space ahead held) between two looks.
  for (let i = 0; i < 400; i++) await writer.execute(wide(`b${i}`));
  assert.ok(statSync(journal).size > size, "the space ahead was extended");
  const seen = await ids(reader);
  assert.is(seen.length, 600);
  assert.equal(seen.slice(-2), ["b398", "b399"]);
  await writer.execute(wide("c"));
  assert.equal((await ids(reader)).slice(-1), ["c"]);
  const validation = await reader.execute({ kind: "validate" });
  assert.equal(validation.kind === "validation" ? validation.journal?.records : -1, 601);
  await reader.close();
  await writer.close();
});

test("a reader refuses every mutation with database_locked, on every surface, before checking it; it writes nothing", async () => {
  const writer = await Database.open(file);
  await writer.execute(usersTable);
  await writer.execute(threeUsers);
  await writer.close();
  const before = readdirSync(dir).map((name) => [name, readFileSync(path.join(dir, name)).toString("base64")]);
  const reader = await Database.open(file, { readOnly: true });
  const refused: Command[] = [
    insert("9"),
    { kind: "insert", table: "nope", rows: [{ id: 1 }] },
    { kind: "update", table: "users", set: { name: "x" }, where: { type: "literal", value: true } },
    { kind: "delete", table: "users", where: { type: "literal", value: true } },
    { kind: "create-table", schema: { name: "t", columns: { a: "text" } } },
    { kind: "drop-table", table: "users" },
    { kind: "sql", sql: "INSERT INTO users (id, name) VALUES ('9', 'x')" },
    // Without a column list the lowering would ask the catalog first: the refusal still comes before.
    { kind: "sql", sql: "INSERT INTO nope VALUES (1)" },
    { kind: "sql", sql: "INSERT INTO users VALUES (1)" },
    { kind: "sql", sql: "UPDATE users SET name = 'x'" },
    { kind: "sql", sql: "DELETE FROM users" },
    { kind: "sql", sql: "CREATE TABLE t (a TEXT)" },
    { kind: "sql", sql: "DROP TABLE users" },
    { kind: "checkpoint" },
  ];
  for (const command of refused) assert.is(await outcome(reader.execute(command)), "database_locked", JSON.stringify(command));
  await reader.table("users").insert({ id: "9", name: "x" }).run().then(
    () => assert.unreachable("the builder's insert"),
    (error: { code?: string }) => assert.is(error.code, "database_locked"),
  );
  for (const command of [
    { kind: "select", table: "users", columns: "*" },
    { kind: "sql", sql: "SELECT id FROM users WHERE id = ?", params: ["1"] },
    { kind: "sql", sql: "EXPLAIN DELETE FROM users" },
    { kind: "explain", command: { kind: "delete", table: "users", where: { type: "literal", value: true } } },
    { kind: "describe" },
    { kind: "validate" },
  ] as Command[]) {
    assert.is(await outcome(reader.execute(command)), "ok", JSON.stringify(command));
  }
  await reader.close();
  assert.equal(readdirSync(dir).map((name) => [name, readFileSync(path.join(dir, name)).toString("base64")]), before, "no file created, removed or changed");
  const missing = await Database.open(path.join(dir, "none.store"), { readOnly: true });
  assert.is(await outcome(missing.execute({ kind: "select", table: "users", columns: "*" })), "database_not_found");
  assert.is(await outcome(missing.execute(usersTable)), "database_locked");
  await missing.close();
  assert.not.ok(readdirSync(dir).includes("none.store"));
});

test("a symlink to another database's file in the data directory shares that database: one engine, one journal, one lock", async () => {
  const data = await DataDirectory.open(dir);
  await data.execute("real", usersTable);
  symlinkSync(path.join(dir, "real.store"), path.join(dir, "alias.store"));
  await data.execute("alias", insert("a"));
  await data.execute("real", insert("r"));
  const viaAlias = await data.execute("alias", { kind: "select", table: "users", columns: ["id"], output: "arrays" });
  assert.equal(viaAlias.kind === "rows" ? viaAlias.rows : [], [["a"], ["r"]]);
  assert.is(data.gauges().openDatabases, 1);
  await data.close();
  assert.equal(readdirSync(dir).sort(), ["alias.store", "real.store", "real.store-journal"]);
});

test.run();
