/**
 * Reads a CSV file's records straight from its bytes into typed values, for
 * `import`: each field becomes its column's value as it is found, with no
 * array or string per record in between.
 *
 * The dialect is `csv.ts`'s, found the way `csv-types.ts` (the inference
 * pass) finds it, so the two agree on every field: `,` between fields, `"`
 * around a field holding a comma, a quote or a line break, `""` for a quote
 * inside one, a quote inside an unquoted field is text, and records end
 * with the line ending the file's first line ends with (`\n`, `\r\n` or
 * `\r`; a lone `\r` in a `\r\n` file is text). A leading byte-order mark is
 * skipped. The first record is the header. A blank line is no record when
 * the header has several columns, and a record of one NULL when it has one.
 * A quoted field with text after its closing quote, or never closed, is
 * refused (papaparse, the reader before this one, guessed).
 *
 * Values (`values.ts` says what each type makes of a field): an empty field
 * is NULL. The common shapes are read from the bytes — integers of up to 15
 * digits, decimals of up to 15 digits (a quotient of two exact doubles,
 * which is the correctly rounded value, as `Number` gives), `true`/`false`
 * in any case — and everything else is decoded and given to the same
 * converter, so the result is the converter's for every field.
 *
 * The file is read 1 MB at a time; a record cut by a read is read again
 * whole from the next buffer (its values taken back), and a record longer
 * than the buffer grows it. Memory stays bounded by the batch the sink
 * holds.
 */

import { open } from "node:fs/promises";
import type { ColumnType, Value } from "../../commands/types.js";
import { StoreError } from "../../errors.js";
import { fieldConverter, type FieldConverter } from "./values.js";

const READ_SIZE = 1 << 20;

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/** How records end: decided by the first line break outside quotes. */
const enum Newline {
  Unknown,
  Lf,
  CrLf,
  Cr,
}

/** Where the records go. */
export interface CsvSink {
  /** The header's names; returns the type of each column, in the header's order, or undefined to read no further. */
  header(names: readonly string[]): readonly ColumnType[] | undefined;
  /** The flat list a record's values are appended to (asked again after each record: it may be a new one). */
  values(): Value[];
  /** A record's values were appended (it was `bytes` long in the file); true when the batch is full: `flush` before reading on. */
  endRecord(bytes: number): boolean;
  flush(): Promise<void>;
}

/** 10^k for the decimals read from their bytes (all exact doubles). */
const POWERS = Array.from({ length: 16 }, (_, k) => 10 ** k);
const MAX_DIGITS = 15;

const enum Kind {
  Text,
  Integer,
  Real,
  Boolean,
}

function kindOf(type: ColumnType): Kind {
  return type === "integer" ? Kind.Integer : type === "real" ? Kind.Real : type === "boolean" ? Kind.Boolean : Kind.Text;
}

function malformed(record: number, what: string): StoreError {
  return new StoreError("invalid_request", `Record ${record} of the CSV file has a quoted field ${what} (a quote inside a quoted field is written twice: "").`);
}

class Scanner {
  newline = Newline.Unknown;
  /** Data records read so far (the header is not one). */
  records = 0;
  header: string[] | undefined;
  /** The sink wanted the header only. */
  stopped = false;
  private kinds: Kind[] = [];
  private converters: FieldConverter[] = [];
  private width = 0;
  private values: Value[] = [];
  private fields: string[] = [];

  constructor(private readonly sink: CsvSink) {}

