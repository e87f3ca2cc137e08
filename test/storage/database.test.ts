/** The library's `Database`: in memory and on a `.store` file (CONTRACT §10). */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { and } from "../../src/api/index.js";
import type { Expression } from "../../src/commands/types.js";
import { Database } from "../../src/database.js";
import { outcome, removeDir, scratchDir, threeUsers, usersTable } from "./helpers/scratch.js";

test("memory: JSON commands, SQL and the table builder share one database", async () => {
  const db = Database.memory();
  await db.execute(usersTable);
  await db.execute(threeUsers);
  assert.equal(await db.sql("SELECT name FROM users WHERE id = ?", ["2"]), { kind: "rows", columns: ["name"], rows: [{ name: "Bo" }], rowCount: 1 });
  const viaTable = await db.table("users").select("id").run();
  assert.is(viaTable.kind === "rows" ? viaTable.rowCount : -1, 3);
  await db.close();
});

test("execute validates commands strictly", async () => {
  const db = Database.memory();
  assert.is(await outcome(db.execute({ kind: "delete", table: "users", wehre: { type: "literal", value: true } })), "invalid_request");
  assert.is(await outcome(db.execute({ kind: "nope" })), "invalid_request");
});

test("every library surface checks a command, so a malformed one never reaches the engine", async () => {
  const db = Database.memory();
  await db.execute(usersTable);
  await db.execute(threeUsers);
  // Well-typed in TypeScript's eyes, malformed on the wire: a JavaScript caller's types are not enforced.
  const bogus = { type: "bogus" } as unknown as Expression;
  const halfComparison = { type: "comparison", op: "=", left: { type: "identifier", name: "id" } } as unknown as Expression;
  assert.is(await outcome(db.execute({ kind: "select", table: "users", where: bogus })), "invalid_request");
  assert.is(await outcome(db.execute({ kind: "select", table: "users", where: halfComparison })), "invalid_request");
  assert.is(await outcome(db.table("users").where(halfComparison).run()), "invalid_request");
  assert.is(await outcome(db.table("users").delete().where(and(bogus, bogus)).run()), "invalid_request");
  assert.is(await outcome(db.table("users").insert({ id: { nested: true } as never }).run()), "validation_failed");
  const rows = await db.table("users").select("id").run();
  assert.is(rows.kind === "rows" ? rows.rowCount : -1, 3, "nothing changed");
  await db.close();
});

test("open: a .store path, created by the first create-table, durable across opens", async () => {
  const dir = scratchDir("library");
  try {
    const file = path.join(dir, "nested", "shop.store");
    await assert.is(await outcome(Database.open(path.join(dir, "shop.json")) as never), "invalid_name");
    const first = await Database.open(file);
    await first.close();
    assert.equal(readdirSync(path.dirname(file)), [], "the directory is created, no file yet");
    writeFileSync(path.join(dir, "nested", ".shop.store.tmp-999999-1"), "leftover of a dead writer");
    const db = await Database.open(file);
    assert.equal(readdirSync(path.dirname(file)), ["shop.store-lock"], "leftover of a dead process removed; the database's lock held");
    assert.is(await outcome(db.sql("SELECT * FROM users")), "database_not_found");
    assert.not.ok(existsSync(file));
    await db.execute(usersTable);
    await db.execute(threeUsers);
    await db.close();
    assert.is(await outcome(db.execute({ kind: "validate" })), "shutting_down");
    const again = await Database.open(file);
    // Closed with a checkpoint: everything is in the document, the journal holds no records.
    const validation = await again.execute({ kind: "validate" });
    assert.equal(validation, { kind: "validation", valid: true, errors: [], journal: { records: 0, bytes: validation.kind === "validation" ? validation.journal!.bytes : -1 } });
    const rows = await again.sql("SELECT id FROM users");
    assert.is(rows.kind === "rows" ? rows.rowCount : -1, 3);
    await again.close();
  } finally {
    removeDir(dir);
  }
});

test.run();
