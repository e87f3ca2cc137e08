/**
 * Property: what the writer writes, the reader and the engine load back to
 * the same tables, and writing them again gives the same bytes (so a file
 * diffs only where the data changed). Random schemas and values, through the
 * real Engine.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { snapshotValues } from "../../src/catalog/snapshot.js";
import { Engine } from "../../src/catalog/engine.js";
import type { ColumnType, TableSchema, Value } from "../../src/commands/types.js";
import { readStore, StoreWriter } from "../../src/storage/format.js";

const TYPES: readonly ColumnType[] = ["text", "integer", "real", "boolean"];

const valueOf: Record<ColumnType, fc.Arbitrary<Value>> = {
  text: fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom("},{", '"},{"', "\\", "\n", "\u2028", "😀", "\ud800 lone surrogate")),
  integer: fc.oneof(fc.integer(), fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 0)),
  real: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(1e21, 5e-324, 0.1, -1.5)),
  boolean: fc.boolean(),
};

const table = fc
  .record({
    name: fc.constantFrom("alpha", "beta", "Gamma", "_d"),
    types: fc.array(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 5 }),
  })
  .chain(({ name, types }) => {
    const columns = Object.fromEntries(types.map((t, i) => [`c${i}_${t}`, t])) as Record<string, ColumnType>;
    const row = fc.tuple(...types.map((t) => fc.option(valueOf[t], { freq: 5 }))).map((values) => Object.fromEntries(Object.keys(columns).map((c, i) => [c, values[i] ?? null])));
    return fc.record({ schema: fc.constant<TableSchema>({ name, columns }), rows: fc.array(row, { maxLength: 20 }) });
  });

const database = fc.uniqueArray(table, { selector: (t) => t.schema.name, maxLength: 3 });

test("write → read → Engine.load gives the same tables, and the same bytes again", async () => {
  await fc.assert(
    fc.asyncProperty(database, async (tables) => {
      const engine = Engine.load(tables.map((t) => ({ name: t.schema.name, schema: t.schema, rows: t.rows })));
      assert.equal(engine.problems, []);
      const first = new StoreWriter().write(engine.snapshot());
      const read = await readStore(Buffer.from(first));
      assert.equal(read.problems, []);
      const again = Engine.load(read.tables!);
      assert.equal(again.problems, []);
      // -0 is written as 0; everything else comes back exactly.
      const normalize = (e: Engine) => JSON.stringify(e.snapshot().map((t) => [t.schema, t.columns, snapshotValues(t)]));
      assert.is(normalize(again), normalize(engine));
      assert.ok(new StoreWriter().write(again.snapshot()).equals(first), "deterministic bytes");
    }),
    { numRuns: 150 },
  );
});

test.run();
