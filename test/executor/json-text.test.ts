/**
 * The JSON scanner and paths on their own: paths compiled as SQLite reads
 * them (a malformed step kept for the walk to reach), `->`'s shorthand,
 * and the scanner against `JSON.parse` — the same texts accepted (both
 * read RFC 8259), and a pretty-printed document minified back to
 * `JSON.stringify`'s text. The functions themselves are held to SQLite by
 * `json-differential.test.ts`.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { arrowPath, compilePath } from "../../src/executor/json-path.js";
import { PathCache } from "../../src/executor/json-functions.js";
import { MalformedJson, locate, minify, validate } from "../../src/executor/json-text.js";

const PATHS: readonly [string, unknown][] = [
  ["$", []],
  ["$.a.b", [{ kind: "key", key: "a" }, { kind: "key", key: "b" }]],
  ['$."x.y"', [{ kind: "key", key: "x.y" }]],
  ['$."q\\"t"', [{ kind: "key", key: 'q"t', written: '"q\\"t"' }]],
  ["$.c d", [{ kind: "key", key: "c d" }]],
  ["$[0][12]", [{ kind: "index", index: 0 }, { kind: "index", index: 12 }]],
  ["$[#]", [{ kind: "from-end", back: 0 }]],
  ["$[#-2].a", [{ kind: "from-end", back: 2 }, { kind: "key", key: "a" }]],
  ["$.a.", [{ kind: "key", key: "a" }, { kind: "error", arrayOnly: false }]],
  ["$.a[x", [{ kind: "key", key: "a" }, { kind: "error", arrayOnly: true }]],
  ["$[1]x", [{ kind: "index", index: 1 }, { kind: "error", arrayOnly: false }]],
  ["a", [{ kind: "error", arrayOnly: false }]],
];

test("paths compile into steps, a malformed one ending in an error step", () => {
  for (const [text, steps] of PATHS) assert.equal(compilePath(text).steps, steps, text);
});

test("-> and ->> read SQLite's shorthand", () => {
  const asText = (n: number): string => (Number.isInteger(n) ? `${n}.0` : String(n));
  const cases: readonly [string | number, boolean, string][] = [
    ["$.a", false, "$.a"],
    ["a", false, "$.a"],
    ["a_1", false, "$.a_1"],
    ["c d", false, '$."c d"'],
    ["[0]", false, "$[0]"],
    [2, false, "$[2]"],
    [-1, false, "$[#-1]"],
    [2, true, '$."2.0"'],
  ];
  for (const [operand, real, path] of cases) assert.is(arrowPath(operand, real, asText), path, String(operand));
});

test("a bad step is an error only where the walk reaches it", () => {
  assert.is(locate('{"a":1}', compilePath("$.b.")).start, -1);
  assert.throws(() => locate('{"a":1}', compilePath("$.a.")));
  assert.is(locate('{"a":{}}', compilePath("$.a[x")).start, -1);
  assert.throws(() => locate('{"a":[]}', compilePath("$.a[x")));
});

const accepts = (text: string): boolean => {
  try {
    validate(text);
    return true;
  } catch (error) {
    if (error instanceof MalformedJson) return false;
    throw error;
  }
};

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

test("the scanner accepts what JSON.parse accepts", () => {
  const texts = fc.oneof(
    fc.json(),
    fc.string(),
    fc.json().map((t) => t.slice(0, -1)),
    fc.tuple(fc.json(), fc.constantFrom(",", "]", "}", " x", "\u0001", "0", ".")).map(([t, c]) => `${t}${c}`),
  );
  fc.assert(fc.property(texts, (text) => accepts(text) === parses(text)), { numRuns: 3000 });
});

test("a pretty-printed document minifies to JSON.stringify's text", () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const pretty = ` ${JSON.stringify(value, null, 2)}\n`;
      const start = pretty.search(/\S/);
      return minify(pretty, start, pretty.trimEnd().length) === JSON.stringify(value);
    }),
    { numRuns: 1000 },
  );
});

test("the run-time path cache keeps short paths, the oldest dropped past 256, and no path longer than 1 KB", () => {
  const cache = new PathCache();
  const long = `$${".a".repeat(600)}`;
  assert.is(cache.keep(long, compilePath(long)).steps.length, 600);
  assert.is(cache.get(long), undefined);
  for (let i = 0; i < 257; i++) cache.keep(`$.k${i}`, compilePath(`$.k${i}`));
  assert.is(cache.get("$.k0"), undefined);
  assert.is(cache.get("$.k256")?.text, "$.k256");
});

test.run();
