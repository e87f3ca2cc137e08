/**
 * Storage's side of the service, through a real server process: a journal
 * that does not continue its document is discarded with a log line naming
 * the database; a graceful shutdown (SIGTERM) folds every journal into its
 * document, so the `.store` file alone then holds every acknowledged write.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Database } from "../../src/database.js";
import { command, serverEnv, startServer, tempDir } from "./support/server-process.js";

test("a stale journal is discarded with a warning that names the database", async () => {
  const dir = tempDir("stale-journal");
  try {
    const file = path.join(dir, "shop.store");
    const db = await Database.open(file, { checkpoints: { idleMs: 60_000 } });
    await db.execute({ kind: "create-table", schema: { name: "t", columns: { id: "integer" } } });
    await db.execute({ kind: "insert", table: "t", rows: [{ id: 1 }] });
    copyFileSync(`${file}-journal`, `${file}-journal.kept`);
    await db.close();
    copyFileSync(`${file}-journal.kept`, `${file}-journal`);
    rmSync(`${file}-journal.kept`);
    // The document restored from elsewhere: the journal continues another one.
    writeFileSync(file, '{"format":"storedb/1","tables":{"t":{"schema":{"name":"t","columns":{"id":"integer"}},"rows":[{"id":9}]}}}');
    const server = await startServer(serverEnv(dir));
    try {
      const rows = await command(server.url, "shop", { kind: "select", table: "t", columns: ["id"], output: "arrays" });
      assert.equal(rows.body.rows, [[9]]);
      // Log lines are written in batches, at most 50 ms late.
      const discarded = () => server.logs().find((entry) => entry.msg === "journal discarded unreplayed: it does not continue the database's document");
      for (let wait = 0; wait < 40 && discarded() === undefined; wait++) await new Promise((resolve) => setTimeout(resolve, 50));
      const line = discarded();
      assert.ok(line, server.stdout());
      assert.is(line!.database, "shop");
      assert.is(line!.level, 40);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("SIGTERM folds every journal into its document: the .store file alone holds every acknowledged write", async () => {
  const dir = tempDir("fold-on-exit");
  try {
    const server = await startServer(serverEnv(dir));
    for (const database of ["a", "b"]) {
      assert.is((await command(server.url, database, { kind: "create-table", schema: { name: "t", columns: { id: "integer" } } })).status, 200);
      for (let id = 0; id < 20; id++) assert.is((await command(server.url, database, { kind: "insert", table: "t", rows: [{ id }] })).status, 200);
    }
    assert.equal(await server.stop(), { code: 0, signal: null });
    for (const database of ["a", "b"]) {
      const document = JSON.parse(readFileSync(path.join(dir, `${database}.store`), "utf8")) as { tables: { t: { rows: { id: number }[] } } };
      assert.equal(document.tables.t.rows.map((row) => row.id), Array.from({ length: 20 }, (_, i) => i), database);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
