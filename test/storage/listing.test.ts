/**
 * `DataDirectory.list()` on real files: which files are databases, their
 * bytes (document + journal) and tables, open databases answered from
 * memory (their acknowledged changes), others from a scan of the file,
 * remembered per file version; nothing loaded to list it.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdirSync, statSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Engine } from "../../src/catalog/engine.js";
import { DataDirectory } from "../../src/storage/data-directory.js";
import type { EngineFactory } from "../../src/storage/persistence.js";
import { removeDir, scratchDir } from "./helpers/scratch.js";

let dir = "";
let outside = "";
test.before.each(() => {
  dir = scratchDir("listing");
  outside = scratchDir("listing-outside");
});
test.after.each(() => {
  removeDir(dir);
  removeDir(outside);
});

const table = (name: string) => ({ kind: "create-table", schema: { name, columns: { id: "integer" }, primary_key: { columns: ["id"] } } });
const doc = (...tables: string[]) => JSON.stringify({ format: "storedb/1", tables: Object.fromEntries(tables.map((name) => [name, { schema: { name, columns: { id: "integer" } }, rows: [] }])) });
const size = (name: string) => statSync(path.join(dir, name)).size;
/** A database's bytes on disk: its document, and its journal when it has one. */
const footprint = (name: string) => size(`${name}.store`) + (existsSync(path.join(dir, `${name}.store-journal`)) ? size(`${name}.store-journal`) : 0);

test("databases are the .store files with §1 names, and symlinks that stay inside; sorted by name", async () => {
  const data = await DataDirectory.open(dir);
  await data.execute("shop", table("users"));
  await data.execute("shop", table("orders"));
  writeFileSync(path.join(dir, "archive.store"), doc("old"));
  writeFileSync(path.join(outside, "secret.store"), doc("secret"));
  for (const stray of ["Bad.store", "con.store", "notes.txt", "x.store.tmp-1-2", ".store", "a.b.store"]) writeFileSync(path.join(dir, stray), doc("t"));
  mkdirSync(path.join(dir, "folder.store"));
  symlinkSync(path.join(dir, "archive.store"), path.join(dir, "alias.store"));
  symlinkSync(path.join(outside, "secret.store"), path.join(dir, "leak.store"));
  symlinkSync(path.join(dir, "gone.store"), path.join(dir, "dangling.store"));
  assert.equal(await data.list(), [
    { name: "alias", bytes: size("archive.store"), tables: ["old"] },
    { name: "archive", bytes: size("archive.store"), tables: ["old"] },
    { name: "shop", bytes: footprint("shop"), tables: ["orders", "users"] },
  ]);
  await data.close();
});

test("an empty directory lists nothing; a database whose file is deleted drops out", async () => {
  const data = await DataDirectory.open(dir);
  assert.equal(await data.list(), []);
  await data.execute("gone", table("t"));
  assert.equal((await data.list()).map((entry) => entry.name), ["gone"]);
  unlinkSync(path.join(dir, "gone.store"));
  assert.equal(await data.list(), []);
  await data.close();
});

test("bytes count the journal beside the document", async () => {
  const data = await DataDirectory.open(dir);
  writeFileSync(path.join(dir, "j.store"), doc("t"));
  writeFileSync(path.join(dir, "j.store-journal"), "x".repeat(1000));
  assert.equal(await data.list(), [{ name: "j", bytes: size("j.store") + 1000, tables: ["t"] }]);
  await data.close();
});

test("a file edited while not open is scanned again; an open database answers from memory", async () => {
  const data = await DataDirectory.open(dir);
  const file = path.join(dir, "hand.store");
  writeFileSync(file, doc("a"));
  assert.equal((await data.list())[0]!.tables, ["a"]);
  writeFileSync(file, doc("a", "bb"));
  assert.equal((await data.list())[0]!.tables, ["a", "bb"]);
  // Opened by a command: from now on its tables are the engine's.
  await data.execute("hand", table("c"));
  assert.equal((await data.list())[0]!.tables, ["a", "bb", "c"]);
  await data.execute("hand", { kind: "drop-table", table: "a" });
  assert.equal((await data.list())[0]!.tables, ["bb", "c"]);
  await data.close();
});

test("listing loads no database", async () => {
  let loads = 0;
  const engines: EngineFactory = { empty: () => Engine.empty(), load: (tables) => (loads++, Engine.load(tables)) };
  for (let i = 0; i < 20; i++) writeFileSync(path.join(dir, `db${i}.store`), doc("t"));
  const data = await DataDirectory.open(dir, { engines });
  assert.is((await data.list()).length, 20);
  assert.is(loads, 0);
  await data.execute("db3", { kind: "describe" });
  assert.is(loads, 1);
  assert.is((await data.list()).length, 20);
  assert.is(loads, 1);
  await data.close();
});

test("a document that does not parse lists with tables null, open or not", async () => {
  const data = await DataDirectory.open(dir);
  writeFileSync(path.join(dir, "broken.store"), '{"format":"storedb/1","tables":{"t":');
  writeFileSync(path.join(dir, "fine.store"), doc("t"));
  assert.equal(await data.list(), [
    { name: "broken", bytes: size("broken.store"), tables: null },
    { name: "fine", bytes: size("fine.store"), tables: ["t"] },
  ]);
  assert.is((await data.execute("broken", { kind: "validate" })).kind, "validation");
  assert.equal((await data.list())[0], { name: "broken", bytes: size("broken.store"), tables: null });
  // A checksum mismatch makes a database invalid, but its document still names its tables.
  writeFileSync(path.join(dir, "flipped.store"), `{"checksum":"sha256:${"0".repeat(63)}1",${doc("t").slice(1)}`);
  assert.equal((await data.list()).find((entry) => entry.name === "flipped")?.tables, ["t"]);
  await data.close();
});

test("listing after close is refused", async () => {
  const data = await DataDirectory.open(dir);
  await data.close();
  await data.list().then(
    () => assert.unreachable("listed after close"),
    (error: { code?: string }) => assert.is(error.code, "shutting_down"),
  );
});

test.run();
