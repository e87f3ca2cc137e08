import { test } from "uvu";
import * as assert from "uvu/assert";
import { findSyntaxError } from "../../src/storage/json-syntax.js";

const valid = ["{}", "[]", ' {"a" : [1, -2.5e3, true, false, null, "x\\n\\u00e9"] } ', '"s"', "0", "[[[]]]"];
const invalid: [string, number, number, RegExp][] = [
  ['{"a":1,}', 1, 8, /property name/],
  ["[1,]", 1, 4, /a value/],
  ['{"a" 1}', 1, 6, /':'/],
  ['{"a":1', 1, 7, /',' or '}'.*end of the file/],
  ["[1 2]", 1, 4, /',' or '\]'/],
  ["01", 1, 2, /end of the file/],
  ["{\n  \"a\": }", 2, 8, /a value/],
  ["", 1, 1, /a value/],
  ["{a:1}", 1, 2, /property name/],
  ['["tab\there"]', 1, 6, /escaped control character/],
  ['["bad \\x escape"]', 1, 7, /valid escape/],
  ['["\\u12G4"]', 1, 3, /valid escape/],
  ['["open', 1, 7, /closing '"'.*end of the file/],
];

test("agrees with JSON.parse on valid input", () => {
  for (const text of valid) {
    JSON.parse(text);
    assert.is(findSyntaxError(text), null, text);
  }
});

test("locates the first error", () => {
  for (const [text, line, column, reason] of invalid) {
    assert.throws(() => JSON.parse(text));
    const problem = findSyntaxError(text);
    assert.ok(problem, text);
    assert.is(problem.line, line, text);
    assert.is(problem.column, column, text);
    assert.match(problem.reason, reason);
  }
});

test("long strings do not overflow the stack", () => {
  assert.is(findSyntaxError('{"a":"' + "x\\n".repeat(1_000_000) + '", }')?.column, 3_000_010);
});

test("deep nesting does not overflow the stack", () => {
  assert.is(findSyntaxError("[".repeat(200_000))?.column, 200_001);
  assert.is(findSyntaxError("[".repeat(50_000) + "]".repeat(50_000)), null);
});

test.run();
