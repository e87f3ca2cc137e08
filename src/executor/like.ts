/**
 * LIKE (CONTRACT §11): `%` matches any run of characters, `_` exactly one,
 * an ESCAPE character makes the next one literal, and ASCII letters match
 * either case (as SQLite; `'É' LIKE 'é'` is false). Characters are code
 * points: `_` matches one emoji.
 *
 * A pattern is compiled once into a matcher that runs in time linear in the
 * text, with no backtracking whatever the pattern: a bit-parallel
 * simulation of the pattern's automaton (Shift-And). State j means "the
 * first j pattern characters matched"; a `%` after character j lets state j
 * stay on any text character. Each text character updates every state at
 * once with a shift and two masks, one machine word per 31 pattern
 * characters. The common shapes — no wildcard, or a literal prefix then `%` —
 * take a direct comparison instead. GLOB (`glob.ts`) runs on the same
 * automaton, case-sensitive, with its character classes as tokens.
 */

import { compareText } from "./value-order.js";

export interface LikeMatcher {
  test(text: string): boolean;
}

/** ASCII upper case to lower case; every other character is itself. */
function fold(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

const same = (c: number): number => c;

/** A GLOB character class (`[a-z]`, `[^0-9]`): inclusive code point ranges, or everything outside them. */
export interface CharClass {
  readonly ranges: readonly (readonly [number, number])[];
  readonly negated: boolean;
}

/** Whether code point `c` is in `cls`. */
export function inClass(cls: CharClass, c: number): boolean {
  for (const [lo, hi] of cls.ranges) if (c >= lo && c <= hi) return !cls.negated;
  return cls.negated;
}

/** One pattern position: a character (folded for LIKE), any character (`_`, GLOB's `?`), or a GLOB class. */
export type Token = number | "any" | CharClass;

interface Parsed {
  readonly tokens: Token[];
  /** `stars[j]`: a `%` stands between token j-1 and token j (j = 0: before the first; j = tokens.length: after the last). */
  readonly stars: boolean[];
  /** False when the pattern ends in a lone ESCAPE: it matches nothing, as in SQLite. */
  readonly valid: boolean;
}

function parse(pattern: string, escape: number | undefined): Parsed {
  const tokens: Token[] = [];
  const stars: boolean[] = [false];
  for (let i = 0; i < pattern.length; ) {
    const c = pattern.codePointAt(i)!;
    i += c > 0xffff ? 2 : 1;
    if (c === escape) {
      if (i >= pattern.length) return { tokens, stars, valid: false };
      const literal = pattern.codePointAt(i)!;
      i += literal > 0xffff ? 2 : 1;
      tokens.push(fold(literal));
      stars.push(false);
    } else if (c === 37 /* % */) {
      stars[tokens.length] = true;
    } else {
      tokens.push(c === 95 /* _ */ ? "any" : fold(c));
      stars.push(false);
    }
  }
  return { tokens, stars, valid: true };
}

const NEVER: LikeMatcher = { test: () => false };

/** The matcher for `pattern` with an optional one-character `escape`. */
export function compileLike(pattern: string, escape?: string): LikeMatcher {
  const parsed = parse(pattern, escape === undefined ? undefined : escape.codePointAt(0));
  if (!parsed.valid) return NEVER;
  const { tokens, stars } = parsed;
  const wildcards = tokens.includes("any") || stars.slice(0, -1).some(Boolean);
  if (!wildcards) return literalMatcher(tokens as number[], stars[tokens.length] === true, true);
  return automaton(tokens, stars, true);
}

/** A pattern of plain characters, whole (`abc`) or as a prefix (`abc%`): compared character by character, ASCII letters folded when `caseless`. */
export function literalMatcher(chars: readonly number[], prefix: boolean, caseless: boolean): LikeMatcher {
  const f = caseless ? fold : same;
  return {
    test(text: string): boolean {
      let i = 0;
      for (const want of chars) {
        if (i >= text.length) return false;
        const c = text.codePointAt(i)!;
        if (f(c) !== want) return false;
        i += c > 0xffff ? 2 : 1;
      }
      return prefix || i === text.length;
    },
  };
}

const WORD_BITS = 31;

/** How many characters beyond ASCII a matcher keeps the class bits of: a text of more distinct ones finds the rest each time. */
const REST_CACHE = 1024;

/**
 * The Shift-And automaton over `words` words of 31 states each; `caseless`:
 * a lower-case ASCII letter token also matches its upper case (LIKE's
 * tokens come folded). A class token's bits go into every ASCII mask it
 * holds and into the mask of any other character as it is met.
 */
export function automaton(tokens: readonly Token[], stars: readonly boolean[], caseless: boolean): LikeMatcher {
  const states = tokens.length + 1;
  const words = Math.ceil(states / WORD_BITS);
  const bit = (state: number): [number, number] => [Math.floor(state / WORD_BITS), 1 << state % WORD_BITS];
  // Masks: for a character, the states its token leads to (token j leads to state j + 1); and the looping states.
  const any = new Int32Array(words);
  const loops = new Int32Array(words);
  const ascii = new Int32Array(128 * words);
  const other = new Map<number, Int32Array>();
  const classes: [CharClass, number, number][] = [];
  tokens.forEach((token, j) => {
    const [w, b] = bit(j + 1);
    if (token === "any") any[w]! |= b;
    else if (typeof token === "object") {
      classes.push([token, w, b]);
      for (let c = 0; c < 128; c++) if (inClass(token, c)) ascii[c * words + w]! |= b;
    } else if (token < 128) {
      ascii[token * words + w]! |= b;
      // An ASCII letter matches in either case: its upper-case form looks up the same bits.
      if (caseless && token >= 97 && token <= 122) ascii[(token - 32) * words + w]! |= b;
    } else {
      let mask = other.get(token);
      if (mask === undefined) other.set(token, (mask = new Int32Array(words)));
      mask[w]! |= b;
    }
  });
  for (let c = 0; c < 128; c++) for (let w = 0; w < words; w++) ascii[c * words + w]! |= any[w]!;
  for (const mask of other.values()) for (let w = 0; w < words; w++) mask[w]! |= any[w]!;
  for (const [c, mask] of other) for (const [cls, w, b] of classes) if (inClass(cls, c)) mask[w]! |= b;
  // A character beyond ASCII the pattern does not name: the `any` bits, and those of the classes that hold it,
  // found once per character (a class may hold thousands of ranges, a text repeat one character throughout).
  const seen = new Map<number, Int32Array>();
  const rest =
    classes.length === 0
      ? (): Int32Array => any
      : (c: number): Int32Array => {
          let mask = seen.get(c);
          if (mask !== undefined) return mask;
          mask = Int32Array.from(any);
          for (const [cls, w, b] of classes) if (inClass(cls, c)) mask[w]! |= b;
          if (seen.size < REST_CACHE) seen.set(c, mask);
          return mask;
        };
  stars.forEach((star, j) => {
    if (!star) return;
    const [w, b] = bit(j);
    loops[w]! |= b;
  });
  const [acceptWord, acceptBit] = bit(tokens.length);
  if (words === 1) return singleWord(ascii, other, rest, loops[0]!, acceptBit);
  return {
    test(text: string): boolean {
      let d = new Int32Array(words);
      let next = new Int32Array(words);
      d[0] = 1;
      for (let i = 0; i < text.length; ) {
        const c = text.codePointAt(i)!;
        i += c > 0xffff ? 2 : 1;
        const base = c < 128 ? c * words : -1;
        const mask = base < 0 ? (other.get(c) ?? rest(c)) : undefined;
        let alive = 0;
        let carry = 0;
        for (let w = 0; w < words; w++) {
          const m = base >= 0 ? ascii[base + w]! : mask![w]!;
          const shifted = ((d[w]! << 1) | carry) & 0x7fffffff;
          carry = (d[w]! >>> (WORD_BITS - 1)) & 1;
          next[w] = (shifted & m) | (d[w]! & loops[w]!);
          alive |= next[w]!;
        }
        if (alive === 0) return false;
        [d, next] = [next, d];
      }
      return (d[acceptWord]! & acceptBit) !== 0;
    },
  };
}

function singleWord(ascii: Int32Array, other: ReadonlyMap<number, Int32Array>, rest: (c: number) => Int32Array, loops: number, accept: number): LikeMatcher {
  return {
    test(text: string): boolean {
      let d = 1;
      for (let i = 0; i < text.length; ) {
        const c = text.charCodeAt(i);
        let m: number;
        if (c < 128) {
          m = ascii[c]!;
          i++;
        } else {
          const point = text.codePointAt(i)!;
          i += point > 0xffff ? 2 : 1;
          m = (other.get(point) ?? rest(point))[0]!;
        }
        d = ((d << 1) & m) | (d & loops);
        if (d === 0) return false;
      }
      return (d & accept) !== 0;
    },
  };
}

/** ASCII letters of a literal start taken in both cases: at most 2^6 = 64 prefixes; a longer start is cut before its 7th letter (the matcher checks the rest). */
const CASED_LETTERS = 6;

/**
 * The texts, exactly as stored, that every text matching `pattern` starts
 * with: the pattern's literal start (up to its first unescaped `%` or `_`)
 * in every case of its ASCII letters, in code point order (`[""]` when it
 * starts with a wildcard; none when it matches nothing). An ordered index
 * seeks each one in turn.
 */
export function likePrefixes(pattern: string, escape?: string): string[] {
  const esc = escape === undefined ? undefined : escape.codePointAt(0);
  let prefixes = [""];
  let letters = 0;
  for (let i = 0; i < pattern.length; ) {
    let c = pattern.codePointAt(i)!;
    i += c > 0xffff ? 2 : 1;
    if (c === esc) {
      if (i >= pattern.length) return [];
      c = pattern.codePointAt(i)!;
      i += c > 0xffff ? 2 : 1;
    } else if (c === 37 /* % */ || c === 95 /* _ */) break;
    const lower = fold(c);
    if (lower >= 97 && lower <= 122) {
      if (++letters > CASED_LETTERS) break;
      const upper = String.fromCharCode(lower - 32);
      const low = String.fromCharCode(lower);
      prefixes = prefixes.flatMap((p) => [p + upper, p + low]);
    } else {
      const s = String.fromCodePoint(c);
      prefixes = prefixes.map((p) => p + s);
    }
  }
  return prefixes.sort(compareText);
}
