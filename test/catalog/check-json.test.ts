/**
 * A CHECK over a JSON document that cannot be read for a row — malformed
 * JSON, a value of another type than the check compares — makes that row
 * a `check` problem (422, nothing written), not an error of the statement:
 * so a `.store` file holding such a row is reported by `validate` as an
 * invalid row, and refused by other commands as corrupt, like any row
 * that breaks a check.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Database } from "../../src/index.js";
import { StoreError } from "../../src/errors.js";

type Refusal = StoreError & { errors?: { code: string; message: string }[] };

async function refused(db: Database, sql: string): Promise<Refusal> {
  try {
    await db.execute({ kind: "sql", sql });
  } catch (error) {
    return error as Refusal;
  }
  throw new Error(`accepted: ${sql}`);
}

test("a row the check cannot read is the row's check problem", async () => {
  const db = Database.memory();
  await db.execute({ kind: "sql", sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, doc TEXT, CHECK (doc ->> 'n' > 0))" });
  await db.execute({ kind: "sql", sql: `INSERT INTO t VALUES (1, '{"n":1}')` });
  for (const [values, reason] of [
    [`(2, '{"n":1')`, /malformed JSON/],
    [`(3, '{"n":"x"}')`, /takes a number, got text/],
  ] as const) {
    const error = await refused(db, `INSERT INTO t VALUES ${values}`);
    assert.is(error.code, "validation_failed", values);
    assert.is(error.errors?.[0]?.code, "check", values);
    assert.match(error.errors?.[0]?.message ?? "", reason, values);
  }
  const rows = await db.execute({ kind: "sql", sql: "SELECT id FROM t" });
  assert.equal((rows as unknown as { rows: unknown[] }).rows, [{ id: 1 }]);
});

test("a file holding such a row validates as invalid and opens as corrupt", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "storedb-check-json-"));
  try {
    const file = path.join(dir, "x.store");
    const check = { name: "positive", expr: { type: "comparison", op: ">", left: { type: "binary", op: "->>", left: { type: "identifier", name: "doc" }, right: { type: "literal", value: "n" } }, right: { type: "literal", value: 0 } } };
    const schema = { checks: [check], columns: { id: "integer", doc: "text" }, name: "t", primary_key: { columns: ["id"] }, required: ["id"] };
    writeFileSync(file, `{"format":"storedb/1","tables":{"t":{"schema":${JSON.stringify(schema)},\n"rows":[\n${JSON.stringify({ id: 1, doc: '{"n":1' })}\n]}}}`);
    const db = await Database.open(file, { readOnly: true });
    const report = (await db.execute({ kind: "validate" })) as unknown as { valid: boolean; errors: { code: string; message: string }[] };
    assert.is(report.valid, false);
    assert.is(report.errors[0]?.code, "check");
    assert.match(report.errors[0]?.message ?? "", /malformed JSON/);
    try {
      await db.execute({ kind: "select", table: "t", columns: "*" });
      assert.unreachable("a corrupt file was read");
    } catch (error) {
      assert.is((error as StoreError).code, "database_corrupt");
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