  /**
   * Reads the whole records in bytes [from, end) of `buf` (`final`: the
   * file ends at `end`). Returns where it stopped: at a record cut by the
   * end of the buffer, or just after a record that filled the batch
   * (`full` is then set), or `end`.
   */
  scan(buf: Buffer, from: number, end: number, final: boolean): { next: number; full: boolean } {
    let i = from;
    records: while (i < end) {
      const start = i;
      const mark = this.values.length;
      const fieldsMark = this.fields.length;
      let column = 0;
      // One record: fields until a record end outside quotes.
      for (;;) {
        let s = i;
        let e: number;
        let quoted = false;
        let escapes = false;
        let wide = false;
        if (i < end && buf[i] === QUOTE) {
          quoted = true;
          s = ++i;
          for (;;) {
            if (i >= end) {
              if (final) throw malformed(this.records + 1, "that is never closed");
              return this.cut(start, mark, fieldsMark);
            }
            const c = buf[i]!;
            if (c === QUOTE) {
              if (i + 1 >= end && !final) return this.cut(start, mark, fieldsMark);
              if (i + 1 < end && buf[i + 1] === QUOTE) {
                escapes = true;
                i += 2;
                continue;
              }
              e = i++;
              break;
            }
            if (c >= 0x80) wide = true;
            i++;
          }
        } else {
          for (;;) {
            if (i >= end) {
              if (!final) return this.cut(start, mark, fieldsMark);
              break;
            }
            const c = buf[i]!;
            if (c === COMMA) break;
            if (c === LF && this.newline !== Newline.CrLf && this.newline !== Newline.Cr) break;
            if (c === CR && this.newline !== Newline.Lf) {
              if (this.newline === Newline.Cr) break;
              if (i + 1 >= end && !final) return this.cut(start, mark, fieldsMark);
              // Unknown: a CR ends the record (CRLF if an LF follows); CRLF: only before an LF.
              if (this.newline === Newline.Unknown || (i + 1 < end && buf[i + 1] === LF)) break;
            }
            if (c >= 0x80) wide = true;
            i++;
          }
          e = i;
        }
        // What follows the field: a comma, a record end, or the end of the file.
        let last: boolean;
        if (i >= end) {
          if (!final) return this.cut(start, mark, fieldsMark);
          last = true;
        } else {
          const c = buf[i]!;
          if (c === COMMA) {
            last = false;
            i++;
          } else if (c === LF && this.newline !== Newline.CrLf && this.newline !== Newline.Cr) {
            this.newline = Newline.Lf;
            last = true;
            i++;
          } else if (c === CR && this.newline !== Newline.Lf) {
            if (i + 1 >= end && !final) return this.cut(start, mark, fieldsMark);
            if (i + 1 < end && buf[i + 1] === LF && this.newline !== Newline.Cr) {
              this.newline = Newline.CrLf;
              i += 2;
            } else if (this.newline !== Newline.CrLf) {
              this.newline = Newline.Cr;
              i++;
            } else throw malformed(this.records + 1, "with text after its closing quote");
            last = true;
          } else {
            // Only a quoted field can stop at anything else (an unquoted one takes it as text).
            throw malformed(this.records + 1, "with text after its closing quote");
          }
        }
        if (last && column === 0 && e === s && !quoted) {
          // A blank line: no record, except a NULL when the header has one column.
          if (this.header === undefined || this.width !== 1) continue records;
        }
        this.field(buf, s, e, escapes, wide, column++);
        if (last) break;
      }
      if (this.header === undefined) {
        this.takeHeader();
        if (this.stopped) return { next: i, full: false };
        continue;
      }
      if (column !== this.width) {
        throw new StoreError("validation_failed", `Record ${this.records + 1} has ${column} fields; the header has ${this.width}.`, {
          errors: [{ row: this.records, code: "type", message: `${column} fields, not ${this.width}` }],
        });
      }
      this.records++;
      if (this.sink.endRecord(i - start)) return { next: i, full: true };
      this.values = this.sink.values();
    }
    return { next: i, full: false };
  }

  /** After `flush`: the sink's list for the next records. */
  refresh(): void {
    this.values = this.sink.values();
  }

  /** The record at `start` goes on in the next buffer: its values are taken back. */
  private cut(start: number, mark: number, fieldsMark: number): { next: number; full: boolean } {
    this.values.length = mark;
    this.fields.length = fieldsMark;
    return { next: start, full: false };
  }

  private takeHeader(): void {
    const names = this.fields.splice(0);
    if (names[0]?.startsWith("\ufeff")) names[0] = names[0].slice(1);
    this.header = names;
    const types = this.sink.header(names);
    if (types === undefined) {
      this.stopped = true;
      return;
    }
    this.width = names.length;
    this.kinds = types.map(kindOf);
    this.converters = types.map(fieldConverter);
    this.values = this.sink.values();
  }

