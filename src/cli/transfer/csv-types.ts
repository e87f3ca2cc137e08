/**
 * The column types `import` gives a table it creates from a CSV file, found
 * in one pass over the file's bytes: no text decoded, no record built.
 * Inference must see every record before the first is imported, so this
 * pass reads the whole file once more; done as a parse it cost as much as
 * the import's own parse.
 *
 * Fields are found as the reader (`csv-reader.ts`) finds them
 * in the files `csv.ts` describes: `,` between fields, `"` around a field
 * holding a comma, a quote or a line break, `""` for a quote inside one,
 * and the line ending the file's first line ends with (`\n`, `\r\n` or
 * `\r`) between records. The first record is the header; a blank line is
 * no record; fields past the header's width are not looked at.
 *
 * Each field's content goes through a small automaton over its bytes that
 * tells the shapes `classify` (`values.ts`) knows: `true`, `false`, a
 * canonical integer, a canonical decimal, anything else (text). Where the
 * answer depends on the value — an integer too long to be surely safe, an
 * exponent that may overflow — the field is decoded and `classify` decides,
 * so the two always agree. A malformed field (text after a closing quote, a
 * quote never closed) counts as text, which takes any value.
 */

import { open } from "node:fs/promises";
import type { ColumnType } from "../../commands/types.js";
import { classify, join } from "./values.js";

const READ_SIZE = 1 << 20;

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

// Automaton states: the shape of the field so far.
const EMPTY = 0;
const MINUS = 1;
const ZERO = 2;
const INT = 3;
const DOT = 4;
const FRAC = 5;
const E = 6;
const E_SIGN = 7;
const EXP = 8;
const TEXT = 9;
/** t, tr, tru, true, f, fa, fal, fals, false. */
const WORD = 10;
const TRUE = WORD + 3;
const FALSE = WORD + 8;
const STATES = FALSE + 1;

/** Bytes by the transitions they take; every byte not named here is class 0 and leads to TEXT. */
const CLASS = new Uint8Array(256);
const [C_ZERO, C_DIGIT, C_MINUS, C_PLUS, C_DOT, C_E] = [1, 2, 3, 4, 5, 6];
const LETTERS = "trufals";
CLASS[0x30] = C_ZERO;
for (let c = 0x31; c <= 0x39; c++) CLASS[c] = C_DIGIT;
CLASS[0x2d] = C_MINUS;
CLASS[0x2b] = C_PLUS;
CLASS[0x2e] = C_DOT;
CLASS[0x45] = C_E;
CLASS[0x65] = C_E;
for (let i = 0; i < LETTERS.length; i++) CLASS[LETTERS.charCodeAt(i)] = C_E + 1 + i;
const CLASSES = C_E + 1 + LETTERS.length;

/** NEXT[state * CLASSES + class]: the next state. */
const NEXT = new Uint8Array(STATES * CLASSES).fill(TEXT);
function on(state: number, classes: readonly number[], next: number): void {
  for (const c of classes) NEXT[state * CLASSES + c] = next;
}
const letter = (ch: string): number => CLASS[ch.charCodeAt(0)]!;
on(EMPTY, [C_MINUS], MINUS);
on(EMPTY, [C_ZERO], ZERO);
on(EMPTY, [C_DIGIT], INT);
on(MINUS, [C_ZERO], ZERO);
on(MINUS, [C_DIGIT], INT);
on(ZERO, [C_DOT], DOT);
on(ZERO, [C_E], E);
on(INT, [C_ZERO, C_DIGIT], INT);
on(INT, [C_DOT], DOT);
on(INT, [C_E], E);
on(DOT, [C_ZERO, C_DIGIT], FRAC);
on(FRAC, [C_ZERO, C_DIGIT], FRAC);
on(FRAC, [C_E], E);
on(E, [C_PLUS, C_MINUS], E_SIGN);
on(E, [C_ZERO, C_DIGIT], EXP);
on(E_SIGN, [C_ZERO, C_DIGIT], EXP);
on(EXP, [C_ZERO, C_DIGIT], EXP);
// "true" runs WORD..WORD+3, "false" WORD+4..WORD+8 (the `e` of both is class C_E).
on(EMPTY, [letter("t")], WORD);
on(WORD, [letter("r")], WORD + 1);
on(WORD + 1, [letter("u")], WORD + 2);
on(WORD + 2, [C_E], TRUE);
on(EMPTY, [letter("f")], WORD + 4);
on(WORD + 4, [letter("a")], WORD + 5);
on(WORD + 5, [letter("l")], WORD + 6);
on(WORD + 6, [letter("s")], WORD + 7);
on(WORD + 7, [C_E], FALSE);

