/**
 * What the refusals of a value read from JSON say: a derived table's
 * column of such a value names JSON and the CAST that types it (not "a bare
 * parameter"), and two such values of different families compared at run
 * time name JSON too.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import { StoreError } from "../../src/errors.js";

function refusal(engine: Engine, sql: string): StoreError {
  try {
    engine.execute({ kind: "sql", sql, params: [] });
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error(`accepted: ${sql}`);
}

test("a derived table's column read from JSON is refused naming JSON and CAST", () => {
  const error = refusal(Engine.empty(), `SELECT x FROM (SELECT '{"a":1}' ->> 'a' AS x)`);
  assert.is(error.code, "sql_error");
  assert.match(error.message, /read from JSON/);
  assert.match(error.message, /CAST/);
});

test("two values read from JSON of different families compared name JSON", () => {
  const engine = Engine.empty();
  engine.execute({ kind: "sql", sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, doc TEXT)" });
  engine.execute({ kind: "sql", sql: `INSERT INTO t VALUES (1, '{"a":"7"}'), (2, '{"a":7}')` });
  const error = refusal(engine, "SELECT max(doc ->> 'a') AS m FROM t");
  assert.is(error.code, "type_mismatch");
  assert.match(error.message, /Cannot compare .* read from JSON/);
});

test.run();
