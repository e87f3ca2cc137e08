/**
 * The journal through a database on real files: writes land in the journal
 * and are replayed on open; a torn tail is cut (durably, by a writer only);
 * damage in the middle makes the database invalid (`journal`) and is never
 * replayed; a journal that does not continue the document is discarded
 * with an event naming the database. `validate` reports the journal's size.
 * A busy journal keeps preallocated zeros ahead of its entries, which hold
 * nothing.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { appendFileSync, copyFileSync, existsSync, readFileSync, renameSync, statSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "../../src/commands/types.js";
import { Database } from "../../src/database.js";
import { scanJournal } from "../../src/storage/journal-format.js";
import type { StorageEvent } from "../../src/storage/persistence.js";
import { documentFingerprint, fingerprint, outcome, removeDir, scratchDir, threeUsers, usersTable } from "./helpers/scratch.js";

let dir = "";
let file = "";
let journal = "";
test.before.each(() => {
  dir = scratchDir("journal");
  file = path.join(dir, "shop.store");
  journal = `${file}-journal`;
});
test.after.each(() => removeDir(dir));

const insert = (id: string): Command => ({ kind: "insert", table: "users", rows: [{ id, name: `user ${id}` }] });
const ids = async (db: Database): Promise<string[]> => {
  const rows = await db.execute({ kind: "select", table: "users", columns: ["id"], output: "arrays" });
  return rows.kind === "rows" ? rows.rows.map((r) => (r as string[])[0]!) : [];
};
/**
 * Closes `db` but leaves its files as they were before the close, as a crash leaves them: a close
 * would fold the journal away.
 */
async function closeAsCrashed(db: Database): Promise<void> {
  copyFileSync(file, `${file}.kept`);
  copyFileSync(journal, `${journal}.kept`);
  await db.close();
  renameSync(`${file}.kept`, file);
  renameSync(`${journal}.kept`, journal);
}

/** A database with three users in its document and `extra` inserts in its journal, left as a crash would leave it. */
async function withJournal(extra: readonly string[]): Promise<void> {
  const db = await Database.open(file, { checkpoints: { idleMs: 60_000 } });
  await db.execute(usersTable);
  await db.execute(threeUsers);
  await db.execute({ kind: "checkpoint" });
  for (const id of extra) await db.execute(insert(id));
  await closeAsCrashed(db);
}

test("writes go to the journal, the document is untouched until a checkpoint, and an open replays them", async () => {
  await withJournal(["4", "5", "6"]);
  assert.is(JSON.parse(await documentFingerprint(file))[0][1].length, 3, "the document holds what the checkpoint folded");
  const db = await Database.open(file);
  assert.equal(await ids(db), ["1", "2", "3", "4", "5", "6"]);
  const validation = await db.execute({ kind: "validate" });
  assert.equal(validation, { kind: "validation", valid: true, errors: [], journal: { records: 3, bytes: statSync(journal).size } });
  await db.close();
});

test("upserts and multi-row updates are journaled as write runs and replay to the same rows, keys moved and freed within a run included", async () => {
  const db = await Database.open(file, { checkpoints: { idleMs: 60_000 } });
  await db.sql("CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, tag TEXT UNIQUE)");
  await db.sql("INSERT INTO counters (id, n, tag) VALUES (1, 1, 'a'), (2, 2, 'b'), (3, 3, 'c')");
  await db.execute({ kind: "checkpoint" });
  // Updates and inserts alternating, a row inserted then updated in the same command.
  await db.sql("INSERT INTO counters (id, n, tag) VALUES (1, 10, 'x'), (4, 4, 'd'), (2, 20, 'y'), (4, 40, 'z') ON CONFLICT (id) DO UPDATE SET n = n + excluded.n");
  // A key moved away by an update, then taken by an insert of the same run: redo must keep the order.
  await db.sql("INSERT INTO counters (id, n, tag) VALUES (3, 0, 'q'), (3, 7, 'c') ON CONFLICT (id) DO UPDATE SET id = id + 100, tag = 'moved'");
  await db.sql("UPDATE counters SET n = n * 2 WHERE id < 100");
  await db.transaction(async (tx) => {
    await tx.sql("DELETE FROM counters WHERE id = 2");
    await tx.sql("INSERT INTO counters (id, n, tag) VALUES (1, 1, 'e'), (5, 5, 'f') ON CONFLICT (id) DO UPDATE SET n = excluded.n");
  });
  const expected = await db.sql("SELECT id, n, tag FROM counters");
  const kinds = scanJournal(readFileSync(journal)).entries.flatMap((e) => (e.kind === "changes" ? (JSON.parse(e.json) as { changes: { kind: string }[] }).changes.map((c) => c.kind) : []));
  assert.equal(kinds, ["write", "write", "write", "delete", "write"]);
  await closeAsCrashed(db);
  const reopened = await Database.open(file);
  assert.equal(await reopened.sql("SELECT id, n, tag FROM counters"), expected);
  assert.equal(await reopened.execute({ kind: "validate" }), { kind: "validation", valid: true, errors: [], journal: { records: 4, bytes: statSync(journal).size } });
  await reopened.close();
});

