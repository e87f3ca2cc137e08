/**
 * Writes from many clients at once, over HTTP to a real server process
 * (CONTRACT §11): 64 clients each bumping counters 200 times with `SET n =
 * n + 1` lose no increment, and 64 clients moving amounts between accounts
 * in transactions (the typed client's batch form) keep the total — also
 * when some transfers fail a check and are refused whole. Both are read
 * back after a restart, from the file.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { rmSync } from "node:fs";
import path from "node:path";
import { createClient, type RemoteDatabase } from "../../src/client/index.js";
import { col } from "../../src/api/expressions.js";
import type { Result } from "../../src/commands/results.js";
import { StoreError } from "../../src/errors.js";
import { serverEnv, startServer, tempDir, type ServerProcess } from "./support/server-process.js";

const CLIENTS = 64;
const BUMPS = 200;
const COUNTERS = 8;
const ACCOUNTS = 16;
const TRANSFERS = 25;
const START = 1_000;

const dir = tempDir("concurrency");
const env = serverEnv(path.join(dir, "data"));
let server: ServerProcess;

test.before(async () => {
  server = await startServer(env);
});
test.after(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** One client per worker: each has its own connection pool, as separate processes would. */
const clients = (): RemoteDatabase[] => Array.from({ length: CLIENTS }, () => createClient({ url: server.url }).database("bank"));

/** The sum of the one column a select returns. */
function total(result: Result): number {
  assert.is(result.kind, "rows");
  return (result as unknown as { rows: Record<string, number>[] }).rows.reduce((sum, row) => sum + (Object.values(row)[0] as number), 0);
}

test(`${CLIENTS} clients × ${BUMPS} \`UPDATE counters SET n = n + 1 WHERE id = ?\` end at exactly ${CLIENTS * BUMPS}`, async () => {
  const setup = createClient({ url: server.url }).database("bank");
  await setup.sql("CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
  await setup.execute({ kind: "insert", table: "counters", rows: Array.from({ length: COUNTERS }, (_, id) => ({ id, n: 0 })) });
  await Promise.all(
    clients().map(async (db, c) => {
      for (let i = 0; i < BUMPS; i++) {
        const result = await db.sql("UPDATE counters SET n = n + 1 WHERE id = ?", [(c + i) % COUNTERS]);
        assert.is(result.kind === "mutation" && result.rowsAffected, 1);
      }
    }),
  );
  assert.is(total(await setup.sql("SELECT n FROM counters")), CLIENTS * BUMPS);
});

test(`${CLIENTS} clients moving amounts between accounts in transactions keep the total, refused transfers included`, async () => {
  const setup = createClient({ url: server.url }).database("bank");
  await setup.sql("CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL, CHECK (balance >= 0))");
  await setup.execute({ kind: "insert", table: "accounts", rows: Array.from({ length: ACCOUNTS }, (_, id) => ({ id, balance: START })) });
  let kept = 0;
  let refused = 0;
  await Promise.all(
    clients().map(async (db, c) => {
      for (let i = 0; i < TRANSFERS; i++) {
        const from = (c * 7 + i) % ACCOUNTS;
        const to = (from + 1 + (i % (ACCOUNTS - 1))) % ACCOUNTS;
        // Some amounts overdraw the account: the check refuses the debit, and the credit before it must go too.
        const amount = ((c * 31 + i * 17) % 9) * 60;
        try {
          const results = await db.transaction([
            { kind: "sql", sql: "UPDATE accounts SET balance = balance + ? WHERE id = ?", params: [amount, to] },
            db.table("accounts").update({ balance: col("balance").sub(amount) }).where({ id: from }),
          ]);
          assert.is(results.length, 2);
          kept++;
        } catch (error) {
          assert.instance(error, StoreError);
          assert.is((error as StoreError).code, "validation_failed");
          assert.is((error as StoreError).step, 1);
          refused++;
        }
      }
    }),
  );
  assert.is(kept + refused, CLIENTS * TRANSFERS);
  assert.ok(kept > 0 && refused > 0, `${kept} kept, ${refused} refused: both happen`);
  assert.is(total(await setup.sql("SELECT balance FROM accounts")), ACCOUNTS * START);
  assert.is(total(await setup.sql("SELECT id FROM accounts WHERE balance < 0")), 0);
});

test("after a restart, the file holds every increment and the same total", async () => {
  await server.stop();
  server = await startServer(env);
  const db = createClient({ url: server.url }).database("bank");
  assert.is(total(await db.sql("SELECT n FROM counters")), CLIENTS * BUMPS);
  assert.is(total(await db.sql("SELECT balance FROM accounts")), ACCOUNTS * START);
});

test.run();
