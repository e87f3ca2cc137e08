/**
 * The LIKE matcher: the same answers as an independent reference (a regular
 * expression built from the pattern) on random patterns and texts, patterns
 * longer than one machine word of states, and time linear in the text on
 * the patterns that make a backtracking matcher blow up.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { compileLike } from "../../src/executor/like.js";

/** The reference: the pattern as a regular expression (ASCII letters in either case, `_` one code point). */
function reference(pattern: string, text: string, escape?: string): boolean {
  let source = "";
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === escape) {
      if (i + 1 >= chars.length) return false;
      source += literal(chars[++i]!);
    } else if (c === "%") source += "[\\s\\S]*";
    else if (c === "_") source += "[\\s\\S]";
    else source += literal(c);
  }
  return new RegExp(`^${source}$`, "u").test(text);
}

function literal(c: string): string {
  if (/^[a-z]$/i.test(c)) return `[${c.toLowerCase()}${c.toUpperCase()}]`;
  return c.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
}

const alphabet = fc.constantFrom("a", "A", "b", "%", "_", "!", "é", "É", "😀", " ");

test("random patterns and texts agree with the reference", () => {
  fc.assert(
    fc.property(fc.array(alphabet, { maxLength: 8 }), fc.array(alphabet, { maxLength: 12 }), fc.boolean(), (p, t, escaped) => {
      const pattern = p.join("");
      const text = t.join("");
      const escape = escaped ? "!" : undefined;
      assert.is(compileLike(pattern, escape).test(text), reference(pattern, text, escape), JSON.stringify({ pattern, text, escape }));
    }),
    { numRuns: 20_000, seed: 42 },
  );
});

test("patterns longer than one word of states", () => {
  const long = "a_".repeat(40) + "%" + "b".repeat(30);
  const text = "aX".repeat(40) + "zzz" + "B".repeat(30);
  assert.ok(compileLike(long).test(text));
  assert.not.ok(compileLike(long).test(text.slice(0, -1)));
  assert.ok(compileLike(`%${"ab".repeat(20)}%`).test(`xx${"AB".repeat(20)}yy`));
  assert.not.ok(compileLike(`%${"ab".repeat(20)}c%`).test(`xx${"AB".repeat(20)}yy`));
});

test("time is linear in the text, whatever the pattern", () => {
  const text = "a".repeat(200_000);
  for (const pattern of ["%a%a%a%a%a%a%a%a%a%a%b", "%" + "_".repeat(25) + "b", "a%".repeat(30) + "b"]) {
    const matcher = compileLike(pattern);
    const start = performance.now();
    assert.not.ok(matcher.test(text), pattern);
    // A backtracking matcher needs on the order of n^k steps here; the automaton does one pass.
    assert.ok(performance.now() - start < 2000, `${pattern}: ${performance.now() - start} ms`);
  }
});

test("the shapes with a fast path: whole literal, prefix, empty", () => {
  assert.ok(compileLike("AbC").test("abc"));
  assert.not.ok(compileLike("abc").test("abcd"));
  assert.ok(compileLike("ab%").test("ABxyz"));
  assert.not.ok(compileLike("ab%").test("a"));
  assert.ok(compileLike("").test(""));
  assert.not.ok(compileLike("").test("a"));
  assert.ok(compileLike("%").test(""));
  assert.not.ok(compileLike("ab!", "!").test("ab"), "a pattern ending in its escape matches nothing");
});

test.run();
