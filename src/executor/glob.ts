/**
 * GLOB, as SQLite: `*` matches any run of characters, `?` exactly one,
 * `[…]` one character of a set (`[a-z]` ranges, `[^…]` the characters
 * outside it, a `]` first in the set is a member, a `-` first or last is
 * itself), and every other character only itself — case-sensitive, no
 * ESCAPE. A set that never closes matches nothing, as in SQLite.
 *
 * The pattern compiles to the tokens of LIKE's automaton (`like.ts`), so a
 * match runs in time linear in the text whatever the pattern.
 */

import { automaton, literalMatcher, type CharClass, type LikeMatcher, type Token } from "./like.js";

const NEVER: LikeMatcher = { test: () => false };

/** The matcher for a GLOB `pattern`. */
export function compileGlob(pattern: string): LikeMatcher {
  const tokens: Token[] = [];
  const stars: boolean[] = [false];
  const points = Array.from(pattern, (ch) => ch.codePointAt(0)!);
  for (let i = 0; i < points.length; ) {
    const c = points[i++]!;
    if (c === 42 /* * */) {
      stars[tokens.length] = true;
      continue;
    }
    if (c === 91 /* [ */) {
      const set = charClass(points, i);
      if (set === undefined) return NEVER;
      tokens.push(set.cls);
      i = set.next;
    } else tokens.push(c === 63 /* ? */ ? "any" : c);
    stars.push(false);
  }
  const wildcards = tokens.some((t) => typeof t !== "number") || stars.slice(0, -1).some(Boolean);
  if (!wildcards) return literalMatcher(tokens as number[], stars[tokens.length] === true, false);
  return automaton(tokens, stars, false);
}

/** The set opened by the `[` before `points[start]`, read as SQLite's patternCompare reads it, and where the pattern goes on; undefined if it never closes. */
function charClass(points: readonly number[], start: number): { cls: CharClass; next: number } | undefined {
  let i = start;
  let negated = false;
  const ranges: [number, number][] = [];
  if (points[i] === 94 /* ^ */) {
    negated = true;
    i++;
  }
  if (points[i] === 93 /* ] */) {
    ranges.push([93, 93]);
    i++;
  }
  // The member before a `-`: 0 after a range or at the start, where a `-` is itself.
  let prior = 0;
  while (i < points.length && points[i] !== 93) {
    const c = points[i++]!;
    const after = points[i];
    if (c === 45 /* - */ && prior > 0 && after !== undefined && after !== 93) {
      ranges.push([prior, after]);
      i++;
      prior = 0;
    } else {
      ranges.push([c, c]);
      prior = c;
    }
  }
  if (i >= points.length) return undefined;
  return { cls: { ranges, negated }, next: i + 1 };
}