/** Fields up to this many bytes in state ZERO/INT are safe integers (15 digits < 2^53); FRAC ones below the other bound are finite. */
const SURELY_SAFE = 15;
const SURELY_FINITE = 300;

/** A field's type from its final state; "decode" when `classify` must see its text; undefined when empty. */
function typeOf(state: number, length: number): ColumnType | "decode" | undefined {
  switch (state) {
    case EMPTY:
      return undefined;
    case ZERO:
    case INT:
      return length <= SURELY_SAFE ? "integer" : "decode";
    case FRAC:
      return length <= SURELY_FINITE ? "real" : "decode";
    case EXP:
      return "decode";
    case TRUE:
    case FALSE:
      return "boolean";
    default:
      return "text";
  }
}

/** How records end: decided by the first line break outside quotes. */
const enum Newline {
  Unknown,
  Lf,
  CrLf,
  Cr,
}

/** Bytes that end an unquoted field, or may: `,`, `\n`, `\r`, `"`. */
const STOP = new Uint8Array(256);
for (const c of [COMMA, LF, CR, QUOTE]) STOP[c] = 1;

// What the byte just read ended.
const NOTHING = 0;
const FIELD = 1;
const RECORD = 2;

/** A finished field's type: undefined for an empty one (it leaves the column's type as it is). */
function fieldType(state: number, length: number, content: () => string): ColumnType | undefined {
  const type = typeOf(state, length);
  return type === "decode" ? classify(content()) : type;
}

/**
 * The types of the `width` columns of the CSV file `file`, from every record after the header (text where
 * a column has no values); `readSize` is for tests of fields cut by a read.
 *
 * One loop over the bytes with every piece of state in a local (no closure shares them, so they stay in
 * registers): an unquoted field is run through from its first byte by a tight inner loop, and whatever ends
 * a field or a record is handled once, after the byte that ended it.
 */
