/**
 * The GLOB matcher against SQLite's own (better-sqlite3's `glob(pattern,
 * text)`) on random patterns and texts over the characters its rules turn
 * on — `*`, `?`, `[`, `]`, `^`, `-`, cases and letters beyond ASCII — and
 * patterns longer than one machine word of states; and time linear in the
 * text on a pattern that makes a backtracking matcher blow up.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { compileGlob } from "../../src/executor/glob.js";
import { Sqlite } from "./support/sqlite.js";

const sqlite = new Sqlite(":memory:");
const glob = sqlite.prepare("SELECT glob(?, ?)");
const theirs = (pattern: string, text: string): boolean => (glob.raw().all(pattern, text)[0]![0] as number) === 1;

const PATTERN_CHARS = ["*", "?", "[", "]", "^", "-", "a", "b", "c", "A", "z", "é", "😀", " "];
const TEXT_CHARS = ["a", "b", "c", "A", "B", "z", "-", "]", "^", "é", "É", "😀", " "];

test("GLOB answers as SQLite's on random patterns and texts", () => {
  const pattern = fc.array(fc.constantFrom(...PATTERN_CHARS), { maxLength: 9 }).map((cs) => cs.join(""));
  const text = fc.array(fc.constantFrom(...TEXT_CHARS), { maxLength: 8 }).map((cs) => cs.join(""));
  fc.assert(
    fc.property(pattern, text, (p, t) => {
      assert.is(compileGlob(p).test(t), theirs(p, t), `${JSON.stringify(t)} GLOB ${JSON.stringify(p)}`);
    }),
    { numRuns: 20000, seed: 20260311 },
  );
});

test("GLOB's sets as SQLite reads them", () => {
  const cases: [string, string][] = [
    ["[z-a]", "m"],
    ["[a-c-e]", "-"],
    ["[a-c-e]", "d"],
    ["[]-a]", "-"],
    ["[]-a]", "b"],
    ["[^]]", "]"],
    ["[^]]", "x"],
    ["[a-]", "-"],
    ["[-a]", "-"],
    ["a[", "a["],
    ["[é-ü]", "ö"],
    ["[^a-z]", "😀"],
    ["[😀]", "😀"],
    ["*[b", "ab"],
  ];
  for (const [p, t] of cases) assert.is(compileGlob(p).test(t), theirs(p, t), `${JSON.stringify(t)} GLOB ${JSON.stringify(p)}`);
});

test("a pattern longer than one word of states", () => {
  const p = `${"[a-c]?".repeat(20)}*x`;
  for (const t of ["ab".repeat(20) + "x", "ab".repeat(20) + "yx", "ab".repeat(19) + "x", "ad".repeat(20) + "x"]) assert.is(compileGlob(p).test(t), theirs(p, t), t);
});

test("time linear in the text: `*a*a*…*b` over a long run of a", () => {
  const matcher = compileGlob(`${"*a".repeat(30)}*b`);
  const text = "a".repeat(200_000);
  const start = performance.now();
  assert.is(matcher.test(text), false);
  assert.ok(performance.now() - start < 1000, "took more than a second");
});

test("a large class against a long text beyond ASCII: each character's class bits found once", () => {
  // 16k one-character ranges from U+4E00, none holding é; then a class holding é among as many.
  const ranges = Array.from({ length: 16_000 }, (_, i) => String.fromCodePoint(0x4e00 + 2 * i)).join("");
  const text = "é".repeat(100_000);
  const start = performance.now();
  assert.is(compileGlob(`*[${ranges}]*`).test(text), false);
  assert.is(compileGlob(`[${ranges}é]*`).test(text), true);
  assert.is(compileGlob(`*[^${ranges}]`).test(`${text}\u4e00`), false);
  assert.ok(performance.now() - start < 1000, "took more than a second");
});

test.run();
