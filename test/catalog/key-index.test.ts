/**
 * The key indexes over a heap's rows. UniqueIndex keeps some keys in typed
 * slots and the rest in a Map: whatever the mix of keys and operations, and
 * however many rows it was built from (which sets where slots end), it must
 * answer exactly as one Map keyed by SameValueZero would. MultiIndex keeps
 * each key's rows as a linked list through typed arrays: through adds,
 * removes and replacements in any order it must list each key's rows in
 * table order, as a filter over all rows would.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { MultiIndex, UniqueIndex, type IndexedTable } from "../../src/catalog/key-index.js";
import { ColumnHeap } from "../../src/catalog/row-heap.js";
import type { ColumnType, Value } from "../../src/commands/types.js";

// Around the slot limit too (1024 spare slots beyond twice the rows built with).
const keys: Value[] = [0, -0, 1, 1.0, 1.5, -1, 7, 1023, 1024, 1040, 1063, 1064, 1100, 2 ** 31 - 1, 2 ** 31, 2 ** 53 - 1, 1e9, "1", "0", true, false, null];

/** A table of rows [key, tag] whose order is given per id (ids increase along the table unless `order` says otherwise). */
function table(types: readonly ColumnType[]): IndexedTable & { readonly order: Map<number, number> } {
  const heap = new ColumnHeap(types);
  const order = new Map<number, number>();
  return { heap, order, orderOf: (id) => order.get(id) ?? id };
}

type Op = { kind: "add" | "remove" | "get"; key: number; tag: number };

/**
 * Keys of mixed kinds live in one column of a plain array (text), so the test stores them there; the
 * number keys also in a real column (a Float64Array, NULL as NaN), which `build` files by a loop of its own.
 */
for (const [type, pool] of [
  ["text", keys],
  ["real", keys.filter((k) => k === null || typeof k === "number")],
] as const) {
  test(`property: UniqueIndex add, remove and get agree with a Map, keys of every kind mixed (${type} column)`, () => {
    const op = fc.record({ kind: fc.constantFrom<Op["kind"]>("add", "remove", "get"), key: fc.nat(pool.length - 1), tag: fc.nat(3) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.array(fc.nat(pool.length - 1), { maxLength: 20 }), (ops, initial) => {
        const t = table([type, "integer"]);
        const ix = new UniqueIndex("pk", [0], t);
        const reference = new Map<Value, number>();
        const ids = initial.map((k, i) => t.heap.append([pool[k]!, i]));
        const taken = ix.build(ids);
        const expectTaken: number[] = [];
        ids.forEach((id, i) => {
          const v = t.heap.value(id, 0);
          if (v === null) return;
          if (reference.has(v)) expectTaken.push(i);
          else reference.set(v, id);
        });
        assert.equal(taken, expectTaken);
        for (const { kind, key, tag } of ops) {
          const value = pool[key]!;
          if (kind === "get") {
            assert.is(ix.get(value === null ? undefined : value), value === null ? undefined : reference.get(value));
            assert.equal(ix.lookup([value]), value !== null && reference.has(value) ? [reference.get(value)] : []);
          } else if (kind === "add") {
            const id = t.heap.append([value, tag]);
            const free = value === null || !reference.has(value);
            assert.is(ix.add(id), free);
            if (free && value !== null) reference.set(value, id);
          } else {
            const holder = value === null ? undefined : reference.get(value);
            // Removing a row that is not the holder changes nothing; removing the holder frees the key.
            ix.remove(t.heap.append([value, tag]));
            if (holder !== undefined) {
              ix.remove(holder);
              reference.delete(value!);
            }
          }
        }
        for (const value of pool) if (value !== null) assert.is(ix.get(value), reference.get(value), `key ${String(value)}`);
        ix.build([]);
        for (const value of pool) if (value !== null) assert.is(ix.get(value), undefined);
      }),
      { numRuns: 500 },
    );
  });
}

test("UniqueIndex: number keys from a number column, composite keys and far-apart integer keys", () => {
  const t = table(["integer", "real"]);
  const ix = new UniqueIndex("k", [0, 1], t);
  const a = t.heap.append([1, 2]);
  assert.ok(ix.add(a));
  assert.not.ok(ix.add(t.heap.append([1, 2])));
  assert.ok(ix.add(t.heap.append([1, null])) && ix.add(t.heap.append([1, null])), "a NULL in the key is never indexed");
  assert.equal(ix.lookup([1, 2]), [a]);
  const sparse = new UniqueIndex("pk", [0], t);
  const ids = [0, 5, 2 ** 31 - 2, 1_000_000_000, 2 ** 40].map((k) => t.heap.append([k, null]));
  assert.equal(sparse.build(ids), []);
  for (const id of ids) assert.is(sparse.get(t.heap.value(id, 0)), id);
  assert.is(sparse.get(6), undefined);
  const fresh = t.heap.append([5, 1]);
  sparse.replace(ids[1]!, fresh);
  assert.is(sparse.get(5), fresh, "a row takes another's key");
});