test("INSERT OR REPLACE is journaled as its deletes (cascades included) and inserts, and replays to the same rows in the same order", async () => {
  const db = await Database.open(file, { checkpoints: { idleMs: 60_000 } });
  await db.sql("CREATE TABLE parent (id INTEGER PRIMARY KEY, code TEXT UNIQUE, note TEXT)");
  await db.sql("CREATE TABLE kid (id INTEGER PRIMARY KEY, pid INTEGER REFERENCES parent (id) ON DELETE CASCADE)");
  await db.sql("INSERT INTO parent (id, code, note) VALUES (1, 'a', 'one'), (2, 'b', 'two'), (3, 'c', 'three'), (4, 'd', 'four')");
  await db.sql("INSERT INTO kid (id, pid) VALUES (10, 1), (11, 2), (12, 2), (13, 4)");
  await db.execute({ kind: "checkpoint" });
  // One row conflicting on both keys (two rows go, with their kids), one on neither, one replacing the row just written.
  await db.sql("REPLACE INTO parent (id, code, note) VALUES (2, 'a', 'both'), (5, 'e', 'new'), (5, 'f', 'again')");
  // A replace undone by a failing later step leaves nothing in the journal.
  const refused = await db.sql("REPLACE INTO parent (id, code, note) VALUES (3, 'c', 'ok'), ('nine', NULL, NULL)").catch((error: unknown) => error);
  assert.is((refused as { code?: string }).code, "validation_failed");
  await db.transaction(async (tx) => {
    await tx.sql("INSERT OR REPLACE INTO parent (id, code, note) VALUES (4, 'z', 'moved')");
    await tx.sql("INSERT INTO kid (id, pid) VALUES (14, 4)");
  });
  const expected = [await db.sql("SELECT * FROM parent"), await db.sql("SELECT * FROM kid")];
  const rowsOf = (result: unknown): unknown => (result as { rows: unknown[] }).rows;
  assert.equal(
    rowsOf(expected[0]),
    [{ id: 3, code: "c", note: "three" }, { id: 2, code: "a", note: "both" }, { id: 5, code: "f", note: "again" }, { id: 4, code: "z", note: "moved" }],
  );
  assert.equal(rowsOf(expected[1]), [{ id: 14, pid: 4 }]);
  await closeAsCrashed(db);
  const reopened = await Database.open(file);
  assert.equal([await reopened.sql("SELECT * FROM parent"), await reopened.sql("SELECT * FROM kid")], expected);
  const validation = await reopened.execute({ kind: "validate" });
  assert.is(validation.kind === "validation" && validation.valid, true);
  await reopened.close();
});