export async function inferCsvTypes(file: string, width: number, readSize = READ_SIZE): Promise<ColumnType[]> {
  const seen = new Array<ColumnType | undefined>(width).fill(undefined);
  let newline = Newline.Unknown;
  let record = 0;
  let column = 0;
  // The field under way: its automaton state, content length and quoting.
  let state = EMPTY;
  let length = 0;
  let quoted = false;
  let closed = false;
  let pendingQuote = false;
  let pendingCr = false;
  // Its content in this read ([start, contentEnd)) and in earlier ones (`carried`): only a field that may
  // need decoding is ever read back, and its content is digits, signs, dots and e's, never a quote or a break.
  let buffer = Buffer.alloc(0);
  let start = 0;
  let contentEnd = 0;
  let carried = "";
  const content = (): string => carried + buffer.toString("latin1", start, contentEnd);

  const handle = await open(file, "r");
  try {
    let first = true;
    for (;;) {
      const read = await handle.read({ buffer: Buffer.allocUnsafe(readSize) });
      const end = read.bytesRead;
      if (end === 0) break;
      buffer = read.buffer;
      let i = 0;
      if (first && end >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) i = 3;
      first = false;
      start = contentEnd = i;
      for (; i < end; i++) {
        // An unquoted field from its first byte: one tight loop to the byte that ends it (or may: a
        // quote inside it is text, which the general step below makes of it).
        if (length === 0 && !quoted && !pendingCr && STOP[buffer[i]!] === 0) {
          let j = i;
          if (record > 0 && column < width && seen[column] !== "text") {
            let s = EMPTY;
            for (let c = buffer[j]!; STOP[c] === 0; c = buffer[j]!) {
              s = NEXT[s * CLASSES + CLASS[c]!]!;
              if (++j === end) break;
            }
            state = s;
          } else {
            // Its type is settled or not asked for: only where it ends matters.
            while (++j < end && STOP[buffer[j]!] === 0);
            state = TEXT;
          }
          length = j - i;
          contentEnd = i = j;
          if (i === end) break;
        }
        const c = buffer[i]!;
        let ended = NOTHING;
        // Where the next field's content starts when this byte ends one.
        let next = i + 1;
        if (pendingCr) {
          pendingCr = false;
          if (c === LF) {
            newline = Newline.CrLf;
            ended = RECORD;
          } else {
            if (newline === Newline.Unknown) newline = Newline.Cr;
            if (newline === Newline.Cr) {
              // The CR ended the record; this byte starts the next one, so it is read again.
              ended = RECORD;
              next = i--;
            } else {
              state = TEXT; // a lone CR in a CRLF file is content
              length++;
            }
          }
        }
        if (ended === NOTHING) {
          if (quoted && !closed && pendingQuote) {
            pendingQuote = false;
            if (c === QUOTE) {
              state = TEXT; // "" inside quotes: the content holds a quote
              length++;
              continue;
            }
            closed = true; // and c is what follows the field
          } else if (quoted && !closed) {
            if (c === QUOTE) pendingQuote = true;
            else {
              state = NEXT[state * CLASSES + CLASS[c]!]!;
              length++;
              contentEnd = i + 1;
            }
            continue;
          }
          if (c === COMMA) ended = FIELD;
          else if (c === LF && newline !== Newline.CrLf && newline !== Newline.Cr) {
            newline = Newline.Lf;
            ended = RECORD;
          } else if (c === CR && newline !== Newline.Lf) {
            if (newline === Newline.Cr) ended = RECORD;
            else pendingCr = true;
          } else if (closed) state = TEXT; // text after the closing quote: malformed, kept as text
          else if (c === QUOTE && length === 0 && !quoted) {
            quoted = true;
            start = contentEnd = i + 1;
          } else {
            state = NEXT[state * CLASSES + CLASS[c]!]!;
            length++;
            contentEnd = i + 1;
          }
          if (ended === NOTHING) continue;
        }
        // A blank line is no record.
        if (ended === RECORD && column === 0 && length === 0 && !quoted) {
          start = contentEnd = next;
          continue;
        }
        if (record > 0 && column < width && seen[column] !== "text") {
          const type = fieldType(state, length, content);
          if (type !== undefined) seen[column] = join(seen[column], type);
        }
        column++;
        state = EMPTY;
        length = 0;
        quoted = closed = false;
        carried = "";
        start = contentEnd = next;
        if (ended === RECORD) {
          record++;
          column = 0;
        }
      }
      // The field goes on in the next read.
      if (state !== TEXT && contentEnd > start) carried += buffer.toString("latin1", start, contentEnd);
      start = contentEnd = 0;
    }
    if (pendingCr && newline === Newline.CrLf) state = TEXT;
    if (quoted && !closed && !pendingQuote) state = TEXT; // a quote never closed
    // The last record, unless the file ended with its line break (or had none).
    if (!(column === 0 && length === 0 && !quoted) && record > 0 && column < width && seen[column] !== "text") {
      const type = fieldType(state, length, content);
      if (type !== undefined) seen[column] = join(seen[column], type);
    }
  } finally {
    await handle.close();
  }
  return seen.map((type) => type ?? "text");
}
