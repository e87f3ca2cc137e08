/**
 * UniqueIndex keeps some keys in array slots and the rest in a Map: whatever
 * the mix of keys and operations, and however many rows it was built from
 * (which sets where slots end), it must answer exactly as one Map keyed by
 * SameValueZero would.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { UniqueIndex, type MutableRow } from "../../src/catalog/key-index.js";
import type { Value } from "../../src/commands/types.js";

// Around the slot limit too (1024 spare slots beyond twice the rows built with).
const keys: Value[] = [0, -0, 1, 1.0, 1.5, -1, 7, 1023, 1024, 1040, 1063, 1064, 1100, 2 ** 31 - 1, 2 ** 31, 2 ** 53 - 1, 1e9, "1", "0", true, false, null];

type Op = { kind: "add" | "remove" | "get"; key: number; tag: number };

test("property: add, remove and get agree with a Map, keys of every kind mixed", () => {
  const op = fc.record({ kind: fc.constantFrom<Op["kind"]>("add", "remove", "get"), key: fc.nat(keys.length - 1), tag: fc.nat(3) });
  fc.assert(
    fc.property(fc.array(op, { maxLength: 60 }), fc.array(fc.nat(keys.length - 1), { maxLength: 20 }), (ops, initial) => {
      const ix = new UniqueIndex("pk", [0]);
      const reference = new Map<Value, MutableRow>();
      const rows = initial.map((k, i) => [keys[k]!, i] as MutableRow);
      const taken = ix.build(rows);
      const expectTaken: number[] = [];
      rows.forEach((row, i) => {
        if (row[0] === null) return;
        if (reference.has(row[0]!)) expectTaken.push(i);
        else reference.set(row[0]!, row);
      });
      assert.equal(taken, expectTaken);
      for (const { kind, key, tag } of ops) {
        const value = keys[key]!;
        if (kind === "get") {
          assert.is(ix.get(value === null ? undefined : value), value === null ? undefined : reference.get(value));
          assert.equal(ix.lookup([value]), value !== null && reference.has(value) ? [reference.get(value)] : []);
        } else if (kind === "add") {
          const row: MutableRow = [value, tag];
          const free = value === null || !reference.has(value);
          assert.is(ix.add(row), free);
          if (free && value !== null) reference.set(value, row);
        } else {
          const holder = value === null ? undefined : reference.get(value);
          // Removing a row that is not the holder changes nothing; removing the holder frees the key.
          ix.remove([value, tag]);
          if (holder) {
            ix.remove(holder);
            reference.delete(value!);
          }
        }
      }
      for (const value of keys) if (value !== null) assert.is(ix.get(value), reference.get(value), `key ${String(value)}`);
      ix.build([]);
      for (const value of keys) if (value !== null) assert.is(ix.get(value), undefined);
    }),
    { numRuns: 500 },
  );
});

test("composite keys and far-apart integer keys", () => {
  const ix = new UniqueIndex("k", [0, 1]);
  assert.ok(ix.add([1, 2]));
  assert.not.ok(ix.add([1, 2]));
  assert.ok(ix.add([1, null]) && ix.add([1, null]), "a NULL in the key is never indexed");
  assert.equal(ix.lookup([1, 2]), [[1, 2]]);
  const sparse = new UniqueIndex("pk", [0]);
  const rows: MutableRow[] = [[0], [5], [2 ** 31 - 2], [1_000_000_000], [2 ** 40]];
  assert.equal(sparse.build(rows), []);
  for (const row of rows) assert.is(sparse.get(row[0]), row);
  assert.is(sparse.get(6), undefined);
});

test.run();