test("a default that is an expression is kept by the journal and the document, and reads the clock again after an open", async () => {
  const db = await Database.open(file, { checkpoints: { idleMs: 60_000 } });
  await db.sql("CREATE TABLE log (id INTEGER PRIMARY KEY, at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP, n INTEGER DEFAULT (6 * 7))");
  await db.sql("INSERT INTO log (id) VALUES (1)");
  const schema = await db.execute({ kind: "describe", table: "log" });
  await closeAsCrashed(db);
  // Replayed from the journal, then folded into the document by the close, then read from the document alone.
  for (let open = 0; open < 2; open++) {
    const again = await Database.open(file);
    assert.equal(await again.execute({ kind: "describe", table: "log" }), schema);
    await again.sql("INSERT INTO log (id) VALUES (?)", [open + 2]);
    const result = await again.sql("SELECT id, length(at) AS len, at <= datetime('now') AS past, n FROM log ORDER BY id");
    const rows = result.kind === "rows" ? result.rows : [];
    assert.equal(rows.length, open + 2);
    for (const row of rows) assert.equal({ ...(row as object), id: 0 }, { id: 0, len: 19, past: true, n: 42 });
    const validation = await again.execute({ kind: "validate" });
    assert.is(validation.kind === "validation" && validation.valid, true);
    await again.close();
  }
  assert.match(readFileSync(file, "utf8"), /"defaults":\{"at":\{"expr":\{"type":"function","name":"datetime"/);
});

test("a replay that grows tables past their loaded size, into a table the journal creates and one it renames, redoes every row", async () => {
  const db = await Database.open(file, { checkpoints: { idleMs: 60_000 } });
  await db.execute(usersTable);
  await db.execute(threeUsers);
  await db.execute({ kind: "checkpoint" });
  // Room is made for every row the replay stores, before any is redone: rows of tables the document
  // does not hold yet (created, renamed) are left to grow as they come.
  for (let i = 0; i < 300; i++) await db.execute(insert(`u${i}`));
  await db.sql("UPDATE users SET name = 'renamed ' || id WHERE id LIKE 'u1%'");
  await db.sql("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
  for (let i = 0; i < 100; i++) await db.sql("INSERT INTO notes (id, body) VALUES (?, ?)", [i, `note ${i}`]);
  await db.sql("ALTER TABLE notes RENAME TO memos");
  await db.sql("INSERT INTO memos (id, body) VALUES (1000, 'after the rename')");
  await db.sql("DELETE FROM users WHERE id LIKE 'u2%'");
  const expected = [await db.sql("SELECT * FROM users ORDER BY id"), await db.sql("SELECT * FROM memos ORDER BY id")];
  await closeAsCrashed(db);
  const reopened = await Database.open(file);
  assert.equal([await reopened.sql("SELECT * FROM users ORDER BY id"), await reopened.sql("SELECT * FROM memos ORDER BY id")], expected);
  const validation = await reopened.execute({ kind: "validate" });
  assert.is(validation.kind === "validation" && validation.valid, true);
  await reopened.close();
});

test("the checkpoint command folds every acknowledged write into the document and says how many records it took", async () => {
  await withJournal(["4", "5"]);
  const db = await Database.open(file);
  assert.equal(await db.execute({ kind: "checkpoint" }), { kind: "checkpoint", journalRecords: 2 });
  assert.equal(JSON.parse(await documentFingerprint(file))[0][1].length, 5, "the document alone holds everything");
  assert.equal(await db.execute({ kind: "checkpoint" }), { kind: "checkpoint", journalRecords: 0 }, "nothing left to fold");
  // The backup recipe: after a checkpoint, a copy of the .store file alone is the whole database.
  await db.execute(insert("6"));
  assert.equal(await db.execute({ kind: "checkpoint" }), { kind: "checkpoint", journalRecords: 1 });
  const backup = path.join(dir, "backup.store");
  copyFileSync(file, backup);
  const restored = await Database.open(backup);
  assert.equal(await ids(restored), ["1", "2", "3", "4", "5", "6"]);
  await restored.close();
  await db.close();
});

test("checkpoint: 0 for a database in memory, 404 for a missing one, database_corrupt for an invalid one", async () => {
  const memory = Database.memory();
  await memory.execute(usersTable);
  await memory.execute(threeUsers);
  assert.equal(await memory.execute({ kind: "checkpoint" }), { kind: "checkpoint", journalRecords: 0 });
  const missing = await Database.open(file);
  assert.is(await outcome(missing.execute({ kind: "checkpoint" })), "database_not_found");
  await missing.close();
  writeFileSync(file, "{not json");
  const invalid = await Database.open(file);
  assert.is(await outcome(invalid.execute({ kind: "checkpoint" })), "database_corrupt");
  await invalid.close();
  assert.is(readFileSync(file, "utf8"), "{not json");
});

test("a torn last entry is cut away — durably, by a writer; a reader leaves the file alone", async () => {
  await withJournal(["4", "5"]);
  const whole = statSync(journal).size;
  appendFileSync(journal, '1234abcd {"seq":99,"changes":[{"kind":"insert"'); // an append the crash cut short
  const reader = await Database.open(file, { readOnly: true });
  assert.equal(await ids(reader), ["1", "2", "3", "4", "5"]);
  await reader.close();
  assert.ok(statSync(journal).size > whole, "a reader does not cut");
  const events: StorageEvent[] = [];
  const db = await Database.open(file, { onEvent: (event) => events.push(event) });
  assert.equal(await ids(db), ["1", "2", "3", "4", "5"]);
  assert.is(statSync(journal).size, whole, "the writer cut it");
  assert.equal(events, [{ kind: "journal-cut", database: "shop", bytes: 46 }]);
  await db.execute(insert("6"));
  await db.close();
  const again = await Database.open(file);
  assert.equal(await ids(again), ["1", "2", "3", "4", "5", "6"]);
  await again.close();
});

test("a flipped bit in a middle record: the database is invalid (validate says journal), never replayed, never written", async () => {
  await withJournal(["4", "5", "6"]);
  const bytes = readFileSync(journal);
  const scan = scanJournal(bytes);
  assert.is(scan.entries.length, 3);
  const middle = bytes.indexOf('"5"');
  bytes[middle + 1]! ^= 0x02; // "5" becomes "7" inside the second record
  writeFileSync(journal, bytes);
  const db = await Database.open(file);
  const validation = await db.execute({ kind: "validate" });
  assert.is(validation.kind === "validation" && validation.valid, false);
  assert.equal(validation.kind === "validation" ? validation.errors.map((e) => e.code) : [], ["journal"]);
  for (const command of [{ kind: "select", table: "users", columns: "*" }, insert("9"), { kind: "checkpoint" }] as Command[]) {
    assert.is(await outcome(db.execute(command)), "database_corrupt", command.kind);
  }
  await db.close();
  assert.ok(readFileSync(journal).equals(bytes), "the journal is untouched");
});

test("a journal that does not continue the document (replaced from outside) is discarded with an event, and replaced by the next write", async () => {
  await withJournal(["4", "5"]);
  // A restore from an older backup: another document.
  writeFileSync(file, '{"format":"storedb/1","tables":{"users":{"schema":{"name":"users","columns":{"id":"text","name":"text"},"primary_key":{"columns":["id"]}},"rows":[{"id":"r"}]}}}');
  const events: StorageEvent[] = [];
  const db = await Database.open(file, { onEvent: (event) => events.push(event) });
  assert.equal(await ids(db), ["r"]);
  assert.equal(events.map((e) => [e.kind, e.database]), [["journal-discarded", "shop"]]);
  await db.execute(insert("s"));
  await db.close();
  const again = await Database.open(file);
  assert.equal(await ids(again), ["r", "s"]);
  await again.close();
  assert.equal(JSON.parse(await fingerprint(file))[0][1].map((r: { id: string }) => r.id), ["r", "s"]);
});

test("a journal cut in its header, or written by someone else entirely, is set aside the same way", async () => {
  await withJournal(["4"]);
  for (const junk of ["", "not a journal\n", readFileSync(journal).subarray(0, 30).toString("latin1")]) {
    writeFileSync(journal, junk, "latin1");
    const db = await Database.open(file);
    assert.equal(await ids(db), ["1", "2", "3"], JSON.stringify(junk));
    await db.close();
  }
});

test("a database whose file was written by hand gets its journal at its first write; the journal names the hand-written bytes", async () => {
  writeFileSync(file, '{"format":"storedb/1","tables":{"users":{"schema":{"name":"users","columns":{"id":"text","name":"text"}},"rows":[{"id":"h"}]}}}');
  const db = await Database.open(file);
  assert.not.ok(existsSync(journal));
  await db.execute(insert("1"));
  assert.ok(existsSync(journal));
  const reader = await Database.open(file, { readOnly: true });
  assert.equal(await ids(reader), ["h", "1"]);
  await reader.close();
  await db.close();
});

test("a journal cut at a line boundary is read as far as it goes", async () => {
  await withJournal(["4", "5", "6"]);
  const lines = readFileSync(journal, "latin1").split("\n");
  truncateSync(journal, Buffer.byteLength(lines.slice(0, 3).join("\n") + "\n", "latin1"));
  const db = await Database.open(file);
  assert.equal(await ids(db), ["1", "2", "3", "4", "5"]);
  await db.close();
});

/** The journal's entries (up to the zeros of preallocated space) and the whole file. */
const journalFile = () => {
  const bytes = readFileSync(journal);
  const used = bytes.length - (bytes.toString("latin1").match(/\0*$/)?.[0].length ?? 0);
  return { bytes, used };
};
/** A row of about 100 bytes, so a few hundred writes pass the size from which a journal keeps space ahead. */
const wide = (id: string): Command => ({ kind: "insert", table: "users", rows: [{ id, name: `user ${id} `.padEnd(80, "x") }] });

test("a busy journal keeps zeros ahead of its entries: writes overwrite them, an open replays exactly the entries, a checkpoint's new journal gets space too (not the one a close leaves)", async () => {
  const db = await Database.open(file, { checkpoints: { idleMs: 60_000, journalBytes: 1 << 30 } });
  await db.execute(usersTable);
  await db.execute(wide("w"));
  assert.is(journalFile().bytes.length, journalFile().used, "a small journal keeps none: it stays plain text");
  const written: string[] = ["w"];
  for (let i = 0; i < 300; i++) {
    written.push(`w${i}`);
    await db.execute(wide(`w${i}`));
  }
  const busy = journalFile();
  assert.ok(busy.bytes.length > busy.used + 4096, `space ahead: ${busy.bytes.length} bytes for ${busy.used} of entries`);
  const validation = await db.execute({ kind: "validate" });
  assert.equal(validation.kind === "validation" ? validation.journal : undefined, { records: 301, bytes: busy.used }, "validate counts the entries, not the space");
  // The files as a crash leaves them: the open replays the 300 records and nothing from the zeros.
  copyFileSync(file, `${file}.kept`);
  copyFileSync(journal, `${journal}.kept`);
  assert.equal(await db.execute({ kind: "checkpoint" }), { kind: "checkpoint", journalRecords: 301 });
  const reset = journalFile();
  assert.ok(reset.bytes.length >= busy.used && reset.used < 1000, `the new journal: a header, then ${reset.bytes.length - reset.used} bytes of space`);
  for (let i = 0; i < 300; i++) await db.execute(wide(`after${i}`));
  assert.ok(journalFile().bytes.length > journalFile().used + 4096, "busy again: space ahead");
  await db.close();
  const closed = journalFile();
  assert.is(closed.bytes.length, closed.used, "the journal a closing checkpoint leaves holds its header alone, no space");
  renameSync(`${file}.kept`, file);
  renameSync(`${journal}.kept`, journal);
  const again = await Database.open(file);
  assert.equal(await ids(again), written);
  await again.execute(wide("next"));
  assert.equal((await ids(again)).slice(-2), ["w299", "next"]);
  await again.close();
});

test("a torn append over preallocated space is cut on open: the entries stay, the torn bytes go, and the next write follows the entries", async () => {
  const db = await Database.open(file, { checkpoints: { idleMs: 60_000, journalBytes: 1 << 30 } });
  await db.execute(usersTable);
  for (let i = 0; i < 250; i++) await db.execute(wide(`w${i}`));
  await closeAsCrashed(db);
  const { bytes, used } = journalFile();
  assert.ok(bytes.length > used + 100);
  // Part of an append reached the disk, in the zeros after the last entry.
  Buffer.from('{"seq":251,"changes":[{"kind":"insert"').copy(bytes, used + 20);
  writeFileSync(journal, bytes);
  const events: StorageEvent[] = [];
  const again = await Database.open(file, { onEvent: (event) => events.push(event) });
  assert.is((await ids(again)).length, 250);
  assert.equal(events, [{ kind: "journal-cut", database: "shop", bytes: 58 }]);
  assert.is(statSync(journal).size, used, "cut back to the entries");
  await again.execute(insert("after"));
  await again.close();
  const last = await Database.open(file);
  assert.equal((await ids(last)).slice(-2), ["w249", "after"]);
  await last.close();
});

test.run();
