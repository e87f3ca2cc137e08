/** Which open databases the budget closes: idle ones only, least recently used first, never the most recent. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { evictions, HEAP_PER_STORED_BYTE, type Candidate } from "../../src/storage/open-budget.js";

const db = (name: string, used: number, idle = true, bytes = 0) => ({ name, used, idle, bytes });
const names = (close: readonly (Candidate & { name: string })[]) => close.map((c) => c.name);

test("within budget: nothing closes", () => {
  const open = [db("a", 1), db("b", 2)];
  assert.equal(evictions(open, { databases: 2 }), { close: [], over: false });
  assert.equal(evictions(open, {}), { close: [], over: false });
});

test("over the count: the least recently used idle ones close, just enough of them", () => {
  const open = [db("c", 3), db("a", 1), db("d", 4), db("b", 2)];
  const { close, over } = evictions(open, { databases: 2 });
  assert.equal(names(close), ["a", "b"]);
  assert.is(over, false);
});

test("busy databases are skipped; the most recently used never closes, even when it alone is over", () => {
  const open = [db("a", 1, false), db("b", 2), db("c", 3, false), db("d", 4)];
  const { close, over } = evictions(open, { databases: 1 });
  assert.equal(names(close), ["b"], "a and c are busy, d is the most recent");
  assert.is(over, true);
  const huge = evictions([db("small", 1, true, 10), db("huge", 2, true, 1000)], { memoryBytes: 100 * HEAP_PER_STORED_BYTE });
  assert.equal(names(huge.close), ["small"]);
  assert.is(huge.over, true, "the most recent database alone is over the memory budget and stays");
});

test("over the memory estimate: close by recency until the stored bytes fit", () => {
  const open = [db("a", 1, true, 400), db("b", 2, true, 300), db("c", 3, true, 200), db("d", 4, true, 100)];
  const budget = { memoryBytes: 650 * HEAP_PER_STORED_BYTE };
  assert.equal(names(evictions(open, budget).close), ["a"], "1000 - 400 = 600 fits");
  assert.equal(names(evictions(open, { ...budget, databases: 2 }).close), ["a", "b"], "both limits hold");
});

test.run();
