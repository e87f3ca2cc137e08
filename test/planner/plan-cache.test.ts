/** PlanCache: bounded, least recently used goes first, hits count as use. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { PlanCache } from "../../src/planner/plan-cache.js";

test("keeps at most capacity entries, evicting the least recently used (a hit counts as use)", () => {
  const cache = new PlanCache<string, number>(3);
  cache.set("a", 1);
  cache.set("b", 2);
  cache.set("c", 3);
  assert.is(cache.get("a"), 1);
  cache.set("d", 4); // b is the stalest now
  assert.is(cache.get("b"), undefined);
  assert.equal([cache.get("a"), cache.get("c"), cache.get("d")], [1, 3, 4]);
  cache.get("a");
  cache.get("d");
  cache.set("e", 5); // c
  assert.is(cache.get("c"), undefined);
  assert.equal([cache.get("a"), cache.get("d"), cache.get("e")], [1, 4, 5]);
});

test("setting a present key replaces it without evicting another; clear empties", () => {
  const cache = new PlanCache<number, string>(2);
  cache.set(1, "one");
  cache.set(2, "two");
  cache.set(1, "uno");
  assert.equal([cache.get(1), cache.get(2)], ["uno", "two"]);
  cache.clear();
  assert.equal([cache.get(1), cache.get(2)], [undefined, undefined]);
});

test.run();
