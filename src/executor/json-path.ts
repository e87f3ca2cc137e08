/**
 * SQLite's JSON paths, compiled once into steps: `$`, then `.key`,
 * `."quoted key"`, `[n]`, `[#]` and `[#-n]`.
 *
 * SQLite reads a path lazily, step by step as it walks the document, so a
 * malformed step is an error only when the walk reaches it: `$.a..b` is
 * NULL on a document without `a`, and `bad JSON path` on one with it. A
 * compiled path keeps that: it ends in an `error` step where the text goes
 * wrong. An array step is tested against the value before its text is
 * read (`$.a[x` on an object `a` is NULL), a key step after (`$.a.` is an
 * error whatever `a` is): `arrayOnly` says which.
 *
 * The `->` and `->>` operators take SQLite's shorthand for their right
 * operand (`arrowPath`): an integer `n` is `$[n]` (negative: `$[#n]`), a
 * text not starting with `$` a key.
 */

export type PathStep =
  /** An object member by its decoded name; the first of equal names. `written`: a quoted key with escapes, as written (an edit creates the member so, as SQLite). */
  | { readonly kind: "key"; readonly key: string; readonly written?: string }
  /** An array element from the start (0-based). */
  | { readonly kind: "index"; readonly index: number }
  /** An array element from the end: `[#]` is 0 (one past the last), `[#-1]` the last. */
  | { readonly kind: "from-end"; readonly back: number }
  /** Where the path text goes wrong; reached, it is `bad JSON path` (for `arrayOnly`, only on an array). */
  | { readonly kind: "error"; readonly arrayOnly: boolean };

export interface JsonPath {
  /** The path as written, for messages. */
  readonly text: string;
  readonly steps: readonly PathStep[];
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** A quoted path key with a backslash: decoded (SQLite compares such a key decoded), and kept as written when it is a JSON string's text (an edit writes it so). */
function quotedKey(raw: string): PathStep {
  try {
    return { kind: "key", key: JSON.parse(`"${raw}"`) as string, written: `"${raw}"` };
  } catch {
    return { kind: "key", key: raw };
  }
}

/** Compiles a path (see the header; `shown` names it in messages); never throws: a bad step is an `error` step. */
export function compilePath(text: string, shown = text): JsonPath {
  const steps: PathStep[] = [];
  const fail = (arrayOnly: boolean): JsonPath => {
    steps.push({ kind: "error", arrayOnly });
    return { text: shown, steps };
  };
  if (text.charCodeAt(0) !== 36 /* $ */) return fail(false);
  let i = 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 46 /* . */) {
      i++;
      if (text.charCodeAt(i) === 34 /* " */) {
        // The key runs to the next quote not escaped by a backslash.
        let close = i + 1;
        while (close < text.length && text[close] !== '"') close += text[close] === "\\" && close + 1 < text.length ? 2 : 1;
        if (close >= text.length) return fail(false);
        const raw = text.slice(i + 1, close);
        steps.push(raw.includes("\\") ? quotedKey(raw) : { kind: "key", key: raw });
        i = close + 1;
      } else {
        let end = i;
        while (end < text.length && text[end] !== "." && text[end] !== "[") end++;
        if (end === i) return fail(false);
        steps.push({ kind: "key", key: text.slice(i, end) });
        i = end;
      }
    } else if (c === 91 /* [ */) {
      let end = i + 1;
      let index = 0;
      while (isDigit(text.charCodeAt(end))) index = index * 10 + text.charCodeAt(end++) - 48;
      if (end > i + 1 && text.charCodeAt(end) === 93 /* ] */) {
        steps.push({ kind: "index", index });
        i = end + 1;
        continue;
      }
      if (text.charCodeAt(i + 1) !== 35 /* # */) return fail(true);
      end = i + 2;
      let back = 0;
      if (text.charCodeAt(end) === 45 /* - */ && isDigit(text.charCodeAt(end + 1))) {
        end++;
        while (isDigit(text.charCodeAt(end))) back = back * 10 + text.charCodeAt(end++) - 48;
      }
      if (text.charCodeAt(end) !== 93) return fail(true);
      steps.push({ kind: "from-end", back });
      i = end + 1;
    } else {
      return fail(false);
    }
  }
  return { text: shown, steps };
}

const ALPHANUMERIC = /^[A-Za-z0-9_]*$/;

/**
 * The path SQLite's `->` and `->>` read from their right operand: a text
 * starting with `$` as it is; an integer as an array index (negative:
 * from the end); a text of letters, digits and `_` as `.key`; `[…]` as an
 * array step; any other text as a quoted key. A real is the text CAST
 * makes of it (`1.0` is the key "1.0"), as SQLite reads it.
 */
export function arrowPath(operand: string | number, real: boolean, asText: (n: number) => string): string {
  if (typeof operand === "number") {
    if (!real && Number.isSafeInteger(operand)) return operand < 0 ? `$[#${operand}]` : `$[${operand}]`;
    return `$."${asText(operand)}"`;
  }
  if (operand.charCodeAt(0) === 36) return operand;
  if (ALPHANUMERIC.test(operand)) return `$.${operand}`;
  if (operand.length >= 3 && operand.startsWith("[") && operand.endsWith("]")) return `$${operand}`;
  return `$."${operand}"`;
}