test("UniqueIndex: an index built empty and filled by inserts of growing ids answers like a Map while its slots grow, removals and replacements among them", () => {
  const t = table(["integer", "integer"]);
  const ix = new UniqueIndex("pk", [0], t);
  ix.build([]);
  const reference = new Map<number, number>();
  // Ids mostly growing (past the first slots many times over), some far apart, some removed and replaced.
  for (let i = 0; i < 20_000; i++) {
    const key = i % 97 === 0 ? 2 ** 30 + i : i % 13 === 0 ? 3 * i : i;
    const id = t.heap.append([key, i]);
    assert.is(ix.add(id), !reference.has(key), `add ${key}`);
    if (!reference.has(key)) reference.set(key, id);
    const gone = i % 7 === 0 ? reference.get(i >> 1) : undefined;
    if (gone !== undefined) {
      ix.remove(gone);
      reference.delete(i >> 1);
    }
    const old = i % 5 === 0 ? reference.get(i >> 2) : undefined;
    if (old !== undefined) {
      const next = t.heap.append([i >> 2, -i]);
      ix.replace(old, next);
      reference.set(i >> 2, next);
    }
  }
  for (let key = 0; key < 70_000; key++) assert.is(ix.get(key), reference.get(key), `key ${key}`);
  for (const [key, id] of reference) assert.is(ix.get(key), id, `key ${key}`);
});

type MultiOp = { kind: "add" | "remove" | "replace"; key: number; at: number };

test("property: MultiIndex lists each key's rows in table order through adds, removes and replacements", () => {
  const small: Value[] = ["a", "b", null, "c"];
  const op = fc.record({ kind: fc.constantFrom<MultiOp["kind"]>("add", "add", "remove", "replace"), key: fc.nat(small.length - 1), at: fc.nat(1000) });
  fc.assert(
    fc.property(fc.array(op, { maxLength: 80 }), fc.array(fc.nat(small.length - 1), { maxLength: 30 }), (ops, initial) => {
      const t = table(["text"]);
      const ix = new MultiIndex("ix", [0], t);
      // The table: ids in table order; a row's order is its position's sequence number.
      let rows = initial.map((k) => t.heap.append([small[k]!]));
      rows.forEach((id, i) => t.order.set(id, i * 1000));
      ix.build(rows);
      let nextOrder = rows.length * 1000;
      for (const { kind, key, at } of ops) {
        if (kind === "add") {
          // A row anywhere in table order: between two neighbours' sequence numbers.
          const place = rows.length === 0 ? 0 : at % (rows.length + 1);
          const low = place === 0 ? -1_000_000 : t.orderOf(rows[place - 1]!);
          const high = place === rows.length ? nextOrder++ * 1000 : t.orderOf(rows[place]!);
          const id = t.heap.append([small[key]!]);
          t.order.set(id, (low + high) / 2);
          rows.splice(place, 0, id);
          ix.add(id);
        } else if (rows.length > 0) {
          const place = at % rows.length;
          const old = rows[place]!;
          if (kind === "remove") {
            ix.remove(old);
            rows = rows.filter((id) => id !== old);
          } else {
            // A new row with the old one's key and place.
            const id = t.heap.append([t.heap.value(old, 0)]);
            t.order.set(id, t.orderOf(old));
            rows[place] = id;
            assert.ok(ix.sameKey(old, id));
            ix.replace(old, id);
          }
        }
        for (const v of small) {
          if (v === null) continue;
          assert.equal(ix.get(v), rows.filter((id) => t.heap.value(id, 0) === v));
        }
      }
      // An ordered walk of every key (NULL first) is the table sorted by key, each key's rows in table order.
      const walked: number[] = [];
      ix.walk([{ equal: [] }], false, (id) => walked.push(id) > 0);
      const rank = (id: number): number => small.indexOf(t.heap.value(id, 0)) + (t.heap.value(id, 0) === null ? -10 : 0);
      assert.equal(walked, rows.slice().sort((x, y) => rank(x) - rank(y) || t.orderOf(x) - t.orderOf(y)));
    }),
    { numRuns: 300 },
  );
});

test.run();
