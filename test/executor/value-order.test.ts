/** Value order, one line per case: text by code point, numbers, booleans, NULL lowest. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Value } from "../../src/commands/types.js";
import { compareText, compareValues } from "../../src/executor/value-order.js";

const TEXT: [string, string, -1 | 0 | 1][] = [
  ["a", "b", -1],
  ["b", "a", 1],
  ["", "a", -1],
  ["ab", "a", 1],
  ["same", "same", 0],
  ["Z", "a", -1],
  ["\uffff", "\u{1F600}", -1], // U+FFFF < U+1F600 (UTF-16 units say the opposite)
  ["\u{1F600}", "\uffff", 1],
  ["\ue000", "\u{10000}", -1],
  ["\ud7ff", "\u{10000}", -1],
  ["\u{1F600}", "\u{1F601}", -1],
  ["x\u{1F600}", "x\uff5e", 1],
  ["é", "e\u0301", 1],
];

test("compareText by code point", () => {
  for (const [a, b, want] of TEXT) assert.is(Math.sign(compareText(a, b)), want, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
});

const VALUES: [Value, Value, -1 | 0 | 1][] = [
  [null, null, 0],
  [null, false, -1],
  [null, -1e9, -1],
  ["", null, 1],
  [false, true, -1],
  [true, true, 0],
  [1, 1.0, 0],
  [-0, 0, 0],
  [2, 10, -1],
  [1.5, 1, 1],
  ["10", "9", -1],
];

test("compareValues: NULL lowest, then within a type", () => {
  for (const [a, b, want] of VALUES) assert.is(Math.sign(compareValues(a, b)), want, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
});

test.run();