  /** Field [s, e) of column `column`: its value appended (or, in the header, its text). */
  private field(buf: Buffer, s: number, e: number, escapes: boolean, wide: boolean, column: number): void {
    if (this.header === undefined) {
      this.fields.push(this.text(buf, s, e, escapes, wide));
      return;
    }
    if (column >= this.width) {
      // Counted, for the error the record gets; never stored.
      return;
    }
    if (e === s) {
      this.values.push(null);
      return;
    }
    const kind = this.kinds[column]!;
    if (!escapes) {
      if (kind === Kind.Integer || kind === Kind.Real) {
        const n = number(buf, s, e, kind === Kind.Real);
        if (n !== undefined) {
          this.values.push(n);
          return;
        }
      } else if (kind === Kind.Boolean) {
        const b = boolean(buf, s, e);
        if (b !== undefined) {
          this.values.push(b);
          return;
        }
      }
    }
    const text = this.text(buf, s, e, escapes, wide);
    this.values.push(kind === Kind.Text ? text : this.converters[column]!(text));
  }

  private text(buf: Buffer, s: number, e: number, escapes: boolean, wide: boolean): string {
    const text = buf.toString(wide ? "utf8" : "latin1", s, e);
    return escapes ? text.replaceAll('""', '"') : text;
  }
}

/** An integer of up to 15 digits, or (`real`) a decimal of up to 15 digits, from its bytes; undefined for any other shape. */
function number(buf: Buffer, s: number, e: number, real: boolean): number | undefined {
  let i = s;
  let negative = false;
  const first = buf[i]!;
  if (first === 0x2d || first === 0x2b) {
    negative = first === 0x2d;
    i++;
  }
  let mantissa = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < e; i++) {
    const c = buf[i]!;
    if (c >= 0x30 && c <= 0x39) {
      mantissa = mantissa * 10 + (c - 0x30);
      digits++;
    } else if (c === 0x2e && real && fraction === -1) {
      fraction = 0;
      continue;
    } else return undefined;
    if (fraction !== -1) fraction++;
  }
  if (digits === 0 || digits > MAX_DIGITS) return undefined;
  const value = fraction > 0 ? mantissa / POWERS[fraction]! : mantissa;
  return negative ? -value : value;
}

/** `true` or `false` in any case, from its bytes; undefined otherwise. */
function boolean(buf: Buffer, s: number, e: number): boolean | undefined {
  const length = e - s;
  if (length === 4 && (buf[s]! | 0x20) === 0x74 && (buf[s + 1]! | 0x20) === 0x72 && (buf[s + 2]! | 0x20) === 0x75 && (buf[s + 3]! | 0x20) === 0x65) return true;
  if (length === 5 && (buf[s]! | 0x20) === 0x66 && (buf[s + 1]! | 0x20) === 0x61 && (buf[s + 2]! | 0x20) === 0x6c && (buf[s + 3]! | 0x20) === 0x73 && (buf[s + 4]! | 0x20) === 0x65) return false;
  return undefined;
}

/**
 * Reads `file` into `sink`, flushing whenever it says a batch is full;
 * `onRead` hears how many bytes were read so far (`readSize` at a time:
 * tests cut every field somewhere). Returns the header (undefined for a
 * file without one).
 */
export async function readCsv(file: string, sink: CsvSink, onRead: (bytes: number) => void = () => {}, readSize = READ_SIZE): Promise<readonly string[] | undefined> {
  const scanner = new Scanner(sink);
  const handle = await open(file, "r");
  try {
    let buf = Buffer.allocUnsafe(readSize);
    let filled = 0;
    let pos = 0;
    let read = 0;
    let first = true;
    for (;;) {
      if (filled === buf.length) {
        // A record longer than the buffer: a larger one.
        const larger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(larger, 0, 0, filled);
        buf = larger;
      }
      const got = (await handle.read(buf, filled, buf.length - filled, null)).bytesRead;
      read += got;
      onRead(read);
      filled += got;
      const final = got === 0;
      if (first && filled >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) pos = 3;
      if (first && (filled >= 3 || final)) first = false;
      for (;;) {
        const { next, full } = scanner.scan(buf, pos, filled, final);
        pos = next;
        if (!full) break;
        await sink.flush();
        scanner.refresh();
      }
      if (final || scanner.stopped) break;
      // The cut record moves to the front; the next read goes after it.
      buf.copy(buf, 0, pos, filled);
      filled -= pos;
      pos = 0;
    }
  } finally {
    await handle.close();
  }
  return scanner.header;
}

/** The header of `file` (undefined when it has none), reading no further. */
export async function readCsvHeader(file: string): Promise<readonly string[] | undefined> {
  return readCsv(file, { header: () => undefined, values: () => [], endRecord: () => false, flush: async () => {} }, undefined, 64 * 1024);
}
