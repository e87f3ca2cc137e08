/**
 * A CHECK may not read the clock or the time zone, also when the row
 * supplies what would read them (`date(d)` with d = 'now', a modifier
 * 'localtime' from the row): that row is a `check` problem (422) and
 * nothing is written, as SQLite refuses it — else the row would pass now
 * and break the check later, and the file would no longer load.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Database } from "../../src/index.js";
import { StoreError } from "../../src/errors.js";

async function refused(db: Database, sql: string): Promise<StoreError & { errors?: { code: string; message: string }[] }> {
  try {
    await db.execute({ kind: "sql", sql });
  } catch (error) {
    return error as StoreError & { errors?: { code: string; message: string }[] };
  }
  throw new Error(`accepted: ${sql}`);
}

test("a check that reads the clock or the zone through the row refuses the row", async () => {
  const db = Database.memory();
  await db.execute({ kind: "sql", sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, d TEXT, m TEXT, CHECK (unixepoch(d) >= 0), CHECK (date('2024-01-01', m) IS NOT NULL))" });
  for (const values of ["(1, 'now', '+1 day')", "(2, '2024-01-01', 'localtime')", "(3, '2024-01-01', 'UTC')", "(4, 'subsec', '+1 day')"]) {
    const error = await refused(db, `INSERT INTO t VALUES ${values}`);
    assert.is(error.code, "validation_failed", values);
    assert.is(error.errors?.[0]?.code, "check", values);
    assert.match(error.errors?.[0]?.message ?? "", /reads the clock or the time zone/, values);
  }
  await db.execute({ kind: "sql", sql: "INSERT INTO t VALUES (5, '2024-01-01 10:00', '+1 day')" });
  const error = await refused(db, "UPDATE t SET d = 'now' WHERE id = 5");
  assert.is(error.code, "validation_failed");
  const rows = await db.execute({ kind: "sql", sql: "SELECT id, d FROM t" });
  assert.equal((rows as unknown as { rows: unknown[] }).rows, [{ id: 5, d: "2024-01-01 10:00" }]);
  // Outside a check the same calls read the clock as usual.
  const now = await db.execute({ kind: "sql", sql: "SELECT unixepoch(d) > 0 AS later FROM (SELECT 'now' AS d)" });
  assert.equal((now as unknown as { rows: unknown[] }).rows, [{ later: true }]);
});

test.run();
