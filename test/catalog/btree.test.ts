/**
 * The B+tree must answer as a sorted map would, whatever the mix of sets,
 * deletes and bulk builds: gets, sizes, and walks up and down from any seek
 * position. Runs are long enough to split and merge nodes several levels
 * deep (64 entries a node).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { BTree } from "../../src/catalog/btree.js";

const byNumber = (a: number, b: number): number => a - b;

function walkUpFrom(tree: BTree<number, number>, from: number, limit: number): number[] {
  const out: number[] = [];
  tree.walkUp(
    (k) => k < from,
    (k, v) => {
      assert.is(v, k * 10);
      out.push(k);
      return out.length < limit;
    },
  );
  return out;
}

function walkDownFrom(tree: BTree<number, number>, from: number, limit: number): number[] {
  const out: number[] = [];
  tree.walkDown(
    (k) => k > from,
    (k) => {
      out.push(k);
      return out.length < limit;
    },
  );
  return out;
}

type Op = { kind: "set" | "delete" | "up" | "down"; key: number; n: number };

test("property: set, delete, get and walks agree with a sorted array", () => {
  const op = fc.record({ kind: fc.constantFrom<Op["kind"]>("set", "set", "delete", "up", "down"), key: fc.integer({ min: 0, max: 20_000 }), n: fc.integer({ min: 1, max: 400 }) });
  fc.assert(
    fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 20_000 }), { maxLength: 6000, size: "max" }), fc.array(op, { minLength: 200, maxLength: 3000, size: "max" }), (initial, ops) => {
      const tree = new BTree<number, number>(byNumber);
      const model = [...initial].sort(byNumber);
      tree.build(model, model.map((k) => k * 10));
      for (const { kind, key, n } of ops) {
        if (kind === "set") {
          tree.set(key, key * 10);
          if (!model.includes(key)) {
            model.push(key);
            model.sort(byNumber);
          }
        } else if (kind === "delete") {
          const at = model.indexOf(key);
          assert.is(tree.delete(key), at >= 0);
          if (at >= 0) model.splice(at, 1);
        } else if (kind === "up") {
          assert.equal(walkUpFrom(tree, key, n), model.filter((k) => k >= key).slice(0, n));
        } else {
          assert.equal(walkDownFrom(tree, key, n), model.filter((k) => k <= key).reverse().slice(0, n));
        }
        assert.is(tree.size, model.length);
      }
      assert.equal(walkUpFrom(tree, -1, Infinity), model);
      assert.equal(walkDownFrom(tree, Infinity, Infinity), [...model].reverse());
      for (const k of [0, 1, 1500, 19_999, 20_000]) assert.is(tree.get(k), model.includes(k) ? k * 10 : undefined);
    }),
    { numRuns: 30, seed: 15 },
  );
});

test("deleting everything in random order leaves an empty tree that grows again", () => {
  const tree = new BTree<number, number>(byNumber);
  const keys = Array.from({ length: 20_000 }, (_, i) => i);
  tree.build(keys, keys.map((k) => k * 10));
  let seed = 7;
  const shuffled = [...keys].sort(() => ((seed = (seed * 48271) % 2147483647) / 2147483647) - 0.5);
  for (const k of shuffled) assert.ok(tree.delete(k));
  assert.is(tree.size, 0);
  assert.equal(walkUpFrom(tree, -1, Infinity), []);
  for (const k of shuffled.slice(0, 5000)) tree.set(k, k * 10);
  assert.equal(walkUpFrom(tree, -1, Infinity), shuffled.slice(0, 5000).sort(byNumber));
});

test.run();
